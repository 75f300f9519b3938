//! A disk stall: every write to a lock server's log takes until the stall ends. A server that
//! waits for its log before it answers (a consensus member or ZooKeeper server, which persist
//! each proposal; Redis with `appendfsync always`; the API server, through etcd) stops
//! answering meanwhile; Redis without persistence does not notice.

use serde::{Deserialize, Serialize};

use super::{t, Block, Check, Disk, Family, Fault, Kind, Verb};
use crate::scenario::fault_kinds::{field, FaultKind, LaneRole, Target};
use crate::scenario::settings::Kind as Value;
use crate::scenario::{LockKind, Persistence, Scenario, ScenarioError};
use crate::time::{fmt, Micros, Millis};

/// Lock server `actor`'s disk stalls at `at_ms` for `duration_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiskStall {
    pub actor: String,
    pub at_ms: Millis,
    pub duration_ms: Millis,
}

fields_io!(DiskStall, "struct variant Fault::DiskStall", { actor, at_ms, duration_ms });

impl Kind for DiskStall {
    const KIND: FaultKind = FaultKind {
        tag: "disk_stall",
        label: "a disk stall",
        target: Target::Server,
        fields: &[field("duration_ms", "duration", "For", Value::Ms { min: Millis::ZERO }, 3_000)],
        // A pair's fence devices keep nothing on a disk.
        fits: |s| !matches!(s.lock.kind, LockKind::None | LockKind::Pacemaker),
        // Only where a disk stall does something (not at a pair's fence devices).
        menu: |l, out| {
            if matches!(l.role, LaneRole::LockServer { .. }) && (DiskStall::KIND.fits)(l.sc) {
                let fault = DiskStall { actor: l.name.to_string(), at_ms: l.at_ms, duration_ms: Millis::new(3_000) };
                out.push((format!("Stall {}'s disk here for 3 s", l.name), Fault::DiskStall(fault)));
            }
        },
    };

    fn describe(&self) -> String {
        format!("Stall {}'s disk at {} for {}", self.actor, t(self.at_ms), t(self.duration_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        let a = &self.actor;
        c.actor("actor", a)?;
        if c.sc.lock.kind == LockKind::Pacemaker {
            return c.err("actor", format!("`{a}` is a fence device, which keeps nothing on a disk: pause, crash or cut it off instead"));
        }
        // The lock servers come after the clients and before the resource.
        if !c.names[c.sc.clients.len()..c.names.len() - 1].contains(a) {
            return c.err("actor", format!("`{a}` is not a server of the lock service: only a lock server's disk stalls here"));
        }
        c.length("duration_ms", self.duration_ms)
    }

    fn verb(&self, sc: &Scenario) -> Verb<'_> {
        // Consensus members and ZooKeeper servers persist each proposal before they
        // acknowledge it, and the API server writes through etcd. Redis waits for its disk
        // only with `appendfsync always`, and then from its first write: it runs a command in
        // memory and fsyncs before it replies, in beforeSleep (SEMANTICS §1).
        let disk = match (sc.lock.kind, sc.lock.persistence) {
            (LockKind::Redis | LockKind::Redlock, Persistence::Always) => Disk::NextWrite,
            (LockKind::Redis | LockKind::Redlock, Persistence::None) => Disk::Never,
            _ => Disk::Now,
        };
        Verb::StallDisk { actor: &self.actor, for_us: self.duration_ms.to_micros(), disk }
    }

    fn name(&self) -> String {
        format!("the stall of {}'s disk", self.actor)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.actor)
    }

    fn field(&self, name: &str) -> Option<i64> {
        (name == "duration_ms").then_some(self.duration_ms.get() as i64)
    }

    /// A disk stall stops its server as a pause would.
    fn family(&self) -> Family {
        Family::Pause
    }

    fn size(&self) -> Option<Millis> {
        Some(self.duration_ms)
    }

    fn resize(&mut self, n: Millis) {
        self.duration_ms = n;
    }

    fn block(&self) -> Option<Block<'_>> {
        Some(Block { actor: &self.actor, at_ms: self.at_ms, duration_ms: self.duration_ms, label: "disk stall", what: "'s disk stalled" })
    }

    fn block_mut(&mut self) -> Option<(&mut Millis, &mut Millis)> {
        Some((&mut self.at_ms, &mut self.duration_ms))
    }
}

/// What a stalled disk does to its server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stall {
    /// Nothing: it never waits for its disk (Redis without persistence).
    None,
    /// It stops now: it persists every change, and its heartbeats with them, before it answers.
    Now,
    /// It answers what changes nothing; its next write (Redis with `appendfsync always`) is
    /// made in memory, then waits for its fsync, with its reply, and the node reads nothing
    /// more until the disk answers.
    NextWrite,
    /// That write has come: the node waits for its fsync.
    Blocked,
}

impl Stall {
    /// Server `me`'s disk stalls until `until_us`, and what that does to it.
    pub fn words(self, me: &str, until_us: Micros) -> String {
        let until = fmt(until_us);
        match self {
            Stall::Now => format!(
                "{me}'s disk stalls until {until}: every write to its log hangs, and {me} persists each change before it answers (a leader's heartbeats wait with it), so it goes silent meanwhile."
            ),
            Stall::None => format!("{me}'s disk stalls until {until}; without persistence {me} never waits for it, and answers as before."),
            Stall::NextWrite => format!(
                "{me}'s disk stalls until {until}. With appendfsync always, {me} still answers commands that change nothing; its next write will wait for its fsync."
            ),
            Stall::Blocked => format!(
                "{me} has made a write in memory and waits for its fsync until {until}: the reply waits with it, and {me} reads no other command meanwhile."
            ),
        }
    }

    /// Server `me`'s disk answers again, and `buffered` messages and timers waited for it.
    pub fn resumed(me: &str, buffered: usize) -> String {
        let waited = match buffered {
            0 => "nothing waited for it".to_string(),
            1 => format!("{me} handles the one message or timer that waited meanwhile"),
            n => format!("{me} handles the {n} messages or timers that waited meanwhile"),
        };
        format!("{me}'s disk answers again: {waited}.")
    }
}
