//! What a client works with: its inputs ([`Input`]), what it may know ([`Cx`]), what it asks
//! the driver to do ([`Effect`]), and the request bookkeeping ([`Core`]) that the program
//! interpreter ([`crate::client`]) shares with the lock protocol it speaks (`redis::client`,
//! `redlock`, `consensus::client`). A protocol tells the program how a lock operation ended
//! with an [`Outcome`].
//!
//! A client judges its lease by its own clock: it counts the lease from the moment it sent the
//! acquire (as Redlock's step 1 does), so its deadline is conservative. Retry delays and
//! timeouts are measured as elapsed time (a monotonic clock), so only lease deadlines see a
//! clock jump; a pause makes them fire late. Work is computation: a pause freezes it, and the
//! driver counts only the time the process ran.

use crate::msg::{Dest, Payload};
use crate::scenario::TokenKind;
use crate::time::{Micros, Millis};
use crate::trace::EventKind;

/// What a client's timer is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerKind {
    WorkDone,
    Retry,
    Timeout(u64),
    /// A renewal the protocol sends in the background while the program works: the consensus
    /// session's keepalive, ZooKeeper's ping, a Kubernetes leader's round, Redisson's watchdog.
    KeepAlive,
}

/// A grant the client decided itself (Redlock): the driver records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrantFx {
    /// Its round won: grant number `grant` (as [`Cx::next_grant`] said), with the votes of
    /// these nodes (by index), valid until `until_local` on its own clock.
    Won { grant: usize, token: Option<u64>, until_local: Micros, votes: Vec<usize> },
    /// Its extension round won: the grant now runs until `until_local` on its own clock.
    Extended { grant: usize, until_local: Micros },
    /// It gives the grant back.
    Released { grant: usize },
}

/// Something a client asks the driver to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Send(Dest, Payload),
    Timer(Micros, TimerKind),
    Event(EventKind),
    Grant(GrantFx),
}

/// What happens to a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Start,
    Message(Payload),
    Timer(TimerKind),
}

/// The moment and settings a handler sees.
#[derive(Clone, Copy, Debug)]
pub struct Cx<'a> {
    /// The client's own clock reading now.
    pub local: Micros,
    /// Its monotonic clock now: its clock without the jumps (drift included), what Go's
    /// `time.Now()` compares elapsed time with.
    pub mono: Micros,
    pub name: &'a str,
    /// The lease time (Redis, Redlock, consensus) or the session timeout (ZooKeeper).
    pub ttl_ms: Millis,
    /// What token the client presents to the resource.
    pub token: TokenKind,
    /// The grant a lock this client decides itself (Redlock) would be now: the driver numbers
    /// grants.
    pub next_grant: usize,
    /// The token the durable counter would issue with that grant (`None` without a counter).
    pub next_token: Option<u64>,
}

/// The lease a client believes it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The owner value it holds the lock by (Redis and Redlock; 0 elsewhere, where validation
    /// refuses a token made from it).
    pub owner: u64,
    pub token: Option<u64>,
    pub grant: usize,
    /// When the lease runs out, on the client's own clock.
    pub until_local: Micros,
}

/// What the client waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wait {
    Nothing,
    Reply {
        req: u64,
        sent_local: Micros,
    },
    Timer,
    /// A Redlock round is under way.
    Round,
    /// Consensus: queued behind an earlier key, waiting to be told it holds the lock.
    Queued,
}

/// How a lock operation ended, for the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing for the program yet.
    Waiting,
    /// The client holds the lock ([`Core::lease`]); the program goes on.
    Acquired,
    /// This attempt failed; the program retries or gives up.
    Refused,
    /// The lease was extended; the program goes on.
    Renewed,
    /// The client learns it no longer holds the lock, and stops.
    Lost(crate::trace::Why),
    /// The lock was given back (or the attempt to was); the program goes on.
    Released,
}

/// How long a hold that has no lease lasts by its holder's own clock (a node of a failover pair
/// is active until it gives the resource up or its power is cut): longer than any run, so that
/// a deadline this far away, or half as far, says "no lease".
pub const NO_LEASE_US: Micros = Micros::us(1 << 50);

/// How long a renewal or release waits for its reply.
pub const SCRIPT_TIMEOUT_MS: Millis = Millis::new(1_000);

/// The request bookkeeping a program and its lock protocol share.
#[derive(Clone, Debug)]
pub struct Core {
    next_req: u64,
    pub wait: Wait,
    /// The random value that names this client's lock key (`SET lock <owner> NX`).
    pub owner: u64,
    /// The lease it believes it holds.
    pub lease: Option<Lease>,
    /// Which attempt at the lock this is.
    pub attempt: u32,
    /// The last write sent for the current step, kept for resends.
    pub last_write: Option<Box<crate::msg::Write>>,
}

impl Default for Core {
    fn default() -> Core {
        Core { next_req: 1, wait: Wait::Nothing, owner: 0, lease: None, attempt: 0, last_write: None }
    }
}

impl Core {
    /// A new request number.
    pub fn request(&mut self) -> u64 {
        let req = self.next_req;
        self.next_req += 1;
        req
    }

    /// Sends a request and waits for its reply (for at most `timeout_ms`).
    pub fn send(&mut self, dest: Dest, make: impl FnOnce(u64) -> Payload, timeout_ms: Option<Millis>, cx: &Cx, out: &mut Vec<Effect>) {
        let req = self.request();
        let p = make(req);
        // Kept for a write only: a write is sent again after a timeout (`retries`); a lock
        // request is built anew, and keeping a copy of every message would cost each one.
        self.last_write = match &p {
            Payload::Write(w) => Some(w.clone()),
            _ => None,
        };
        out.push(Effect::Send(dest, p));
        if let Some(t) = timeout_ms {
            out.push(Effect::Timer(t.to_micros(), TimerKind::Timeout(req)));
        }
        self.wait = Wait::Reply { req, sent_local: cx.local };
    }

    /// The token this client presents to the resource, by the scenario's token source.
    pub fn token(&self, cx: &Cx) -> Option<u64> {
        let lease = self.lease.as_ref()?;
        match cx.token {
            TokenKind::None => None,
            TokenKind::Counter => lease.token,
            TokenKind::RandomOwner => Some(lease.owner),
        }
    }

    /// Whether the client waits for the reply to `req`.
    pub fn waits_for(&self, req: u64) -> bool {
        matches!(self.wait, Wait::Reply { req: w, .. } if w == req)
    }
}
