//! DOCX: `word/document.xml` read in one pass with the styles, numbering, relationships,
//! notes, headers and footers it refers to, into the document model.
//!
//! Everything an input can nest or repeat is kept on explicit stacks or under caps: style
//! inheritance is followed a bounded number of steps, tables deeper than
//! [`MAX_TABLE_DEPTH`] are read as text of the deepest tracked cell, table sizes go
//! through [`TableBudget`], fields nest at most [`MAX_FIELD_DEPTH`].

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::model::{Block, Cell, Document, Kind, Link, Page};
use super::ooxml::{
    MAX_TABLE_COLS, Rel, TableBudget, Zip, attr, chart, core_metadata, main_part_as, num_attr, on,
    push_ref, rels, targets, xml_err,
};
use super::{DocError, Format};

/// Tables tracked as tables; deeper ones become text of the deepest tracked cell.
const MAX_TABLE_DEPTH: usize = 32;
/// Open fields (`w:fldChar begin`) tracked.
const MAX_FIELD_DEPTH: usize = 16;
/// `w:basedOn` steps followed from a style.
const MAX_STYLE_CHAIN: usize = 16;
/// Header and footer parts read (as furniture).
const MAX_FURNITURE_PARTS: usize = 32;
/// Numbering levels Word defines (`w:ilvl` 0..=8).
const LEVELS: usize = 9;

/// Where Word puts the main part; a package may name another (`ooxml::main_part`).
const BODY: &str = "word/document.xml";

/// Reads a DOCX: the main part found through the package's relationships, and the parts
/// it relates to (styles, numbering, notes, headers and footers) through its own.
pub(super) fn read(bytes: &[u8]) -> Result<Document, DocError> {
    let mut zip = Zip::new(bytes)?;
    let mut warnings = Vec::new();
    let main = main_part_as(&mut zip, Format::Docx, BODY, &mut warnings)?;
    let xml = zip.read(&main)?;
    let links = rels(&mut zip, &main, &mut warnings)?;
    let dir = main.rsplit_once('/').map_or("", |(d, _)| d);
    // A related part, else the usual name beside the main part.
    let related = |kind: &str, file: &str| {
        targets(&links, kind).into_iter().next().unwrap_or_else(|| {
            if dir.is_empty() {
                file.to_string()
            } else {
                format!("{dir}/{file}")
            }
        })
    };
    let styles = match zip.read_optional(&related("styles", "styles.xml"), &mut warnings)? {
        Some(x) => Styles::parse(&x),
        None => Styles::default(),
    };
    let numbering =
        match zip.read_optional(&related("numbering", "numbering.xml"), &mut warnings)? {
            Some(x) => Numbering::parse(&x),
            None => Numbering::default(),
        };
    let mut notes = HashMap::new();
    for (kind, file, tag, prefix) in [
        ("footnotes", "footnotes.xml", "w:footnote", "f"),
        ("endnotes", "endnotes.xml", "w:endnote", "e"),
    ] {
        if let Some(x) = zip.read_optional(&related(kind, file), &mut warnings)? {
            for (id, text) in notes_of(&x, tag) {
                notes.insert(format!("{prefix}{id}"), text);
            }
        }
    }
    let metadata = core_metadata(&mut zip, &mut warnings)?;
    let mut furniture = Vec::new();
    let mut parts: Vec<String> = targets(&links, "header");
    parts.extend(targets(&links, "footer"));
    if parts.is_empty() {
        // No relationships to them: the header and footer parts beside the main part.
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        parts = zip
            .names()
            .into_iter()
            .filter(|n| {
                let f = n.strip_prefix(prefix.as_str()).unwrap_or("");
                (f.starts_with("header") || f.starts_with("footer"))
                    && f.ends_with(".xml")
                    && !f.contains('/')
            })
            .collect();
    }
    let is_header = |n: &str| {
        n.rsplit('/')
            .next()
            .is_some_and(|f| f.starts_with("header"))
    };
    parts.sort_by_key(|n| (!is_header(n), n.len(), n.clone()));
    parts.truncate(MAX_FURNITURE_PARTS);
    for p in &parts {
        if let Some(x) = zip.read_optional(p, &mut warnings)? {
            let t = plain_text(&x);
            if !t.is_empty() {
                furniture.push((is_header(p), t));
            }
        }
    }

    let mut body = Body::new(&styles, numbering, &links);
    body.warnings = warnings;
    let mut r = Reader::from_str(&xml);
    loop {
        match r.read_event().map_err(|e| xml_err(&main, e))? {
            Event::Start(e) => body.start(&e, false)?,
            Event::Empty(e) => {
                body.start(&e, true)?;
                body.end(e.name().as_ref(), true, &mut zip)?;
            }
            Event::End(e) => body.end(e.name().as_ref(), false, &mut zip)?,
            Event::Text(t) => body.text(&t),
            Event::GeneralRef(g) if body.reading_text() => {
                let mut s = String::new();
                push_ref(&mut s, &g);
                body.text(&s);
            }
            Event::Eof => break,
            _ => {}
        }
    }

    let mut doc = Document::new(Format::Docx);
    doc.metadata = metadata;
    let mut pages = std::mem::take(&mut body.pages);
    if pages.is_empty() {
        pages.push(Page::new(1, None));
    }
    let (heads, foots): (Vec<_>, Vec<_>) = furniture.into_iter().partition(|(h, _)| *h);
    if let Some(first) = pages.first_mut() {
        let mut blocks: Vec<Block> = heads
            .into_iter()
            .map(|(_, t)| Block::furniture(t))
            .collect();
        blocks.append(&mut first.blocks);
        first.blocks = blocks;
    }
    if let Some(last) = pages.last_mut() {
        last.blocks
            .extend(foots.into_iter().map(|(_, t)| Block::furniture(t)));
        for (key, mark) in &body.note_marks {
            let text = notes.get(key).cloned().unwrap_or_default();
            last.blocks.push(Block::footnote(mark.to_string(), text));
        }
    }
    // Headings were read with Word's Title as `#` and Heading N as N + 1; a document
    // without a title paragraph has its Heading 1 as `#`.
    if !body.saw_title {
        for b in pages.iter_mut().flat_map(|p| &mut p.blocks) {
            if let Some(l) = b.level.as_mut() {
                *l = l.saturating_sub(1).max(1);
            }
        }
    }
    doc.pages = pages;
    doc.warnings = std::mem::take(&mut body.warnings);
    doc.tidy();
    Ok(doc)
}

