//! `Map` and `Set` against `BTreeMap` and `BTreeSet`: the same contents in the same order.

use super::*;
use crate::rng::Rng;
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn reads_and_writes_json_as_a_btree_map_does() {
    let text = r#"{"b":true,"a":false,"b":false}"#;
    let map: Map<String, bool> = serde_json::from_str(text).unwrap();
    let tree: BTreeMap<String, bool> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&map).unwrap(), serde_json::to_string(&tree).unwrap());
    assert!(serde_json::from_str::<Map<String, bool>>("[1]").unwrap_err().to_string().contains("expected a map"));
}

/// Random operations give the same contents, in the same order, as the standard library's.
#[test]
fn behaves_as_btree_map_and_set_do() {
    for seed in 0..200u64 {
        let mut rng = Rng::stream(seed, "flat");
        let (mut map, mut tree) = (Map::new(), BTreeMap::new());
        let (mut set, mut tree_set) = (Set::new(), BTreeSet::new());
        for step in 0..200u64 {
            let k = rng.next_u64() % 40;
            match rng.next_u64() % 5 {
                0 | 1 => {
                    assert_eq!(map.insert(k, step), tree.insert(k, step), "seed {seed}");
                    assert_eq!(set.insert(k), tree_set.insert(k), "seed {seed}");
                }
                2 => {
                    assert_eq!(map.remove(&k), tree.remove(&k), "seed {seed}");
                    assert_eq!(set.remove(&k), tree_set.remove(&k), "seed {seed}");
                }
                3 => {
                    *map.entry(k).or_default() += 1;
                    *tree.entry(k).or_default() += 1;
                }
                _ => {
                    assert_eq!(map.get(&k), tree.get(&k), "seed {seed}");
                    assert_eq!((map.contains_key(&k), set.contains(&k)), (tree.contains_key(&k), tree_set.contains(&k)), "seed {seed}");
                }
            }
            assert_eq!(map.iter().collect::<Vec<_>>(), tree.iter().collect::<Vec<_>>(), "seed {seed}");
            assert_eq!(set.iter().collect::<Vec<_>>(), tree_set.iter().collect::<Vec<_>>(), "seed {seed}");
        }
    }
}
