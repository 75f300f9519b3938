//! Key moments: [`Moment`], the narration a scenario attaches to an event of its run, and
//! [`When`], what must be true of the run for the moment's words to be true of it.

use serde::{Deserialize, Serialize};

use super::Setting;

/// Narration for a key moment: `on` names an event as `"<what> [actor] [#n]"`, e.g.
/// `"paused A"`, `"accepted A"`, `"expired"` or `"acquired B #2"`; see `trace::EventKind::tag`.
///
/// The same moments are matched on every run of the scenario: as written, with its fix, and as
/// the reader edits it. `when` says what must be true of a run for `text` to be true of it; a
/// moment is shown only where it holds (`trace::Run::holds`), and, where `seen` is given, only
/// on a run that did what a run it was written for did (`crate::witness`). A text that claims
/// harm, two holders or a token number says so in `when` (the library tests check it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moment {
    pub on: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "When::is_always")]
    pub when: When,
    /// The fingerprint (`witness::fingerprint`) of each run the text was written for and shown
    /// on: the scenario as written, with its fix, with its challenge's solution. Where it is
    /// given, the moment is shown on a run only where the run's fingerprint is one of these
    /// (issue 49: the authored run as the witness); `tests/witness.rs` keeps the library's true
    /// (`LEASELAB_BLESS=1` writes them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seen: Vec<String>,
    /// The authored runs (`"fixed"`, `"solved"`, `"as written"`) on which its `when` holds but its
    /// words are not true: they give it no witness, so it is not shown there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_on: Vec<String>,
}

/// What must be true of a run, at a moment's event, for the moment's text to be true.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    /// The run's verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<crate::verdict::Safety>,
    /// The run has a finding (violation or hazard) of one of these kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finding: Vec<crate::verdict::Kind>,
    /// Whether, at the event, two or more clients believe they hold the lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlap: Option<bool>,
    /// The token the event carries (a grant, a write accepted or rejected, a key set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<u64>,
    /// Settings of the scenario, each at its path as a fix writes them (`token.source`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<Setting>,
    /// The resource's value once the event has happened ("the counter is 1").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Whose key the event finds, sets, deletes, extends or expires ("deletes B's key").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The event's token is lower than the last one issued to this client before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<String>,
    /// The event's token is higher than the last one issued to this client before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub above: Option<String>,
    /// Events (written like `on`, alternatives separated by `|`: `"accepted A|rejected A"`)
    /// that have happened before this one ("after the check").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// Events that happen after this one ("before the write").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<String>,
    /// Events that have not happened before this one (none at all, or only later).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_after: Vec<String>,
    /// Events that have happened before this one at the same true time ("the partition heals"
    /// as Sentinel demotes the old primary, not seconds before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<String>,
    /// The highest token the resource has accepted once the event has happened ("the resource
    /// has accepted czxid 4 and refuses A's 2").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub highest: Option<u64>,
    /// Actors that can reach each other at the event, two groups written `"A / redis"`: each of
    /// the first group reaches each of the second (no partition then cuts them apart).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reach: Vec<String>,
    /// Actors cut apart at the event, written `"redis A / replica B"`: a partition then cuts each
    /// of the first group off from each of the second ("a partition cuts redis and A off from
    /// the replica and B").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apart: Vec<String>,
}

impl When {
    pub fn is_always(&self) -> bool {
        *self == When::default()
    }

    /// The two groups of a `reach` or `apart` entry (`"redis A / replica B"`), or `None` unless
    /// it has exactly two groups of at least one name each.
    pub fn groups(entry: &str) -> Option<(Vec<&str>, Vec<&str>)> {
        let (a, b) = entry.split_once('/')?;
        let (a, b): (Vec<&str>, Vec<&str>) = (a.split_whitespace().collect(), b.split_whitespace().collect());
        (!a.is_empty() && !b.is_empty() && !b.contains(&"/")).then_some((a, b))
    }

    /// Whether the network at true time `at_us` is as `reach` and `apart` say, by the
    /// scenario's partitions (`faults`); a name that `is_actor` does not know holds nothing.
    pub fn network_holds(&self, faults: &[super::Fault], at_us: crate::time::Micros, is_actor: &dyn Fn(&str) -> bool) -> bool {
        let cut = |a: &str, b: &str| faults.iter().any(|f| matches!(f, super::Fault::Partition(p) if p.cuts_at(a, b, at_us)));
        let each = |entries: &[String], apart: bool| {
            entries.iter().all(|e| {
                When::groups(e)
                    .is_some_and(|(xs, ys)| xs.iter().all(|x| ys.iter().all(|y| is_actor(x) && is_actor(y) && cut(x, y) == apart)))
            })
        };
        each(&self.reach, false) && each(&self.apart, true)
    }
}
