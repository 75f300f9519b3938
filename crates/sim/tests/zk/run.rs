//! One generated sequence, on a real server and on the model side by side: each request is
//! drawn as the sequence goes (so that waits can keep away from expiry times), sent to both,
//! and what each answered compared.

use std::time::{Duration, Instant};

use sim::rng::Rng;
use sim::service::zookeeper::Msg;
use sim::time::{Micros, Millis};

use crate::sequences::Outcome;

use super::model::Model;
use super::server::TICK_MS;
use super::wire::{self, Session};

/// Sessions per sequence.
const CLIENTS: usize = 3;
/// How far (µs) from a session's possible expiry an observation must be to be judged.
const GUARD_US: i64 = 30_000;
/// How long (µs) a request is expected to take, at most, on a busy machine.
const REQUEST_US: i64 = 15_000;
/// A sequence number no znode has.
const NEVER: u64 = 999_999;

/// What agreed, for the figures: the kind of each agreed reply that shows an expiry, a
/// `NoNode` or a close, and the notifications that came with it.
static SEEN: std::sync::Mutex<Vec<(Option<Seen>, usize)>> = std::sync::Mutex::new(Vec::new());

/// How many agreed replies said a session had expired, a znode was missing, a session was
/// closed, and how many watch notifications they carried.
pub fn agreed_figures() -> [usize; 4] {
    let seen = SEEN.lock().unwrap();
    let count = |k: Seen| seen.iter().filter(|s| s.0.as_ref() == Some(&k)).count();
    [count(Seen::Expired), count(Seen::NoNode), count(Seen::Closed), seen.iter().map(|s| s.1).sum()]
}

/// What a reply said.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Connected,
    Created {
        seq: u64,
        czxid: u64,
    },
    Children(Vec<u64>),
    Exists(bool),
    Deleted,
    NoNode,
    Pong,
    Closed,
    /// The session has expired: the real server closed the connection, and a reconnect with the
    /// session's id is refused; the model answers `SessionExpired`.
    Expired,
}

/// An observation: the reply, the zxid it carried (from the sequence's start; none on a
/// connect's or an expired session's), and the znodes whose deletion the session was notified
/// of (its watches) before the reply.
#[derive(Debug, PartialEq)]
struct Obs {
    seen: Seen,
    zxid: Option<u64>,
    events: Vec<u64>,
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Connect { timeout_ms: i32 },
    Create,
    Children,
    Watch { seq: u64 },
    Delete { seq: u64 },
    Ping,
    Close,
}

struct Slot {
    real: Session,
    /// The model's session id.
    session: u64,
    timeout_us: i64,
    znode: Option<u64>,
    /// The real server last heard from the session somewhere in this window (µs).
    heard: (i64, i64),
    /// Known to be closed or expired.
    ended: bool,
}

impl Slot {
    /// When the real server may expire the session, unless it hears from it first.
    fn expiry_window(&self) -> (i64, i64) {
        (self.heard.0 + self.timeout_us, self.heard.1 + self.timeout_us + TICK_MS * 1000)
    }
}

struct Seq {
    port: u16,
    parent: String,
    /// The real zxid the sequence starts from.
    base: i64,
    model: Model,
    start: Instant,
    slots: Vec<Option<Slot>>,
    /// Every sequence number created so far.
    created: Vec<u64>,
    broken: bool,
}

/// Retries `io` a few times when the connection fails (a busy machine can stall the server's
/// JVM past a short session's timeout, and it then closes the connection: "failed to fill whole
/// buffer"); the last error is the test's failure, with `what` was being done.
fn retried<T>(what: &str, mut io: impl FnMut() -> std::io::Result<T>) -> T {
    let mut tries = 0;
    loop {
        match io() {
            Ok(t) => return t,
            Err(e) if tries < 4 => {
                tries += 1;
                eprintln!("ZooKeeper, {what}: {e}; trying again ({tries} of 4)");
                std::thread::sleep(std::time::Duration::from_millis(200 * tries));
            }
            Err(e) => panic!("ZooKeeper, {what}, five times: {e}"),
        }
    }
}

/// Opens a short-lived session for the sequence's set-up and clean-up.
fn admin(port: u16) -> Session {
    retried("open a session", || Session::connect(port, 20 * TICK_MS as i32))
}

impl Seq {
    fn now(&self) -> i64 {
        self.start.elapsed().as_micros() as i64 + 1
    }

