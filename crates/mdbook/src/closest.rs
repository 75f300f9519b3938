//! The closest of a list of names to a mistyped one: [`suggest`], for messages that say what to
//! write instead.

/// ` (did you mean `x`?)` when one of `names` is close to `word` (a third of its letters off at
/// most, and at least two), else nothing.
pub fn suggest<'a>(word: &str, names: impl Iterator<Item = &'a str>) -> String {
    let word = word.to_ascii_lowercase();
    let best = names.map(|n| (distance(&word, n), n)).min_by_key(|&(d, _)| d);
    match best {
        Some((d, n)) if d <= (word.chars().count() / 3).max(2) => format!(" (did you mean `{n}`?)"),
        _ => String::new(),
    }
}

/// The edit distance between two words (insertions, deletions and substitutions of letters).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut next = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            next.push((row[j + 1] + 1).min(next[j] + 1).min(row[j] + usize::from(ca != cb)));
        }
        row = next;
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_name_is_suggested_and_a_far_one_is_not() {
        let names = ["redlock-clock-jump", "redlock-happy", "gc-pause-fenced"];
        assert_eq!(suggest("redlock-clok-jump", names.into_iter()), " (did you mean `redlock-clock-jump`?)");
        assert_eq!(suggest("Redlock-Happy", names.into_iter()), " (did you mean `redlock-happy`?)");
        assert_eq!(suggest("banana", names.into_iter()), "");
    }

    #[test]
    fn distance_counts_letters_changed() {
        assert_eq!(distance("step", "stpe"), 2);
        assert_eq!(distance("fix", "fix"), 0);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
