//! Narration, as a view: events are data, and their sentences are produced when they are shown
//! (the narration line, the inspector, the CLI's text), from what the event records and the
//! run's names and settings. A run carries no sentence. Each lock service words its own events
//! (`lock::narrate`); every event kind has a sentence (a test checks it).

use crate::scenario::{Fencing, ResourceKind, Scenario};
use crate::time::{fmt, from_ms, Micros, MS};
use crate::trace::{Actor, ActorId, Awaited, Event, EventKind, Loss, Message, Role, Run, Stall, Why, Words, WriteOutcome};

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

/// The sentence for an event of `kind` at actor `a`.
pub fn sentence(cx: &Cx, a: ActorId, kind: &EventKind) -> String {
    narrated(cx, a, kind).unwrap_or_else(|| format!("{}: {}.", cx.name(a), kind.tag(a).0))
}

/// The sentence for an event, from whichever part words its kind; `None` for a kind nobody
/// words (a test makes sure there is none).
pub fn narrated(cx: &Cx, a: ActorId, kind: &EventKind) -> Option<String> {
    let me = cx.name(a);
    let name = |x: ActorId| cx.name(x).to_string();
    crate::lock::narrate(cx.sc, me, kind, &name)
        .or_else(|| client(cx, me, kind))
        .or_else(|| redis(cx, me, kind))
        .or_else(|| resource(cx, me, kind))
        .or_else(|| faults(cx, a, me, kind))
}

/// A client's events.
fn client(cx: &Cx, me: &str, kind: &EventKind) -> Option<String> {
    use EventKind::*;
    let n = |x: ActorId| cx.name(x).to_string();
    Some(match kind {
        Start => format!("{me} starts."),
        Send { msg, to } => format!("{me} sends `{}` to {}.", cx.words.of(*msg), n(*to)),
        Receive { msg, from } => format!("{me} receives `{}` from {}.", cx.words.of(*msg), n(*from)),
        Lost { msg, from, why } => format!("`{}` from {} to {me} is lost: {}.", cx.words.of(*msg), n(*from), loss(*why, me)),
        Acquired { token, until_local_us, .. } => {
            let t = token.map(|t| format!(" with token {t}")).unwrap_or_default();
            format!("{me} holds the lock{t}; by its own clock the lease runs until {}.", fmt(*until_local_us))
        }
        Refused { attempt } => format!("{me}'s attempt {attempt} fails: the lock is held."),
        Tally { votes, nodes, elapsed_us, drift_us, validity_us, ok, extend } => {
            let names: Vec<String> = votes.iter().map(crate::scenario::node_name).collect();
            let who = if names.is_empty() { String::new() } else { format!(" ({})", names.join(", ")) };
            let millis = |us: Micros| {
                let v = us as f64 / 1000.0;
                if us % 1000 == 0 {
                    format!("{}", us / 1000)
                } else {
                    format!("{v:.1}")
                }
            };
            let sum =
                format!("validity {} − {} − {} = {} ms", cx.sc.lock.ttl_ms, millis(*elapsed_us), millis(*drift_us), millis(*validity_us));
            let what = if *extend { "extension" } else { "lock" };
            let quorum = nodes / 2 + 1;
            let verdict = match (ok, votes.len() >= quorum) {
                (true, _) => format!("a majority in time, so the {what} holds until its own clock passes T1 + {} ms", millis(*validity_us)),
                (false, true) => "a majority, but the time is used up: the lock is not valid (the post-acquisition check)".to_string(),
                (false, false) => format!("no majority (it needs {quorum})"),
            };
            if votes.len() < quorum {
                let then = if *extend { "" } else { "; it unlocks every node and retries after a random delay" };
                format!("{me}'s {what} round: {} of {nodes}{who} in {} ms: {verdict}{then}.", votes.len(), millis(*elapsed_us))
            } else {
                format!("{me}'s {what} round: {} of {nodes}{who} in {} ms; {sum}: {verdict}.", votes.len(), millis(*elapsed_us))
            }
        }
        GaveUp => format!("{me} gives up on the lock."),
        Renewed { until_local_us } => format!("{me} renewed its lease: by its own clock it now runs until {}.", fmt(*until_local_us)),
        LostLock { why } => format!("{me} learns it no longer holds the lock: {}.", reason(*why)),
        Abandoned { why } => format!("{me} gives up the lock on its own judgment and stops: {}.", reason(*why)),
        NoticeIgnored { holding } => {
            format!("{me} is told its session has ended; its code does not check for that, {}.", EventKind::goes_on(*holding))
        }
        Releasing => format!("{me} is done with the lock and releases it."),
        Released { removed: true } => format!("{me} released the lock."),
        Released { removed: false } => format!("{me}'s release removed nothing: its key was already gone or someone else's."),
        DeadlineOk { left_us } => format!("{me} checks its deadline: {} left on its own clock, so it goes on.", fmt(*left_us)),
        Work { ms } => format!("{me} works for {}.", fmt(*ms as i64 * MS)),
        ReadDone { value, version } => format!("{me} has read {value} (version {version})."),
        WriteDone { outcome } => {
            let o = match outcome {
                WriteOutcome::Accepted => "accepted",
                WriteOutcome::Rejected => "rejected",
                WriteOutcome::Duplicate => "already done (a duplicate)",
                WriteOutcome::Conflict => "refused: the version changed since its read",
            };
            format!("{me} learns its write was {o}.")
        }
        Timeout { what } => format!("{me} timed out waiting for {}.", awaited(*what)),
        Done { completed: true } => format!("{me} has finished its work."),
        Done { completed: false } => format!("{me} stops without finishing its work."),
        _ => return None,
    })
}

