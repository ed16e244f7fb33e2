//! Document fidelity scoring: how close an extraction (Markdown, or paw's JSON model) is to
//! a reviewed reference Markdown. Used by the `doc` bench (paw beside markitdown) and the
//! floors in the `doc_fidelity` test.
//!
//! Definitions (the same for every tool scored):
//!
//! * **Stripping.** Markdown syntax is removed line by line: HTML comments (`<!-- page 3 -->`,
//!   `<!-- image -->`) and tags, code fences, heading marks, block quotes, list marks and
//!   checkboxes, table delimiter rows and the `|` between cells (cell text stays, one row a
//!   line), links and images (their text stays, the URL goes), footnote marks (`[^1]`),
//!   emphasis and code marks, backslash escapes; and the outline number that starts a
//!   heading or list item (`## 1.2 Scope`, `- 2.3.1. Budget`): numbering is rendering, which
//!   tools write as a list mark, as text or not at all.
//! * **Tokens.** The stripped text, NFKC-normalised (so `ﬁ` is `fi` and Arabic presentation
//!   forms are letters: ligatures are a check of their own, not a text error), lowercased,
//!   split into Unicode words (UAX #29), without Arabic/Hebrew vowel marks and tatweel.
//! * **Text F1.** The 4-token shingles of reference and output as multisets (a text under 4
//!   tokens is one shingle); precision = common / output shingles, recall = common /
//!   reference shingles, F1 their harmonic mean. Two empty texts score 1, one empty 0. Word
//!   order counts: words in reverse order share no shingle.
//! * **Tables.** Markdown pipe tables (a run of lines starting with `|`, delimiter row
//!   skipped), or in paw's JSON model each object with `cells` (`r`, `c`, spans filled
//!   with the cell's text). A cell's text is its tokens joined by one space.
//! * **Table-cell recall.** Every non-empty cell of the reference's tables, found in the
//!   right row: reference rows are paired one to one with rows of any output table (all
//!   output tables pooled, so a table split over two pages still counts), greedily by the
//!   number of cells they share, largest first; a reference cell is found when its paired
//!   row holds a cell with the same text (as a multiset: a row with the text once matches
//!   one such cell). Recall = found / reference cells. A cell found only in another row —
//!   a value that moved rows — is not counted. Documents whose reference has no table have
//!   no recall.
//! * **Checks.** Ligature code points U+FB00–FB06 in the output (should be 0); Arabic
//!   presentation forms U+FB50–FDFF and U+FE70–FEFF (should be 0: a reader gives
//!   letters); hyphen splits: `word-` + whitespace (a line break) + `word` in the output
//!   where the two parts joined are a word of the reference (should be 0); RTL order is
//!   the text F1 of the documents whose reference is mostly Arabic or Hebrew letters.
//! * **OCR character accuracy.** 1 − Levenshtein(reference, output) / reference length,
//!   floored at 0, over the stripped, NFKC-lowercased texts with whitespace runs made one
//!   space; each text cut to its first 20,000 characters to bound the cost.

use std::collections::HashMap;

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

/// Shingle length for text F1.
pub const SHINGLE: usize = 4;
/// Characters compared for OCR character accuracy, at most.
pub const OCR_CHARS: usize = 20_000;

/// Markdown with its syntax removed: the text a reader would see, one block or table row
/// a line.
pub fn strip_markdown(md: &str) -> String {
    let md = drop_comments(md);
    let mut out = String::with_capacity(md.len());
    for line in md.lines() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            continue;
        }
        if t.starts_with('|') {
            let cells = split_row(t);
            if is_delimiter_row(&cells) {
                continue;
            }
            let texts: Vec<String> = cells.iter().map(|c| inline(c)).collect();
            out.push_str(&texts.join(" "));
            out.push('\n');
            continue;
        }
        out.push_str(&inline(block_marks(t)));
        out.push('\n');
    }
    out
}

