//! The driver's queue: what is due, in order of true time and then of when it was queued (a
//! sequence number, so that equal times keep their order and every run is the same). The heap
//! holds only small keys; the actions wait in slots beside it, reused as they are taken, so
//! that ordering moves 24 bytes rather than a whole action.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::time::Micros;

pub(super) struct Queue<A> {
    heap: BinaryHeap<Key>,
    slots: Vec<Option<A>>,
    free: Vec<u32>,
    seq: u64,
}

#[derive(Clone, Copy)]
struct Key {
    at: Micros,
    seq: u64,
    slot: u32,
}

impl PartialEq for Key {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Key {
    // BinaryHeap is a max-heap: the earliest (time, sequence) must compare greatest.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.at, o.seq).cmp(&(self.at, self.seq))
    }
}

impl<A> Queue<A> {
    pub fn new() -> Queue<A> {
        Queue { heap: BinaryHeap::new(), slots: Vec::new(), free: Vec::new(), seq: 0 }
    }

    /// Queues `action` for true time `at`, after whatever is already queued for `at`.
    pub fn push(&mut self, at: Micros, action: A) {
        self.seq += 1;
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = Some(action);
                s
            }
            None => {
                self.slots.push(Some(action));
                (self.slots.len() - 1) as u32
            }
        };
        self.heap.push(Key { at, seq: self.seq, slot });
    }

    /// When the next action is due.
    pub fn next_at(&self) -> Option<Micros> {
        self.heap.peek().map(|k| k.at)
    }

    /// The next action, and when it is due.
    pub fn pop(&mut self) -> Option<(Micros, A)> {
        let k = self.heap.pop()?;
        self.free.push(k.slot);
        Some((k.at, self.slots[k.slot as usize].take().expect("a queued key's slot holds its action")))
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::Queue;

    #[test]
    fn earliest_first_and_equal_times_in_the_order_queued() {
        let mut q = Queue::new();
        for (at, what) in [(5, 'a'), (1, 'b'), (5, 'c'), (3, 'd'), (1, 'e')] {
            q.push(at, what);
        }
        assert_eq!(q.next_at(), Some(1));
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, w)| w)).collect();
        assert_eq!(order, vec!['b', 'e', 'd', 'a', 'c']);
        assert!(q.is_empty());
        // Slots are reused once taken.
        q.push(2, 'f');
        assert_eq!(q.pop(), Some((2, 'f')));
    }
}
