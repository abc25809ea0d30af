//! "Did you mean" suggestions (`language.md` 8.7): the compiler words undefined-variable
//! errors with them, the VM undefined-builtin errors, the snippet validator unknown call
//! targets.

/// Levenshtein distance over characters.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut row = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            row.push((prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1));
        }
        prev = row;
    }
    prev[b.len()]
}

/// The closest candidate within the distance 8.7 allows for `name`'s length (1 for
/// 1–2 characters, 2 for 3–5, 3 beyond); ties go to the smaller distance, then the
/// closer length, then alphabetical order; names starting with `__` are never offered.
pub fn suggest<'n>(name: &str, candidates: impl Iterator<Item = &'n str>) -> Option<String> {
    let len = name.chars().count();
    let max = match len {
        0..=2 => 1,
        3..=5 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, usize, String)> = None;
    for c in candidates {
        // The distance is at least the difference in length: most names stop here.
        if c == name || c.starts_with("__") || c.len().abs_diff(name.len()) > 4 * max {
            continue;
        }
        let d = distance(name, c);
        if d > max {
            continue;
        }
        let len_diff = c.chars().count().abs_diff(len);
        let key = (d, len_diff, c.to_string());
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, c)| c)
}
