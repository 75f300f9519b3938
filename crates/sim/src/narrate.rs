//! Narration, as a view: events are data, and their sentences are produced when they are shown
//! (the narration line, the inspector, the CLI's text), from what the event records and the
//! run's names and settings. A run carries no sentence. Each lock service words its own events
//! (`lock::narrate`); the rest are one exhaustive match (`sentence`), so a new kind of event
//! does not compile until it is given words or sent to the service that words it: a service's
//! own events to that service (`lock::words`), and the consensus family's to the service the
//! scenario runs (`lock::quorum`), each of which words every one of them.

use crate::scenario::{Fencing, ResourceKind, Scenario};
use crate::time::fmt;
use crate::trace::{Actor, ActorId, Event, EventKind, Message, Run, Words};

mod words;
pub use words::reason;

/// What narration reads: the scenario and the run's actors and messages.
pub struct Cx<'a> {
    pub sc: &'a Scenario,
    pub actors: &'a [Actor],
    pub messages: &'a [Message],
    /// How the messages are worded.
    pub words: &'a Words,
    /// Whether the resource looks at tokens at all.
    pub fences: bool,
}

impl<'a> Cx<'a> {
    /// Narration of `run`, a run of `sc`.
    pub fn new(sc: &'a Scenario, run: &'a Run) -> Cx<'a> {
        let fences = sc.resource.kind != ResourceKind::External && sc.resource.fencing != Fencing::None;
        Cx { sc, actors: &run.actors, messages: &run.intervals.messages, words: &run.words, fences }
    }

    fn name(&self, a: ActorId) -> &str {
        &self.actors[a].name
    }

    /// The sentence for one event of the run.
    pub fn event(&self, e: &Event) -> String {
        let mut s = sentence(self, e.actor, &e.kind);
        if let EventKind::Send { msg, .. } = e.kind {
            let m = &self.messages[msg];
            if m.delayed {
                s.push_str(&format!(" The network holds it: it will arrive in {}.", fmt(m.due_us - m.sent_us)));
            }
        }
        s
    }
}

/// `text` cut into its plain parts and its `quoted` parts (`true`), without the backticks (an
/// empty quote is dropped); a backtick with no partner stays in the text. A sentence quotes
/// each message it tells of (`SET lock … NX PX 10000`), and a scenario's prose may quote a
/// setting: the app shows these as code, and so do the walkthroughs of the command line.
pub fn code_spans(text: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else { break };
        if open > 0 {
            out.push((false, &rest[..open]));
        }
        if len > 0 {
            out.push((true, &rest[open + 1..open + 1 + len]));
        }
        rest = &rest[open + len + 2..];
    }
    if !rest.is_empty() {
        out.push((false, rest));
    }
    out
}

/// The sentence for one event of `run`, a run of `sc` (for many, make one [`Cx`]).
pub fn text(sc: &Scenario, run: &Run, e: &Event) -> String {
    Cx::new(sc, run).event(e)
}

