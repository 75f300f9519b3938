//! The engine's consensus model against a real etcd (3.4, from Debian), driven with `etcdctl`
//! and its JSON output. Each observation is made on both and compared:
//! - revisions increase by one with every write, from the same starting revision;
//! - lock keys' create revisions order the waiters, and the lowest one holds the lock;
//! - a lease's key disappears when the lease expires or is revoked (one more revision);
//! - a TTL below the minimum is raised to it (SEMANTICS §4.1).
//!
//! The test starts its own single-member etcd on free loopback ports with a temporary data
//! directory, and stops it. Without `etcd` and `etcdctl` it says so and passes, unless
//! `LEASELAB_REQUIRE_SERVERS=1` (set by `scripts/test`, which installs them).

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use sim::time::{Micros, Millis};
use sim::trace::{EventKind, QuorumEvent};

mod servers;
use servers::Process;

/// An etcd of the test's own (`servers::Process`: fresh ports, a readiness check that retries,
/// its log's last lines if it does not come up), and its client address.
struct Etcd {
    _process: Process,
    endpoint: String,
}

fn available() -> bool {
    let ok = Command::new("etcd").arg("--version").stdout(Stdio::null()).status().is_ok()
        && Command::new("etcdctl").arg("version").env("ETCDCTL_API", "3").stdout(Stdio::null()).status().is_ok();
    if !ok {
        assert!(std::env::var_os("LEASELAB_REQUIRE_SERVERS").is_none(), "etcd/etcdctl are not installed (scripts/test installs them)");
        eprintln!("skipped: etcd is not installed");
    }
    ok
}

fn client_url(ports: &[u16]) -> String {
    format!("http://127.0.0.1:{}", ports[0])
}

impl Etcd {
    fn start() -> Etcd {
        let command = |ports: &[u16], dir: &std::path::Path| {
            let (c, p) = (client_url(ports), format!("http://127.0.0.1:{}", ports[1]));
            let mut etcd = Command::new("etcd");
            etcd.args(["--name", "t", "--data-dir", dir.join("data").to_str().unwrap(), "--listen-client-urls", &c])
                .args(["--advertise-client-urls", &c, "--listen-peer-urls", &p, "--initial-advertise-peer-urls", &p])
                .args(["--initial-cluster", &format!("t={p}")]);
            etcd
        };
        let ready = |ports: &[u16], _pid: u32| ctl(&client_url(ports), &["endpoint", "health"]).map(|_| ());
        let process = Process::start("etcd", 2, Duration::from_secs(30), command, ready);
        let endpoint = client_url(&process.ports);
        Etcd { _process: process, endpoint }
    }

    fn ctl(&self, args: &[&str]) -> Result<Value, String> {
        ctl(&self.endpoint, args)
    }

    fn revision(v: &Value) -> u64 {
        v["header"]["revision"].as_u64().or_else(|| v["revision"].as_u64()).expect("a revision")
    }

    fn grant(&self, ttl_s: u64) -> (String, u64) {
        let v = self.ctl(&["lease", "grant", &ttl_s.to_string()]).unwrap();
        (format!("{:x}", v["ID"].as_u64().unwrap()), v["TTL"].as_u64().unwrap())
    }
}

