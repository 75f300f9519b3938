//! Ordered maps and sets kept as sorted vectors: [`Map`] and [`Set`], with the parts of
//! `BTreeMap`'s and `BTreeSet`'s interface the program uses, and the same order.
//!
//! The maps here hold a handful of entries (a node per Redis node, a session per client, a
//! lease per holder) or are filled in order (a lane's keys by time), where a sorted vector is as
//! fast as a B-tree; one that could grow large with inserts in the middle would be quadratic here
//! (sort a vector once instead, as `facts` does with the commits). Its code is a fraction of the size: each B-tree type compiled its own node
//! handling, about 3 KB of WebAssembly, 84 KB over thirty types.

mod set;

pub use set::Set;
use std::borrow::Borrow;
use std::fmt;

/// A map ordered by key, like `BTreeMap`.
#[derive(Clone, PartialEq, Eq)]
pub struct Map<K, V> {
    items: Vec<(K, V)>,
}

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map { items: Vec::new() }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Map<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.items.iter().map(|(k, v)| (k, v))).finish()
    }
}

impl<K: Ord, V> Map<K, V> {
    pub const fn new() -> Self {
        Map { items: Vec::new() }
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.items.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The map of `items`, sorted by key with no key twice.
    pub(crate) fn from_sorted(items: Vec<(K, V)>) -> Self {
        debug_assert!(items.windows(2).all(|w| w[0].0 < w[1].0), "sorted, each key once");
        Map { items }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.items[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.items[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key`'s value, returning the old one (the key already there stays, as in `BTreeMap`).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.items[i].1, value)),
            Err(i) => {
                self.items.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.items.remove(i).1)
    }

    /// `key`'s place in the map, like `BTreeMap::entry`.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        Entry { map: self, key }
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.items.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.items.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.items.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.items.iter_mut().map(|(_, v)| v)
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }
}

/// A key's place in a [`Map`], filled by one of its methods.
pub struct Entry<'a, K, V> {
    map: &'a mut Map<K, V>,
    key: K,
}

impl<'a, K: Ord, V> Entry<'a, K, V> {
    pub fn or_insert_with(self, value: impl FnOnce() -> V) -> &'a mut V {
        let i = match self.map.find(&self.key) {
            Ok(i) => i,
            Err(i) => {
                self.map.items.insert(i, (self.key, value()));
                i
            }
        };
        &mut self.map.items[i].1
    }

    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }
}

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for Map<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.items.iter().map(|(k, v)| (k, v)))
    }
}

/// Read from a JSON object (or any serde map); the last of equal keys wins.
impl<'de, K: Ord + serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::Deserialize<'de> for Map<K, V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Ord + serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::de::Visitor<'de> for Visit<K, V> {
            type Value = Map<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut access: A) -> Result<Map<K, V>, A::Error> {
                let mut map = Map::new();
                while let Some((k, v)) = access.next_entry()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for Map<K, V> {
    /// The last of equal keys wins, as with `BTreeMap`.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        let mut map = Map::new();
        map.extend(pairs);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for Map<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, pairs: I) {
        for (k, v) in pairs {
            self.insert(k, v);
        }
    }
}

impl<K, V> IntoIterator for Map<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for Map<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key in the map")
    }
}

#[cfg(test)]
mod tests;