/// The sentence for an event of `kind` at actor `a`: the lock service's own words for it, if
/// it words it its own way, or else the common words. One exhaustive match: a new kind of event
/// does not compile until it has words.
pub fn sentence(cx: &Cx, a: ActorId, kind: &EventKind) -> String {
    let me = cx.name(a);
    let n = |x: ActorId| cx.name(x).to_string();
    if let Some(s) = crate::lock::narrate(cx.sc, me, kind, &n) {
        return s;
    }
    use EventKind::*;
    let some = |x: &Option<ActorId>| x.map(|x| cx.name(x).to_string()).unwrap_or_else(|| "someone".into());
    let ttl = || fmt(cx.sc.lock.ttl_ms.to_micros());
    let token = |t: &Option<u64>| t.map(|t| t.to_string()).unwrap_or_else(|| "(none)".into());
    match kind {
        // A client's events.
        Start => format!("{me} starts."),
        Send { msg, to } => format!("{me} sends `{}` to {}.", cx.words.of(*msg), n(*to)),
        Receive { msg, from } => format!("{me} receives `{}` from {}.", cx.words.of(*msg), n(*from)),
        Lost { msg, from, why } => format!("`{}` from {} to {me} is lost: {}.", cx.words.of(*msg), n(*from), words::loss(*why, me)),
        Acquired { token, until_local_us, .. } => {
            let t = token.map(|t| format!(" with token {t}")).unwrap_or_default();
            format!("{me} holds the lock{t}; by its own clock the lease runs until {}.", fmt(*until_local_us))
        }
        Refused { attempt } => format!("{me}'s attempt {attempt} fails: the lock is held."),
        Tally { votes, nodes, elapsed_us, drift_us, validity_us, ok, extend } => {
            words::tally(cx.sc.lock.ttl_ms, me, *votes, *nodes, [*elapsed_us, *drift_us, *validity_us], *ok, *extend)
        }
        GaveUp => format!("{me} gives up on the lock."),
        Renewed { until_local_us } => format!("{me} renewed its lease: by its own clock it now runs until {}.", fmt(*until_local_us)),
        LostLock { why } => format!("{me} learns it no longer holds the lock: {}.", words::reason(*why)),
        Abandoned { why } => format!("{me} gives up the lock on its own judgment and stops: {}.", words::reason(*why)),
        NoticeIgnored { holding } => {
            format!("{me} is told its session has ended; its code does not check for that, {}.", EventKind::goes_on(*holding))
        }
        Releasing => format!("{me} is done with the lock and releases it."),
        Released { removed: true } => format!("{me} released the lock."),
        Released { removed: false } => format!("{me}'s release removed nothing: its key was already gone or someone else's."),
        DeadlineOk { left_us } => format!("{me} checks its deadline: {} left on its own clock, so it goes on.", fmt(*left_us)),
        Work { ms } => format!("{me} works for {}.", fmt(ms.to_micros())),
        ReadDone { value, version } => format!("{me} has read {value} (version {version})."),
        WriteDone { outcome } => format!("{me} learns its write was {}.", words::outcome(*outcome)),
        Timeout { what } => format!("{me} timed out waiting for {}.", words::awaited(*what)),
        Done { completed: true } => format!("{me} has finished its work."),
        Done { completed: false } => format!("{me} stops without finishing its work."),
        // A Redis node's.
        KeySet { owner, token } => words::key_set(cx.sc, me, &n(*owner), *token, &ttl()),
        KeyBusy { holder } => format!("{me} refuses: the key is held by {}.", some(holder)),
        KeyExpired { owner } => format!("{}'s key expires on {me}: {me}'s clock has passed its expiry time.", some(owner)),
        KeyDeleted { owner, by, foreign: true } => {
            format!("{}'s DEL deletes {}'s key on {me}: {} still believes it holds the lock.", n(*by), some(owner), some(owner))
        }
        KeyDeleted { by, .. } => format!("{me} deletes {}'s key.", n(*by)),
        KeyExtended { owner, by, foreign: true } => {
            format!("{}'s PEXPIRE extends {}'s key on {me}, and {} is told its renewal succeeded.", n(*by), some(owner), n(*by))
        }
        KeyExtended { by, .. } => format!("{me} extends {}'s key to expire in {}.", n(*by), ttl()),
        KeyUnchanged { by, missing: true } => format!("{me} finds no key: {}'s script changes nothing.", n(*by)),
        KeyUnchanged { by, missing: false } => {
            format!("{me} finds another owner's value: {}'s script changes nothing (reply 0).", n(*by))
        }
        Replicated { set, counter } => {
            let key = if *counter { crate::wire::redis::FENCE_KEY } else { crate::wire::redis::LOCK_KEY };
            let what = crate::msg::replicate_words(key, set.as_ref().map(|v| v.as_str()));
            format!("{me} applies `{what}` from the primary's replication stream.")
        }
        Promoted | Demoted { .. } => words::failover(me, kind, &n),
        // The resource's.
        ReadServed { client, value, version } => format!("{me} serves {}'s read: {value} (version {version}).", n(*client)),
        Accepted { client, token, value } => {
            let t = token.map(|t| format!(" with token {t}")).unwrap_or_default();
            let ignores = if token.is_some() && !cx.fences { " (it does not check tokens)" } else { "" };
            format!("{me} accepts {}'s write{t}{ignores}: the value is now {value}.", n(*client))
        }
        Rejected { client, token: t, highest } => {
            format!("{me} rejects {}'s token {}: it has already accepted {highest}.", n(*client), token(t))
        }
        Duplicate { client, request } => format!("{me} has already applied request {request}: {}'s copy changes nothing.", n(*client)),
        EffectSent { client, key, deduplicated: false } => {
            format!("{}'s transaction sends {key}: once sent, it stays sent, whatever the transaction does next.", n(*client))
        }
        EffectSent { client, key, deduplicated: true } => {
            format!("{}'s transaction sends {key} again; its receiver has seen the key {key} before and does nothing.", n(*client))
        }
        Conflict { client, expected, actual } => {
            format!("{me} refuses {}'s conditional write: it expected version {expected}, the value is at version {actual}.", n(*client))
        }
        Checked { client, token: t } => format!(
            "{me} checks {}'s token {}: it is not below the highest seen, so the write will follow in {}.",
            n(*client),
            token(t),
            fmt(cx.sc.resource.check_write_gap_ms.to_micros())
        ),
        // Faults.
        Paused { until_us } => {
            format!("{me} is paused until {}: it keeps its state, receives nothing, and its clock keeps running.", fmt(*until_us))
        }
        Resumed { buffered, disk: true } => crate::scenario::fault::Stall::resumed(me, *buffered),
        Resumed { buffered, disk: false } => words::resumed(me, *buffered),
        Crashed => format!("{me} crashes."),
        Restarted { kept_data } => words::restarted(me, cx.actors[a].role, *kept_data),
        ClockJumped { by_us } => {
            let dir = if !by_us.is_negative() { "forward" } else { "back" };
            format!("{me}'s clock jumps {dir} by {}.", fmt(by_us.abs()))
        }
        DriftChanged { ppm } => format!("{me}'s clock now drifts by {ppm} ppm."),
        Isolated { until_us } => words::isolated(cx.sc, me, *until_us),
        DiskStalled { until_us, stall } => stall.words(me, *until_us),
        Healed => "The partition heals.".to_string(),
        // A service's own events, in its words.
        Service(e) => crate::lock::words(cx.sc, e, me, &n),
        // The consensus family's events, in the words of the service that records them.
        Quorum(e) => crate::lock::quorum(cx.sc, e, me, &n),
    }
}
