//! The driver's queue: what is due, in order of true time and then of when it was queued, so
//! that equal times keep their order and every run is the same.
//!
//! True time never goes back (nothing is queued before the present), so the queue is a radix
//! heap keyed by time: bucket `i > 0` holds what is due later than `last` (the time of the
//! last action taken) with `i - 1` the highest bit in which its time differs from `last`, and
//! bucket 0 what is due at `last` itself. Queuing is a push onto one bucket; when bucket 0 is
//! used up, the lowest bucket with anything in it is spread over the buckets below it, by
//! the earliest time in it. Each bucket keeps the order things were queued in (it is filled
//! either by pushes, or by spreading while it is empty, in order), which keeps equal times in
//! that order with no sequence number. The buckets hold small keys; the actions wait in slots
//! beside them, reused as they are taken, so that ordering moves 16 bytes rather than a whole
//! action.

use crate::time::Micros;

/// One bucket per bit of a time that can differ from `last` (times are not negative), and
/// bucket 0.
const BUCKETS: usize = 64;

pub(super) struct Queue<A> {
    buckets: [Vec<(Micros, u32)>; BUCKETS],
    /// Bit `i` is set when bucket `i` has anything in it (bucket 0: not yet taken).
    full: u64,
    /// How much of bucket 0 has been taken.
    head: usize,
    /// The time of the last action taken (or about to be: [`Queue::next_at`]).
    last: Micros,
    len: usize,
    slots: Vec<Option<A>>,
    free: Vec<u32>,
}

/// The bucket of time `at` when the last action taken was at `last` (`at >= last`).
fn bucket(last: Micros, at: Micros) -> usize {
    (u64::BITS - ((at.get() ^ last.get()) as u64).leading_zeros()) as usize % BUCKETS
}

impl<A> Queue<A> {
    pub fn new() -> Queue<A> {
        Queue {
            buckets: std::array::from_fn(|_| Vec::new()),
            full: 0,
            head: 0,
            last: Micros::ZERO,
            len: 0,
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Queues `action` for true time `at`, after whatever is already queued for `at`.
    pub fn push(&mut self, at: Micros, action: A) {
        debug_assert!(at >= self.last, "an action is queued for {} µs, before the present ({} µs)", at.get(), self.last.get());
        let at = at.max(self.last);
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
        let b = bucket(self.last, at);
        self.buckets[b].push((at, slot));
        self.full |= 1 << b;
        self.len += 1;
    }

    /// When the next action is due. What is queued from now on must not be due before it.
    #[inline]
    pub fn next_at(&mut self) -> Option<Micros> {
        if self.head == self.buckets[0].len() {
            self.spread()?;
        }
        Some(self.last)
    }

    /// Bucket 0 is used up: empties it, then moves what is due earliest into it, and spreads the
    /// rest of its bucket below. `None` when nothing is queued.
    fn spread(&mut self) -> Option<()> {
        self.buckets[0].clear();
        self.head = 0;
        self.full &= !1;
        if self.full == 0 {
            return None;
        }
        let i = self.full.trailing_zeros() as usize % BUCKETS;
        self.full &= !(1 << i);
        let mut keys = std::mem::take(&mut self.buckets[i]);
        self.last = keys.iter().map(|k| k.0).min()?;
        for &(at, slot) in &keys {
            let b = bucket(self.last, at);
            self.buckets[b].push((at, slot));
            self.full |= 1 << b;
        }
        // The bucket keeps its allocation for what comes.
        keys.clear();
        self.buckets[i] = keys;
        Some(())
    }

    /// The next action, and when it is due.
    pub fn pop(&mut self) -> Option<(Micros, A)> {
        let at = self.next_at()?;
        let slot = self.buckets[0][self.head].1;
        self.head += 1;
        self.len -= 1;
        self.free.push(slot);
        Some((at, self.slots[slot as usize].take().expect("a queued key's slot holds its action")))
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::Queue;
    use crate::time::Micros;

    #[test]
    fn earliest_first_and_equal_times_in_the_order_queued() {
        let mut q = Queue::new();
        for (at, what) in [(5, 'a'), (1, 'b'), (5, 'c'), (3, 'd'), (1, 'e')] {
            q.push(Micros::us(at), what);
        }
        assert_eq!(q.next_at(), Some(Micros::us(1)));
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, w)| w)).collect();
        assert_eq!(order, vec!['b', 'e', 'd', 'a', 'c']);
        assert!(q.is_empty());
        // Slots are reused once taken.
        q.push(Micros::us(6), 'f');
        assert_eq!(q.pop(), Some((Micros::us(6), 'f')));
        assert_eq!(q.slots.len(), 5);
    }

    #[test]
    fn what_is_queued_while_taking_keeps_the_order_of_a_sorted_list() {
        // Against a list sorted by (time, order queued), with pushes between pops, at the
        // present and later, over times whose bits differ high and low.
        let mut q = Queue::new();
        let mut model: Vec<(i64, u32)> = Vec::new();
        let (mut now, mut n, mut x) = (0i64, 0u32, 0x9e37_79b9_7f4a_7c15u64);
        for round in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for k in 0..(x % 3) {
                let at = now + [0, 1, 7, 1 << 20, 3 << 33][((x >> (8 + k)) % 5) as usize];
                q.push(Micros::us(at), n);
                model.push((at, n));
                n += 1;
            }
            if round % 3 != 0 {
                model.sort_by_key(|&(at, i)| (at, i));
                let want = (!model.is_empty()).then(|| model.remove(0));
                assert_eq!(q.pop().map(|(t, i)| (t.get(), i)), want);
                now = want.map_or(now, |w| w.0);
            }
        }
        model.sort_by_key(|&(at, i)| (at, i));
        let rest: Vec<(i64, u32)> = std::iter::from_fn(|| q.pop().map(|(t, i)| (t.get(), i))).collect();
        assert_eq!(rest, model);
    }
}
