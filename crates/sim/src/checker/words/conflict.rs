//! The words of how a lock came to be granted twice (a [`Conflict`], and how a node forgot a
//! key: [`Forgot`]), and of a holder that crashed: parts of [`super::explanation`].

use super::Words;
use crate::time::{fmt, Micros};
use crate::verdict::{Conflict, Forgot, KeyGone};

impl Words<'_> {
    /// A holder that crashed: until when nobody could take the lock.
    pub(super) fn crashed_holding(
        &self,
        client: usize,
        at_us: Micros,
        until_us: Micros,
        expired: bool,
        delayed_until_us: Option<Micros>,
    ) -> String {
        let gone = if expired { "expired" } else { "went away" };
        match delayed_until_us {
            None => format!(
                "{} crashed holding the lock at {}; nobody could take it until its key {gone} at {}. Expiry is what restores progress.",
                self.name(client),
                fmt(at_us),
                fmt(until_us)
            ),
            Some(delayed) => format!(
                "{} crashed holding the lock at {}; its key {gone} at {}, and the lock-delay kept the lock from everyone until {}. Expiry, then the lock-delay's end, is what restores progress.",
                self.name(client),
                fmt(at_us),
                fmt(until_us),
                fmt(delayed)
            ),
        }
    }

    /// How the lock service came to grant the lock twice, as the end of a sentence.
    pub(super) fn conflict(&self, c: &Conflict) -> String {
        let list = |v: &mut dyn Iterator<Item = usize>| v.map(|a| self.name(a)).collect::<Vec<_>>().join(", ");
        match c {
            Conflict::SessionUnchecked { client } => {
                let c = self.name(*client);
                format!(
                    "the service told {c} it held the lock without checking its session: {c}'s lease had expired while it waited, so its key was already gone (etcd-io/etcd#11456)"
                )
            }
            Conflict::DeclaredDead { holder, next, silent_us, at_us } => {
                let (h, x) = (self.name(*holder), self.name(*next));
                format!(
                    "{x} took over at {} because it had heard nothing from {h} for {}: a timeout, not knowledge. {h} was not dead: it was still active, and its power had not been cut",
                    fmt(*at_us),
                    fmt(*silent_us)
                )
            }
            Conflict::LeaseAlive { holder, next } => {
                format!("{}'s lease was still alive on the leader when {} was told it held the lock", self.name(*holder), self.name(*next))
            }
            Conflict::Majorities { first, second, shared } => {
                let (g1, g2) = (&self.run.grants[*first], &self.run.grants[*second]);
                let (a, b) = (self.name(g1.client), self.name(g2.client));
                let mut s = format!(
                    "{a}'s majority was {} and {b}'s was {}",
                    list(&mut g1.votes.iter().copied()),
                    list(&mut g2.votes.iter().copied())
                );
                if !shared.is_empty() {
                    let how: Vec<String> = shared.iter().map(|f| self.forgot(f)).collect();
                    s.push_str(&format!("; {} voted for both: {}", list(&mut shared.iter().map(|f| f.node)), how.join("; ")));
                }
                s
            }
            Conflict::Failover { failed, holder, promoted } => format!(
                "{} had failed before {}'s key was replicated, and {} was promoted without it",
                self.name(*failed),
                self.name(*holder),
                self.name(*promoted)
            ),
            Conflict::Split { old, holder, promoted, demoted_us, copy } => {
                let (o, h, p) = (self.name(*old), self.name(*holder), self.name(*promoted));
                let promoted = match copy {
                    None => format!("Sentinel promoted {p}, which never had {h}'s key"),
                    Some(f) => format!("Sentinel promoted {p}, whose copy of {h}'s key did not last ({})", self.forgot(f)),
                };
                match demoted_us {
                    None => format!("{o}, the old primary, cut off from {p} and still answering, kept {h}'s lock while {promoted}"),
                    Some(at_us) => format!("{promoted}, and made {o}, the old primary, its replica at {}", fmt(*at_us)),
                }
            }
            Conflict::Forgot(f) => self.forgot(f),
        }
    }

    /// How a node came to vote twice.
    fn forgot(&self, f: &Forgot) -> String {
        let (n, a) = (self.name(f.node), self.name(f.owner));
        let why = match f.gone {
            KeyGone::Lost { at_us } => format!("{n} lost {a}'s key when it went down at {} without persistence", fmt(at_us)),
            KeyGone::DeletedBy { by, at_us } => format!("{}'s DEL had deleted {a}'s key on {n} at {}", self.name(by), fmt(at_us)),
            KeyGone::Deleted { at_us } => format!("{a}'s key on {n} was deleted at {}", fmt(at_us)),
            KeyGone::Jumped { by_us, at_us } => {
                format!("{n}'s clock jumped forward by {} at {}, so {a}'s key on {n} expired early", fmt(by_us), fmt(at_us))
            }
            KeyGone::RanFast { gained_us, at_us } => format!(
                "{n}'s clock runs fast (it gained {} between {a}'s grant and {}), so {a}'s key on {n} expired early, at {} in true time",
                fmt(gained_us),
                fmt(at_us),
                fmt(at_us)
            ),
            KeyGone::Expired { at_us } => format!("{a}'s key on {n} expired at {} (true time)", fmt(at_us)),
            KeyGone::Unknown => format!("{n} no longer had {a}'s key"),
        };
        let counted = f.counted_at_us.map(|t| format!(", and {a} still counted {n}'s vote when it finished its round at {}", fmt(t)));
        format!("{why}{}", counted.unwrap_or_default())
    }
}