/// Removes `<!-- ... -->` comments (also across lines).
fn drop_comments(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut rest = md;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        match rest[i..].find("-->") {
            Some(j) => {
                // Keep the line structure: a comment on its own line leaves an empty one.
                out.push(' ');
                rest = &rest[i + j + 3..];
            }
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A line without its block-level marks: headings, quotes, list marks, checkboxes,
/// footnote definition marks, and the outline number of a heading or list item.
fn block_marks(line: &str) -> &str {
    let mut t = line.trim_start();
    loop {
        let before = t;
        let mut numbered = false;
        t = t.trim_start_matches('>').trim_start();
        let hashes = t.len() - t.trim_start_matches('#').len();
        if (1..=6).contains(&hashes) && t[hashes..].starts_with([' ', '\t']) {
            t = t[hashes..].trim_start();
            numbered = true;
        }
        for mark in ["- ", "* ", "+ ", "• "] {
            if let Some(r) = t.strip_prefix(mark) {
                t = r.trim_start();
                numbered = true;
            }
        }
        let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if (1..=9).contains(&digits) {
            let r = &t[digits..];
            if r.starts_with(". ") || r.starts_with(") ") {
                t = r[2..].trim_start();
                numbered = true;
            }
        }
        if numbered {
            t = outline_number(t);
        }
        for mark in ["[ ] ", "[x] ", "[X] "] {
            if let Some(r) = t.strip_prefix(mark) {
                t = r.trim_start();
            }
        }
        if t.starts_with("[^")
            && let Some(end) = t.find("]:")
        {
            t = t[end + 2..].trim_start();
        }
        if t == before {
            return t;
        }
    }
}

/// `t` without a leading outline number (`1 `, `1.2 `, `2.3.1. `): numbering is rendering,
/// which tools write as a list mark, as text, or not at all.
fn outline_number(t: &str) -> &str {
    let b = t.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start || i - start > 3 {
            return t;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
        }
        if i < b.len() && b[i] == b' ' {
            return t[i..].trim_start();
        }
        if i >= b.len() || !b[i].is_ascii_digit() {
            return t;
        }
    }
}

/// Inline syntax removed: images and links keep their text, footnote marks, tags,
/// emphasis and code marks go, escapes give their character.
fn inline(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '[' if chars.get(i + 1) == Some(&'^') => {
                // A footnote reference: `[^1]`.
                match chars[i..].iter().position(|&c| c == ']') {
                    Some(end) => i += end + 1,
                    None => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            '!' if chars.get(i + 1) == Some(&'[') => i += 1,
            '[' => match link_end(&chars, i) {
                // `[text](url)`: the text stays (its own syntax handled on the way).
                Some((text_end, after)) => {
                    out.push_str(&inline(&chars[i + 1..text_end].iter().collect::<String>()));
                    i = after;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            },
            '<' => match chars[i..].iter().position(|&c| c == '>') {
                // A tag (`<br>`, `</sup>`) or autolink: tags go, an autolink's URL stays.
                Some(end)
                    if chars
                        .get(i + 1)
                        .is_some_and(|n| n.is_ascii_alphabetic() || *n == '/') =>
                {
                    let inner: String = chars[i + 1..i + end].iter().collect();
                    if inner.contains("://") {
                        out.push_str(&inner);
                    }
                    out.push(' ');
                    i += end + 1;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            },
            '*' | '`' | '~' => {
                out.push(' ');
                i += 1;
            }
            '_' => {
                // Emphasis only at a word's edge; inside `snake_case` it is text.
                let prev = i.checked_sub(1).map(|p| chars[p]);
                let next = chars.get(i + 1).copied();
                let inner = prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric);
                out.push(if inner { '_' } else { ' ' });
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// For a `[` at `i`: the index of its closing `]` and the index after `(url)`, when it
/// is a link.
fn link_end(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut j = i;
    while j < chars.len() {
        match chars[j] {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        j += 1;
    }
    if j >= chars.len() || chars.get(j + 1) != Some(&'(') {
        return None;
    }
    let close = chars[j + 1..].iter().position(|&c| c == ')')?;
    Some((j, j + 1 + close + 1))
}

/// The cells of one pipe-table line (`| a | b |`), `\|` kept inside a cell.
fn split_row(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t
        .strip_suffix('|')
        .filter(|r| !r.ends_with('\\'))
        .unwrap_or(t);
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    cells.push(cur.trim().to_string());
    cells
}

fn is_delimiter_row(cells: &[String]) -> bool {
    cells.iter().all(|c| {
        let c = c.trim();
        !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' '))
    })
}

/// Arabic and Hebrew vowel marks and the tatweel: optional in writing, so not text errors.
fn is_optional_mark(c: char) -> bool {
    matches!(c, '\u{0591}'..='\u{05C7}' | '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{0640}')
}

/// Normalised words of `text` (already stripped of Markdown).
pub fn tokens(text: &str) -> Vec<String> {
    let norm: String = text
        .nfkc()
        .filter(|&c| !is_optional_mark(c))
        .collect::<String>()
        .to_lowercase();
    norm.unicode_words()
        .map(|w| w.trim_matches('_').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The tokens of a Markdown text.
pub fn md_tokens(md: &str) -> Vec<String> {
    tokens(&strip_markdown(md))
}

fn shingles(tokens: &[String]) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    if tokens.is_empty() {
        return m;
    }
    let k = SHINGLE.min(tokens.len());
    for w in tokens.windows(k) {
        *m.entry(w.join("\u{1f}")).or_insert(0) += 1;
    }
    m
}

/// Precision, recall and F1 of `output`'s shingles against `reference`'s (both token
/// lists).
pub fn shingle_f1(reference: &[String], output: &[String]) -> (f64, f64, f64) {
    let (r, o) = (shingles(reference), shingles(output));
    let (rn, on): (usize, usize) = (r.values().sum(), o.values().sum());
    if rn == 0 && on == 0 {
        return (1.0, 1.0, 1.0);
    }
    if rn == 0 || on == 0 {
        return (0.0, 0.0, 0.0);
    }
    let common: usize = r
        .iter()
        .map(|(s, n)| (*n).min(o.get(s).copied().unwrap_or(0)))
        .sum();
    let p = common as f64 / on as f64;
    let rec = common as f64 / rn as f64;
    let f = if p + rec == 0.0 {
        0.0
    } else {
        2.0 * p * rec / (p + rec)
    };
    (p, rec, f)
}

/// Bag-of-words F1 of two plain texts (tokens as multisets, order ignored): how the `pdfs`
/// bench compares a reader with an oracle reader where no reviewed text exists. Two empty
/// texts score 1, one empty 0.
pub fn bag_f1(reference: &str, output: &str) -> f64 {
    let count = |t: &str| {
        let mut m: HashMap<String, usize> = HashMap::new();
        for w in tokens(t) {
            *m.entry(w).or_insert(0) += 1;
        }
        m
    };
    let (r, o) = (count(reference), count(output));
    let (rn, on): (usize, usize) = (r.values().sum(), o.values().sum());
    if rn == 0 || on == 0 {
        return if rn == on { 1.0 } else { 0.0 };
    }
    let common: usize = r
        .iter()
        .map(|(w, n)| (*n).min(o.get(w).copied().unwrap_or(0)))
        .sum();
    if common == 0 {
        return 0.0;
    }
    let (p, rec) = (common as f64 / on as f64, common as f64 / rn as f64);
    2.0 * p * rec / (p + rec)
}

/// Text F1 of two Markdown texts.
pub fn text_f1(reference_md: &str, output_md: &str) -> f64 {
    shingle_f1(&md_tokens(reference_md), &md_tokens(output_md)).2
}

/// A table as rows of normalised cell texts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// A cell's text as compared: its tokens joined by one space.
pub fn cell_text(s: &str) -> String {
    tokens(&inline(s)).join(" ")
}

/// The pipe tables of a Markdown text.
pub fn md_tables(md: &str) -> Vec<Table> {
    let md = drop_comments(md);
    let mut tables = Vec::new();
    let mut cur: Option<Table> = None;
    for line in md.lines() {
        let t = line.trim();
        if t.starts_with('|') {
            let cells = split_row(t);
            let table = cur.get_or_insert_with(Table::default);
            if !is_delimiter_row(&cells) {
                table
                    .rows
                    .push(cells.iter().map(|c| cell_text(c)).collect());
            }
        } else if let Some(t) = cur.take()
            && !t.rows.is_empty()
        {
            tables.push(t);
        }
    }
    if let Some(t) = cur.filter(|t| !t.rows.is_empty()) {
        tables.push(t);
    }
    tables
}

/// The tables of paw's JSON document model: every object with a `cells` array of
/// `{r, c, rowspan, colspan, text}`; a spanned cell's text fills every grid cell it covers.
pub fn json_tables(doc: &Value) -> Vec<Table> {
    let mut out = Vec::new();
    collect_json_tables(doc, &mut out);
    out
}

fn collect_json_tables(v: &Value, out: &mut Vec<Table>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Array(cells)) = m.get("cells") {
                let get = |c: &Value, k: &str| c[k].as_u64().unwrap_or(0) as usize;
                let rows = cells
                    .iter()
                    .map(|c| get(c, "r") + get(c, "rowspan").max(1))
                    .max()
                    .unwrap_or(0);
                let cols = cells
                    .iter()
                    .map(|c| get(c, "c") + get(c, "colspan").max(1))
                    .max()
                    .unwrap_or(0);
                // Bounded: a hostile model could claim huge spans; the scorer only reads ours.
                if rows > 0 && cols > 0 && rows * cols <= 4_000_000 {
                    let mut grid = vec![vec![String::new(); cols]; rows];
                    for c in cells {
                        let text = cell_text(c["text"].as_str().unwrap_or(""));
                        let rows = grid
                            .iter_mut()
                            .skip(get(c, "r"))
                            .take(get(c, "rowspan").max(1));
                        for row in rows {
                            let span = row.iter_mut().skip(get(c, "c"));
                            for cell in span.take(get(c, "colspan").max(1)) {
                                cell.clone_from(&text);
                            }
                        }
                    }
                    out.push(Table { rows: grid });
                }
                return;
            }
            for x in m.values() {
                collect_json_tables(x, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                collect_json_tables(x, out);
            }
        }
        _ => {}
    }
}

/// Cells of `reference` found in the right row of `output`'s tables, and the reference's
/// non-empty cells (see the module's definition).
pub fn table_cells(reference: &[Table], output: &[Table]) -> (usize, usize) {
    let (pairs, total) = row_pairs(reference, output);
    (pairs.iter().map(|p| p.0).sum(), total)
}

/// One reference table against all output tables: its cells found in the right row (as
/// [`table_cells`] counts them), its non-empty cells, and of the found cells the most that
/// lie in one output table. The table is **found whole** when that one table holds at
/// least 90 % of the found cells and at least half its cells are found
/// ([`found_whole`]): cut into pieces, or mostly missed, it is not.
pub fn table_pieces(reference: &Table, output: &[Table]) -> (usize, usize, usize) {
    let (pairs, total) = row_pairs(std::slice::from_ref(reference), output);
    let mut owner = Vec::new();
    for (k, t) in output.iter().enumerate() {
        owner.extend(std::iter::repeat_n(k, t.rows.len()));
    }
    let mut per: HashMap<usize, usize> = HashMap::new();
    for &(shared, _, j) in &pairs {
        *per.entry(owner[j]).or_default() += shared;
    }
    let found = pairs.iter().map(|p| p.0).sum();
    (found, total, per.values().copied().max().unwrap_or(0))
}

/// Whether [`table_pieces`]' figures make the table found whole.
pub fn found_whole((found, total, largest): (usize, usize, usize)) -> bool {
    total > 0 && found * 2 >= total && largest * 10 >= found * 9
}

/// The greedy one-to-one pairing of reference rows with output rows: `(shared cells,
/// reference row, output row)` for each pair, and the reference's non-empty cells.
fn row_pairs(reference: &[Table], output: &[Table]) -> (Vec<(usize, usize, usize)>, usize) {
    let ref_rows: Vec<&Vec<String>> = reference.iter().flat_map(|t| t.rows.iter()).collect();
    let out_rows: Vec<HashMap<&str, usize>> = output
        .iter()
        .flat_map(|t| t.rows.iter())
        .map(|r| {
            let mut m = HashMap::new();
            for c in r.iter().filter(|c| !c.is_empty()) {
                *m.entry(c.as_str()).or_insert(0) += 1;
            }
            m
        })
        .collect();
    let total: usize = ref_rows
        .iter()
        .map(|r| r.iter().filter(|c| !c.is_empty()).count())
        .sum();
    // Every (reference row, output row) pair sharing a cell, with how many it shares.
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    for (i, r) in ref_rows.iter().enumerate() {
        let mut want: HashMap<&str, usize> = HashMap::new();
        for c in r.iter().filter(|c| !c.is_empty()) {
            *want.entry(c.as_str()).or_insert(0) += 1;
        }
        for (j, o) in out_rows.iter().enumerate() {
            let shared: usize = want
                .iter()
                .map(|(c, n)| (*n).min(o.get(c).copied().unwrap_or(0)))
                .sum();
            if shared > 0 {
                pairs.push((shared, i, j));
            }
        }
    }
    // Largest overlaps first; ties in document order, so equal rows pair up in order.
    pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut ref_used = vec![false; ref_rows.len()];
    let mut out_used = vec![false; out_rows.len()];
    let mut chosen = Vec::new();
    for (shared, i, j) in pairs {
        if !ref_used[i] && !out_used[j] {
            ref_used[i] = true;
            out_used[j] = true;
            chosen.push((shared, i, j));
        }
    }
    (chosen, total)
}

/// Ligature code points (U+FB00–FB06) in `text`.
pub fn ligatures(text: &str) -> usize {
    text.chars()
        .filter(|c| ('\u{FB00}'..='\u{FB06}').contains(c))
        .count()
}

/// Arabic presentation-form code points in `text` (shaped glyphs, not letters).
pub fn presentation_forms(text: &str) -> usize {
    text.chars()
        .filter(|c| matches!(c, '\u{FB50}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}'))
        .filter(|&c| c != '\u{FEFF}')
        .count()
}

fn is_rtl_letter(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{05FF}' | '\u{0600}'..='\u{06FF}' | '\u{0750}'..='\u{077F}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFC}')
}

/// Whether most letters of `text` are Hebrew or Arabic.
pub fn is_rtl(text: &str) -> bool {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    let rtl = text.chars().filter(|&c| is_rtl_letter(c)).count();
    letters > 0 && rtl * 2 > letters
}

/// Words of the reference split by a hyphen and a line break (or other whitespace) in
/// the output: `config-\nuration` where the reference has `configuration`.
pub fn hyphen_splits(reference_md: &str, output_md: &str) -> usize {
    let words: std::collections::HashSet<String> = md_tokens(reference_md).into_iter().collect();
    let text = strip_markdown(output_md);
    let chars: Vec<char> = text.chars().collect();
    let mut n = 0;
    for i in 0..chars.len() {
        if chars[i] != '-' || i == 0 || !chars[i - 1].is_alphabetic() {
            continue;
        }
        let mut j = i + 1;
        while j < chars.len() && chars[j].is_whitespace() {
            j += 1;
        }
        if j == i + 1 || j >= chars.len() || !chars[j].is_alphabetic() {
            continue;
        }
        let mut a = i;
        while a > 0 && chars[a - 1].is_alphabetic() {
            a -= 1;
        }
        let mut b = j;
        while b < chars.len() && chars[b].is_alphabetic() {
            b += 1;
        }
        let joined: String = chars[a..i].iter().chain(&chars[j..b]).collect();
        if words.contains(&joined.to_lowercase()) {
            n += 1;
        }
    }
    n
}

fn ocr_norm(md: &str) -> Vec<char> {
    let s: String = strip_markdown(md).nfkc().collect::<String>().to_lowercase();
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(OCR_CHARS)
        .collect()
}

/// Levenshtein distance of two character sequences (two rows of memory).
pub fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// OCR character accuracy of `output_md` against `reference_md` (see the module's
/// definition).
pub fn char_accuracy(reference_md: &str, output_md: &str) -> f64 {
    let (r, o) = (ocr_norm(reference_md), ocr_norm(output_md));
    if r.is_empty() {
        return if o.is_empty() { 1.0 } else { 0.0 };
    }
    (1.0 - levenshtein(&r, &o) as f64 / r.len() as f64).max(0.0)
}

/// Every score of one output against its reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    /// Shingle precision.
    pub precision: f64,
    /// Shingle recall.
    pub recall: f64,
    /// Text F1.
    pub f1: f64,
    /// Reference table cells found in the right row, and reference table cells.
    pub cells: (usize, usize),
    /// Ligature code points in the output.
    pub ligatures: usize,
    /// Arabic presentation forms in the output.
    pub presentation_forms: usize,
    /// Reference words split by hyphen and line break in the output.
    pub hyphen_splits: usize,
    /// Whether the reference is right-to-left text.
    pub rtl: bool,
}

impl Score {
    /// Table-cell recall, when the reference has tables.
    pub fn cell_recall(&self) -> Option<f64> {
        (self.cells.1 > 0).then(|| self.cells.0 as f64 / self.cells.1 as f64)
    }
}

/// Scores `output_md` against `reference_md`; `output_tables` replaces the tables parsed
/// from `output_md` when given (paw's JSON model).
pub fn score(reference_md: &str, output_md: &str, output_tables: Option<Vec<Table>>) -> Score {
    let (precision, recall, f1) = shingle_f1(&md_tokens(reference_md), &md_tokens(output_md));
    let out_tables = output_tables.unwrap_or_else(|| md_tables(output_md));
    Score {
        precision,
        recall,
        f1,
        cells: table_cells(&md_tables(reference_md), &out_tables),
        ligatures: ligatures(output_md),
        presentation_forms: presentation_forms(output_md),
        hyphen_splits: hyphen_splits(reference_md, output_md),
        rtl: is_rtl(&strip_markdown(reference_md)),
    }
}

/// Pooled table-cell recall of several scores (found over total), when any has tables.
pub fn pooled_cell_recall<'a>(scores: impl IntoIterator<Item = &'a Score>) -> Option<f64> {
    let (f, t) = scores
        .into_iter()
        .fold((0, 0), |(f, t), s| (f + s.cells.0, t + s.cells.1));
    (t > 0).then(|| f as f64 / t as f64)
}

/// The median of `xs` (NaN-free), or 0 when empty.
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The arithmetic mean of `xs`, or 0 when empty.
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// One corpus document: its path, format (file extension) and reference Markdown.
#[derive(Debug, Clone)]
pub struct CorpusDoc {
    /// The document.
    pub path: std::path::PathBuf,
    /// `pdf`, `docx`, `pptx`, `xlsx`, or `scan` for images and image-only PDFs.
    pub kind: String,
    /// The reviewed Markdown.
    pub reference: String,
}

impl CorpusDoc {
    /// The file name.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// The corpus directory, `tests/fixtures/docs`.
pub fn corpus_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/docs")
}

/// The committed corpus, and the documents under `PAW_DOC_CORPUS_EXTRA` when it names a
/// folder (real documents kept out of the repository; tests/fixtures/docs/README.md).
pub fn all_corpus() -> Vec<CorpusDoc> {
    let mut docs = corpus(&corpus_dir());
    if let Some(extra) = std::env::var_os("PAW_DOC_CORPUS_EXTRA") {
        docs.extend(corpus(std::path::Path::new(&extra)));
        docs.sort_by(|a, b| {
            kind_order(&a.kind)
                .cmp(&kind_order(&b.kind))
                .then(a.path.cmp(&b.path))
        });
    }
    docs
}

/// Every document under `dir` with a `<name>.md` reference beside it, sorted by kind then
/// name; documents under `scans/` are of kind `scan`.
pub fn corpus(dir: &std::path::Path) -> Vec<CorpusDoc> {
    let mut docs: Vec<CorpusDoc> = crate::files_under(dir)
        .into_iter()
        .filter_map(|(path, _)| {
            let ext = path.extension()?.to_str()?.to_ascii_lowercase();
            // `x.md` is a reference, unless it is a Markdown document with its own `x.md.md`.
            if ext == "md" && !std::path::Path::new(&format!("{}.md", path.display())).is_file() {
                return None;
            }
            let reference = std::fs::read_to_string(format!("{}.md", path.display())).ok()?;
            let in_scans = path
                .parent()
                .and_then(|p| p.file_name())
                .is_some_and(|n| n == "scans");
            let kind = if in_scans { "scan".to_string() } else { ext };
            Some(CorpusDoc {
                path,
                kind,
                reference,
            })
        })
        .collect();
    docs.sort_by(|a, b| {
        kind_order(&a.kind)
            .cmp(&kind_order(&b.kind))
            .then(a.path.cmp(&b.path))
    });
    docs
}

/// The formats, in the order they are reported in.
pub const KINDS: [&str; 15] = [
    "pdf", "docx", "pptx", "xlsx", "scan", "html", "epub", "csv", "md", "odt", "ods", "odp", "rtf",
    "eml", "msg",
];

/// The order formats are reported in.
pub fn kind_order(kind: &str) -> usize {
    KINDS.iter().position(|k| *k == kind).unwrap_or(KINDS.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bag_f1_ignores_order_and_counts_repeats() {
        assert_eq!(bag_f1("Alpha beta gamma", "gamma ALPHA beta"), 1.0);
        // A reader that repeats the text twice halves its precision: F1 2/3.
        let twice = bag_f1("alpha beta", "alpha beta alpha beta");
        assert!((twice - 2.0 / 3.0).abs() < 1e-9, "{twice}");
        assert_eq!(bag_f1("", ""), 1.0);
        assert_eq!(bag_f1("alpha", ""), 0.0);
        assert_eq!(bag_f1("alpha", "beta"), 0.0);
    }

    #[test]
    fn stripping_keeps_the_text_and_drops_the_syntax() {
        let md = "<!-- page 3 -->\n# Title *here*\n\n- item **one**\n  1. [link text](http://x.y/z) and ![alt](i.png)\n\n| a | b\\|c |\n| --- | :-: |\n| `x` | <br>y |\n\n```rust\ncode line\n```\nNote[^1].\n\n[^1]: The note.";
        let t = tokens(&strip_markdown(md));
        assert_eq!(
            t,
            [
                "title", "here", "item", "one", "link", "text", "and", "alt", "a", "b", "c", "x",
                "y", "code", "line", "note", "the", "note"
            ]
        );
    }

    #[test]
    fn outline_numbers_of_headings_and_items_are_rendering() {
        let t = |s: &str| md_tokens(s).join(" ");
        assert_eq!(t("## 1.2 Scope"), "scope");
        assert_eq!(t("- 2.3.1. Budget"), "budget");
        assert_eq!(t("   1. 1.1. Detail"), "detail");
        assert_eq!(t("# 2016 figures"), "2016 figures");
        // In a paragraph a number is text.
        assert_eq!(t("1.2 million users"), "1.2 million users");
    }

    #[test]
    fn a_perfect_match_scores_one() {
        let md = std::fs::read_to_string(corpus_dir().join("generated/features.docx.md"))
            .expect("reference");
        let s = score(&md, &md, None);
        assert_eq!(s.f1, 1.0);
        assert_eq!(s.cell_recall(), Some(1.0));
        assert_eq!((s.ligatures, s.hyphen_splits), (0, 0));
        // Markdown syntax does not count: the same text as plain lines scores 1 too.
        assert_eq!(text_f1(&md, &strip_markdown(&md)), 1.0);
        assert_eq!(char_accuracy(&md, &md), 1.0);
    }

    #[test]
    fn text_f1_counts_shingles() {
        let r = "one two three four five six";
        assert_eq!(text_f1(r, "one two three four five six"), 1.0);
        // Half of it: 3 of 3 output shingles are right, 3 of the 3 reference ones found…
        let half = text_f1(r, "one two three four");
        assert!((half - 2.0 * (1.0 * (1.0 / 3.0)) / (1.0 + 1.0 / 3.0)).abs() < 1e-9);
        assert_eq!(text_f1(r, ""), 0.0);
        assert_eq!(text_f1("", ""), 1.0);
        // Ligatures and case are not text errors.
        assert_eq!(
            text_f1("The ﬁnal ﬁgures here", "the final figures HERE"),
            1.0
        );
    }

    #[test]
    fn a_reversed_arabic_line_scores_low() {
        let logical = "يقدم هذا التقرير ملخصا لنتائج العمل خلال العام الماضي في جميع الأقسام";
        assert!(is_rtl(logical));
        // Visual order as a naive reader gives it: the characters of the line reversed.
        let visual: String = logical.chars().rev().collect();
        assert!(
            text_f1(logical, &visual) < 0.1,
            "{}",
            text_f1(logical, &visual)
        );
        // Words reversed but each word intact: still no shingle in common.
        let words: Vec<&str> = logical.split(' ').rev().collect();
        assert!(text_f1(logical, &words.join(" ")) < 0.1);
        // Presentation forms in logical order are the same text after NFKC…
        let shaped = "ﻳﻘﺪﻡ ﻫﺬﺍ ﺍﻟﺘﻘﺮﻳﺮ ﻣﻠﺨﺼﺎ";
        assert_eq!(text_f1("يقدم هذا التقرير ملخصا", shaped), 1.0);
        // …but counted by their own check.
        assert_eq!(presentation_forms(shaped), 19);
    }

    #[test]
    fn a_table_cut_in_two_is_not_found_whole() {
        let r = md_tables("| k | v |\n|---|---|\n| a | 1 |\n| b | 2 |\n| c | 3 |\n");
        assert!(found_whole(table_pieces(&r[0], &r)));
        let cut = md_tables("| k | v |\n| a | 1 |\n\n| b | 2 |\n| c | 3 |\n");
        assert_eq!(cut.len(), 2);
        assert_eq!(table_pieces(&r[0], &cut), (8, 8, 4));
        assert!(!found_whole(table_pieces(&r[0], &cut)));
        // Mostly missed: one row of four.
        let part = md_tables("| a | 1 |\n");
        assert!(!found_whole(table_pieces(&r[0], &part)));
    }

    #[test]
    fn a_cell_in_the_wrong_row_is_not_counted() {
        let r = md_tables("| k | v |\n|---|---|\n| a | 1 |\n| b | 2 |\n");
        assert_eq!(r[0].rows, [["k", "v"], ["a", "1"], ["b", "2"]]);
        assert_eq!(table_cells(&r, &r), (6, 6));
        // The values swapped rows: the keys pair up with their rows, the values do not.
        let swapped = md_tables("| k | v |\n|---|---|\n| a | 2 |\n| b | 1 |\n");
        assert_eq!(table_cells(&r, &swapped), (4, 6));
        // All cells on one line (a table flattened into one row): one row's worth.
        let flat = md_tables("| k | v | a | 1 | b | 2 |\n");
        assert_eq!(table_cells(&r, &flat), (2, 6));
        // Split over two tables (a page break): all found.
        let split = md_tables("| k | v |\n|---|---|\n| a | 1 |\n\ntext\n\n| b | 2 |\n");
        assert_eq!(split.len(), 2);
        assert_eq!(table_cells(&r, &split), (6, 6));
        // No table in the output: nothing found.
        assert_eq!(table_cells(&r, &[]), (0, 6));
    }

    #[test]
    fn json_tables_fill_spans() {
        let doc: Value = serde_json::json!({"pages": [{"blocks": [{"table": {"rows": 2, "cols": 2, "cells": [
            {"r": 0, "c": 0, "rowspan": 1, "colspan": 2, "text": "Both"},
            {"r": 1, "c": 0, "rowspan": 1, "colspan": 1, "text": "X"},
            {"r": 1, "c": 1, "rowspan": 1, "colspan": 1, "text": "Y z"}]}}]}]});
        let t = json_tables(&doc);
        assert_eq!(t[0].rows, [["both", "both"], ["x", "y z"]]);
    }

    #[test]
    fn checks_count_ligatures_and_hyphen_splits() {
        assert_eq!(ligatures("ﬁne ﬂow ﬀ ﬃ office"), 4);
        let r = "The configuration is read once. A well-known value.";
        assert_eq!(hyphen_splits(r, "The config-\nuration is read once."), 1);
        assert_eq!(hyphen_splits(r, "The configuration is read once."), 0);
        // A real compound, or a hyphen with no break, is not a split.
        assert_eq!(hyphen_splits(r, "A well-known value. config-uration"), 0);
    }

    #[test]
    fn char_accuracy_is_one_minus_edit_rate() {
        assert_eq!(levenshtein(&['a', 'b', 'c'], &['a', 'x', 'c', 'd']), 2);
        assert_eq!(char_accuracy("# Hello world", "hello  world"), 1.0);
        assert!((char_accuracy("hello world", "hallo world") - (1.0 - 1.0 / 11.0)).abs() < 1e-9);
        assert_eq!(char_accuracy("hello", ""), 0.0);
    }

    #[test]
    fn the_corpus_has_every_kind_with_references() {
        let docs = corpus(&corpus_dir());
        for kind in ["pdf", "docx", "pptx", "xlsx", "scan"] {
            assert!(
                docs.iter().filter(|d| d.kind == kind).count() >= 1,
                "{kind}"
            );
        }
        for d in &docs {
            assert!(!md_tokens(&d.reference).is_empty(), "{}", d.name());
        }
    }
}
