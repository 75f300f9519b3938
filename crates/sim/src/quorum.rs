//! Majorities, for the services replicated by a quorum (the consensus service, ZooKeeper):
//! who can lead, as the models simplify it (SEMANTICS §4, §5): the lowest-numbered live member
//! that reaches a majority, itself included.

use crate::flat::Set;

use crate::actor::{Effect, Env, Gate, ServerFault};
use crate::time::Micros;
use crate::trace::{ActorId, EventKind, QuorumEvent};

/// How many members make a majority.
pub fn majority(members: &[ActorId]) -> usize {
    members.len() / 2 + 1
}

/// Whether member `m` runs: it is neither down nor paused. A paused member sends no heartbeats
/// and casts no votes, so in Raft and ZAB the others elect without it once the election timeout
/// has passed (SEMANTICS §4), and a paused leader is replaced.
fn runs(m: ActorId, env: &dyn Env) -> bool {
    !env.is_down(m) && env.paused_until(m).is_none()
}

/// Whether member `m` runs and can reach a majority of running members (itself included).
pub fn reaches_majority(members: &[ActorId], m: ActorId, env: &dyn Env) -> bool {
    if !runs(m, env) {
        return false;
    }
    let reach = members.iter().filter(|&&o| runs(o, env) && !env.cut(m, o)).count();
    reach >= majority(members)
}

/// The outcome of an election after a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Election {
    /// The current leader still reaches a majority.
    Stays,
    /// A new leader.
    Elected(ActorId),
    /// Nobody reaches a majority.
    NoQuorum,
}

/// Who leads now, given who led.
pub fn elect(members: &[ActorId], current: Option<ActorId>, env: &dyn Env) -> Election {
    if current.is_some_and(|l| reaches_majority(members, l, env)) {
        return Election::Stays;
    }
    match members.iter().copied().find(|&m| reaches_majority(members, m, env)) {
        Some(l) => Election::Elected(l),
        None => Election::NoQuorum,
    }
}

/// Who leads a replicated service, its proposals, and when it next holds an election.
#[derive(Clone, Debug)]
pub struct Leadership<Op> {
    pub members: Vec<ActorId>,
    pub leader: Option<ActorId>,
    pub log: Log<Op>,
    election_timeout: Micros,
    /// Since when no member has reached a majority (seen at each fault, the only moments
    /// when who runs and who reaches whom change); `None` while one does.
    lost_since: Option<Micros>,
    /// Since when the leader has not reached a majority (seen at each fault, as `lost_since`):
    /// it crashed, stopped (a pause, a disk stall) or was cut off from the others; `None`
    /// while it reaches one, or with no leader. The members give up on it an election
    /// timeout after this, not after whichever fault armed the timer that fires.
    silent_since: Option<Micros>,
    /// Whether the loss of quorum has been said since the last leader.
    no_quorum_said: bool,
    /// A leader replaced while it was paused: it learns so when it resumes.
    deposed: Option<ActorId>,
}

/// What an election changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Stays,
    /// The leader has been out of a majority's reach for less than an election timeout:
    /// nothing changes yet. The fault that silenced it armed the election for `until_us`.
    Waits {
        until_us: Micros,
    },
    /// A new leader, with an empty log.
    Elected(ActorId),
    /// Nobody leads: say so at this member, the first time; no member has reached a majority
    /// since `since_us`.
    NoQuorum {
        say_at: Option<ActorId>,
        since_us: Micros,
    },
}

impl<Op> Leadership<Op> {
    pub fn new(members: Vec<ActorId>, election_timeout: Micros) -> Self {
        Leadership {
            members,
            leader: None,
            log: Log::default(),
            election_timeout,
            no_quorum_said: false,
            deposed: None,
            lost_since: None,
            silent_since: None,
        }
    }

    /// The member clients talk to: the leader, or (with none) the first member.
    pub fn contact(&self) -> Option<ActorId> {
        self.leader.or(self.members.first().copied())
    }

    /// The first election, as the run starts.
    pub fn first_election<T>(&self, timer: T) -> Effect<T> {
        Effect::Timer { actor: self.members[0], at: Micros::ZERO, timer, gate: Gate::Always }
    }

    fn election_after<T>(&self, env: &dyn Env, timer: T) -> Effect<T> {
        Effect::Timer { actor: self.members[0], at: env.now() + self.election_timeout, timer, gate: Gate::Always }
    }

    /// Whether the leader can judge an expiry now: its id and its monotonic clock's reading. A
    /// missing or crashed leader judges nothing; nor does a paused one, and when it resumes its
    /// service checks again ([`crate::actor::ServerFault::Resumed`]), after what reached it
    /// during the pause (a keepalive) has been handled.
    pub fn judge_now(&self, env: &dyn Env) -> Option<(ActorId, Micros)> {
        let leader = self.leader?;
        match judge(self.leader, env) {
            Judge::Now(mono) => Some((leader, mono)),
            Judge::No | Judge::Later(_) => None,
        }
    }

