//! [`Set`]: a sorted vector of values, like `BTreeSet`.

use std::borrow::Borrow;
use std::fmt;

/// A set ordered by value, like `BTreeSet`.
#[derive(Clone, PartialEq, Eq)]
pub struct Set<T> {
    items: Vec<T>,
}

impl<T> Default for Set<T> {
    fn default() -> Self {
        Set { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Set<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(&self.items).finish()
    }
}

impl<T: Ord> Set<T> {
    pub const fn new() -> Self {
        Set { items: Vec::new() }
    }

    fn find<Q: Ord + ?Sized>(&self, x: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
    {
        self.items.binary_search_by(|y| y.borrow().cmp(x))
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn contains<Q: Ord + ?Sized>(&self, x: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.find(x).is_ok()
    }

    /// Adds `x`; false when it was there already (and the one there stays).
    pub fn insert(&mut self, x: T) -> bool {
        match self.find(&x) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, x);
                true
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, x: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.find(x).map(|i| self.items.remove(i)).is_ok()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
}

impl<T: Ord> FromIterator<T> for Set<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut set = Set::new();
        set.extend(items);
        set
    }
}

impl<T: Ord> Extend<T> for Set<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for x in items {
            self.insert(x);
        }
    }
}

impl<T> IntoIterator for Set<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Set<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}
