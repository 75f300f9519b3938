//! A standalone ZooKeeper server of the suite's own (Debian's `zookeeper` package, 3.8): its
//! configuration and data in a temporary directory, on a free loopback port, the admin server
//! off, and a small tick so that session timeouts (2 to 20 ticks) are short. Stopped on drop.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::wire::Session;

/// Debian's jar; its manifest names the libraries it needs.
const JAR: &str = "/usr/share/java/zookeeper.jar";
const MAIN: &str = "org.apache.zookeeper.server.ZooKeeperServerMain";
/// The server's tick (ms): session timeouts are bounded by 2 and 20 ticks, and a session
/// expires at the first tick after its timeout has run out.
pub const TICK_MS: i64 = 50;

pub struct Server {
    child: Child,
    dir: PathBuf,
    pub port: u16,
}

/// Whether the server can be started; without it the tests say so and pass, unless
/// `LEASELAB_REQUIRE_SERVERS` is set (by `scripts/test`, which installs it).
pub fn available() -> bool {
    let found = std::path::Path::new(JAR).exists() && Command::new("java").arg("-version").stderr(Stdio::null()).status().is_ok();
    if !found {
        assert!(
            std::env::var_os("LEASELAB_REQUIRE_SERVERS").is_none(),
            "ZooKeeper ({JAR}) or java is not installed (scripts/test installs them)"
        );
        eprintln!("skipped: ZooKeeper ({JAR}) or java is not installed");
    }
    found
}

impl Server {
    pub fn start() -> Server {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = std::env::temp_dir().join(format!("leaselab-zookeeper-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data")).unwrap();
        let config = format!(
            "tickTime={TICK_MS}\ndataDir={}\nclientPort={port}\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n\
             maxClientCnxns=0\n4lw.commands.whitelist=\n",
            dir.join("data").display()
        );
        std::fs::write(dir.join("zoo.cfg"), config).unwrap();
        let child = Command::new("java")
            // A small heap and the quick compiler only: it starts in half the time.
            .args(["-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", JAR, MAIN])
            .arg(dir.join("zoo.cfg"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the ZooKeeper server (java)");
        let server = Server { child, dir, port };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(mut s) = Session::connect(port, 1_000) {
                if s.close().is_ok() {
                    return server;
                }
            }
            assert!(Instant::now() < deadline, "ZooKeeper did not start on port {port}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