    /// A fault to a member (or the network): leadership is decided again after the election
    /// timeout (`election` is armed). A member that resumes after being replaced as leader
    /// during its pause hears the new leader's higher term and steps down (Raft §5.1, ZAB's
    /// epochs). Returns whether the leader has just resumed: it judged no expiry while paused,
    /// and its service must check again (after what reached it during the pause).
    pub fn on_fault<T>(&mut self, fault: ServerFault, env: &dyn Env, election: T, out: &mut Vec<Effect<T>>) -> bool {
        if fault == ServerFault::Failover {
            return false;
        }
        if let ServerFault::Resumed(m) = fault {
            if self.deposed == Some(m) {
                self.deposed = None;
                if let Some(leader) = self.leader.filter(|&l| l != m) {
                    out.push(Effect::Event { actor: m, kind: EventKind::Quorum(QuorumEvent::SteppedDown { leader }) });
                }
            }
        }
        if self.members.iter().any(|&m| reaches_majority(&self.members, m, env)) {
            self.lost_since = None;
        } else {
            self.lost_since.get_or_insert(env.now());
        }
        if self.leader.is_some_and(|l| !reaches_majority(&self.members, l, env)) {
            self.silent_since.get_or_insert(env.now());
        } else {
            self.silent_since = None;
        }
        out.push(self.election_after(env, election));
        matches!(fault, ServerFault::Resumed(m) if Some(m) == self.leader)
    }

    /// Decides who leads now. A leader out of a majority's reach is given up (replaced, or
    /// nobody leads) only once it has been so for an election timeout (Raft §5.2, SEMANTICS
    /// §4): an election timer armed by an earlier fault (a client cut off) that fires sooner
    /// waits, and the one armed by the fault that silenced the leader, at exactly that
    /// moment plus the timeout, decides.
    pub fn elect(&mut self, env: &dyn Env) -> Change {
        let outcome = elect(&self.members, self.leader, env);
        if let Some(since) = self.silent_since.filter(|_| outcome != Election::Stays) {
            let until_us = since + self.election_timeout;
            if env.now() < until_us {
                return Change::Waits { until_us };
            }
        }
        self.silent_since = None;
        match outcome {
            Election::Stays => Change::Stays,
            Election::Elected(l) => {
                if let Some(old) = self.leader.filter(|&o| env.paused_until(o).is_some()) {
                    self.deposed = Some(old);
                }
                self.leader = Some(l);
                self.log.clear();
                self.no_quorum_said = false;
                Change::Elected(l)
            }
            Election::NoQuorum => {
                let at = self.leader.unwrap_or(self.members[0]);
                self.leader = None;
                self.log.clear();
                let say_at = (!self.no_quorum_said).then_some(at);
                self.no_quorum_said = true;
                Change::NoQuorum { say_at, since_us: self.lost_since.unwrap_or(env.now()) }
            }
        }
    }
}

/// A leader's proposals waiting for a majority, in the order they were made.
#[derive(Clone, Debug)]
pub struct Log<Op> {
    next: u64,
    pending: Vec<(u64, Op, Set<ActorId>)>,
}

impl<Op> Default for Log<Op> {
    fn default() -> Self {
        Log { next: 1, pending: Vec::new() }
    }
}

impl<Op> Log<Op> {
    /// Adds a proposal; returns its id.
    pub fn propose(&mut self, op: Op) -> u64 {
        let id = self.next;
        self.next += 1;
        self.pending.push((id, op, Set::new()));
        id
    }

    /// A follower has proposal `id`.
    pub fn ack(&mut self, id: u64, from: ActorId) {
        if let Some(p) = self.pending.iter_mut().find(|p| p.0 == id) {
            p.2.insert(from);
        }
    }

    /// The proposals that commit now, in order: the longest prefix of the log of which a
    /// majority of `members` (the leader included) has every entry. A later proposal never
    /// commits before an earlier one, as in Raft and ZAB.
    pub fn committed(&mut self, members: &[ActorId]) -> Vec<Op> {
        let n = self.pending.iter().take_while(|p| p.2.len() + 1 >= majority(members)).count();
        self.pending.drain(..n).map(|p| p.1).collect()
    }

    /// A new leader starts with an empty log (what was not committed is lost).
    pub fn clear(&mut self) {
        self.pending.clear();
    }
}

/// Whether the leader can judge now that something kept by its clock has expired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// No leader, or it is down: nothing expires.
    No,
    /// The leader is paused until then: it judges when it runs again.
    Later(Micros),
    /// The leader's monotonic clock reads this now.
    Now(Micros),
}

