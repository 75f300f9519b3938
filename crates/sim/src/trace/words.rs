//! How a run's messages are worded, made only when shown.

use super::MsgId;

/// How the messages of a run are worded (`SET lock 3f2a… NX PX 10000`): from the models'
/// payloads, only when shown ([`super::Run::what`]), not for every message of every run. A trait, so
/// that the trace knows none of the models' types.
pub trait Wording {
    /// The words of message `msg` (empty for no such message).
    fn word(&self, msg: MsgId) -> String;
    /// How many messages there are.
    fn count(&self) -> usize;
}

/// The [`Wording`] of a run's messages, shared by the run's copies.
#[derive(Clone)]
pub struct Words(pub std::rc::Rc<dyn Wording>);

impl Words {
    /// The words of message `msg`.
    pub fn of(&self, msg: MsgId) -> String {
        self.0.word(msg)
    }

    fn all(&self) -> impl Iterator<Item = String> + '_ {
        (0..self.0.count()).map(|m| self.0.word(m))
    }
}

/// Every message's words, so that two runs that differ only in them do not print alike.
impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.all()).finish()
    }
}

/// Two runs' messages are the same when each has the same words (the app compares runs by
/// pointer, never this way).
impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &other.0) || (self.0.count() == other.0.count() && self.all().eq(other.all()))
    }
}
