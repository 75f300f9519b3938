//! What a finding rests on, as data: its [`Cause`], and the parts causes share: why a write was
//! late ([`Reason`]), how a lock service came to grant a lock twice ([`Conflict`], [`Forgot`],
//! [`KeyGone`]), why fencing did not stop a write ([`Unfenced`]) and how a request came to take
//! effect twice ([`Twice`]).
//!
//! The checker concludes and writes no sentence: a cause holds the ids, times and numbers its
//! sentence is made from when it is shown (`checker::words`, the one place with the words). A
//! cause names what the run holds by its place there: an actor by its id (`Run::actors`), an
//! event by its id, a write by its index in `Run::applied`, a grant by its index in
//! `Run::grants`. The trace refers to this module, so those ids are plain numbers here.

use serde::Serialize;

use super::Kind;
use crate::time::Micros;

/// An actor's id (`trace::ActorId`).
type Actor = usize;
/// A write's index in `Run::applied`.
type Write = usize;
/// A grant's index in `Run::grants`.
type Grant = usize;
/// An event's id (`trace::EventId`).
type Event = usize;

/// Why the checker made a finding: one variant per kind of explanation it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    // Violations.
    /// `write` overwrote, unseen, the `lost` writes from `first` on: its writer had read the
    /// version before `first`. `fenced`: the resource checks tokens, and the write that was lost
    /// is the stale one (the writer holds the newer grant, and read before it landed).
    LostUpdate { write: Write, first: Write, lost: usize, stale: Stale, fenced: bool },
    /// `write`, made under an older grant, was accepted after `newer`, made under a newer one.
    OutOfOrderWrite { write: Write, newer: Write, late: Vec<Reason>, unfenced: Option<Unfenced> },
    /// An external effect (`EffectSent`) went out twice, from the transactions of events
    /// `first` and `again`, and nothing deduplicated it.
    EffectTwice { first: Event, again: Event },
    /// A request took effect twice, by `first` and then `write`.
    Duplicate { write: Write, first: Write, twice: Twice, late: Vec<Reason> },
    // Hazards.
    /// `grant` was made while `earlier` (another client's) was still promised.
    DoubleGrant { earlier: Grant, grant: Grant, conflict: Conflict },
    /// `by`'s plain DEL deleted `owner`'s key (`None`: a key whose owner is unknown).
    ForeignRelease { by: Actor, owner: Option<Actor> },
    /// `by`'s plain PEXPIRE extended `owner`'s key.
    ForeignRenew { by: Actor, owner: Option<Actor> },
    /// `holder` believed it held the lock until `held_until_us` (its lease ran out at
    /// `valid_until_us` by its own clock) while `next` believed it held it from `from_us`.
    BeliefOverlap { holder: Actor, held_until_us: Micros, valid_until_us: Micros, next: Actor, from_us: Micros },
    /// `token`, issued to `to` at `at_us`, is not greater than `highest`, issued to
    /// `highest_to` at `highest_at_us`.
    TokenRegression { token: u64, to: Actor, at_us: Micros, highest: u64, highest_to: Actor, highest_at_us: Micros },
    /// A token regression of Sentinel's split: `token` came from the counter on `new`, the
    /// promoted primary, which never saw the INCR that `old`, the old primary (up, not failed),
    /// made for `highest`.
    TokenSplit { token: u64, to: Actor, at_us: Micros, highest: u64, highest_to: Actor, highest_at_us: Micros, old: Actor, new: Actor },
    // Notes.
    /// `client` crashed holding the lock at `at_us`; its key lasted until `until_us`, and
    /// `expired` (rather than went away otherwise).
    CrashedHolding {
        client: Actor,
        at_us: Micros,
        until_us: Micros,
        expired: bool,
        /// With a lock-delay that outlasted the key: when the service let the lock go.
        #[serde(skip_serializing_if = "Option::is_none")]
        delayed_until_us: Option<Micros>,
    },
    /// `client` gave up without getting the lock.
    GaveUp { client: Actor },
    /// `client` stopped without finishing its work, and knows it.
    Stopped { client: Actor },
    /// From `from_us`, when a majority could not be reached, to `to_us`, when a leader was
    /// elected, nothing could be granted, released or expire.
    NoQuorum { from_us: Micros, to_us: Micros },
    /// From `from_us` until `until_us` (`None`: the end of the run) the finding's actors' rounds
    /// won no majority, nobody holding the lock, while lock node `node` was down from
    /// `down_from_us` to `down_to_us`.
    NodeDown { from_us: Micros, until_us: Option<Micros>, node: Actor, down_from_us: Micros, down_to_us: Micros },
    /// The votes split: from `from_us` until `until_us` (`None`: the end of the run) none of the
    /// finding's actors won a majority in `rounds` failed rounds, nobody holding the lock.
    VotesSplit { from_us: Micros, until_us: Option<Micros>, rounds: usize },
    /// The entry was rebuilt by each of these writes, harmlessly.
    Rebuilt { writes: Vec<Write> },
    /// This many messages were still in flight when the run ended.
    InFlight { messages: usize },
    /// The run went on past its duration `due_us` to `end_us`.
    Overrun { due_us: Micros, end_us: Micros },
    /// The run was cut short at `end_us` with `client` in the middle of an update.
    CutShort { client: Actor, end_us: Micros },
    /// `more` findings of `kind` beyond those listed (`checker::LISTED_PER_KIND`).
    Omitted { kind: Kind, more: usize },
}