/// Why a message was lost; `to` is its receiver.
fn loss(why: Loss, to: &str) -> String {
    match why {
        Loss::Dropped => "the network dropped it".into(),
        Loss::Partitioned => "a partition separates them".into(),
        Loss::ReceiverDown => format!("{to} is down"),
    }
}

/// Why a client stopped believing it holds the lock.
pub fn reason(why: Why) -> String {
    match why {
        Why::NoLease => "it holds no lease".into(),
        Why::TokenSeen { highest } => format!("the resource has already seen token {highest}"),
        Why::DeadlinePassed { ago_us } => format!("its deadline passed {} ago by its own clock", fmt(ago_us)),
        Why::DeadlineNear { left_us } => format!("its deadline is only {} away on its own clock", fmt(left_us)),
        Why::RenewalUnanswered => "its renewal got no reply, so it cannot know whether it still holds the lock".into(),
        Why::RenewalRefused => "its renewal was refused: the key is gone or holds another owner's value".into(),
        Why::ExtensionShort { votes, nodes } => format!("its extension reached {votes} of {nodes} nodes in time"),
        Why::ExpiredWaiting => "its session expired while it waited for the lock".into(),
        Why::ExpiredBeforeLock => "its session expired before it got the lock".into(),
        Why::ZnodeGone => "its znode is gone: its session expired".into(),
        Why::RenewDeadline { deadline_us } => crate::service::kubernetes::words::renew_deadline(deadline_us),
    }
}

/// What a client waited for when it timed out, and what it does next.
fn awaited(what: Awaited) -> &'static str {
    match what {
        Awaited::LockRequest => "its lock request",
        Awaited::WriteResent => "its write; it sends it again",
        Awaited::WriteAbandoned => "its write; it gives up",
        Awaited::RenewalIgnored => "its renewal, and keeps working as if it still held the lock",
        Awaited::Renewal => "its renewal",
        Awaited::Release => "an answer to its release, and goes on without knowing whether its key was deleted",
    }
}

/// A Redis node's events.
fn redis(cx: &Cx, me: &str, kind: &EventKind) -> Option<String> {
    use EventKind::*;
    let n = |x: ActorId| cx.name(x).to_string();
    let opt = |x: &Option<ActorId>| x.map(|x| cx.name(x).to_string()).unwrap_or_else(|| "someone".into());
    let ttl = fmt(from_ms(cx.sc.lock.ttl_ms as i64));
    Some(match kind {
        KeySet { owner, token: None } => format!("{me} sets the lock key for {} to expire in {ttl} by {me}'s own clock.", n(*owner)),
        KeySet { owner, token: Some(t) } if !cx.sc.token.durable() => format!(
            "{me} runs {}'s acquire script: SET NX PX sets the lock key to expire in {ttl} by {me}'s own clock, and INCR lock:fence, in the same script, gives {t}: the token.",
            n(*owner)
        ),
        KeySet { owner, token: Some(t) } => format!(
            "{me} sets the lock key for {} to expire in {ttl} by {me}'s own clock; the durable counter beside it hands out token {t} with the grant.",
            n(*owner)
        ),
        KeyBusy { holder } => format!("{me} refuses: the key is held by {}.", opt(holder)),
        KeyExpired { owner } => format!("{}'s key expires on {me}: {me}'s clock has passed its expiry time.", opt(owner)),
        KeyDeleted { owner, by, foreign: true } => {
            format!("{}'s DEL deletes {}'s key on {me}: {} still believes it holds the lock.", n(*by), opt(owner), opt(owner))
        }
        KeyDeleted { by, .. } => format!("{me} deletes {}'s key.", n(*by)),
        KeyExtended { owner, by, foreign: true } => {
            format!("{}'s PEXPIRE extends {}'s key on {me}, and {} is told its renewal succeeded.", n(*by), opt(owner), n(*by))
        }
        KeyExtended { by, .. } => format!("{me} extends {}'s key to expire in {ttl}.", n(*by)),
        KeyUnchanged { by, missing: true } => format!("{me} finds no key: {}'s script changes nothing (reply -1).", n(*by)),
        KeyUnchanged { by, missing: false } => {
            format!("{me} finds another owner's value: {}'s script changes nothing (reply 0).", n(*by))
        }
        Replicated { set } => {
            let what = set.map_or_else(|| "replicate DEL lock".to_string(), |v| format!("replicate SET lock {}", v.as_str()));
            format!("{me} applies `{what}` from the primary's replication stream.")
        }
        Promoted => format!("{me} is promoted to primary; clients now send their commands to it."),
        _ => return None,
    })
}

