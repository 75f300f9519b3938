//! Stable sorting through one routine shared by the whole program: [`by`] and [`by_key`].
//!
//! The standard library's stable sort is instantiated for each element type and comparison,
//! about 4 KB of WebAssembly each; a dozen of them were 45 KB of the download. Here the sorting
//! itself is done once, on indices, through a `dyn` comparison, and each call adds only the
//! small step that puts its items in that order. The lists sorted this way are short (findings,
//! a lane's keys, labels in view), so the indirection costs nothing that matters.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`, like `slice::sort_by`.
pub fn by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = order(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.into_iter().map(|i| slots[i].take().expect("an order is a permutation")));
}

/// Sorts `v` stably by a key, like `slice::sort_by_key`.
pub fn by_key<T, K: Ord>(v: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    by(v, |a, b| key(a).cmp(&key(b)));
}

/// The indices `0..n` in the stable order `cmp` gives them: the one instantiation of the
/// standard library's sort that every call shares.
fn order(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_the_standard_library() {
        let mut rng = crate::rng::Rng::new(7);
        for n in [0, 1, 2, 3, 10, 100, 1000] {
            let items: Vec<(u64, usize)> = (0..n).map(|i| (rng.next_u64() % 5, i)).collect();
            let (mut ours, mut std) = (items.clone(), items);
            by_key(&mut ours, |x| x.0);
            std.sort_by_key(|x| x.0);
            assert_eq!(ours, std, "n = {n}");
        }
    }
}
