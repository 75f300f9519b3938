//! The common narration's longer words, made from an event's data when it is shown.

use crate::scenario::{Fault, Scenario};
use crate::time::{fmt, Micros, Millis};
use crate::trace::{Awaited, Loss, Role, Votes, Why, WriteOutcome};

/// A failover's events: the replica promoted, and (with Sentinel) the old primary demoted.
pub fn failover(me: &str, kind: &crate::trace::EventKind, n: &dyn Fn(crate::trace::ActorId) -> String) -> String {
    match *kind {
        crate::trace::EventKind::Demoted { to, discarded, at_once } => {
            let lost = discarded.map(|o| format!(", and {}'s lock key with it", n(o))).unwrap_or_default();
            let to = n(to);
            if at_once {
                format!("Nothing separates {me} from {to}, so Sentinel makes {me} a replica of {to} at once, and it resyncs, discarding its own data{lost}.")
            } else {
                format!("{me} can reach {to} again: Sentinel makes it a replica of {to}, and it resyncs, discarding its own data{lost}.")
            }
        }
        _ => format!("{me} is promoted to primary; clients now send their commands to it."),
    }
}

/// Why a message was lost; `to` is its receiver.
pub fn loss(why: Loss, to: &str) -> String {
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
        Why::RenewalReadOnly => {
            "its renewal was answered READONLY: the Redis it went to had become a replica, which takes no writes".into()
        }
        Why::ExtensionShort { votes, nodes } => format!("its extension reached {votes} of {nodes} nodes in time"),
        Why::ExpiredWaiting => "its session expired while it waited for the lock".into(),
        Why::ExpiredBeforeLock => "its session expired before it got the lock".into(),
        Why::ZnodeGone => "its znode is gone: its session expired".into(),
        Why::RenewDeadline { deadline_us } => {
            format!("its tries at renewing have failed for its renew deadline ({}, by its own clock), so it stops", fmt(deadline_us))
        }
    }
}

/// What a client waited for when it timed out, and what it does next.
pub fn awaited(what: Awaited) -> &'static str {
    match what {
        Awaited::LockRequest => "its lock request",
        Awaited::WriteResent => "its write; it sends it again",
        Awaited::WriteAbandoned => "its write; it gives up",
        Awaited::RenewalIgnored => "its renewal, and keeps working as if it still held the lock",
        Awaited::Renewal => "its renewal",
        Awaited::Release => "an answer to its release, and goes on without knowing whether the release took effect",
    }
}

/// What a write's reply told its client.
pub fn outcome(o: WriteOutcome) -> &'static str {
    match o {
        WriteOutcome::Accepted => "accepted",
        WriteOutcome::Rejected => "rejected",
        WriteOutcome::Duplicate => "already done (a duplicate)",
        WriteOutcome::Conflict => "refused: the version changed since its read",
    }
}

/// A Redlock round's tally: `us` is the time it took, the drift allowance and the validity.
pub fn tally(ttl_ms: Millis, me: &str, votes: Votes, nodes: usize, us: [Micros; 3], ok: bool, extend: bool) -> String {
    let [elapsed_us, drift_us, validity_us] = us;
    let names: Vec<String> = votes.iter().map(crate::scenario::redlock::node_name).collect();
    let who = if names.is_empty() { String::new() } else { format!(" ({})", names.join(", ")) };
    let millis = |us: Micros| {
        let v = us.ms_f64();
        if us % crate::time::MS == Micros::ZERO {
            format!("{}", us.whole_ms())
        } else {
            format!("{v:.1}")
        }
    };
    let sum = format!("validity {} − {} − {} = {} ms", ttl_ms, millis(elapsed_us), millis(drift_us), millis(validity_us));
    let what = if extend { "extension" } else { "lock" };
    let quorum = nodes / 2 + 1;
    let verdict = match (ok, votes.len() >= quorum) {
        (true, _) => format!("a majority in time, so the {what} holds until its own clock passes T1 + {} ms", millis(validity_us)),
        (false, true) => "a majority, but the time is used up: the lock is not valid (the post-acquisition check)".to_string(),
        (false, false) => format!("no majority (it needs {quorum})"),
    };
    if votes.len() < quorum {
        let then = if extend { "" } else { "; it unlocks every node and retries after a random delay" };
        format!("{me}'s {what} round: {} of {nodes}{who} in {} ms: {verdict}{then}.", votes.len(), millis(elapsed_us))
    } else {
        format!("{me}'s {what} round: {} of {nodes}{who} in {} ms; {sum}: {verdict}.", votes.len(), millis(elapsed_us))
    }
}