/// Runs etcdctl against `endpoint`, with JSON output.
fn ctl(endpoint: &str, args: &[&str]) -> Result<Value, String> {
    let out = Command::new("etcdctl")
        .env("ETCDCTL_API", "3")
        .args(["--endpoints", endpoint, "--command-timeout=5s", "-w", "json"])
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// A consensus scenario from a template: three members, the given clients and faults.
fn engine(ttl_ms: u64, clients: Value, faults: Value) -> sim::Run {
    let v = serde_json::json!({
        "version": 1, "id": "etcd-conformance", "title": "etcd conformance", "seed": 1, "duration_ms": 30000,
        "lock": { "kind": "consensus", "ttl_ms": ttl_ms, "nodes": 3 }, "token": { "source": "counter" },
        "resource": { "kind": "store", "fencing": "none" }, "network": { "latency_ms": [1, 2] },
        "clients": clients, "faults": faults,
    });
    sim::run(&sim::Scenario::from_value(serde_json::from_value(v).unwrap()).unwrap()).unwrap()
}

fn committed(run: &sim::Run) -> Vec<(String, u64)> {
    run.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Quorum(QuorumEvent::Committed { what, revision }) => {
                Some((sim::msg::proposal_words(what, &|a| run.name(a).to_string()), *revision))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn revisions_and_lock_order_match_etcd() {
    if !available() {
        return;
    }
    let etcd = Etcd::start();
    // The same sequence on both: A, B, C take keys in turn; then each unlocks in lock order.
    let mut real = Vec::new();
    let mut leases = Vec::new();
    for who in ["A", "B", "C"] {
        let (id, _) = etcd.grant(30);
        let v = etcd.ctl(&["put", &format!("lock/{who}"), "", &format!("--lease={id}")]).unwrap();
        real.push((format!("put lock/{who}"), Etcd::revision(&v)));
        leases.push(id);
    }
    // Waiters in create-revision order: the owner is the lowest.
    let keys = etcd.ctl(&["get", "lock/", "--prefix"]).unwrap();
    let mut order: Vec<(u64, String)> = keys["kvs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|kv| {
            let key = String::from_utf8(decode_b64(kv["key"].as_str().unwrap())).unwrap();
            (kv["create_revision"].as_u64().unwrap(), key)
        })
        .collect();
    order.sort();
    let owners_real: Vec<String> = order.iter().map(|(_, k)| k.trim_start_matches("lock/").to_string()).collect();
    for who in ["A", "B", "C"] {
        let v = etcd.ctl(&["del", &format!("lock/{who}")]).unwrap();
        real.push((format!("delete lock/{who}"), Etcd::revision(&v)));
    }

    let step = |start: u64| serde_json::json!({ "name": "", "start_ms": start, "steps": [{ "acquire": {} }, { "work": { "ms": 500 } }, { "release": {} }] });
    let mut clients = Vec::new();
    for (i, who) in ["A", "B", "C"].iter().enumerate() {
        let mut c = step(100 * i as u64);
        c["name"] = (*who).into();
        clients.push(c);
    }
    let run = engine(30_000, Value::Array(clients), serde_json::json!([]));
    let model: Vec<(String, u64)> = committed(&run).into_iter().map(|(w, r)| (w.replace(" with a new lease", ""), r)).collect();
    assert_eq!(model, real, "revisions per write: the engine (left) and etcd (right) differ");
    let owners_model: Vec<String> = run
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Quorum(QuorumEvent::LockGranted { client, .. }) => Some(run.actors[client].name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(owners_model, owners_real, "the lock goes in create-revision order");
}

fn decode_b64(s: &str) -> Vec<u8> {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut buf, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|&c| c != b'=') {
        buf = (buf << 6) | T.iter().position(|&t| t == c).unwrap() as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
        }
    }
    out
}

#[test]
fn lease_expiry_and_revocation_delete_keys_as_in_etcd() {
    if !available() {
        return;
    }
    let etcd = Etcd::start();
    // Expiry: a 2 s lease, not kept alive.
    let (id, _) = etcd.grant(2);
    let put = Etcd::revision(&etcd.ctl(&["put", "lock/x", "", &format!("--lease={id}")]).unwrap());
    std::thread::sleep(Duration::from_millis(3_500));
    let after = etcd.ctl(&["get", "lock/x"]).unwrap();
    let real_gone = after["kvs"].as_array().is_none_or(|a| a.is_empty());
    let real_bump = Etcd::revision(&after) - put;
    // Revocation: the key goes at once.
    let (id2, _) = etcd.grant(60);
    let put2 = Etcd::revision(&etcd.ctl(&["put", "lock/y", "", &format!("--lease={id2}")]).unwrap());
    let rev = etcd.ctl(&["lease", "revoke", &id2]).map(|_| ()).and_then(|_| etcd.ctl(&["get", "lock/y"])).unwrap();
    let real_revoked = rev["kvs"].as_array().is_none_or(|a| a.is_empty());
    let real_revoke_bump = Etcd::revision(&rev) - put2;

    // The engine: a client whose keepalives stop (a pause) loses its key when the lease runs out;
    // a client that unlocks deletes it at once. Each costs one revision.
    let run = engine(
        2_000,
        serde_json::json!([{ "name": "A", "steps": [{ "acquire": {} }, { "work": { "ms": 8000 } }] },
                           { "name": "B", "start_ms": 100, "steps": [{ "acquire": {} }, { "release": {} }] }]),
        serde_json::json!([{ "pause": { "actor": "A", "at_ms": 50, "duration_ms": 10000 } }]),
    );
    let c = committed(&run);
    let rev_of =
        |what: &str| c.iter().find(|(w, _)| w.starts_with(what)).map(|(_, r)| *r).unwrap_or_else(|| panic!("no `{what}` in {c:?}"));
    assert!(real_gone, "etcd deletes an expired lease's key");
    let key_a = run.intervals.keys.iter().find(|k| k.owner == Some(0)).unwrap();
    assert_eq!(key_a.end, sim::trace::KeyEnd::Expired, "the engine deletes A's key when its lease expires");
    // Between A's put and its revocation only B's writes happened; each write is one revision.
    let between = c.iter().filter(|(_, r)| *r > rev_of("put lock/A") && *r < rev_of("revoke A's lease")).count() as u64;
    assert_eq!(rev_of("revoke A's lease") - rev_of("put lock/A") - between, real_bump, "an expiry costs one revision, as in etcd");
    assert!(real_revoked, "etcd deletes a revoked lease's key");
    let between_b = c.iter().filter(|(_, r)| *r > rev_of("put lock/B") && *r < rev_of("delete lock/B")).count() as u64;
    assert_eq!(rev_of("delete lock/B") - rev_of("put lock/B") - between_b, real_revoke_bump, "a release costs one revision, as in etcd");
}

#[test]
fn a_ttl_below_the_minimum_is_raised_as_in_etcd() {
    if !available() {
        return;
    }
    let etcd = Etcd::start();
    let (_, granted) = etcd.grant(1);
    // etcd's defaults: heartbeat 100 ms, election timeout 1000 ms.
    let model = sim::scenario::consensus::min_lease_ttl_ms(Millis::new(1_000)).get();
    assert_eq!(granted * 1000, model.max(1_000), "a 1 s lease: etcd grants {granted} s, the engine {model} ms");
    // And the engine applies it: with a 1 s TTL asked for, A's paused lease lasts the minimum.
    let run = engine(
        1_000,
        serde_json::json!([{ "name": "A", "steps": [{ "acquire": {} }, { "work": { "ms": 8000 } }] }]),
        serde_json::json!([{ "pause": { "actor": "A", "at_ms": 50, "duration_ms": 10000 } }]),
    );
    let key = run.intervals.keys.iter().find(|k| k.owner == Some(0)).unwrap();
    let lived = key.to_us - key.from_us;
    assert!(lived >= Micros::ms(model) && lived < Micros::ms(model + 200), "A's key lived {lived} µs");
}
