//! The checker's words: [`explanation`] makes a finding's sentence from its data when it is
//! shown, and [`actors`] names the actors it concerns.
//!
//! The checker's findings hold no English ([`crate::verdict::Cause`]); every sentence they are
//! told in is here, made from the finding and the run it belongs to (whose actors, writes,
//! grants and events the finding names by id), so that a translation has one file to follow.
//! The text, the JSON, the app's verdict and a violation's mark all show these sentences.

use super::LISTED_PER_KIND;
use crate::time::{fmt, Micros};
use crate::trace::{Applied, EventKind, Run};
use crate::verdict::{Cause, Finding, Reason, Stale, Twice, Unfenced};

mod conflict;
mod late;

/// The lesson a fenced lost update points to, where it is not the lesson itself.
const FRESH_OWNER_LESSON: &str = "fresh-owner-not-yet-seen";
/// Its title, as a reader knows it (a test checks it against the library).
pub const FRESH_OWNER_TITLE: &str = "The new owner has not shown its token yet";

/// The names of the actors `f` concerns, in its order.
pub fn actors<'a>(run: &'a Run, f: &Finding) -> Vec<&'a str> {
    f.actors.iter().map(|&a| run.name(a)).collect()
}

/// When `who`'s own clock reached a deadline, the true time `at_us` (issue 49: a true time
/// said "by its own clock" was read as the clock's): "at 11 s by its own clock" where the
/// clock read true time then, else "at 19.155 s, when its own clock (running 30 % slow) read
/// 13.408 s".
pub fn by_own_clock(run: &Run, who: usize, at_us: Micros) -> String {
    let Some(clock) = run.clocks.get(who) else { return format!("at {} by its own clock", fmt(at_us)) };
    let local = clock.local_at(at_us);
    if local == at_us {
        return format!("at {} by its own clock", fmt(at_us));
    }
    let rate = rate(run, who, at_us).map(|r| format!(" (running {r})")).unwrap_or_default();
    format!("at {}, when its own clock{rate} read {}", fmt(at_us), fmt(local))
}

/// How fast `who`'s clock runs at `at_us`, if not at true time's rate: "30 % slow",
/// "100 ppm fast".
pub fn rate(run: &Run, who: usize, at_us: Micros) -> Option<String> {
    let ppm = run.clocks.get(who)?.ppm_at(at_us);
    let way = if ppm < 0 { "slow" } else { "fast" };
    match ppm.abs() {
        0 => None,
        p if p >= 10_000 => {
            let tenths = (p + 500) / 1_000;
            let percent = if tenths % 10 == 0 { format!("{}", tenths / 10) } else { format!("{}.{}", tenths / 10, tenths % 10) };
            Some(format!("{percent} % {way}"))
        }
        p => Some(format!("{p} ppm {way}")),
    }
}

