//! The guide's answers in an address: `?page=guide&answers=yn-y-`, one letter for each of its
//! five questions in their order (`guide::ORDER`): `y` yes, `n` no, `-` not answered (trailing
//! ones may be left out). [`decode`] treats the text as untrusted, as the scenario links do.

use crate::guide::Answers;

/// The answers as an address writes them; `None` when none is answered.
pub fn encode(a: &Answers) -> Option<String> {
    let text: String = a
        .iter()
        .map(|v| match v {
            Some(true) => 'y',
            Some(false) => 'n',
            None => '-',
        })
        .collect();
    let text = text.trim_end_matches('-').to_string();
    (!text.is_empty()).then_some(text)
}

/// The answers an address carries, or what is wrong with them.
pub fn decode(text: &str) -> Result<Answers, String> {
    let mut a = [None; 5];
    for (i, c) in text.chars().enumerate() {
        let v = match c {
            'y' | 'Y' => Some(true),
            'n' | 'N' => Some(false),
            '-' => None,
            c => {
                return Err(format!("answer {} is `{}`, which is none of y (yes), n (no) and - (not answered)", i + 1, c.escape_default()))
            }
        };
        match a.get_mut(i) {
            Some(slot) => *slot = v,
            None => return Err(format!("it has {} answers; the guide asks 5 questions", text.chars().count())),
        }
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34, item 6: every set of answers goes into the address and comes back.
    #[test]
    fn every_set_of_answers_round_trips() {
        for n in 0..3usize.pow(5) {
            let mut a = [None; 5];
            for (i, slot) in a.iter_mut().enumerate() {
                *slot = [None, Some(true), Some(false)][n / 3usize.pow(i as u32) % 3];
            }
            match encode(&a) {
                Some(text) => assert_eq!(decode(&text), Ok(a), "{text}"),
                None => assert_eq!(a, [None; 5]),
            }
        }
        assert_eq!(encode(&[Some(true), Some(false), None, Some(true), None]).as_deref(), Some("yn-y"));
        assert_eq!(decode("Y"), Ok([Some(true), None, None, None, None]));
    }

    #[test]
    fn bad_answers_are_refused_in_words() {
        let long = "y".repeat(100_000);
        let cases = [
            ("ynyyyy", "it has 6 answers; the guide asks 5 questions"),
            (long.as_str(), "it has 100000 answers"),
            ("yx", "answer 2 is `x`, which is none of y (yes), n (no) and - (not answered)"),
            ("<script>", "answer 1 is `<`"),
            ("1", "answer 1 is `1`"),
            ("y\u{202e}", "answer 2 is `\\u{202e}`"),
            ("é", "answer 1 is `\\u{e9}`"),
        ];
        for (text, want) in cases {
            let err = decode(text).expect_err(text);
            assert!(err.contains(want), "{text:.20}: {err}");
        }
    }
}
