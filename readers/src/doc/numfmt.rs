//! Excel number formats: a cell's value as Excel shows it under its format code (ECMA-376
//! Part 1 §18.8.30–31) — decimals, percent, thousands separators and scaling, currency and
//! literals, scientific, fractions, dates and times (elapsed too), text `@`, up to four
//! `;` sections with conditions, and the built-in format ids 0–49 as Excel in en-US shows
//! them. Pure: a value and a code in, text out; a code only ever costs its own length.

use std::borrow::Cow;

use chrono::{Datelike, NaiveDate};

/// The most characters of a format code read: Excel's own limit is 255.
const MAX_CODE: usize = 1_024;
/// The most digits a number is padded or written to: a hostile `0000…` stays small.
const MAX_DIGITS: usize = 64;

/// The code Excel uses for a built-in format id (en-US), or `None` for ids it leaves to the
/// workbook. calamine gives ids 14 and 22 as `mm-dd-yy`/`m/d/yy h:mm` and 5–8 as General;
/// Excel in en-US shows `m/d/yyyy` and dollars.
pub fn builtin(id: u32) -> Option<&'static str> {
    Some(match id {
        0 => "General",
        1 => "0",
        2 => "0.00",
        3 => "#,##0",
        4 => "#,##0.00",
        5 => "$#,##0_);($#,##0)",
        6 => "$#,##0_);[Red]($#,##0)",
        7 => "$#,##0.00_);($#,##0.00)",
        8 => "$#,##0.00_);[Red]($#,##0.00)",
        9 => "0%",
        10 => "0.00%",
        11 => "0.00E+00",
        12 => "# ?/?",
        13 => "# ??/??",
        14 | 27..=31 | 34..=36 | 50..=58 => "m/d/yyyy",
        15 => "d-mmm-yy",
        16 => "d-mmm",
        17 => "mmm-yy",
        18 => "h:mm AM/PM",
        19 => "h:mm:ss AM/PM",
        20 | 32 => "h:mm",
        21 | 33 => "h:mm:ss",
        22 => "m/d/yyyy h:mm",
        37 => "#,##0 ;(#,##0)",
        38 => "#,##0 ;[Red](#,##0)",
        39 => "#,##0.00;(#,##0.00)",
        40 => "#,##0.00;[Red](#,##0.00)",
        41 => r#"_(* #,##0_);_(* \(#,##0\);_(* "-"_);_(@_)"#,
        42 => r#"_("$"* #,##0_);_("$"* \(#,##0\);_("$"* "-"_);_(@_)"#,
        43 => r#"_(* #,##0.00_);_(* \(#,##0.00\);_(* "-"??_);_(@_)"#,
        44 => r#"_("$"* #,##0.00_);_("$"* \(#,##0.00\);_("$"* "-"??_);_(@_)"#,
        45 => "mm:ss",
        46 => "[h]:mm:ss",
        47 => "mmss.0",
        48 => "##0.0E+0",
        49 => "@",
        _ => return None,
    })
}

/// The code to display a cell with: the workbook's own `numFmt` when it defines one, else
/// Excel's built-in for the id. `code` is what the styles part gave for `id` (calamine
/// fills in its own built-ins, which differ from Excel's for a few ids).
pub fn effective<'a>(id: Option<u32>, code: &'a str) -> Cow<'a, str> {
    let calamine_default = matches!(
        (id, code),
        (Some(14), "mm-dd-yy") | (Some(22), "m/d/yy h:mm") | (Some(_), "General")
    ) || id
        .is_some_and(|i| i < 164 && builtin(i).is_some_and(|b| b == code));
    match id.and_then(builtin) {
        Some(b) if calamine_default || code.is_empty() => Cow::Borrowed(b),
        _ => Cow::Borrowed(code),
    }
}

