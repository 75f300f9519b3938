//! A standalone ZooKeeper server of the suite's own (Debian's `zookeeper` package, 3.8): its
//! configuration and data in a temporary directory, on a free loopback port, the admin server
//! off, and a small tick so that session timeouts (2 to 20 ticks) are short. Started by
//! `servers::Process` and stopped on drop.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::wire::Session;
use crate::servers::Process;

/// Debian's jar; its manifest names the libraries it needs.
const JAR: &str = "/usr/share/java/zookeeper.jar";
const MAIN: &str = "org.apache.zookeeper.server.ZooKeeperServerMain";
/// The server's tick (ms): session timeouts are bounded by 2 and 20 ticks, and a session
/// expires at the first tick after its timeout has run out.
pub const TICK_MS: i64 = 50;

/// A ZooKeeper server of the test's own (`servers::Process`: fresh ports, a readiness check that
/// retries, its log's last lines if it does not come up).
pub struct Server {
    _process: Process,
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
        let command = |ports: &[u16], dir: &Path| {
            let config = format!(
                "tickTime={TICK_MS}\ndataDir={}\nclientPort={}\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n\
                 maxClientCnxns=0\n4lw.commands.whitelist=\n",
                dir.join("data").display(),
                ports[0]
            );
            std::fs::create_dir_all(dir.join("data")).unwrap();
            std::fs::write(dir.join("zoo.cfg"), config).unwrap();
            let mut java = Command::new("java");
            // A small heap and the quick compiler only: it starts in half the time.
            java.args(["-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", JAR, MAIN]).arg(dir.join("zoo.cfg"));
            java
        };
        let ready = |ports: &[u16], _pid: u32| {
            let mut s = Session::connect(ports[0], 1_000).map_err(|e| format!("connect: {e}"))?;
            s.close().map(|_| ()).map_err(|e| format!("close a session: {e}"))
        };
        let process = Process::start("ZooKeeper", 1, Duration::from_secs(60), command, ready);
        let port = process.port();
        Server { _process: process, port }
    }
}
