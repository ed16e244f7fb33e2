//! WCXB's word-bag score (its `evaluate.py`), shared by the benchmarks that score a text
//! against a reviewed reference by its words (`wcxb`, `pairs`).

use std::collections::HashMap;

/// evaluate.py's words of text already lower-cased: `re.findall(r'\w+', …)` (letters,
/// digits, marks of Unicode word characters and `_`).
pub fn tokens(lower: &str) -> impl Iterator<Item = &str> {
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// evaluate.py's word bag: the [`tokens`] of `text.lower()`, counted.
pub fn words(text: &str) -> HashMap<String, usize> {
    let mut bag = HashMap::new();
    for w in tokens(&text.to_lowercase()) {
        *bag.entry(w.to_string()).or_default() += 1;
    }
    bag
}

/// evaluate.py's `word_f1`: (precision, recall, F1) of the word bags.
pub fn word_f1(predicted: &str, reference: &str) -> [f64; 3] {
    let (p, r) = (words(predicted), words(reference));
    let (np, nr): (usize, usize) = (p.values().sum(), r.values().sum());
    if nr == 0 {
        return if np == 0 { [1.0; 3] } else { [0.0; 3] };
    }
    if np == 0 {
        return [0.0; 3];
    }
    let overlap: usize = p
        .iter()
        .map(|(w, n)| (*n).min(r.get(w).copied().unwrap_or(0)))
        .sum();
    let (precision, recall) = (overlap as f64 / np as f64, overlap as f64 / nr as f64);
    let f = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    [precision, recall, f]
}