/// Why the write a lost update harmed was stale.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stale {
    /// Why the stale write came late (nothing known: an empty list).
    Late(Vec<Reason>),
    /// `first` and `second` (granted later) both held the lock, and how the service came to
    /// grant both.
    BothHeld { first: Actor, second: Actor, conflict: Box<Conflict> },
}

/// One reason a client's write came late, in the order the checker looks for them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The writer was paused between its grant and its write.
    Paused { client: Actor, from_us: Micros, to_us: Micros },
    /// The writer was cut off by a partition between its grant and its write: from everyone, or
    /// only from the actors in `apart` (a partition's `from`).
    CutOff {
        client: Actor,
        from_us: Micros,
        to_us: Micros,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        apart: Vec<Actor>,
    },
    /// The write was held in the network.
    Held { client: Actor, from_us: Micros, to_us: Micros },
    /// The writer's lease had run out at `at_us` (by its own clock) before the write landed.
    LeaseRanOut { client: Actor, at_us: Micros },
    /// The resource had checked the write's token at `checked_us`, while the writer's lease
    /// was still valid, and applied it at `applied_us` without checking again (check-then-write).
    CheckedBefore { checked_us: Micros, applied_us: Micros },
    /// Nothing late about the writer: its lease was still valid when the service granted the
    /// lock to `next` at `at_us`, for this reason.
    GrantedAgain { client: Actor, next: Actor, at_us: Micros, conflict: Box<Conflict> },
}

/// How a lock service came to grant a lock while an earlier grant was still promised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Conflict {
    /// etcd told `client` it held the lock without checking its session, whose lease had
    /// expired while it waited (etcd-io/etcd#11456).
    SessionUnchecked { client: Actor },
    /// `holder`'s lease was still alive on the leader when `next` was told it held the lock.
    LeaseAlive { holder: Actor, next: Actor },
    /// Redlock: the majorities of grants `first` and `second`, and how each node they share
    /// came to vote for both.
    Majorities { first: Grant, second: Grant, shared: Vec<Forgot> },
    /// The primary `failed` before `holder`'s key was replicated, and `promoted` was promoted
    /// without it.
    Failover { failed: Actor, holder: Actor, promoted: Actor },
    /// Sentinel promoted `promoted` while `old`, the primary that granted `holder` the lock,
    /// was up: cut off and still answering at the second grant (`demoted_us: None`), or made a
    /// replica of the new primary at `demoted_us`, before it. `copy`: how the replicated copy of
    /// `holder`'s key went from `promoted` (`None`: it never had one).
    Split {
        old: Actor,
        holder: Actor,
        promoted: Actor,
        demoted_us: Option<Micros>,
        #[serde(skip_serializing_if = "Option::is_none")]
        copy: Option<Forgot>,
    },
    /// The node that granted both forgot the first key.
    Forgot(Forgot),
    /// A failover pair: `next` took over at `at_us` because it had heard nothing from `holder`
    /// for `silent_us` (its deadtime), without knowing that `holder` had stopped.
    DeclaredDead { holder: Actor, next: Actor, silent_us: Micros, at_us: Micros },
}

/// How `node` came to vote twice: `owner`'s key on it went away, and how. `counted_at_us`: when
/// `owner` finished a round that still counted the vote after the key had gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Forgot {
    pub node: Actor,
    pub owner: Actor,
    pub gone: KeyGone,
    pub counted_at_us: Option<Micros>,
}

/// How a key went away from a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyGone {
    /// Lost when the node went down without persistence.
    Lost { at_us: Micros },
    /// Deleted by `by`'s DEL.
    DeletedBy { by: Actor, at_us: Micros },
    /// Deleted, by whom not known.
    Deleted { at_us: Micros },
    /// Expired early: the node's clock jumped forward by `by_us` at `at_us`.
    Jumped { by_us: Micros, at_us: Micros },
    /// Expired early, at `at_us`: the node's clock runs fast and gained `gained_us` since the
    /// grant.
    RanFast { gained_us: Micros, at_us: Micros },
    /// Expired at `at_us`.
    Expired { at_us: Micros },
    /// The node no longer had it, how not known.
    Unknown,
}

/// Why fencing did not stop a write made under an older grant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unfenced {
    /// The write carried no token.
    NoToken,
    /// The resource (an external API) ignores tokens.
    Ignored,
    /// The resource does not check tokens.
    Unchecked,
    /// The resource checked the token and wrote in separate steps.
    CheckThenWrite,
    /// The newer grant's token was not greater than the older one's.
    NotGreater,
}

/// How a request came to take effect twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Twice {
    /// Its client sent it again after a timeout, and both copies arrived.
    Resent,
    /// Two clients sent it, and the external API ignores tokens.
    IgnoresTokens,
    /// Two clients sent it.
    Sent,
}
