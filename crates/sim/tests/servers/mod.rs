//! How the conformance suites start a real server (`redis_conformance.rs`, `etcd_conformance.rs`,
//! `zookeeper_conformance.rs`): robustly, whatever else runs beside them (issue 56).
//!
//! - **Ports no sibling can take.** A server's ports are chosen below the kernel's ephemeral
//!   range (`/proc/sys/net/ipv4/ip_local_port_range`), so that no outgoing connection, of these
//!   tests or of anything else, is given one, and each is checked free. Choosing them and
//!   starting the server happen under one lock, held by every test of every test process of the
//!   project (a file lock in the temporary directory, `File::lock`) until the server answers:
//!   two servers started at once cannot pick the same port.
//! - **Readiness that retries.** `ready` is asked until the deadline; an error (a refused
//!   connection, a reset, a short read) means "not yet", never a panic.
//! - **A server's own words when it fails.** Its output goes to `server.log` in its directory; a
//!   server that exits or does not answer in time fails the test with the log's last lines. One
//!   that exits because its port was taken after all (by a program outside the project) is
//!   started again on new ports, at most three times.

#![allow(dead_code)] // each suite uses its part (only Redis restarts a server; etcd reads `ports`)

use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A running server: its process, its directory (removed when it is dropped) and its ports.
pub struct Process {
    name: &'static str,
    child: Option<Child>,
    pub dir: PathBuf,
    pub ports: Vec<u16>,
    deadline: Duration,
    command: Box<dyn Fn(&[u16], &Path) -> Command + Send>,
    ready: Box<dyn FnMut(&[u16], u32) -> Result<(), String> + Send>,
}

/// What a start that did not come up left behind.
enum Failed {
    /// The port was taken between the check and the server's bind (by a program outside the
    /// project's tests): worth another try on new ports.
    PortTaken,
    Other(String),
}

static STARTS: AtomicU64 = AtomicU64::new(0);

impl Process {
    /// Starts `name` with the command `command(ports, dir)` gives, on `ports` fresh ports, and
    /// waits until `ready(ports, pid)` says it answers, for at most `deadline`. Panics with the
    /// server's last log lines if it never does.
    pub fn start(
        name: &'static str,
        ports: usize,
        deadline: Duration,
        command: impl Fn(&[u16], &Path) -> Command + Send + 'static,
        ready: impl FnMut(&[u16], u32) -> Result<(), String> + Send + 'static,
    ) -> Process {
        let n = STARTS.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("leaselab-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{name}: cannot make {}: {e}", dir.display()));
        let mut p = Process { name, child: None, dir, ports: Vec::new(), deadline, command: Box::new(command), ready: Box::new(ready) };
        let _lock = StartLock::take();
        for attempt in 1..=3 {
            p.ports = free_ports(ports);
            match p.spawn() {
                Ok(()) => return p,
                Err(Failed::PortTaken) if attempt < 3 => continue,
                Err(Failed::PortTaken) => p.fail(&format!("its ports were taken three times (last {:?})", p.ports)),
                Err(Failed::Other(why)) => p.fail(&why),
            }
        }
        unreachable!()
    }

    pub fn port(&self) -> u16 {
        self.ports[0]
    }

    /// Kills the server (like a crash or a power cut) and starts it again on the same ports and
    /// directory.
    pub fn kill_and_restart(&mut self) {
        let _lock = StartLock::take();
        self.kill();
        if let Err(e) = self.spawn() {
            let why = match e {
                Failed::PortTaken => format!("its port {:?} was taken while it was down", self.ports),
                Failed::Other(why) => why,
            };
            self.fail(&format!("it did not come back: {why}"));
        }
    }

    fn spawn(&mut self) -> Result<(), Failed> {
        let log = self.dir.join("server.log");
        let out = File::create(&log).map_err(|e| Failed::Other(format!("cannot write {}: {e}", log.display())))?;
        let err = out.try_clone().map_err(|e| Failed::Other(e.to_string()))?;
        let child = (self.command)(&self.ports, &self.dir)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| Failed::Other(format!("could not be started: {e}")))?;
        let pid = child.id();
        self.child = Some(child);
        let until = Instant::now() + self.deadline;
        loop {
            if let Some(status) = self.child.as_mut().and_then(|c| c.try_wait().ok().flatten()) {
                self.child = None;
                let tail = self.log_tail();
                if tail.contains("Address already in use") || tail.contains("address already in use") {
                    return Err(Failed::PortTaken);
                }
                return Err(Failed::Other(format!("it exited ({status}) before it answered")));
            }
            let last = match (self.ready)(&self.ports, pid) {
                Ok(()) => return Ok(()),
                Err(why) => why,
            };
            if Instant::now() >= until {
                self.kill();
                return Err(Failed::Other(format!("it did not answer within {:?} (last: {last})", self.deadline)));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The last lines of the server's log.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(25)..].join("\n")
    }

    fn fail(&mut self, why: &str) -> ! {
        self.kill();
        panic!(
            "{} did not start on port(s) {:?}: {why}\n--- the last lines of its log ({}) ---\n{}",
            self.name,
            self.ports,
            self.dir.join("server.log").display(),
            self.log_tail()
        );
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The lock every server start of the project's tests holds, across threads and processes.
struct StartLock(File);

impl StartLock {
    fn take() -> StartLock {
        let path = std::env::temp_dir().join("leaselab-server-start.lock");
        let file =
            File::options().create(true).truncate(false).write(true).open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        file.lock().unwrap_or_else(|e| panic!("lock {}: {e}", path.display()));
        StartLock(file)
    }
}

impl Drop for StartLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// `n` distinct ports below the ephemeral range that nothing listens on now.
fn free_ports(n: usize) -> Vec<u16> {
    let (low, high) = choosable();
    let mut seed = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
        ^ (u64::from(std::process::id()) << 32)
        ^ STARTS.load(Ordering::Relaxed);
    let mut ports = Vec::new();
    while ports.len() < n {
        // SplitMix64: a fresh guess each time.
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        let port = low + ((z ^ (z >> 31)) % u64::from(high - low)) as u16;
        if !ports.contains(&port) && TcpListener::bind(("127.0.0.1", port)).is_ok() {
            ports.push(port);
        }
    }
    ports
}

/// The ports to choose from: those from 10,000 up to the start of the ephemeral range (where the
/// kernel picks a connection's own port), or 20,000–30,000 if it cannot be read.
fn choosable() -> (u16, u16) {
    let low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<u16>().ok()))
        .unwrap_or(30_000);
    if low > 12_000 {
        (10_000, low)
    } else {
        (20_000, 30_000)
    }
}
