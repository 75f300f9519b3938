//! Whether a key moment's condition (`scenario::When`) holds at an event of a run: the parts a
//! run alone can tell (the network's parts are the scenario's partitions: `When::network_holds`).

use super::{ActorId, EventId, EventKind, Run};

impl Run {
    /// Whether a moment's condition holds at event `id` (see [`crate::scenario::When`]).
    pub fn holds(&self, when: &crate::scenario::When, id: EventId) -> bool {
        let e = &self.events[id];
        let verdict = when.verdict.is_none_or(|v| v == self.verdict.verdict);
        let finding = when.finding.is_empty()
            || self.verdict.violations.iter().chain(&self.verdict.hazards).any(|f| when.finding.contains(&f.property));
        let holders = self.intervals.beliefs.iter().filter(|b| b.from_us <= e.at_us && e.at_us < b.to_us).map(|b| b.client);
        let holders: crate::flat::Set<_> = holders.into_iter().collect();
        let overlap = when.overlap.is_none_or(|o| o == (holders.len() >= 2));
        let token = when.token.is_none_or(|t| e.kind.token() == Some(t));
        verdict && finding && overlap && token && self.holds_at_event(when, id)
    }

    /// The conditions of `when` about the event itself and its neighbours: the resource's
    /// value after it, whose key it touches, how its token compares, which events come before
    /// and after it.
    fn holds_at_event(&self, when: &crate::scenario::When, id: EventId) -> bool {
        let e = &self.events[id];
        let value = when.value.is_none_or(|v| self.value_after(id) == v);
        let named = |n: &Option<String>| n.as_deref().map(|n| self.actor_id(n));
        let owner = named(&when.owner).is_none_or(|o| o.is_some() && e.kind.key_owner() == o);
        // The token of a client's last grant up to the event (a random owner value included).
        let last = |c: ActorId| {
            self.events[..id].iter().rev().find_map(|x| match x.kind {
                EventKind::Acquired { token, .. } if x.actor == c => token,
                _ => None,
            })
        };
        let cmp = |n: &Option<String>, lower: bool| {
            named(n).is_none_or(|c| match (c.and_then(last), e.kind.token()) {
                (Some(theirs), Some(ours)) => (ours < theirs) == lower && ours != theirs,
                _ => false,
            })
        };
        // Each spec may name alternatives: "accepted A|rejected A".
        let any = |spec: &String, f: &dyn Fn(EventId) -> bool| spec.split('|').filter_map(|s| self.find(s)).any(f);
        let after = when.after.iter().all(|s| any(s, &|x| x < id));
        let before = when.before.iter().all(|s| any(s, &|x| x > id));
        let not_after = when.not_after.iter().all(|s| !any(s, &|x| x < id));
        // "The partition heals" as this happens: an event at the same true time, before it.
        let with = when.with.iter().all(|s| any(s, &|x| x < id && self.events[x].at_us == e.at_us));
        let highest = when.highest.is_none_or(|h| self.highest_after(id) == h);
        value && owner && cmp(&when.below, true) && cmp(&when.above, false) && after && before && not_after && with && highest
    }

    /// The highest token the resource has accepted once event `id` has happened (0: none).
    pub fn highest_after(&self, id: EventId) -> u64 {
        let n = self.resource_log.partition_point(|s| s.event <= id);
        n.checked_sub(1).map_or(0, |i| self.resource_log[i].highest)
    }
}