/// Whether `leader` can judge an expiry now, and by what reading of its monotonic clock.
pub fn judge(leader: Option<ActorId>, env: &dyn Env) -> Judge {
    match leader {
        None => Judge::No,
        Some(l) if env.is_down(l) => Judge::No,
        Some(l) => match env.paused_until(l) {
            Some(until) => Judge::Later(until),
            None => Judge::Now(env.mono(l)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actor::testing::FakeEnv;

    #[test]
    fn a_proposal_commits_only_after_every_earlier_one() {
        let members = [2, 3, 4];
        let mut log = Log::default();
        let (a, b) = (log.propose("a"), log.propose("b"));
        // Only b reached a follower (a's append was lost): nothing commits yet.
        log.ack(b, 3);
        assert!(log.committed(&members).is_empty());
        log.ack(a, 4);
        assert_eq!(log.committed(&members), vec!["a", "b"]);
        assert!(log.committed(&members).is_empty(), "taken out once");
    }

    #[test]
    fn the_lowest_member_that_reaches_a_majority_leads() {
        let mut e = FakeEnv::new(&["c", "m1", "m2", "m3"]);
        let members = [1, 2, 3];
        assert_eq!(elect(&members, None, &e), Election::Elected(1));
        assert_eq!(elect(&members, Some(1), &e), Election::Stays);
        e.cuts = vec![(1, 2), (1, 3)];
        assert_eq!(elect(&members, Some(1), &e), Election::Elected(2), "m1 is cut off from both others");
        e.down = vec![3];
        assert_eq!(elect(&members, Some(2), &e), Election::NoQuorum);
        assert_eq!(judge(Some(2), &e), Judge::Now(Micros::ZERO));
        e.paused = vec![(2, Micros::us(5))];
        assert_eq!(judge(Some(2), &e), Judge::Later(Micros::us(5)));
        assert_eq!(judge(Some(3), &e), Judge::No);
    }

    /// Leadership over m1..m3 (actors 1..=3) with a 1 s election timeout, m1 elected at 0.
    fn led_by_m1(e: &FakeEnv) -> Leadership<()> {
        let mut q = Leadership::new(vec![1, 2, 3], Micros::ms(1_000));
        assert_eq!(q.elect(e), Change::Elected(1));
        q
    }

    /// A fault at time `at_us` (µs): the election it arms, as `on_fault` pushes it.
    fn fault(q: &mut Leadership<()>, e: &mut FakeEnv, at_us: i64, fault: ServerFault) -> Micros {
        e.now = Micros::us(at_us);
        let mut out = Vec::new();
        q.on_fault(fault, e, (), &mut out);
        match out.last() {
            Some(&Effect::Timer { at, .. }) => at,
            _ => panic!("no election armed"),
        }
    }

    /// d8-crash-5499: a client cut off at 4.5 s armed an election for 5.5 s, m1 crashed at
    /// 5.499 s, and m2 was elected 1 ms later. The others give up on m1 an election timeout
    /// after it went silent, at 6.499 s, whichever timer fires first.
    #[test]
    fn a_leader_is_replaced_an_election_timeout_after_it_went_silent_not_after_an_earlier_fault() {
        let mut e = FakeEnv::new(&["client1", "m1", "m2", "m3"]);
        let mut q = led_by_m1(&e);
        e.cuts = vec![(0, 1), (0, 2), (0, 3)];
        let early = fault(&mut q, &mut e, 4_500_000, ServerFault::Network);
        e.down = vec![1];
        let due = fault(&mut q, &mut e, 5_499_000, ServerFault::Crashed(1));
        assert_eq!((early, due), (Micros::us(5_500_000), Micros::us(6_499_000)));
        e.now = early;
        assert_eq!(q.elect(&e), Change::Waits { until_us: due }, "m1 has been silent for 1 ms");
        assert_eq!(q.leader, Some(1));
        e.now = due;
        assert_eq!(q.elect(&e), Change::Elected(2));
    }

    /// A leader heard from again (it resumed) is not replaced by a timer armed while it was
    /// silent; when it goes silent again, its silence is counted from then.
    #[test]
    fn a_leaders_silence_starts_again_each_time_it_stops() {
        let mut e = FakeEnv::new(&["client1", "m1", "m2", "m3"]);
        let mut q = led_by_m1(&e);
        e.paused = vec![(1, Micros::us(2_300_000))];
        let first = fault(&mut q, &mut e, 2_000_000, ServerFault::Paused(1));
        e.paused.clear();
        fault(&mut q, &mut e, 2_300_000, ServerFault::Resumed(1));
        e.cuts = vec![(1, 2), (1, 3)];
        let cut = fault(&mut q, &mut e, 2_500_000, ServerFault::Network);
        e.now = first;
        assert_eq!(q.elect(&e), Change::Waits { until_us: cut }, "cut off from the others for 0.5 s");
        e.now = cut;
        assert_eq!(q.elect(&e), Change::Elected(2));
    }
}