    /// The request on the real server.
    fn real(&mut self, i: usize, op: Op) -> Obs {
        if let Op::Connect { timeout_ms } = op {
            let s = Session::connect(self.port, timeout_ms).expect("connect to ZooKeeper");
            assert_eq!(s.timeout_ms, timeout_ms, "a timeout within 2 to 20 ticks is granted as asked");
            self.slots[i] =
                Some(Slot { real: s, session: 0, timeout_us: timeout_ms as i64 * 1000, znode: None, heard: (0, 0), ended: false });
            return Obs { seen: Seen::Connected, zxid: None, events: Vec::new() };
        }
        let (prefix, parent, base, port) = (format!("{}/lock-", self.parent), self.parent.clone(), self.base, self.port);
        let s = &mut self.slots[i].as_mut().unwrap().real;
        let rel = |z: i64| Some((z - base) as u64);
        let answer = match op {
            Op::Create => s.create(&prefix, wire::EPHEMERAL_SEQUENTIAL).map(|(err, p, czxid, z)| {
                assert_eq!(err, 0, "create {prefix}");
                let seq = p.rsplit('-').next().unwrap().parse().unwrap();
                (Seen::Created { seq, czxid: (czxid - base) as u64 }, rel(z))
            }),
            Op::Children => s.children(&parent).map(|(names, z)| {
                let mut seqs: Vec<u64> = names.iter().map(|n| n.trim_start_matches("lock-").parse().unwrap()).collect();
                seqs.sort();
                (Seen::Children(seqs), rel(z))
            }),
            Op::Watch { seq } => s.exists_watch(&format!("{parent}/lock-{seq:010}")).map(|(e, z)| (Seen::Exists(e), rel(z))),
            Op::Delete { seq } => s.delete(&format!("{parent}/lock-{seq:010}")).map(|(err, z)| {
                assert!(err == 0 || err == wire::NO_NODE, "delete: error {err}");
                (if err == 0 { Seen::Deleted } else { Seen::NoNode }, rel(z))
            }),
            Op::Ping => s.ping().map(|z| (Seen::Pong, rel(z))),
            Op::Close => s.close().map(|z| (Seen::Closed, rel(z))),
            Op::Connect { .. } => unreachable!(),
        };
        let (seen, zxid) = answer.unwrap_or_else(|e| {
            // The server closed the connection: has the session expired?
            let valid = retried("reconnect to ask whether a session is valid", || s.still_valid(port));
            assert!(!valid, "the connection was lost ({e}) but the session is valid");
            (Seen::Expired, None)
        });
        let events = s.events.drain(..).map(|(kind, p)| {
            assert_eq!(kind, wire::NODE_DELETED, "only deletions are watched ({p})");
            p.rsplit('-').next().unwrap().parse().unwrap()
        });
        Obs { seen, zxid, events: events.collect() }
    }

    /// The same request on the model, made at `at`.
    fn model(&mut self, i: usize, op: Op, at: i64) -> Obs {
        let client = i + 1;
        let slot = self.slots[i].as_mut().unwrap();
        let session = slot.session;
        let at = Micros::us(at);
        let reply = match op {
            Op::Connect { timeout_ms } => {
                self.model.ask(client, at, |req| Msg::Connect { req, timeout_ms: Millis::new(timeout_ms as u64) })
            }
            Op::Create => self.model.ask(client, at, |req| Msg::Create { req, session }),
            Op::Children => self.model.ask(client, at, |req| Msg::GetChildren { req, session }),
            Op::Watch { seq } => self.model.ask(client, at, |req| Msg::Exists { req, session, seq }),
            Op::Delete { seq } => self.model.ask(client, at, |req| Msg::Delete { req, session, seq }),
            Op::Ping => self.model.ask(client, at, |req| Msg::Ping { req, session }),
            Op::Close => self.model.ask(client, at, |req| Msg::Close { req, session }),
        };
        let zxid = Some(self.model.zxid);
        let (seen, zxid) = match reply {
            Msg::Connected { session, .. } => {
                slot.session = session;
                (Seen::Connected, None)
            }
            Msg::Created { seq, zxid: czxid, .. } => (Seen::Created { seq, czxid }, zxid),
            Msg::Children { children, .. } => (Seen::Children(children), zxid),
            Msg::ExistsReply { exists, .. } => (Seen::Exists(exists), zxid),
            Msg::DeleteOk { .. } => (Seen::Deleted, zxid),
            Msg::NoNode { .. } => (Seen::NoNode, zxid),
            Msg::Pong { .. } => (Seen::Pong, zxid),
            Msg::Closed { .. } => (Seen::Closed, zxid),
            Msg::SessionExpired { .. } => (Seen::Expired, None),
            other => panic!("the model answered {other:?}"),
        };
        Obs { seen, zxid, events: self.model.take_events(client) }
    }

