//! What Redlock records of its own, as data: a round's votes (its messages are Redis's,
//! [`super::redis`]; the client is `service/redlock.rs`).

use serde::Serialize;

/// Which nodes voted yes in a Redlock round, by index (at most 16 nodes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Votes(u16);

impl Votes {
    /// The votes of the nodes listed.
    pub fn of(nodes: &[usize]) -> Votes {
        Votes(nodes.iter().fold(0, |v, &i| v | 1 << i))
    }

    /// How many voted yes.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The nodes that voted yes, in order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..16).filter(move |i| self.0 & 1 << i != 0)
    }
}

/// The nodes, as a list of indices (as the trace's JSON has always written them).
impl Serialize for Votes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}