/// A Redis node sets the lock key for `owner` (with a token from a script or the durable counter).
pub fn key_set(sc: &Scenario, me: &str, owner: &str, token: Option<u64>, ttl: &str) -> String {
    match token {
        None => format!("{me} sets the lock key for {owner} to expire in {ttl} by {me}'s own clock."),
        Some(t) if !sc.token.durable() => format!(
            "{me} runs {owner}'s acquire script: SET NX PX sets the lock key to expire in {ttl} by {me}'s own clock, and INCR lock:fence, in the same script, gives {t}: the token."
        ),
        Some(t) => format!(
            "{me} sets the lock key for {owner} to expire in {ttl} by {me}'s own clock; the durable counter beside it hands out token {t} with the grant."
        ),
    }
}

/// The end of a pause (a disk stall's end is the disk stall's: `Stall::resumed`).
pub fn resumed(me: &str, buffered: usize) -> String {
    let waited = match buffered {
        0 => "nothing waited for it".to_string(),
        1 => "the one message or timer that waited is handled now".to_string(),
        n => format!("the {n} messages or timers that waited are handled now"),
    };
    format!("{me} resumes, believing what it believed before the pause; {waited}.")
}

/// A restart: a Redis node reloads its keys or comes back empty.
pub fn restarted(me: &str, role: Role, kept_data: bool) -> String {
    match role {
        Role::Redis | Role::Replica if kept_data => format!("{me} restarts and reloads its keys from the append-only file."),
        Role::Redis | Role::Replica => format!("{me} restarts empty: without persistence its keys are gone."),
        _ => format!("{me} restarts."),
    }
}

/// A partition begins: `me`, the first actor it cuts off, and the others it cuts off are cut
/// off from everyone else, or from some (a partition with `from`) until `until_us`.
pub fn isolated(sc: &Scenario, me: &str, until_us: Micros) -> String {
    let until = fmt(until_us);
    let partition = sc.faults.iter().find_map(|f| match f {
        Fault::Partition(p) if p.isolate.first().is_some_and(|a| a == me) && (p.at_ms + p.duration_ms).to_micros() == until_us => Some(p),
        _ => None,
    });
    let (who, from) = match partition {
        Some(p) => (names(&p.isolate), names(&p.from)),
        None => (vec![me], vec![]),
    };
    let verb = if who.len() > 1 { "are" } else { "is" };
    let from = if from.is_empty() { "the others".to_string() } else { and_list(&from) };
    format!("The network is partitioned: {} {verb} cut off from {from} until {until}.", and_list(&who))
}

/// Each name once, in the order given.
fn names(list: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for n in list {
        if !out.contains(&n.as_str()) {
            out.push(n);
        }
    }
    out
}

/// "a", "a and b", "a, b and c".
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::EventKind;

    /// A partition names every actor it isolates, and whom from when it says.
    #[test]
    fn a_partition_names_everyone_it_cuts_off() {
        let sc = |isolate: &str, from: &str| {
            let json = format!(
                r#"{{"version":1,"id":"p","title":"p","seed":1,"duration_ms":5000,"lock":{{"kind":"redis","ttl_ms":1000}},"clients":[{{"name":"A","steps":[{{"acquire":{{}}}}]}},{{"name":"B","steps":[{{"acquire":{{}}}}]}}],"faults":[{{"partition":{{"isolate":{isolate},"from":{from},"at_ms":1000,"duration_ms":2000}}}}]}}"#
            );
            crate::Scenario::parse(&json).expect("a scenario")
        };
        let told = |isolate: &str, from: &str| super::isolated(&sc(isolate, from), "redis", crate::time::Micros::ms(3000));
        assert_eq!(told(r#"["redis"]"#, "[]"), "The network is partitioned: redis is cut off from the others until 3 s.");
        assert_eq!(told(r#"["redis","A"]"#, "[]"), "The network is partitioned: redis and A are cut off from the others until 3 s.");
        assert_eq!(told(r#"["redis"]"#, r#"["B"]"#), "The network is partitioned: redis is cut off from B until 3 s.");
        assert_eq!(told(r#"["redis","A"]"#, r#"["B"]"#), "The network is partitioned: redis and A are cut off from B until 3 s.");
        assert_eq!(
            told(r#"["redis","A","A","B"]"#, "[]"),
            "The network is partitioned: redis, A and B are cut off from the others until 3 s."
        );
    }

    /// A Sentinel demotion at the failover itself is told without an "again": nothing had cut
    /// the old primary off.
    #[test]
    fn a_demotion_says_whether_the_two_were_ever_apart() {
        let name = |a: usize| ["redis", "replica", "A"][a].to_string();
        let told = |at_once| super::failover("redis", &EventKind::Demoted { to: 1, discarded: Some(2), at_once }, &name);
        assert_eq!(
            told(true),
            "Nothing separates redis from replica, so Sentinel makes redis a replica of replica at once, and it resyncs, discarding its own data, and A's lock key with it."
        );
        assert!(told(false).starts_with("redis can reach replica again: "), "{}", told(false));
    }
}