/// One or two sentences that name the cause of `f`, a finding of `run`.
pub fn explanation(run: &Run, f: &Finding) -> String {
    let w = Words { run };
    let n = |a: usize| run.name(a);
    match &f.cause {
        Cause::LostUpdate { write, first, lost, stale, fenced } => w.lost_update(*write, *first, *lost, stale, *fenced),
        Cause::OutOfOrderWrite { write, newer, late, unfenced } => w.out_of_order(*write, *newer, late, *unfenced),
        Cause::EffectTwice { first, again } => w.effect_twice(*first, *again),
        Cause::Duplicate { write, first, twice, late } => w.duplicate(*write, *first, *twice, late),
        Cause::DoubleGrant { earlier, grant, conflict } => {
            let (g1, g2) = (&run.grants[*earlier], &run.grants[*grant]);
            // What was promised when the second grant was made: a renewal after it is told as
            // one, and a grant released early held until its release (issue 49).
            let then = g1.term_at(g2.at_us);
            let until = match (g1.released_us, g1.renewal_after(g2.at_us)) {
                (Some(r), _) if r == g1.term_end_us && r <= then => format!("held until {} released it at {}", n(g1.client), fmt(r)),
                (_, Some((renewed, _))) if then < g1.term_end_us => {
                    format!("promised until {} ({} renewed it at {}, to {})", fmt(then), n(g1.client), fmt(renewed), fmt(g1.term_end_us))
                }
                _ => format!("promised until {}", fmt(then)),
            };
            format!(
                "{} was granted the lock at {} while {}'s grant made at {} was still {until}: {}.",
                n(g2.client),
                fmt(g2.at_us),
                n(g1.client),
                fmt(g1.at_us),
                w.conflict(conflict)
            )
        }
        Cause::ForeignRelease { by, owner } => {
            let (by, owner) = (n(*by), owner.map_or("another client", n));
            format!("{by}'s plain DEL deleted {owner}'s key; a compare-and-delete would have refused.")
        }
        Cause::ForeignRenew { by, owner } => {
            let (by, owner) = (n(*by), owner.map_or("another client", n));
            format!(
                "{by}'s plain PEXPIRE extended {owner}'s key and told {by} it still held the lock; a compare-and-extend would have refused."
            )
        }
        Cause::BeliefOverlap { holder, held_until_us, valid_until_us, next, from_us } => {
            w.belief_overlap(*holder, *held_until_us, *valid_until_us, *next, *from_us)
        }
        Cause::TokenRegression { token, to, at_us, highest, highest_to, highest_at_us }
        | Cause::TokenSplit { token, to, at_us, highest, highest_to, highest_at_us, .. } => {
            let why = match f.cause {
                Cause::TokenSplit { old, new, .. } => {
                    let (old, new) = (n(old), n(new));
                    format!(
                        "the counter on {new}, the new primary, never saw the INCR that {old}, the old primary, made for {}; Sentinel had promoted {new} while {old} was still up",
                        n(*highest_to)
                    )
                }
                _ => "the counter was lost and started again".to_string(),
            };
            format!(
                "Token {token} issued to {} at {} is not greater than token {highest} issued to {} at {}: {why}.",
                n(*to),
                fmt(*at_us),
                n(*highest_to),
                fmt(*highest_at_us)
            )
        }
        Cause::CrashedHolding { client, at_us, until_us, expired, delayed_until_us } => {
            w.crashed_holding(*client, *at_us, *until_us, *expired, *delayed_until_us)
        }
        Cause::GaveUp { client } => format!("{} gave up without getting the lock.", n(*client)),
        Cause::Stopped { client } => format!("{} stopped without finishing its work (and knows it).", n(*client)),
        Cause::NoQuorum { from_us, to_us } => format!(
            "From {}, when a majority of the members could no longer be reached, to {}, when a new leader was elected, nothing could be granted, released or expire ({}).",
            fmt(*from_us),
            fmt(*to_us),
            fmt(*to_us - *from_us)
        ),
        Cause::NodeDown { from_us, until_us, node, down_from_us, down_to_us } => format!(
            "From {} to {} the rounds of {} won no majority although nobody held the lock: {} was down from {} to {} (a delayed restart keeps a node out until every lock it may have granted has expired). That wait is the price of keeping the lock safe.",
            fmt(*from_us),
            until(*until_us),
            actors(run, f).join(" and "),
            n(*node),
            fmt(*down_from_us),
            fmt(*down_to_us)
        ),
        Cause::VotesSplit { from_us, until_us, rounds } => format!(
            "The votes split: from {} to {} none of {} won a majority although nobody held the lock ({rounds} failed rounds). Random retry delays break the tie; until then nobody makes progress.",
            fmt(*from_us),
            until(*until_us),
            actors(run, f).join(", ")
        ),
        Cause::Rebuilt { writes } => {
            let list: Vec<String> = writes.iter().map(|&i| format!("{} at {}", n(run.applied[i].client), fmt(run.applied[i].at_us))).collect();
            let wasted = writes.len().saturating_sub(1);
            format!(
                "The entry was rebuilt {} times ({}): {wasted} of the rebuilds {} wasted work. Each wrote the same content, so no data was harmed: here the lock only saves work.",
                writes.len(),
                list.join(", "),
                if wasted == 1 { "was" } else { "were" }
            )
        }
        Cause::InFlight { messages } => format!("{messages} message(s) were still in flight when the run ended."),
        Cause::Overrun { due_us, end_us } => format!(
            "The run went on past its duration ({}) to {}: a client was in the middle of an update, and a run is judged only once its clients' updates have ended.",
            fmt(*due_us),
            fmt(*end_us)
        ),
        Cause::CutShort { client, end_us } => format!(
            "The run was cut short at {} with {} in the middle of an update (it had read a value it had not written, or held the lock with a write ahead): what that write would have done is not judged.",
            fmt(*end_us),
            n(*client)
        ),
        Cause::Omitted { kind, more } => format!("Only the first {LISTED_PER_KIND} {kind} findings are listed; {more} more are not."),
    }
}