/// The resource's events.
fn resource(cx: &Cx, me: &str, kind: &EventKind) -> Option<String> {
    use EventKind::*;
    let n = |x: ActorId| cx.name(x).to_string();
    Some(match kind {
        ReadServed { client, value, version } => format!("{me} serves {}'s read: {value} (version {version}).", n(*client)),
        Accepted { client, token, value } => {
            let t = token.map(|t| format!(" with token {t}")).unwrap_or_default();
            let ignores = if token.is_some() && !cx.fences { " (it does not check tokens)" } else { "" };
            format!("{me} accepts {}'s write{t}{ignores}: the value is now {value}.", n(*client))
        }
        Rejected { client, token, highest } => format!(
            "{me} rejects {}'s token {}: it has already accepted {highest}.",
            n(*client),
            token.map(|t| t.to_string()).unwrap_or_else(|| "(none)".into())
        ),
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
        Checked { client, token } => format!(
            "{me} checks {}'s token {}: it is not below the highest seen, so the write will follow in {}.",
            n(*client),
            token.map(|t| t.to_string()).unwrap_or_else(|| "(none)".into()),
            fmt(from_ms(cx.sc.resource.check_write_gap_ms as i64))
        ),
        _ => return None,
    })
}

/// Faults.
fn faults(cx: &Cx, a: ActorId, me: &str, kind: &EventKind) -> Option<String> {
    use EventKind::*;
    Some(match kind {
        Paused { until_us } => {
            format!("{me} is paused until {}: it keeps its state, receives nothing, and its clock keeps running.", fmt(*until_us))
        }
        Resumed { buffered, disk: true } => format!(
            "{me}'s disk answers again: {me} handles the {buffered} message{} and timer{} that waited meanwhile.",
            if *buffered == 1 { "" } else { "s" },
            if *buffered == 1 { "" } else { "s" }
        ),
        Resumed { buffered, .. } => format!(
            "{me} resumes, believing what it believed before the pause; {buffered} buffered message{} and timer{} are handled now.",
            if *buffered == 1 { "" } else { "s" },
            if *buffered == 1 { "" } else { "s" }
        ),
        Crashed => format!("{me} crashes."),
        Restarted { kept_data } => match cx.actors[a].role {
            Role::Redis | Role::Replica if *kept_data => format!("{me} restarts and reloads its keys from the append-only file."),
            Role::Redis | Role::Replica => format!("{me} restarts empty: without persistence its keys are gone."),
            _ => format!("{me} restarts."),
        },
        ClockJumped { by_us } => {
            let dir = if *by_us >= 0 { "forward" } else { "back" };
            format!("{me}'s clock jumps {dir} by {}.", fmt(by_us.abs()))
        }
        DriftChanged { ppm } => format!("{me}'s clock now drifts by {ppm} ppm."),
        Isolated { until_us } => format!("The network is partitioned: {me} is cut off from the others until {}.", fmt(*until_us)),
        DiskStalled { until_us, stall: Stall::Now } => format!(
            "{me}'s disk stalls until {}: every write to its log hangs, and {me} persists each change before it answers (a leader's heartbeats wait with it), so it goes silent meanwhile.",
            fmt(*until_us)
        ),
        DiskStalled { until_us, stall: Stall::None } => format!(
            "{me}'s disk stalls until {}; without persistence {me} never waits for it, and answers as before.",
            fmt(*until_us)
        ),
        DiskStalled { until_us, stall: Stall::NextWrite } => format!(
            "{me}'s disk stalls until {}. With appendfsync always, {me} still answers commands that change nothing; its next write will wait for its fsync.",
            fmt(*until_us)
        ),
        DiskStalled { until_us, stall: Stall::Blocked } => format!(
            "{me} has made a write in memory and waits for its fsync until {}: the reply waits with it, and {me} reads no other command meanwhile.",
            fmt(*until_us)
        ),
        Healed => "The partition heals.".to_string(),
        _ => return None,
    })
}