    /// Whether a request made in `[from, to]` (µs) comes near a session's possible expiry.
    fn near_expiry(&self, from: i64, to: i64, except: Option<usize>) -> bool {
        self.slots.iter().enumerate().filter(|(i, _)| Some(*i) != except).filter_map(|(_, s)| s.as_ref()).any(|s| {
            let (lo, hi) = s.expiry_window();
            !s.ended && from - GUARD_US <= hi && to + GUARD_US >= lo
        })
    }

    /// Sleeps past any session's expiry window that a request made now could come near.
    fn clear_of_expiry(&self) {
        loop {
            let now = self.now();
            let open = self.slots.iter().flatten().filter(|s| !s.ended).map(Slot::expiry_window);
            let near = open.filter(|&(lo, hi)| now + REQUEST_US + GUARD_US >= lo && now - GUARD_US <= hi);
            let Some(until) = near.map(|(_, hi)| hi + GUARD_US + 1_000).max() else { return };
            std::thread::sleep(Duration::from_micros((until - now) as u64));
        }
    }

    /// Runs one request on both; `Err` if they differ, `Ok(false)` if it cannot be judged.
    fn step(&mut self, i: usize, op: Op) -> Result<bool, (Obs, Obs)> {
        self.clear_of_expiry();
        let before = self.now();
        let real = self.real(i, op);
        let after = self.now();
        if self.near_expiry(before, after, matches!(op, Op::Connect { .. }).then_some(i)) {
            return Ok(false);
        }
        let model = self.model(i, op, before);
        let slot = self.slots[i].as_mut().unwrap();
        slot.heard = (before, after);
        match (&real.seen, op) {
            (Seen::Created { seq, .. }, _) => {
                slot.znode = Some(*seq);
                self.created.push(*seq);
            }
            (Seen::Deleted, Op::Delete { seq }) if slot.znode == Some(seq) => slot.znode = None,
            (Seen::Expired | Seen::Closed, _) => slot.ended = true,
            _ => {}
        }
        if real != model {
            return Err((real, model));
        }
        let kind = match real.seen {
            Seen::Expired => Some(Seen::Expired),
            Seen::NoNode => Some(Seen::NoNode),
            Seen::Closed => Some(Seen::Closed),
            _ => None,
        };
        if !self.broken {
            SEEN.lock().unwrap().push((kind, real.events.len()));
        }
        Ok(true)
    }
}

impl Seq {
    /// Waits about `ms`, pinging the sessions in `keep` every third of their timeout on both
    /// (their other notifications wait for their next request). The end moves out of any other
    /// session's expiry window. `Ok(false)`: a ping came too late to judge (a stalled thread).
    fn wait(&mut self, ms: i64, keep: &[usize]) -> Result<bool, String> {
        let mut end = self.now() + ms * 1000;
        for _ in 0..CLIENTS {
            for (i, s) in self.slots.iter().enumerate() {
                let Some(s) = s.as_ref().filter(|s| !s.ended && !keep.contains(&i)) else { continue };
                let (lo, hi) = s.expiry_window();
                if end >= lo - GUARD_US && end <= hi + GUARD_US {
                    end = hi + GUARD_US + 5_000;
                }
            }
        }
        let mut next: Vec<i64> = keep.iter().map(|_| self.now()).collect();
        loop {
            let now = self.now();
            let due = (0..keep.len()).filter(|&k| next[k] <= now).min_by_key(|&k| next[k]);
            let Some(k) = due else {
                let until = next.iter().copied().min().unwrap_or(end).min(end);
                if now >= end {
                    return Ok(true);
                }
                std::thread::sleep(Duration::from_micros((until - now).max(0) as u64));
                continue;
            };
            let i = keep[k];
            let before = now;
            if before + GUARD_US >= self.slots[i].as_ref().unwrap().expiry_window().0 {
                return Ok(false);
            }
            let real = self.slots[i].as_mut().unwrap().real.ping().is_ok();
            let after = self.now();
            let slot = self.slots[i].as_mut().unwrap();
            let (session, timeout_us) = (slot.session, slot.timeout_us);
            slot.heard = (before, after);
            next[k] = before + timeout_us / 3;
            let model =
                self.broken || matches!(self.model.ask(i + 1, Micros::us(before), |req| Msg::Ping { req, session }), Msg::Pong { .. });
            if real != model {
                return Err(format!("a keep-alive ping on session {}: the server: alive {real}; the model: alive {model}", i + 1));
            }
        }
    }