/// `value` as Excel shows it under `code` (`date1904`: the workbook counts days from 1904).
pub fn display(value: f64, code: &str, date1904: bool) -> String {
    if !value.is_finite() {
        return "#NUM!".into();
    }
    let secs = sections(code);
    let Some((sec, signed)) = pick(&secs, value) else {
        return general(value);
    };
    let v = if signed { value } else { value.abs() };
    let out = if sec.is_date {
        match date(v, sec, date1904) {
            Some(s) => s,
            // Excel fills the cell with `#` for a negative or too-large date.
            None => return general(value),
        }
    } else if signed && v < 0.0 {
        let body = number(-v, sec);
        // A value that rounds to zero shows no sign when nothing but zeros is shown.
        if body.chars().any(|c| c.is_ascii_digit() && c != '0') {
            format!("-{body}")
        } else {
            body
        }
    } else {
        number(v, sec)
    };
    out.trim().to_string()
}

/// A text cell as Excel shows it under `code`: the text section's `@` replaced by the
/// text; a code with no text section shows the text as it is.
pub fn display_text(text: &str, code: &str) -> String {
    let secs = sections(code);
    let sec = match secs.len() {
        4.. => secs.get(3),
        1 if secs[0].toks.iter().any(|t| matches!(t, Tok::Text)) => secs.first(),
        _ => None,
    };
    let Some(sec) = sec else {
        return text.to_string();
    };
    let mut out = String::new();
    for t in &sec.toks {
        match t {
            Tok::Lit(s) => out.push_str(s),
            Tok::Text => out.push_str(text),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// Excel's General: integers as they are up to 11 characters, other numbers rounded to fit
/// 11 characters, scientific with 6 significant digits beyond that.
pub fn general(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let a = v.abs();
    let sign = if v < 0.0 { "-" } else { "" };
    if !(1e-9..1e11).contains(&a) {
        let s = format!("{a:.5E}");
        let (m, e) = s.split_once('E').unwrap_or((&s, "0"));
        let m = m.trim_end_matches('0').trim_end_matches('.');
        let e: i32 = e.parse().unwrap_or(0);
        let es = if e < 0 { '-' } else { '+' };
        return format!("{sign}{m}E{es}{:02}", e.abs());
    }
    // Room for decimals: 11 characters less the integer digits and the point (the sign
    // is not counted).
    let int_len = if a < 1.0 {
        1
    } else {
        a.log10().floor() as usize + 1
    };
    let room = 10usize.saturating_sub(int_len);
    let (i, f) = fixed(a, room);
    let f = f.trim_end_matches('0');
    let i = if i.is_empty() { "0" } else { &i };
    if f.is_empty() {
        format!("{sign}{i}")
    } else {
        format!("{sign}{i}.{f}")
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Lit(String),
    /// `0`, `#` or `?`.
    Digit(char),
    Point,
    Comma,
    Percent,
    /// `E+` (true: always a sign) or `E-`.
    Exp(bool),
    Slash,
    /// `@`.
    Text,
    General,
    Year(usize),
    /// `m` runs: a month, unless next to hours or seconds (then minutes).
    Month(usize),
    Minute(usize),
    Day(usize),
    Hour(usize),
    Second(usize),
    /// AM/PM (true) or A/P.
    AmPm(bool),
    /// `[h]`, `[m]`, `[s]`: elapsed time in that unit.
    Elapsed(char, usize),
}

#[derive(Debug, Default)]
struct Section {
    toks: Vec<Tok>,
    cond: Option<(String, f64)>,
    is_date: bool,
}

/// The code's sections (at most 4), split at `;` outside quotes, escapes and brackets.
fn sections(code: &str) -> Vec<Section> {
    let chars: Vec<char> = code.chars().take(MAX_CODE).collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
            }
            '\\' | '_' | '*' => i += 1,
            '[' => {
                while i < chars.len() && chars[i] != ']' {
                    i += 1;
                }
            }
            ';' => {
                out.push(section(&chars[start..i]));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(section(&chars[start.min(chars.len())..]));
    out.truncate(4);
    out
}

fn section(c: &[char]) -> Section {
    let mut s = Section::default();
    let mut i = 0;
    let lit = |toks: &mut Vec<Tok>, t: &str| match toks.last_mut() {
        Some(Tok::Lit(l)) => l.push_str(t),
        _ => toks.push(Tok::Lit(t.to_string())),
    };
    while i < c.len() {
        let ch = c[i];
        let run = |i: usize| {
            let lc = ch.to_ascii_lowercase();
            c[i..]
                .iter()
                .take_while(|x| x.to_ascii_lowercase() == lc)
                .count()
        };
        match ch {
            '"' => {
                let end = c[i + 1..]
                    .iter()
                    .position(|&x| x == '"')
                    .map_or(c.len(), |p| i + 1 + p);
                let t: String = c[i + 1..end].iter().collect();
                lit(&mut s.toks, &t);
                i = end + 1;
            }
            '\\' => {
                if let Some(n) = c.get(i + 1) {
                    lit(&mut s.toks, &n.to_string());
                }
                i += 2;
            }
            '_' => {
                lit(&mut s.toks, " ");
                i += 2;
            }
            '*' => i += 2,
            '[' => {
                let end = c[i..]
                    .iter()
                    .position(|&x| x == ']')
                    .map_or(c.len(), |p| i + p);
                let inner: String = c[i + 1..end.min(c.len())].iter().collect();
                bracket(&inner, &mut s);
                i = end + 1;
            }
            '0' | '#' | '?' => {
                s.toks.push(Tok::Digit(ch));
                i += 1;
            }
            '.' => {
                s.toks.push(Tok::Point);
                i += 1;
            }
            ',' => {
                s.toks.push(Tok::Comma);
                i += 1;
            }
            '%' => {
                s.toks.push(Tok::Percent);
                i += 1;
            }
            '/' => {
                s.toks.push(Tok::Slash);
                i += 1;
            }
            '@' => {
                s.toks.push(Tok::Text);
                i += 1;
            }
            'E' | 'e' if matches!(c.get(i + 1), Some('+' | '-')) => {
                s.toks.push(Tok::Exp(c[i + 1] == '+'));
                i += 2;
            }
            'y' | 'Y' | 'm' | 'M' | 'd' | 'D' | 'h' | 'H' | 's' | 'S' => {
                let n = run(i);
                s.toks.push(match ch.to_ascii_lowercase() {
                    'y' => Tok::Year(n),
                    'm' => Tok::Month(n),
                    'd' => Tok::Day(n),
                    'h' => Tok::Hour(n),
                    _ => Tok::Second(n),
                });
                s.is_date = true;
                i += n;
            }
            'A' | 'a' => {
                let rest: String = c[i..].iter().take(5).collect::<String>().to_uppercase();
                if rest.starts_with("AM/PM") {
                    s.toks.push(Tok::AmPm(true));
                    s.is_date = true;
                    i += 5;
                } else if rest.starts_with("A/P") {
                    s.toks.push(Tok::AmPm(false));
                    s.is_date = true;
                    i += 3;
                } else {
                    lit(&mut s.toks, &ch.to_string());
                    i += 1;
                }
            }
            'G' | 'g' => {
                let rest: String = c[i..].iter().take(7).collect::<String>().to_lowercase();
                if rest == "general" {
                    s.toks.push(Tok::General);
                    i += 7;
                } else {
                    i += 1;
                }
            }
            _ => {
                lit(&mut s.toks, &ch.to_string());
                i += 1;
            }
        }
    }
    // `m` is minutes after hours or before seconds.
    let dates: Vec<usize> = (0..s.toks.len())
        .filter(|&k| {
            matches!(
                s.toks[k],
                Tok::Year(_)
                    | Tok::Month(_)
                    | Tok::Day(_)
                    | Tok::Hour(_)
                    | Tok::Second(_)
                    | Tok::Elapsed(..)
            )
        })
        .collect();
    for (j, &k) in dates.iter().enumerate() {
        if let Tok::Month(n) = s.toks[k] {
            let after_hour =
                j > 0 && matches!(s.toks[dates[j - 1]], Tok::Hour(_) | Tok::Elapsed('h', _));
            let before_sec = dates
                .get(j + 1)
                .is_some_and(|&n2| matches!(s.toks[n2], Tok::Second(_) | Tok::Elapsed('s', _)));
            if n <= 2 && (after_hour || before_sec) {
                s.toks[k] = Tok::Minute(n);
            }
        }
    }
    s
}

/// A `[...]` part: a currency and locale (`$€-407`: the symbol shows), elapsed time, a
/// condition, or a colour (ignored).
fn bracket(inner: &str, s: &mut Section) {
    if let Some(cur) = inner.strip_prefix('$') {
        let sym = cur.split('-').next().unwrap_or("");
        if !sym.is_empty() {
            match s.toks.last_mut() {
                Some(Tok::Lit(l)) => l.push_str(sym),
                _ => s.toks.push(Tok::Lit(sym.to_string())),
            }
        }
        return;
    }
    let lower = inner.to_ascii_lowercase();
    if let Some(first) = lower.chars().next()
        && matches!(first, 'h' | 'm' | 's')
        && lower.chars().all(|c| c == first)
    {
        s.toks.push(Tok::Elapsed(first, lower.len()));
        s.is_date = true;
        return;
    }
    for op in ["<=", ">=", "<>", "<", ">", "="] {
        if let Some(n) = inner.strip_prefix(op)
            && let Ok(n) = n.trim().parse::<f64>()
        {
            s.cond = Some((op.to_string(), n));
            return;
        }
    }
}

fn holds(cond: &(String, f64), v: f64) -> bool {
    let (op, n) = cond;
    match op.as_str() {
        "<=" => v <= *n,
        ">=" => v >= *n,
        "<>" => v != *n,
        "<" => v < *n,
        ">" => v > *n,
        _ => v == *n,
    }
}

/// The section for `v` and whether it shows the sign itself (the first of one or two
/// sections, or a section chosen by its condition, shows `-`).
fn pick(secs: &[Section], v: f64) -> Option<(&Section, bool)> {
    if secs.iter().any(|s| s.cond.is_some()) {
        for s in secs.iter().take(2) {
            if let Some(c) = &s.cond
                && holds(c, v)
            {
                return Some((s, true));
            }
        }
        let rest = secs.iter().skip(1).find(|s| s.cond.is_none());
        return rest.or(secs.first()).map(|s| (s, true));
    }
    match secs.len() {
        0 => None,
        1 => Some((&secs[0], true)),
        2 if v < 0.0 => Some((&secs[1], false)),
        2 => Some((&secs[0], true)),
        _ if v < 0.0 => Some((&secs[1], false)),
        _ if v == 0.0 => Some((&secs[2], false)),
        _ => Some((&secs[0], true)),
    }
}

/// `v ≥ 0` written with `dec` decimals, rounded half away from zero on its 15 significant
/// digits (as Excel does, so 1.005 → 1.01): (integer digits without leading zeros, decimal
/// digits).
fn fixed(v: f64, dec: usize) -> (String, String) {
    let dec = dec.min(MAX_DIGITS);
    let s = format!("{:.14e}", v.abs());
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: Vec<u8> = m
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let exp: i64 = e.parse().unwrap_or(0);
    // Digit k stands for 10^(exp - k); keep those down to 10^-dec.
    let keep = exp + 1 + dec as i64;
    if keep > (MAX_DIGITS * 2) as i64 {
        // Beyond what any cell shows: the digits as they are.
        return (format!("{:.0}", v.abs()), "0".repeat(dec));
    }
    let mut out: Vec<u8> = (0..keep.max(0))
        .map(|k| digits.get(k as usize).copied().unwrap_or(0))
        .collect();
    let round = if keep >= 0 {
        digits.get(keep as usize).copied().unwrap_or(0)
    } else {
        0
    };
    let mut int_len = keep - dec as i64; // may be ≤ 0
    if round >= 5 {
        let mut k = out.len();
        loop {
            if k == 0 {
                out.insert(0, 1);
                int_len += 1;
                break;
            }
            k -= 1;
            if out[k] == 9 {
                out[k] = 0;
            } else {
                out[k] += 1;
                break;
            }
        }
    }
    let total = out.len() as i64;
    let int_len = int_len.clamp(0, total) as usize;
    let int: String = out[..int_len]
        .iter()
        .map(|d| char::from(b'0' + d))
        .collect::<String>()
        .trim_start_matches('0')
        .to_string();
    let mut frac: String = out[int_len..]
        .iter()
        .map(|d| char::from(b'0' + d))
        .collect();
    while frac.len() < dec {
        frac.insert(0, '0');
    }
    (int, frac)
}

/// A number section (`v ≥ 0`, the sign already decided).
fn number(v: f64, sec: &Section) -> String {
    let toks = &sec.toks;
    if toks.iter().any(|t| matches!(t, Tok::General)) {
        return toks
            .iter()
            .map(|t| match t {
                Tok::Lit(s) => s.clone(),
                Tok::General => general(v),
                _ => String::new(),
            })
            .collect();
    }
    if toks.iter().any(|t| matches!(t, Tok::Slash))
        && toks.iter().any(|t| matches!(t, Tok::Digit(_)))
        && !toks.iter().any(|t| matches!(t, Tok::Point))
    {
        return fraction(v, toks);
    }
    let point = toks.iter().position(|t| matches!(t, Tok::Point));
    let exp = toks.iter().position(|t| matches!(t, Tok::Exp(_)));
    let int_end = point.or(exp).unwrap_or(toks.len());
    let frac_end = exp.unwrap_or(toks.len());
    let int_ph: Vec<usize> = (0..int_end)
        .filter(|&k| matches!(toks[k], Tok::Digit(_)))
        .collect();
    let dec_ph: Vec<usize> = (point.map_or(int_end, |p| p + 1)..frac_end)
        .filter(|&k| matches!(toks[k], Tok::Digit(_)))
        .collect();
    let exp_ph = exp.map_or(0, |e| {
        toks[e + 1..]
            .iter()
            .filter(|t| matches!(t, Tok::Digit(_)))
            .count()
    });
    if int_ph.is_empty() && dec_ph.is_empty() && toks.iter().any(|t| matches!(t, Tok::Text)) {
        // A text format shows a number as General.
        return general(v);
    }
    if int_ph.is_empty() && dec_ph.is_empty() {
        // Literals only (`"-"` for zero): they are what shows.
        return toks
            .iter()
            .map(|t| match t {
                Tok::Lit(s) => s.as_str(),
                Tok::Percent => "%",
                _ => "",
            })
            .collect();
    }
    let mut v = v;
    for t in toks {
        if matches!(t, Tok::Percent) {
            v *= 100.0;
        }
    }
    // Commas right after the last integer placeholder scale by 1000; between placeholders
    // they group thousands.
    let last_int = int_ph.last().copied();
    let mut grouping = false;
    if let (Some(first), Some(last)) = (int_ph.first(), last_int) {
        grouping = (*first..last).any(|k| matches!(toks[k], Tok::Comma));
        let mut k = last + 1;
        while k < int_end && matches!(toks[k], Tok::Comma) {
            v /= 1000.0;
            k += 1;
        }
    }
    // … and so do commas right after the last decimal placeholder.
    if let Some(&last) = dec_ph.last() {
        let mut k = last + 1;
        while k < frac_end && matches!(toks[k], Tok::Comma) {
            v /= 1000.0;
            k += 1;
        }
    }
    let mut exponent = 0i32;
    if exp.is_some() && v != 0.0 {
        let n_int = int_ph.len().max(1) as i32;
        exponent = v.log10().floor() as i32;
        if n_int > 1 {
            exponent -= exponent.rem_euclid(n_int);
        }
        let mut m = v / 10f64.powi(exponent);
        let (i, _) = fixed(m, dec_ph.len());
        if i.len() > n_int as usize {
            exponent += if n_int > 1 { n_int } else { 1 };
            m = v / 10f64.powi(exponent);
        }
        v = m;
    }
    let (int_digits, frac_digits) = fixed(v, dec_ph.len());
    let int_str = integer(&int_digits, toks, &int_ph, grouping);
    // Decimals: trailing `#` zeros dropped, trailing `?` zeros as spaces.
    let mut frac: Vec<char> = frac_digits.chars().collect();
    for (j, &k) in dec_ph.iter().enumerate().rev() {
        match (toks[k].clone(), frac.get(j)) {
            (Tok::Digit('#'), Some('0')) if j + 1 == frac.len() => {
                frac.pop();
            }
            (Tok::Digit('?'), Some('0')) => frac[j] = ' ',
            _ => break,
        }
    }
    let mut out = String::new();
    let mut frac_i = 0;
    let first_int = int_ph.first().copied();
    for (k, t) in toks.iter().enumerate() {
        let in_int = first_int.is_some_and(|f| k >= f) && last_int.is_some_and(|l| k <= l);
        match t {
            _ if Some(k) == first_int => out.push_str(&int_str),
            _ if in_int => {}
            Tok::Lit(s) => out.push_str(s),
            Tok::Point if Some(k) == point => out.push('.'),
            Tok::Digit(_) if k < frac_end && point.is_some_and(|p| k > p) => {
                if let Some(c) = frac.get(frac_i) {
                    out.push(*c);
                }
                frac_i += 1;
            }
            Tok::Exp(plus) => {
                out.push('E');
                if exponent < 0 {
                    out.push('-');
                } else if *plus {
                    out.push('+');
                }
                let e = exponent.unsigned_abs().to_string();
                let pad = exp_ph.min(MAX_DIGITS).saturating_sub(e.len());
                out.push_str(&"0".repeat(pad));
                out.push_str(&e);
            }
            Tok::Percent => out.push('%'),
            _ => {}
        }
    }
    out
}

/// The integer placeholders filled from the right with `digits` (no leading zeros; empty
/// for zero): `0` pads with zeros, `?` with spaces, `#` with nothing; literals between
/// placeholders stay where they are (`000-0000`); the leftmost placeholder takes what
/// digits are left.
fn integer(digits: &str, toks: &[Tok], int_ph: &[usize], grouping: bool) -> String {
    let (Some(&first), Some(&last)) = (int_ph.first(), int_ph.last()) else {
        return digits.to_string();
    };
    if grouping {
        let min = int_ph
            .iter()
            .position(|&k| !matches!(toks[k], Tok::Digit('#')))
            .map_or(0, |p| int_ph.len() - p)
            .min(MAX_DIGITS);
        let mut d = digits.to_string();
        while d.len() < min {
            d.insert(0, '0');
        }
        let n = d.len();
        let mut out = String::with_capacity(n + n / 3);
        for (i, c) in d.chars().enumerate() {
            if i > 0 && (n - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        return out;
    }
    let mut rev: Vec<char> = digits.chars().rev().collect();
    let mut out: Vec<String> = Vec::new();
    for k in (first..=last).rev() {
        match &toks[k] {
            Tok::Digit(ph) => {
                if k == first {
                    if rev.is_empty() {
                        match ph {
                            '0' => out.push("0".into()),
                            '?' => out.push(" ".into()),
                            _ => {}
                        }
                    } else {
                        rev.reverse();
                        out.push(rev.iter().collect());
                        rev.clear();
                    }
                } else if !rev.is_empty() {
                    out.push(rev.remove(0).to_string());
                } else if *ph == '0' {
                    out.push("0".into());
                } else if *ph == '?' {
                    out.push(" ".into());
                }
            }
            Tok::Lit(s) => out.push(s.clone()),
            _ => {}
        }
    }
    out.reverse();
    out.concat()
}

/// `# ?/?`, `?/?`, `# ??/100`: a whole part when the code has one, then the fraction
/// nearest `v` with a denominator of as many digits as placeholders (or the one given).
fn fraction(v: f64, toks: &[Tok]) -> String {
    let slash = toks
        .iter()
        .position(|t| matches!(t, Tok::Slash))
        .unwrap_or(0);
    let mut den_ph = 0;
    let mut fixed_den: Option<u64> = None;
    for t in &toks[slash + 1..] {
        match t {
            Tok::Digit(_) => den_ph += 1,
            Tok::Lit(s) if den_ph == 0 && s.chars().all(|c| c.is_ascii_digit()) => {
                fixed_den = s.parse().ok().filter(|d| *d > 0);
            }
            _ => break,
        }
    }
    // The numerator is the run of placeholders just before the slash; placeholders before
    // that, apart by a literal, are the whole part.
    let mut k = slash;
    while k > 0 && matches!(toks[k - 1], Tok::Digit(_)) {
        k -= 1;
    }
    let whole = toks[..k].iter().any(|t| matches!(t, Tok::Digit(_)));
    let prefix: String = toks
        .iter()
        .take_while(|t| !matches!(t, Tok::Digit(_)))
        .filter_map(|t| match t {
            Tok::Lit(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let (w, f) = if whole {
        (v.trunc(), v.fract())
    } else {
        (0.0, v)
    };
    let (num, den) = match fixed_den {
        Some(d) => ((f * d as f64).round() as u64, d),
        None => nearest(f, 10u64.pow(den_ph.clamp(1, 6)) - 1),
    };
    let (w, num) = if whole && num == den {
        (w + 1.0, 0)
    } else {
        (w, num)
    };
    let body = if whole {
        if num == 0 {
            format!("{w:.0}")
        } else if w == 0.0 {
            format!("{num}/{den}")
        } else {
            format!("{w:.0} {num}/{den}")
        }
    } else {
        format!("{num}/{den}")
    };
    format!("{prefix}{body}")
}

/// The fraction nearest `x` (≥ 0) with a denominator at most `max` (continued fractions).
fn nearest(x: f64, max: u64) -> (u64, u64) {
    let (mut p0, mut q0, mut p1, mut q1) = (0u64, 1u64, 1u64, 0u64);
    let mut r = x;
    for _ in 0..64 {
        let a = r.floor();
        if a > u64::MAX as f64 / 2.0 {
            break;
        }
        let a = a as u64;
        let q2 = a.saturating_mul(q1).saturating_add(q0);
        if q2 > max {
            break;
        }
        let p2 = a.saturating_mul(p1).saturating_add(p0);
        (p0, q0, p1, q1) = (p1, q1, p2, q2);
        let f = r - a as f64;
        if f < 1e-12 {
            break;
        }
        r = 1.0 / f;
    }
    if q1 == 0 {
        return ((x.round()) as u64, 1);
    }
    (p1, q1)
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// A date/time section; `None` for what Excel shows as `####` (negative, past 9999).
fn date(v: f64, sec: &Section, date1904: bool) -> Option<String> {
    if !(0.0..2_958_466.0).contains(&v) {
        return None;
    }
    let toks = &sec.toks;
    // Decimals of seconds: zeros after a point that follows seconds.
    let mut sub = 0usize;
    for (k, t) in toks.iter().enumerate() {
        if matches!(t, Tok::Point)
            && toks[..k]
                .iter()
                .any(|t| matches!(t, Tok::Second(_) | Tok::Elapsed('s', _)))
        {
            sub = toks[k + 1..]
                .iter()
                .take_while(|t| matches!(t, Tok::Digit('0')))
                .count()
                .min(3);
            break;
        }
    }
    // Whole milliseconds, rounded to what is shown.
    let unit = 10i64.pow(3 - sub as u32);
    let ms = ((v * 86_400_000.0 / unit as f64).round() as i64) * unit;
    let days = ms.div_euclid(86_400_000);
    let tod = ms.rem_euclid(86_400_000);
    let (y, mo, d, wd) = ymd(days, date1904)?;
    let ampm = toks.iter().any(|t| matches!(t, Tok::AmPm(_)));
    let (hh, mi, ss, frac) = (
        tod / 3_600_000,
        tod / 60_000 % 60,
        tod / 1000 % 60,
        tod % 1000,
    );
    let mut out = String::new();
    let mut skip_digits = false;
    for t in toks {
        match t {
            Tok::Lit(s) => out.push_str(s),
            Tok::Year(n) if *n <= 2 => out.push_str(&format!("{:02}", y % 100)),
            Tok::Year(_) => out.push_str(&format!("{y:04}")),
            Tok::Month(1) => out.push_str(&mo.to_string()),
            Tok::Month(2) => out.push_str(&format!("{mo:02}")),
            Tok::Month(n) => {
                let name = MONTHS[(mo as usize).saturating_sub(1) % 12];
                match n {
                    3 => out.push_str(&name[..3]),
                    5 => out.push_str(&name[..1]),
                    _ => out.push_str(name),
                }
            }
            Tok::Day(1) => out.push_str(&d.to_string()),
            Tok::Day(2) => out.push_str(&format!("{d:02}")),
            Tok::Day(3) => out.push_str(&DAYS[wd][..3]),
            Tok::Day(_) => out.push_str(DAYS[wd]),
            Tok::Hour(n) => {
                let h = if ampm { (hh + 11) % 12 + 1 } else { hh };
                if *n >= 2 {
                    out.push_str(&format!("{h:02}"));
                } else {
                    out.push_str(&h.to_string());
                }
            }
            Tok::Minute(n) if *n >= 2 => out.push_str(&format!("{mi:02}")),
            Tok::Minute(_) => out.push_str(&mi.to_string()),
            Tok::Second(n) if *n >= 2 => out.push_str(&format!("{ss:02}")),
            Tok::Second(_) => out.push_str(&ss.to_string()),
            Tok::AmPm(full) => {
                let pm = hh >= 12;
                out.push_str(match (full, pm) {
                    (true, false) => "AM",
                    (true, true) => "PM",
                    (false, false) => "A",
                    (false, true) => "P",
                });
            }
            Tok::Elapsed(u, n) => {
                let total = match u {
                    'h' => ms / 3_600_000,
                    'm' => ms / 60_000,
                    _ => ms / 1000,
                };
                out.push_str(&format!("{total:0n$}", n = (*n).min(MAX_DIGITS)));
            }
            Tok::Point if sub > 0 => {
                out.push('.');
                let f = format!("{frac:03}");
                out.push_str(&f[..sub]);
                skip_digits = true;
            }
            Tok::Point => out.push('.'),
            Tok::Digit(_) if skip_digits => {}
            Tok::Digit(c) => out.push(*c),
            Tok::Comma => out.push(','),
            Tok::Percent => out.push('%'),
            Tok::Slash => out.push('/'),
            _ => {}
        }
        if !matches!(t, Tok::Point | Tok::Digit(_)) {
            skip_digits = false;
        }
    }
    Some(out)
}

/// Year, month, day and weekday (0 = Monday) of a serial day. The 1900 system keeps
/// Excel's 29 February 1900 (day 60) and shows day 0 as 0 January 1900.
fn ymd(days: i64, date1904: bool) -> Option<(i32, u32, u32, usize)> {
    if date1904 {
        let d = NaiveDate::from_ymd_opt(1904, 1, 1)?
            .checked_add_days(chrono::Days::new(u64::try_from(days).ok()?))?;
        return Some((
            d.year(),
            d.month(),
            d.day(),
            d.weekday().num_days_from_monday() as usize,
        ));
    }
    match days {
        0 => Some((1900, 1, 0, 5)),
        60 => Some((1900, 2, 29, 2)),
        _ => {
            let base = if days < 60 {
                NaiveDate::from_ymd_opt(1899, 12, 31)?
            } else {
                NaiveDate::from_ymd_opt(1899, 12, 30)?
            };
            let d = base.checked_add_days(chrono::Days::new(u64::try_from(days).ok()?))?;
            Some((
                d.year(),
                d.month(),
                d.day(),
                d.weekday().num_days_from_monday() as usize,
            ))
        }
    }
}