/// The end of a span that may have lasted to the end of the run.
fn until(t: Option<crate::time::Micros>) -> String {
    t.map_or("the end of the run".to_string(), fmt)
}

/// " with token 34", or nothing for a write without a token.
fn token_phrase(t: Option<u64>) -> String {
    t.map(|t| format!(" with token {t}")).unwrap_or_default()
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// The sentences of the longer causes, with the run they name things from.
struct Words<'a> {
    run: &'a Run,
}

impl Words<'_> {
    fn name(&self, a: usize) -> &str {
        self.run.name(a)
    }

    /// Two clients believed they held the lock at once: why the first's belief did not end.
    fn belief_overlap(&self, holder: usize, held_until_us: Micros, valid_until_us: Micros, next: usize, from_us: Micros) -> String {
        let (h, nx) = (self.name(holder), self.name(next));
        let (held, from) = (fmt(held_until_us), fmt(from_us));
        if valid_until_us >= crate::proto::NO_LEASE_US / 2 {
            // A holder with no lease (a node of a failover pair): nothing ran out.
            format!("{h} believed it held the lock until {held} (it had no lease that could run out) while {nx} believed it held it from {from}.")
        } else if valid_until_us > from_us {
            // The holder's lease was still valid by its own clock when the next took over: the
            // next counted its wait by a clock of its own (k8s-lease-clock-rate), which is named.
            let rate = self.rate(next, from_us).map(|r| format!("; {nx}'s own clock was running {r}")).unwrap_or_default();
            let ran_out = self.by_own_clock(holder, valid_until_us);
            format!("{h} believed it held the lock until {held} while {nx} believed it held it from {from}, before {h}'s lease ran out {ran_out}{rate}.")
        } else {
            format!(
                "{h} believed it held the lock until {held} (its lease ran out {}) while {nx} believed it held it from {from}.",
                self.by_own_clock(holder, valid_until_us)
            )
        }
    }

    fn rate(&self, who: usize, at_us: Micros) -> Option<String> {
        rate(self.run, who, at_us)
    }

    fn by_own_clock(&self, who: usize, at_us: Micros) -> String {
        by_own_clock(self.run, who, at_us)
    }

    /// When the writer got the read the resource served at `served_us`, if that was much
    /// later (a pause or a cut-off between): " (served then; A got it at 13.01 s)".
    fn got_read(&self, w: &Applied, served_us: Micros) -> String {
        let got =
            self.run.events.iter().filter(|e| e.actor == w.client && e.at_us >= served_us && e.at_us <= w.at_us).find_map(|e| {
                match e.kind {
                    EventKind::ReadDone { version, .. } if Some(version) == w.read_version => Some(e.at_us),
                    _ => None,
                }
            });
        match got {
            Some(t) if t - served_us >= Micros::ms(100) => format!(" (served then; {} got it at {})", self.name(w.client), fmt(t)),
            _ => String::new(),
        }
    }

    fn lost_update(&self, write: usize, first: usize, lost: usize, stale: &Stale, fenced: bool) -> String {
        let (w, first) = (&self.run.applied[write], &self.run.applied[first]);
        let (who, other) = (self.name(w.client), self.name(first.client));
        let read_at = w.read_at_us.map(|t| format!(" at {}{}", fmt(t), self.got_read(w, t))).unwrap_or_default();
        let lost_desc = if first.client == w.client {
            format!("its own earlier write of {}", first.value_after)
        } else {
            format!("{other}'s write of {} at {}", first.value_after, fmt(first.at_us))
        };
        let stale = match stale {
            Stale::Late(why) => self.late(why),
            Stale::BothHeld { first, second, conflict } => {
                format!(" {} and {} both held the lock: {}.", self.name(*first), self.name(*second), self.conflict(conflict))
            }
        };
        // Looked for only where fencing could have stopped it.
        let checked = (fenced && first.client != w.client).then(|| super::checked_at(self.run, first)).flatten();
        let unfenced_why = if checked.is_some() {
            let t = first.token.map(|t| format!(" {t}")).unwrap_or_default();
            format!(
                " Fencing could not stop it: {who}'s newer token had not reached the resource when it checked {other}'s token{t}, nor when it applied that write after {who} had read, so no check could have refused it. Both are needed: the new owner makes its token known to the resource (activates it) before it reads, and the resource checks and writes in one step."
            )
        } else if fenced {
            let lesson = if self.run.scenario == FRESH_OWNER_LESSON {
                String::new()
            } else {
                format!(" (the lesson \u{201c}{FRESH_OWNER_TITLE}\u{201d})")
            };
            format!(
                " Fencing could not stop it: {other}'s write reached the resource before anything carrying {who}'s newer token, so the resource had no newer token to compare it with; {who} had read before it landed. The rest of the answer{lesson}: the new owner makes its token known to the resource (activates it) before it reads."
            )
        } else {
            String::new()
        };
        format!(
            "The resource accepted {who}'s write of {}{} at {}, which overwrote {lost_desc} without having seen it: {who} had read version {}{read_at}. {} update{} lost: the value is {} after {} accepted writes.{stale}{unfenced_why}",
            w.value_after,
            token_phrase(w.token),
            fmt(w.at_us),
            w.read_version.unwrap_or_default(),
            if lost == 1 { "One" } else { "Several" },
            if lost == 1 { " is" } else { "s are" },
            w.value_after,
            w.version_before + 1,
        )
    }

    fn out_of_order(&self, write: usize, newer: usize, late: &[Reason], unfenced: Option<Unfenced>) -> String {
        let (w, n) = (&self.run.applied[write], &self.run.applied[newer]);
        let (who, other) = (self.name(w.client), self.name(n.client));
        let grant_at = |a: &Applied| a.grant.map_or(crate::time::Micros::ZERO, |g| self.run.grants[g].at_us);
        let no_fence = match unfenced {
            Some(Unfenced::NoToken) => " The write carried no token the resource could compare.",
            Some(Unfenced::Ignored) => " The resource ignores tokens.",
            Some(Unfenced::Unchecked) => " The resource does not check tokens.",
            Some(Unfenced::CheckThenWrite) => {
                " The resource checked the token and wrote in separate steps, so the check was stale by the time of the write."
            }
            Some(Unfenced::NotGreater) => {
                let (t, nt) = (w.token.unwrap_or_default(), n.token.unwrap_or_default());
                return format!(
                    "{} {other}'s newer grant came with token {nt}, not greater than {who}'s {t}, so the resource took {who}'s stale write for the newer one.",
                    self.out_of_order(write, newer, late, None)
                );
            }
            None => "",
        };
        format!(
            "The resource accepted {who}'s write{} at {} after {other}'s write{} at {}; {other} had been granted the lock at {}, after {who}'s grant at {}.{}{no_fence}",
            token_phrase(w.token),
            fmt(w.at_us),
            token_phrase(n.token),
            fmt(n.at_us),
            fmt(grant_at(n)),
            fmt(grant_at(w)),
            self.late(late),
        )
    }

    fn effect_twice(&self, first: usize, again: usize) -> String {
        let (first, e) = (&self.run.events[first], &self.run.events[again]);
        let client = |e: &crate::trace::Event| match e.kind {
            EventKind::EffectSent { client, .. } => self.name(client),
            _ => self.name(e.actor),
        };
        let key = match &e.kind {
            EventKind::EffectSent { key, .. } => key.as_str(),
            _ => "",
        };
        format!(
            "{key} went out twice: from {}'s transaction at {} and from {}'s at {}. Rolling the transaction back undid its update, not what it had already sent outside the database; nothing deduplicated it (no idempotency key).",
            client(first),
            fmt(first.at_us),
            client(e),
            fmt(e.at_us),
        )
    }

    fn duplicate(&self, write: usize, first: usize, twice: Twice, late: &[Reason]) -> String {
        let (w, first) = (&self.run.applied[write], &self.run.applied[first]);
        let (who, other) = (self.name(w.client), self.name(first.client));
        let how = match twice {
            Twice::Resent => format!(
                " {who} had sent it again after a timeout, and both copies arrived{}.",
                if w.token.is_some() { " with the current token" } else { "" }
            ),
            Twice::IgnoresTokens => " The external API ignores tokens, so fencing cannot stop the stale owner.".to_string(),
            Twice::Sent => String::new(),
        };
        format!(
            "Request {} took effect twice: from {other} at {} and from {who} at {}.{how} Nothing deduplicated it (no idempotency key).{}",
            w.request,
            fmt(first.at_us),
            fmt(w.at_us),
            self.late(late),
        )
    }
}