    /// The next request for session slot `i`.
    fn draw(&self, rng: &mut Rng, i: usize) -> Op {
        let Some(slot) = self.slots[i].as_ref().filter(|s| !s.ended) else {
            return Op::Connect { timeout_ms: rng.range_inclusive(3 * TICK_MS, 6 * TICK_MS) as i32 };
        };
        let any = |rng: &mut Rng| {
            let k = rng.range_inclusive(0, self.created.len() as i64);
            self.created.get(k as usize).copied().unwrap_or(NEVER)
        };
        match rng.range_inclusive(0, 9) {
            0 | 1 if slot.znode.is_none() => Op::Create,
            0..=2 => Op::Children,
            3 | 4 => match slot.znode {
                // The recipe's watch: the predecessor.
                Some(own) if rng.range_inclusive(0, 2) > 0 => {
                    Op::Watch { seq: self.created.iter().copied().filter(|&c| c < own).max().unwrap_or(NEVER) }
                }
                _ => Op::Watch { seq: any(rng) },
            },
            5 | 6 => match slot.znode {
                Some(own) if rng.range_inclusive(0, 2) > 0 => Op::Delete { seq: own },
                _ => Op::Delete { seq: any(rng) },
            },
            7 => Op::Ping,
            _ => Op::Close,
        }
    }

    /// Ends every session still open on the real server (whatever the model says), so that no
    /// later expiry takes a zxid from the next sequence; and removes the lock node if it can.
    fn clean_up(&mut self) {
        for s in self.slots.iter_mut().flatten().filter(|s| !s.ended) {
            let _ = s.real.close();
        }
        let mut a = admin(self.port);
        let _ = a.delete(&self.parent);
        let _ = a.close();
    }
}

/// Runs sequence `n` of `seed` on the server at `port`; `broken` keeps pings from the model.
pub fn run_sequence(port: u16, seed: u64, n: usize, broken: bool) -> Outcome {
    let mut rng = Rng::stream(seed, &format!("sequence {n}"));
    let parent = format!("/lock-{seed}-{n}");
    // A create whose session broke may have been made: a second try finds the node there.
    // The zxid the sequence starts from is the admin session's close.
    let (err, base) = retried("create the lock node", || {
        let mut a = admin(port);
        let (err, ..) = a.create(&parent, wire::PERSISTENT)?;
        Ok((err, a.close()?))
    });
    assert!(err == 0 || err == wire::NODE_EXISTS, "create {parent}: error {err}");
    let start = Instant::now();
    let mut q = Seq {
        port,
        parent,
        base,
        model: Model::new(CLIENTS),
        start,
        slots: (0..CLIENTS).map(|_| None).collect(),
        created: Vec::new(),
        broken,
    };
    let outcome = run_steps(&mut q, &mut rng, seed, n);
    q.clean_up();
    outcome
}

fn run_steps(q: &mut Seq, rng: &mut Rng, seed: u64, n: usize) -> Outcome {
    let mut done: Vec<String> = Vec::new();
    let differs =
        |done: &[String], what: String| Outcome::Differs(format!("seed {seed}, sequence {n}: after [{}], {what}", done.join(", ")));
    let len = rng.range_inclusive(6, 16);
    for step in 0..=len {
        let i = rng.range_inclusive(0, CLIENTS as i64 - 1) as usize;
        if step < len && rng.range_inclusive(0, 9) == 0 {
            let keep: Vec<usize> =
                (0..CLIENTS).filter(|&k| q.slots[k].as_ref().is_some_and(|s| !s.ended) && rng.range_inclusive(0, 1) == 1).collect();
            let ms = rng.range_inclusive(20, 400);
            done.push(format!("wait {ms} ms pinging {keep:?}"));
            match q.wait(ms, &keep) {
                Ok(true) => {}
                Ok(false) => return Outcome::Inconclusive,
                Err(what) => return differs(&done, what),
            }
            continue;
        }
        // The last step closes every session still open.
        let ops: Vec<(usize, Op)> = if step == len {
            (0..CLIENTS).filter(|&k| q.slots[k].as_ref().is_some_and(|s| !s.ended)).map(|k| (k, Op::Close)).collect()
        } else {
            vec![(i, q.draw(rng, i))]
        };
        for (i, op) in ops {
            done.push(format!("{} {op:?}", i + 1));
            match q.step(i, op) {
                Ok(true) => {}
                Ok(false) => return Outcome::Inconclusive,
                Err((real, model)) => return differs(&done, format!("the server: {real:?}; the model: {model:?}")),
            }
        }
    }
    Outcome::Agreed
}