/// One style of `word/styles.xml`, as written.
#[derive(Debug, Default, Clone)]
struct StyleDef {
    name: String,
    based_on: Option<String>,
    outline: Option<u8>,
    num_id: Option<String>,
    ilvl: Option<u8>,
    mono: bool,
}

/// What a paragraph or character style means once its `w:basedOn` chain is followed.
#[derive(Debug, Default, Clone)]
struct StyleInfo {
    heading: Option<u8>,
    title: bool,
    code: bool,
    /// `List Bullet`/`List Number` styles without numbering: a list item, ordered or not.
    list: Option<bool>,
    num: Option<(String, Option<u8>)>,
    mono: bool,
}

#[derive(Debug, Default)]
struct Styles {
    defs: HashMap<String, StyleDef>,
}

fn is_mono_font(f: &str) -> bool {
    let f = f.to_ascii_lowercase();
    [
        "courier",
        "consolas",
        "mono",
        "menlo",
        "lucida console",
        "source code",
        "fira code",
        "inconsolata",
        "cascadia",
    ]
    .iter()
    .any(|m| f.contains(m))
}

fn is_code_style(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["code", "preformatted", "source", "verbatim", "listing"]
        .iter()
        .any(|m| n.contains(m))
}

impl Styles {
    fn parse(xml: &str) -> Self {
        let mut defs = HashMap::new();
        let mut r = Reader::from_str(xml);
        let mut cur: Option<(String, StyleDef)> = None;
        while let Ok(ev) = r.read_event() {
            match ev {
                Event::Start(e) | Event::Empty(e) => {
                    let name = e.name();
                    let name = name.as_ref();
                    if name == "w:style" {
                        cur = attr(&e, "w:styleId").map(|id| (id, StyleDef::default()));
                        continue;
                    }
                    let Some((_, d)) = cur.as_mut() else {
                        continue;
                    };
                    match name {
                        "w:name" => d.name = attr(&e, "w:val").unwrap_or_default(),
                        "w:basedOn" => d.based_on = attr(&e, "w:val"),
                        "w:outlineLvl" => d.outline = num_attr(&e, "w:val"),
                        "w:numId" => d.num_id = attr(&e, "w:val"),
                        "w:ilvl" => d.ilvl = num_attr(&e, "w:val"),
                        "w:rFonts" => {
                            d.mono |= ["w:ascii", "w:hAnsi"]
                                .iter()
                                .any(|k| attr(&e, k).is_some_and(|f| is_mono_font(&f)))
                        }
                        _ => {}
                    }
                }
                Event::End(e) if e.name().as_ref() == "w:style" => {
                    if let Some((id, d)) = cur.take() {
                        defs.insert(id, d);
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Styles { defs }
    }

    /// Follows `id`'s `w:basedOn` chain (at most [`MAX_STYLE_CHAIN`] steps, so a cycle
    /// ends): the nearest style that says something about a property decides it.
    fn info(&self, id: &str) -> StyleInfo {
        let mut out = StyleInfo::default();
        let (mut heading_known, mut list_known) = (false, false);
        let mut cur = Some(id.to_string());
        for _ in 0..MAX_STYLE_CHAIN {
            let Some(sid) = cur.take() else { break };
            let d = self.defs.get(&sid);
            let name = d.map(|d| d.name.to_ascii_lowercase()).unwrap_or_default();
            let lid = sid.to_ascii_lowercase();
            if !heading_known {
                let by_name = name
                    .strip_prefix("heading")
                    .and_then(|n| n.trim().parse::<u8>().ok());
                let by_id = lid
                    .strip_prefix("heading")
                    .and_then(|n| n.trim().parse::<u8>().ok());
                if name == "title" || (name.is_empty() && lid == "title") {
                    out.title = true;
                    heading_known = true;
                } else if let Some(n) = by_name.or(by_id) {
                    out.heading = Some(n.clamp(1, 9));
                    heading_known = true;
                } else if let Some(l) = d.and_then(|d| d.outline).filter(|l| *l < 9) {
                    out.heading = Some(l + 1);
                    heading_known = true;
                }
            }
            if !list_known {
                if name.starts_with("list bullet") || lid.starts_with("listbullet") {
                    out.list = Some(false);
                    list_known = true;
                } else if name.starts_with("list number") || lid.starts_with("listnumber") {
                    out.list = Some(true);
                    list_known = true;
                }
            }
            if is_code_style(&name) || (name.is_empty() && is_code_style(&lid)) {
                out.code = true;
            }
            if let Some(d) = d {
                out.mono |= d.mono;
                if out.num.is_none()
                    && let Some(n) = &d.num_id
                {
                    out.num = Some((n.clone(), d.ilvl));
                }
                cur = d.based_on.clone();
            }
        }
        out
    }
}

/// One level of a numbering definition.
#[derive(Debug, Clone)]
struct Level {
    fmt: String,
    text: String,
    start: u32,
    legal: bool,
}

impl Default for Level {
    fn default() -> Self {
        Level {
            fmt: "bullet".into(),
            text: String::new(),
            start: 1,
            legal: false,
        }
    }
}

impl Level {
    fn counts(&self) -> bool {
        self.fmt != "bullet" && self.fmt != "none"
    }
}

/// `word/numbering.xml`: the abstract definitions, the lists (`w:num`) that use them with
/// their start overrides, and which paragraph style each level is linked to.
#[derive(Debug, Default)]
struct Numbering {
    abstracts: HashMap<String, Vec<Level>>,
    /// Per list: its abstract definition and the start override of each level.
    nums: HashMap<String, (String, [Option<u32>; LEVELS])>,
    style_levels: HashMap<String, usize>,
    /// Per abstract definition, the running counter of each level (`None`: not started).
    counters: HashMap<String, [Option<u32>; LEVELS]>,
    /// Lists whose start overrides were applied.
    started: HashMap<String, bool>,
}

impl Numbering {
    fn parse(xml: &str) -> Self {
        let mut n = Numbering::default();
        let mut r = Reader::from_str(xml);
        let mut abs: Option<String> = None;
        let mut level: Option<usize> = None;
        let mut num: Option<String> = None;
        let mut over: Option<usize> = None;
        while let Ok(ev) = r.read_event() {
            let (e, empty) = match ev {
                Event::Start(e) => (e, false),
                Event::Empty(e) => (e, true),
                Event::End(e) => {
                    match e.name().as_ref() {
                        "w:abstractNum" => abs = None,
                        "w:lvl" => level = None,
                        "w:num" => num = None,
                        "w:lvlOverride" => over = None,
                        _ => {}
                    }
                    continue;
                }
                Event::Eof => break,
                _ => continue,
            };
            match e.name().as_ref() {
                "w:abstractNum" if !empty => {
                    abs = attr(&e, "w:abstractNumId");
                    if let Some(a) = &abs {
                        n.abstracts
                            .insert(a.clone(), vec![Level::default(); LEVELS]);
                    }
                }
                "w:lvl" if !empty && num.is_none() => {
                    level = num_attr::<usize>(&e, "w:ilvl").filter(|l| *l < LEVELS)
                }
                "w:num" if !empty => {
                    num = attr(&e, "w:numId");
                    if let Some(id) = &num {
                        n.nums.insert(id.clone(), (String::new(), [None; LEVELS]));
                    }
                }
                "w:abstractNumId" => {
                    if let (Some(id), Some(a)) = (&num, attr(&e, "w:val"))
                        && let Some(entry) = n.nums.get_mut(id)
                    {
                        entry.0 = a;
                    }
                }
                "w:lvlOverride" if !empty => {
                    over = num_attr::<usize>(&e, "w:ilvl").filter(|l| *l < LEVELS)
                }
                "w:startOverride" => {
                    if let (Some(id), Some(l), Some(s)) = (&num, over, num_attr(&e, "w:val"))
                        && let Some(entry) = n.nums.get_mut(id)
                    {
                        entry.1[l] = Some(s);
                    }
                }
                name => {
                    let (Some(a), Some(l)) = (&abs, level) else {
                        continue;
                    };
                    let Some(lv) = n.abstracts.get_mut(a).and_then(|v| v.get_mut(l)) else {
                        continue;
                    };
                    match name {
                        // Both are short in real documents; capped because every numbered
                        // paragraph copies its level.
                        "w:numFmt" => lv.fmt = short(attr(&e, "w:val").unwrap_or_default()),
                        "w:lvlText" => lv.text = short(attr(&e, "w:val").unwrap_or_default()),
                        "w:start" => lv.start = num_attr(&e, "w:val").unwrap_or(1),
                        "w:isLgl" => lv.legal = on(&e, "w:val"),
                        "w:pStyle" => {
                            if let Some(s) = attr(&e, "w:val") {
                                n.style_levels.insert(s, l);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        n
    }

    /// Counts one paragraph of list `num` at `ilvl`: its number as Word shows it
    /// (`2.1.`), and whether that level counts (else it is a bullet).
    fn next(&mut self, num: &str, ilvl: usize) -> Option<(String, bool)> {
        let ilvl = ilvl.min(LEVELS - 1);
        let (a, overrides) = self.nums.get(num)?.clone();
        let levels = self.abstracts.get(&a)?.clone();
        let counters = self.counters.entry(a).or_insert([None; LEVELS]);
        let mut starts: [u32; LEVELS] = [1; LEVELS];
        for (i, l) in levels.iter().enumerate().take(LEVELS) {
            starts[i] = l.start;
        }
        for (l, s) in overrides.iter().enumerate() {
            if let Some(s) = s {
                starts[l] = *s;
            }
        }
        if !self.started.contains_key(num) {
            self.started.insert(num.to_string(), true);
            for (l, s) in overrides.iter().enumerate() {
                if s.is_some() {
                    counters[l] = None;
                }
            }
        }
        counters[ilvl] = Some(match counters[ilvl] {
            Some(c) => c.saturating_add(1),
            None => starts[ilvl],
        });
        for c in counters.iter_mut().skip(ilvl + 1) {
            *c = None;
        }
        let lv = levels.get(ilvl)?;
        if !lv.counts() {
            return Some((String::new(), false));
        }
        let mut out = String::new();
        let mut chars = lv.text.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch == '%'
                && let Some(d) = chars.peek().and_then(|d| d.to_digit(10))
            {
                chars.next();
                let k = (d as usize).saturating_sub(1).min(LEVELS - 1);
                let value = counters[k].unwrap_or(starts[k]);
                let fmt = match levels.get(k) {
                    Some(l) if !lv.legal => l.fmt.as_str(),
                    _ => "decimal",
                };
                out.push_str(&format_number(value, fmt));
            } else {
                out.push(ch);
            }
        }
        Some((out, true))
    }
}

/// At most 64 characters of `s`.
fn short(s: String) -> String {
    match s.char_indices().nth(64) {
        Some((i, _)) => s[..i].to_string(),
        None => s,
    }
}

/// A counter in one of Word's number formats (the common ones; others as decimals).
fn format_number(n: u32, fmt: &str) -> String {
    match fmt {
        "lowerLetter" | "upperLetter" => {
            // Word repeats the letter past z: 27 is "aa".
            let n = n.max(1) - 1;
            let letter = (b'a' + (n % 26) as u8) as char;
            let s = letter.to_string().repeat((n / 26) as usize % 8 + 1);
            if fmt == "upperLetter" {
                s.to_ascii_uppercase()
            } else {
                s
            }
        }
        "lowerRoman" => roman(n).to_ascii_lowercase(),
        "upperRoman" => roman(n),
        "decimalZero" if n < 10 => format!("0{n}"),
        _ => n.to_string(),
    }
}

fn roman(mut n: u32) -> String {
    if n == 0 || n >= 4000 {
        return n.to_string();
    }
    let table = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut s = String::new();
    for (v, r) in table {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

/// A paragraph being read.
#[derive(Default)]
struct Para {
    text: String,
    style: Option<String>,
    num_id: Option<String>,
    ilvl: Option<u8>,
    outline: Option<u8>,
    links: Vec<Link>,
    /// Open hyperlinks: where their text starts and their target.
    link_starts: Vec<(usize, Option<String>)>,
    /// Pictures and charts anchored in it, emitted after it.
    figures: Vec<Block>,
    /// Non-blank characters in a monospace font, and in any other.
    mono: usize,
    plain: usize,
    break_before: bool,
    break_after: bool,
}

/// A table cell being read.
#[derive(Default)]
struct Tc {
    span: usize,
    /// `Some(true)`: starts a vertical merge; `Some(false)`: continues the one above.
    vmerge: Option<bool>,
    text: String,
}

#[derive(Default)]
struct Row {
    before: usize,
    header: bool,
    cells: Vec<Tc>,
}

struct TableState {
    rows: Vec<Row>,
    row: Option<Row>,
    cell: Option<Tc>,
    nested: bool,
    cells_seen: usize,
    /// The blocks of its only cell, while it has one: a one-cell table is a frame around
    /// content (a boxed note, a layout container), read as that content.
    blocks: Option<Vec<Block>>,
}

impl Default for TableState {
    fn default() -> Self {
        TableState {
            rows: Vec::new(),
            row: None,
            cell: None,
            nested: false,
            cells_seen: 0,
            blocks: Some(Vec::new()),
        }
    }
}

/// An open field (`w:fldChar`): its instruction, and where its shown result starts.
#[derive(Default)]
struct Field {
    instr: String,
    result: Option<usize>,
    href: Option<String>,
}

/// An open math element with the text that closes it.
struct MathEl {
    name: String,
    close: String,
    beg: String,
    end: String,
    /// An n-ary operator whose symbol was written (`m:chr`; else it is ∫).
    chr: bool,
}

/// A drawing (`w:drawing`, `w:pict`) being read.
#[derive(Default)]
struct Drawing {
    descr: String,
    /// Each picture in it (a group holds several) with its own description and the
    /// package part of its image (`a:blip r:embed`, `v:imagedata r:id`).
    pictures: Vec<(String, Option<String>)>,
    chart: Option<String>,
}

/// The body reader's state.
struct Body<'s> {
    styles: &'s Styles,
    numbering: Numbering,
    rels: &'s HashMap<String, Rel>,
    style_cache: HashMap<String, StyleInfo>,
    pages: Vec<Page>,
    pending_break: bool,
    warnings: Vec<String>,
    budget: TableBudget,
    paras: Vec<Para>,
    tables: Vec<TableState>,
    /// Tables open deeper than [`MAX_TABLE_DEPTH`].
    untracked: usize,
    fields: Vec<Field>,
    /// Fields opened past [`MAX_FIELD_DEPTH`].
    fields_over: usize,
    in_instr: bool,
    in_text: bool,
    in_run: bool,
    in_rpr: bool,
    run_mono: bool,
    math: Vec<MathEl>,
    drawing: Option<Drawing>,
    /// Element depth, and the depth where a left-out region (`mc:Fallback`, `w:del`,
    /// `w:moveFrom`) started.
    depth: usize,
    skip: Option<usize>,
    /// Footnote/endnote keys (`f2`, `e1`) in order of first reference, with their marks.
    note_marks: Vec<(String, usize)>,
    note_index: HashMap<String, usize>,
    /// A paragraph in Word's Title style was read (headings then start at `##`).
    saw_title: bool,
}

impl<'s> Body<'s> {
    fn new(styles: &'s Styles, numbering: Numbering, rels: &'s HashMap<String, Rel>) -> Self {
        Body {
            styles,
            numbering,
            rels,
            style_cache: HashMap::new(),
            pages: Vec::new(),
            pending_break: false,
            warnings: Vec::new(),
            budget: TableBudget::new(),
            paras: Vec::new(),
            tables: Vec::new(),
            untracked: 0,
            fields: Vec::new(),
            fields_over: 0,
            in_instr: false,
            in_text: false,
            in_run: false,
            in_rpr: false,
            run_mono: false,
            math: Vec::new(),
            drawing: None,
            depth: 0,
            skip: None,
            note_marks: Vec::new(),
            note_index: HashMap::new(),
            saw_title: false,
        }
    }

    fn reading_text(&self) -> bool {
        self.skip.is_none() && (self.in_text || self.in_instr)
    }

    fn style(&mut self, id: &str) -> StyleInfo {
        if let Some(s) = self.style_cache.get(id) {
            return s.clone();
        }
        let s = self.styles.info(id);
        self.style_cache.insert(id.to_string(), s.clone());
        s
    }

    /// Whether a page break here splits model pages: only in the body's own flow, not in
    /// tables or text boxes.
    fn in_flow(&self) -> bool {
        self.tables.is_empty() && self.untracked == 0 && self.paras.len() == 1
    }

    fn page_break(&mut self) {
        if !self.in_flow() {
            return;
        }
        if let Some(p) = self.paras.last_mut() {
            if p.text.trim().is_empty() {
                p.break_before = true;
            } else {
                p.break_after = true;
            }
        }
    }

    fn push(&mut self, s: &str) {
        if let Some(p) = self.paras.last_mut() {
            p.text.push_str(s);
            if self.in_run {
                let n = s.chars().filter(|c| !c.is_whitespace()).count();
                if self.run_mono {
                    p.mono += n;
                } else {
                    p.plain += n;
                }
            }
        }
    }

    fn text(&mut self, t: &str) {
        if self.skip.is_some() {
            return;
        }
        if self.in_instr {
            if let Some(f) = self.fields.last_mut() {
                f.instr.push_str(t);
            }
        } else if self.in_text {
            self.push(t);
        }
    }

    fn start(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<(), DocError> {
        if !empty {
            self.depth += 1;
        }
        if self.skip.is_some() {
            return Ok(());
        }
        let name = e.name();
        let name = name.as_ref();
        match name {
            "mc:Fallback" | "w:del" | "w:moveFrom" if !empty => self.skip = Some(self.depth),
            "w:p" => self.paras.push(Para::default()),
            "w:pStyle" => {
                if let Some(p) = self.paras.last_mut() {
                    p.style = attr(e, "w:val");
                }
            }
            "w:ilvl" => {
                if let Some(p) = self.paras.last_mut() {
                    p.ilvl = num_attr(e, "w:val");
                }
            }
            "w:numId" => {
                if let Some(p) = self.paras.last_mut() {
                    p.num_id = attr(e, "w:val");
                }
            }
            "w:outlineLvl" => {
                if let Some(p) = self.paras.last_mut() {
                    p.outline = num_attr(e, "w:val");
                }
            }
            "w:pageBreakBefore" if on(e, "w:val") => {
                if self.in_flow()
                    && let Some(p) = self.paras.last_mut()
                {
                    p.break_before = true;
                }
            }
            "w:r" => {
                self.in_run = true;
                self.run_mono = false;
            }
            "w:rPr" if self.in_run => self.in_rpr = true,
            "w:rFonts"
                if self.in_rpr
                    && ["w:ascii", "w:hAnsi"]
                        .iter()
                        .any(|k| attr(e, k).is_some_and(|f| is_mono_font(&f))) =>
            {
                self.run_mono = true;
            }
            "w:rStyle" if self.in_rpr => {
                if let Some(id) = attr(e, "w:val") {
                    let s = self.style(&id);
                    if s.mono || s.code {
                        self.run_mono = true;
                    }
                }
            }
            "w:t" | "m:t" if !empty => self.in_text = true,
            "w:tab" if self.in_run => self.push("\t"),
            "w:noBreakHyphen" => self.push("-"),
            "w:br" => match attr(e, "w:type").as_deref() {
                Some("page") => self.page_break(),
                Some("column") => self.push(" "),
                _ => self.push("\n"),
            },
            "w:cr" => self.push("\n"),
            "w:lastRenderedPageBreak" => self.page_break(),
            "w:hyperlink" => {
                let href = attr(e, "r:id")
                    .and_then(|id| self.rels.get(&id))
                    .map(|r| r.target.clone())
                    .or_else(|| attr(e, "w:anchor").map(|a| format!("#{a}")));
                if let Some(p) = self.paras.last_mut() {
                    p.link_starts.push((p.text.len(), href));
                }
            }
            "w:fldSimple" => {
                let href = attr(e, "w:instr").and_then(|i| field_href(&i));
                if let Some(p) = self.paras.last_mut() {
                    p.link_starts.push((p.text.len(), href));
                }
            }
            "w:fldChar" => match attr(e, "w:fldCharType").as_deref() {
                Some("begin") => {
                    if self.fields.len() < MAX_FIELD_DEPTH {
                        self.fields.push(Field::default());
                    } else {
                        self.fields_over += 1;
                    }
                }
                Some("separate") if self.fields_over == 0 => {
                    let at = self.paras.last().map(|p| p.text.len());
                    if let Some(f) = self.fields.last_mut() {
                        f.result = at;
                        f.href = field_href(&f.instr);
                    }
                }
                Some("end") => {
                    if self.fields_over > 0 {
                        self.fields_over -= 1;
                    } else if let Some(f) = self.fields.pop()
                        && let (Some(at), Some(href)) = (f.result, f.href)
                        && let Some(p) = self.paras.last_mut()
                        && let Some(t) = p.text.get(at..)
                    {
                        let t = t.trim();
                        if !t.is_empty() {
                            p.links.push(Link {
                                text: t.to_string(),
                                href,
                            });
                        }
                    }
                }
                _ => {}
            },
            "w:instrText" if !empty && !self.fields.is_empty() => self.in_instr = true,
            "w:footnoteReference" | "w:endnoteReference" => {
                let prefix = if name == "w:footnoteReference" {
                    "f"
                } else {
                    "e"
                };
                if let Some(id) = attr(e, "w:id") {
                    let key = format!("{prefix}{id}");
                    let mark = match self.note_index.get(&key) {
                        Some(m) => *m,
                        None => {
                            let m = self.note_marks.len() + 1;
                            self.note_index.insert(key.clone(), m);
                            self.note_marks.push((key, m));
                            m
                        }
                    };
                    self.push(&format!("[^{mark}]"));
                }
            }
            "w:tbl" => {
                if self.tables.len() < MAX_TABLE_DEPTH && self.untracked == 0 {
                    self.tables.push(TableState::default());
                } else {
                    self.untracked += 1;
                    if let Some(t) = self.tables.last_mut() {
                        t.nested = true;
                    }
                }
            }
            "w:tr" if self.untracked == 0 => {
                if let Some(t) = self.tables.last_mut() {
                    t.row = Some(Row::default());
                }
            }
            "w:gridBefore" if self.untracked == 0 => {
                if let Some(r) = self.tables.last_mut().and_then(|t| t.row.as_mut()) {
                    r.before = num_attr::<usize>(e, "w:val")
                        .unwrap_or(0)
                        .min(MAX_TABLE_COLS);
                }
            }
            "w:tblHeader" if self.untracked == 0 && on(e, "w:val") => {
                if let Some(r) = self.tables.last_mut().and_then(|t| t.row.as_mut()) {
                    r.header = true;
                }
            }
            "w:tc" if self.untracked == 0 => {
                if let Some(t) = self.tables.last_mut() {
                    t.cells_seen += 1;
                    if t.cells_seen > 1 {
                        t.blocks = None;
                    }
                    t.cell = Some(Tc {
                        span: 1,
                        ..Tc::default()
                    });
                }
            }
            "w:gridSpan" if self.untracked == 0 => {
                if let Some(c) = self.tables.last_mut().and_then(|t| t.cell.as_mut()) {
                    c.span = num_attr::<usize>(e, "w:val")
                        .unwrap_or(1)
                        .clamp(1, MAX_TABLE_COLS);
                }
            }
            "w:vMerge" if self.untracked == 0 => {
                if let Some(c) = self.tables.last_mut().and_then(|t| t.cell.as_mut()) {
                    c.vmerge = Some(attr(e, "w:val").as_deref() == Some("restart"));
                }
            }
            "w:drawing" | "w:pict" | "w:object" if !empty && self.drawing.is_none() => {
                self.drawing = Some(Drawing::default());
            }
            "wp:docPr" | "pic:cNvPr" => {
                let descr = attr(e, "descr")
                    .filter(|s| !s.trim().is_empty())
                    .or_else(|| attr(e, "title"))
                    .unwrap_or_default();
                if let Some(d) = self.drawing.as_mut() {
                    match d.pictures.last_mut() {
                        Some((p, _)) if name == "pic:cNvPr" && p.is_empty() => *p = descr,
                        _ if name == "wp:docPr" && d.descr.is_empty() => d.descr = descr,
                        _ => {}
                    }
                }
            }
            "pic:pic" | "v:imagedata" => {
                let part = attr(e, "r:id").and_then(|id| self.image_part(&id));
                if let Some(d) = self.drawing.as_mut() {
                    d.pictures
                        .push((attr(e, "o:title").unwrap_or_default(), part));
                }
            }
            "a:blip" => {
                let part = attr(e, "r:embed").and_then(|id| self.image_part(&id));
                if let Some((_, source)) = self.drawing.as_mut().and_then(|d| d.pictures.last_mut())
                    && source.is_none()
                {
                    *source = part;
                }
            }
            "c:chart" => {
                if let Some(d) = self.drawing.as_mut() {
                    d.chart = attr(e, "r:id");
                }
            }
            "m:oMath" => {
                if let Some(p) = self.paras.last()
                    && !p.text.is_empty()
                    && !p.text.ends_with(char::is_whitespace)
                {
                    self.push(" ");
                }
                self.math_start(name, e, empty);
            }
            n if n.starts_with("m:") => self.math_start(n, e, empty),
            _ => {}
        }
        Ok(())
    }

    /// Opens a math element: writes what it opens with and keeps what closes it. Every
    /// element that is not empty is pushed, so each end pops its own.
    fn math_start(&mut self, name: &str, e: &BytesStart<'_>, empty: bool) {
        self.math_props(name, e);
        if empty {
            return;
        }
        if matches!(name, "m:begChr" | "m:endChr" | "m:chr") {
            self.math.push(MathEl {
                name: name.to_string(),
                close: String::new(),
                beg: String::new(),
                end: String::new(),
                chr: true,
            });
            return;
        }
        self.math_open(name);
    }

    /// Properties (`m:begChr`, `m:chr`) come before the parts they shape.
    fn math_props(&mut self, name: &str, e: &BytesStart<'_>) {
        match name {
            "m:begChr" | "m:endChr" => {
                let v = attr(e, "m:val").unwrap_or_default();
                if let Some(d) = self.math.iter_mut().rev().find(|m| m.name == "m:d") {
                    if name == "m:begChr" {
                        d.beg = v;
                    } else {
                        d.end = v;
                    }
                }
            }
            "m:chr" if self.math.last().is_some_and(|m| m.name == "m:naryPr") => {
                let v = attr(e, "m:val").unwrap_or_default();
                self.push(&v);
                if let Some(n) = self.math.iter_mut().rev().find(|m| m.name == "m:nary") {
                    n.chr = true;
                }
            }
            _ => {}
        }
    }

    fn math_open(&mut self, name: &str) {
        if let Some(n) = self.math.last_mut()
            && n.name == "m:nary"
            && !n.chr
            && name != "m:naryPr"
        {
            n.chr = true;
            self.push("∫");
        }
        let parent = self.math.last().map(|m| m.name.as_str()).unwrap_or("");
        let (open, close) = match (name, parent) {
            ("m:num", _) => ("(".to_string(), ")".to_string()),
            ("m:den", _) => ("/(".to_string(), ")".to_string()),
            ("m:sup", _) => ("^(".to_string(), ")".to_string()),
            ("m:sub", _) => ("_(".to_string(), ")".to_string()),
            ("m:rad", _) => ("√".to_string(), String::new()),
            ("m:e", "m:rad") | ("m:e", "m:func") => ("(".to_string(), ")".to_string()),
            ("m:e", "m:d") => {
                let (b, en) = self
                    .math
                    .last()
                    .map(|d| (d.beg.clone(), d.end.clone()))
                    .unwrap_or_default();
                (b, en)
            }
            ("m:e", "m:nary") => (" ".to_string(), String::new()),
            _ => (String::new(), String::new()),
        };
        self.push(&open);
        self.math.push(MathEl {
            name: name.to_string(),
            close,
            beg: "(".into(),
            end: ")".into(),
            chr: false,
        });
    }

    fn end(&mut self, name: &str, empty: bool, zip: &mut Zip<'_>) -> Result<(), DocError> {
        if let Some(d) = self.skip {
            if !empty {
                if self.depth == d {
                    self.skip = None;
                }
                self.depth = self.depth.saturating_sub(1);
            }
            return Ok(());
        }
        if !empty {
            self.depth = self.depth.saturating_sub(1);
        }
        match name {
            "w:t" | "m:t" => self.in_text = false,
            "w:instrText" => self.in_instr = false,
            "w:r" => {
                self.in_run = false;
                self.in_rpr = false;
            }
            "w:rPr" => self.in_rpr = false,
            "w:hyperlink" | "w:fldSimple" => {
                if let Some(p) = self.paras.last_mut()
                    && let Some((at, href)) = p.link_starts.pop()
                    && let Some(href) = href
                    && let Some(t) = p.text.get(at..)
                {
                    let t = t.trim();
                    if !t.is_empty() {
                        p.links.push(Link {
                            text: t.to_string(),
                            href,
                        });
                    }
                }
            }
            "w:drawing" | "w:pict" | "w:object" if !empty => {
                if let Some(d) = self.drawing.take() {
                    self.finish_drawing(d, zip)?;
                }
            }
            "w:p" => {
                if let Some(p) = self.paras.pop() {
                    self.finish_para(p);
                }
            }
            "w:tc" if self.untracked == 0 => {
                if let Some(t) = self.tables.last_mut()
                    && let Some(c) = t.cell.take()
                    && let Some(r) = t.row.as_mut()
                {
                    r.cells.push(c);
                }
            }
            "w:tr" if self.untracked == 0 => {
                if let Some(t) = self.tables.last_mut()
                    && let Some(r) = t.row.take()
                {
                    t.rows.push(r);
                }
            }
            "w:tbl" => {
                if self.untracked > 0 {
                    self.untracked -= 1;
                } else if let Some(t) = self.tables.pop() {
                    self.finish_table(t);
                }
            }
            n if n.starts_with("m:") && !empty => {
                if let Some(m) = self.math.pop() {
                    self.push(&m.close);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The package part an image relationship points to (an external one is a link, not
    /// a picture in the package).
    fn image_part(&self, id: &str) -> Option<String> {
        self.rels
            .get(id)
            .filter(|r| !r.external && r.kind == "image")
            .map(|r| r.target.clone())
    }

    fn finish_drawing(&mut self, d: Drawing, zip: &mut Zip<'_>) -> Result<(), DocError> {
        let mut blocks = Vec::new();
        if let Some(id) = d.chart
            && let Some(rel) = self.rels.get(&id)
            && !rel.external
            && let Some(xml) = zip.read_optional(&rel.target, &mut self.warnings)?
        {
            match chart(&xml, &rel.target) {
                Ok(c) => {
                    let caption = c.title.or(c.kind).unwrap_or_default();
                    blocks.push(Block::figure(caption));
                    if let Some(t) = c
                        .table
                        .and_then(|t| self.budget.admit(t, &mut self.warnings))
                    {
                        blocks.push(Block::table(t));
                    }
                }
                Err(e) => self.warnings.push(format!("{e}: chart left out")),
            }
        } else if let [(own, source)] = d.pictures.as_slice() {
            let own = own.trim();
            let text = if own.is_empty() { d.descr.trim() } else { own };
            blocks.push(Block::picture(text, source.clone()));
        } else {
            blocks.extend(
                d.pictures
                    .iter()
                    .map(|(p, source)| Block::picture(p.trim(), source.clone())),
            );
        }
        if let Some(p) = self.paras.last_mut() {
            p.figures.extend(blocks);
        } else {
            for b in blocks {
                self.emit(b);
            }
        }
        Ok(())
    }

    /// Appends `text` to the innermost open cell: a paragraph, or a flattened table.
    fn append_to_cell(&mut self, text: &str) -> bool {
        let Some(t) = self.tables.last_mut() else {
            return false;
        };
        if text.is_empty() {
            return true;
        }
        if let Some(c) = t.cell.as_mut() {
            if !c.text.is_empty() {
                c.text.push(' ');
            }
            c.text.push_str(text);
        }
        true
    }

    fn finish_para(&mut self, p: Para) {
        let in_table = !self.tables.is_empty();
        let text = p.text.trim();
        if in_table {
            self.append_to_cell(&text.split_whitespace().collect::<Vec<_>>().join(" "));
        } else if p.break_before {
            self.pending_break = true;
        }
        let st = p
            .style
            .as_deref()
            .map(|s| self.style(s))
            .unwrap_or_default();
        let style_num = st.num.clone();
        let (num_id, ilvl) = match (&p.num_id, style_num) {
            (Some(n), _) => (Some(n.clone()), p.ilvl),
            (None, Some((n, l))) => {
                let linked = p
                    .style
                    .as_ref()
                    .and_then(|s| self.numbering.style_levels.get(s).copied());
                (Some(n), p.ilvl.or(l).or(linked.map(|l| l as u8)))
            }
            (None, None) => (None, p.ilvl),
        };
        let num_id = num_id.filter(|n| n != "0");
        let ilvl = ilvl.unwrap_or(0).min(8);
        // Word's Title sits above its Heading 1, so the title is `#` and Heading N is
        // level N + 1 (outline level 0 is Heading 1), as the reviewed references have it.
        let heading = match p.outline {
            Some(l) if l < 9 => Some(l + 2),
            _ => st.heading.map(|h| h.saturating_add(1)),
        };
        let mut out = Vec::new();
        if !text.is_empty() {
            // Only paragraphs with text count: Word skips empty list paragraphs too.
            let numbered = num_id
                .as_ref()
                .and_then(|n| self.numbering.next(n, ilvl as usize));
            let block = if let Some(level) = heading {
                match &numbered {
                    Some((number, true)) if !number.trim().is_empty() => {
                        // As Word shows it: `1.` stays `1.`, `%1.%2` is `2.1`.
                        Block::heading(level.min(6), format!("{} {text}", number.trim()))
                    }
                    _ => Block::heading(level.min(6), text),
                }
            } else if st.title {
                self.saw_title = true;
                Block::heading(1, text)
            } else if st.code || (p.mono > 0 && p.plain == 0) {
                Block::code(p.text.trim_end().trim_start_matches(['\n', '\r']))
            } else if let Some((_, ordered)) = numbered {
                Block::item(ilvl, ordered, text)
            } else if num_id.is_some() {
                Block::item(ilvl, false, text)
            } else if let Some(ordered) = st.list {
                Block::item(0, ordered, text)
            } else {
                Block::para(text)
            };
            out.push(block.with_links(p.links));
        }
        out.extend(p.figures);
        if in_table {
            if let Some(b) = self.tables.last_mut().and_then(|t| t.blocks.as_mut()) {
                b.extend(out);
            }
            return;
        }
        for b in out {
            self.emit(b);
        }
        if p.break_after {
            self.pending_break = true;
        }
    }

    fn finish_table(&mut self, t: TableState) {
        let header_rows = t.rows.iter().take_while(|r| r.header).count().max(1);
        let nrows = t.rows.len();
        let mut cells: Vec<Cell> = Vec::new();
        // Per grid column, the cell a vertical merge there would continue: as wide as the
        // table is (an empty table must not cost a full-width row).
        let width = t
            .rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .fold(r.before, |w, c| w.saturating_add(c.span.max(1)))
            })
            .max()
            .unwrap_or(0)
            .min(MAX_TABLE_COLS);
        let mut open: Vec<Option<usize>> = vec![None; width];
        let mut flat: Vec<String> = Vec::new();
        for (r, row) in t.rows.into_iter().enumerate() {
            let mut c = row.before;
            for tc in row.cells {
                if c >= MAX_TABLE_COLS {
                    break;
                }
                if !tc.text.is_empty() {
                    flat.push(tc.text.clone());
                }
                let span = tc.span.clamp(1, MAX_TABLE_COLS);
                let end = c.saturating_add(span).min(MAX_TABLE_COLS);
                if tc.vmerge == Some(false)
                    && let Some(i) = open.get(c).copied().flatten()
                    && let Some(above) = cells.get_mut(i)
                    && above.c == c
                {
                    above.rowspan += 1;
                    if !tc.text.is_empty() {
                        above.text.push(' ');
                        above.text.push_str(&tc.text);
                    }
                    c = end;
                    continue;
                }
                let idx = cells.len();
                cells.push(Cell {
                    r,
                    c,
                    rowspan: 1,
                    colspan: span,
                    text: tc.text,
                    header: r < header_rows,
                });
                for slot in open.iter_mut().take(end).skip(c) {
                    *slot = tc.vmerge.map(|_| idx);
                }
                c = end;
            }
        }
        let unwrap = match t.blocks {
            Some(b) if nrows == 1 && cells.len() == 1 => Some(b),
            _ => None,
        };
        if !self.tables.is_empty() {
            // A nested table: its text goes into the parent's cell (and, while the parent
            // may still be a one-cell frame, its blocks into the parent's).
            self.append_to_cell(&flat.join(" "));
            let nested = unwrap.is_none();
            let blocks = match unwrap {
                Some(b) => b,
                None => {
                    let collect = self.tables.last().is_some_and(|p| p.blocks.is_some());
                    let table = if collect {
                        self.budget.finish(cells, nrows, None, &mut self.warnings)
                    } else {
                        None
                    };
                    table.map(Block::table).into_iter().collect()
                }
            };
            if let Some(parent) = self.tables.last_mut() {
                parent.nested |= nested || t.nested;
                if let Some(pb) = parent.blocks.as_mut() {
                    pb.extend(blocks);
                }
            }
            return;
        }
        if let Some(blocks) = unwrap {
            for b in blocks {
                self.emit(b);
            }
            return;
        }
        let note = t
            .nested
            .then(|| "nested tables are flattened into their cells' text".to_string());
        if let Some(table) = self.budget.finish(cells, nrows, note, &mut self.warnings) {
            self.emit(Block::table(table));
        }
    }

    /// Adds a block to the current page, starting a new page first if a break is
    /// pending; consecutive code paragraphs become one code block.
    fn emit(&mut self, b: Block) {
        if self.pages.is_empty() {
            self.pages.push(Page::new(1, None));
        }
        if self.pending_break && self.pages.last().is_some_and(|p| !p.blocks.is_empty()) {
            let n = self.pages.len() + 1;
            self.pages.push(Page::new(n, None));
        }
        self.pending_break = false;
        let Some(page) = self.pages.last_mut() else {
            return;
        };
        if b.kind == Kind::Code
            && let Some(last) = page.blocks.last_mut()
            && last.kind == Kind::Code
        {
            let t = last.text.get_or_insert_with(String::new);
            t.push('\n');
            t.push_str(b.text());
            return;
        }
        page.blocks.push(b);
    }
}

/// The target of a `HYPERLINK "url"` field (`\l "anchor"` is a bookmark in the document).
fn field_href(instr: &str) -> Option<String> {
    let rest = instr.trim().strip_prefix("HYPERLINK")?;
    let anchor = rest.contains("\\l");
    let start = rest.find('"')?;
    let after = &rest[start + 1..];
    let end = after.find('"')?;
    let target = after[..end].trim();
    if target.is_empty() {
        return None;
    }
    Some(if anchor && !rest.trim_start().starts_with('"') {
        format!("#{target}")
    } else {
        target.to_string()
    })
}

/// Footnotes or endnotes (`tag` is `w:footnote` or `w:endnote`): id → text, the
/// separators Word keeps among them left out.
fn notes_of(xml: &str, tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut r = Reader::from_str(xml);
    let mut cur: Option<(String, String)> = None;
    let mut in_text = false;
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) if e.name().as_ref() == tag => {
                let kind = attr(&e, "w:type").unwrap_or_default();
                cur = (kind.is_empty() || kind == "normal")
                    .then(|| attr(&e, "w:id"))
                    .flatten()
                    .map(|id| (id, String::new()));
            }
            Event::Start(e) if e.name().as_ref() == "w:t" => in_text = true,
            Event::Text(t) if in_text => {
                if let Some(c) = cur.as_mut() {
                    c.1.push_str(&t);
                }
            }
            Event::GeneralRef(g) if in_text => {
                if let Some(c) = cur.as_mut() {
                    push_ref(&mut c.1, &g);
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "w:t" => in_text = false,
                "w:p" => {
                    if let Some(c) = cur.as_mut() {
                        c.1.push(' ');
                    }
                }
                n if n == tag => {
                    if let Some((id, t)) = cur.take() {
                        out.push((id, t.split_whitespace().collect::<Vec<_>>().join(" ")));
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

/// A header's or footer's text, paragraphs joined with a space (fallbacks left out).
fn plain_text(xml: &str) -> String {
    let mut out = String::new();
    let mut r = Reader::from_str(xml);
    let mut in_text = false;
    let mut fallback = 0usize;
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) => match e.name().as_ref() {
                "w:t" => in_text = true,
                "mc:Fallback" => fallback += 1,
                _ => {}
            },
            Event::Text(t) if in_text && fallback == 0 => out.push_str(&t),
            Event::GeneralRef(g) if in_text && fallback == 0 => push_ref(&mut out, &g),
            Event::End(e) => match e.name().as_ref() {
                "w:t" => in_text = false,
                "w:p" => out.push(' '),
                "mc:Fallback" => fallback = fallback.saturating_sub(1),
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}
