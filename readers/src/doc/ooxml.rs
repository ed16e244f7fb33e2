//! What DOCX, PPTX and XLSX share: the zip container read through size caps (so a zip bomb
//! stops at a limit instead of filling memory), relationship parts, core properties, table
//! grids with spans under a size budget, and charts' cached data as tables.

use std::collections::HashMap;
use std::io::{Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::model::{Cell, Metadata, Table};
use super::{DocError, Format};

/// The most one XML part may inflate to.
pub const MAX_PART_BYTES: u64 = 64 << 20;
/// The most all parts together may inflate to.
pub const MAX_TOTAL_BYTES: u64 = 256 << 20;
/// The most slides read.
pub const MAX_SLIDES: usize = 2_000;
/// The most columns one table may have: Word allows 63 and PowerPoint 75, so a wider grid
/// comes from a hostile span, not a real table.
pub const MAX_TABLE_COLS: usize = 1_000;
/// The most grid positions (rows × columns) all tables of one document may have together:
/// rendering writes every position, so a tiny span-heavy input must not become gigabytes.
pub const MAX_TABLE_POSITIONS: usize = 2_000_000;

/// The most relationships read from one part, and content-type overrides from
/// `[Content_Types].xml`: a real package has hundreds at most.
const MAX_RELS: usize = 100_000;

/// A part name as compared: lower case, with `\` as `/` (some Windows writers store
/// `xl\workbook.xml`, which Office reads).
fn fold(name: &str) -> String {
    name.replace('\\', "/").to_lowercase()
}

/// What [`Zip::read_bytes`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum PartBytes {
    /// The part's bytes.
    Found(Vec<u8>),
    /// No such part.
    Missing,
    /// It inflates past the cap asked for.
    TooLarge,
    /// Corrupt, truncated or encrypted.
    Unreadable,
}

/// A zip archive in memory with an inflation budget.
pub struct Zip<'a> {
    archive: zip::ZipArchive<Cursor<&'a [u8]>>,
    inflated: u64,
    /// Set when a part went over the budget: from then on nothing is optional.
    refused: bool,
    /// Entry names by their lower case, made on the first name not found as written: part
    /// names are case-insensitive (ECMA-376 Part 2 §9.1.1.1) and a relationship may spell
    /// one differently from the zip entry.
    folded: std::cell::OnceCell<HashMap<String, String>>,
}

impl<'a> Zip<'a> {
    /// Opens `bytes` as a zip archive.
    pub fn new(bytes: &'a [u8]) -> Result<Self, DocError> {
        let archive = zip::ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| DocError::Parse(format!("not a readable zip container: {e}")))?;
        Ok(Self {
            archive,
            inflated: 0,
            refused: false,
            folded: std::cell::OnceCell::new(),
        })
    }

    /// The entry that holds part `name`: as written, else the one equal to it ignoring case
    /// and `\` for `/` (and with `%20`-style escapes decoded).
    fn entry(&self, name: &str) -> Option<String> {
        if self.archive.index_for_name(name).is_some() {
            return Some(name.to_string());
        }
        let folded = self.folded.get_or_init(|| {
            self.archive
                .file_names()
                .filter_map(|n| n.ok().map(|n| (fold(&n), n.into_owned())))
                .collect()
        });
        let decoded = percent_decode(name);
        folded
            .get(&fold(name))
            .or_else(|| folded.get(&fold(&decoded)))
            .cloned()
    }

    /// Whether the archive has an entry `name`.
    pub fn has(&self, name: &str) -> bool {
        self.entry(name).is_some()
    }

    /// The entry names.
    pub fn names(&self) -> Vec<String> {
        self.archive
            .file_names()
            .filter_map(|n| n.ok().map(|n| n.into_owned()))
            .collect()
    }

    /// The entry `name` as text, read through the caps.
    pub fn read(&mut self, name: &str) -> Result<String, DocError> {
        let entry = self.entry(name).unwrap_or_else(|| name.to_string());
        let mut f = self.archive.by_name(&entry).map_err(|e| match e {
            zip::result::ZipError::UnsupportedArchive(m) => {
                DocError::Parse(format!("{name}: unsupported or encrypted entry ({m})"))
            }
            other => DocError::Parse(format!("{name}: {other}")),
        })?;
        if f.encrypted() {
            return Err(DocError::Parse(format!("{name} is encrypted")));
        }
        let budget = MAX_PART_BYTES.min(MAX_TOTAL_BYTES.saturating_sub(self.inflated));
        let mut bytes = Vec::new();
        (&mut f)
            .take(budget + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| DocError::Parse(format!("{name}: corrupt or truncated ({e})")))?;
        if bytes.len() as u64 > budget {
            self.refused = true;
            return Err(DocError::Parse(format!(
                "{name} inflates past the limit ({} MiB per part, {} MiB in all): refusing a possible zip bomb",
                MAX_PART_BYTES >> 20,
                MAX_TOTAL_BYTES >> 20
            )));
        }
        self.inflated += bytes.len() as u64;
        String::from_utf8(bytes).map_err(|_| DocError::Parse(format!("{name} is not UTF-8 XML")))
    }

    /// The entry `name` as bytes (a picture), at most `cap` bytes inflated and within the
    /// package's budget: reading stops one byte past `cap` (a bomb costs `cap`, not its
    /// size).
    pub fn read_bytes(&mut self, name: &str, cap: u64) -> PartBytes {
        let Some(entry) = self.entry(name) else {
            return PartBytes::Missing;
        };
        let Ok(mut f) = self.archive.by_name(&entry) else {
            return PartBytes::Unreadable;
        };
        if f.encrypted() {
            return PartBytes::Unreadable;
        }
        let cap = cap.min(MAX_TOTAL_BYTES.saturating_sub(self.inflated));
        let mut bytes = Vec::new();
        if (&mut f).take(cap + 1).read_to_end(&mut bytes).is_err() {
            return PartBytes::Unreadable;
        }
        self.inflated += bytes.len() as u64;
        if bytes.len() as u64 > cap {
            return PartBytes::TooLarge;
        }
        PartBytes::Found(bytes)
    }

    /// A part the document can do without: `None` when absent; a part that is there but
    /// unreadable is a warning, except one over the size caps, which fails the document
    /// (a zip bomb is refused wherever it sits).
    pub(super) fn read_optional(
        &mut self,
        name: &str,
        warnings: &mut Vec<String>,
    ) -> Result<Option<String>, DocError> {
        if !self.has(name) {
            return Ok(None);
        }
        match self.read(name) {
            Ok(s) => Ok(Some(s)),
            Err(e) if self.refused => Err(e),
            Err(e) => {
                warnings.push(format!("{e}: left out"));
                Ok(None)
            }
        }
    }
}

pub(super) fn xml_err(part: &str, e: impl std::fmt::Display) -> DocError {
    DocError::Parse(format!("{part}: malformed XML ({e})"))
}

/// An attribute's value, entities resolved.
pub(super) fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(
            |a| match a.normalized_value(quick_xml::XmlVersion::Implicit1_0) {
                Ok(v) => v.into_owned(),
                Err(_) => a.value.to_string(),
            },
        )
}

/// An attribute's value as a number.
pub(super) fn num_attr<T: std::str::FromStr>(e: &BytesStart<'_>, key: &str) -> Option<T> {
    attr(e, key).and_then(|v| v.trim().parse().ok())
}

/// Whether an OOXML on/off property is on: present with no value, or `1`/`true`/`on`.
pub(super) fn on(e: &BytesStart<'_>, key: &str) -> bool {
    match attr(e, key) {
        None => true,
        Some(v) => matches!(v.as_str(), "1" | "true" | "on"),
    }
}

/// Appends an entity reference's text.
pub(super) fn push_ref(out: &mut String, r: &quick_xml::events::BytesRef<'_>) {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        out.push(c);
        return;
    }
    match r.as_ref() {
        "amp" => out.push('&'),
        "lt" => out.push('<'),
        "gt" => out.push('>'),
        "quot" => out.push('"'),
        "apos" => out.push('\''),
        _ => {}
    }
}

/// One relationship of a part.
#[derive(Debug, Clone, Default)]
pub(super) struct Rel {
    /// The target: a part name inside the zip, or a URL when `external`.
    pub target: String,
    /// The relationship type's last path segment (`hyperlink`, `chart`, `notesSlide`).
    pub kind: String,
    /// Points outside the package (hyperlinks).
    pub external: bool,
}

/// The relationships of `part` (`dir/_rels/name.rels`), targets resolved to part names.
/// Missing or unreadable: none.
pub(super) fn rels(
    zip: &mut Zip<'_>,
    part: &str,
    warnings: &mut Vec<String>,
) -> Result<HashMap<String, Rel>, DocError> {
    let (dir, file) = part.rsplit_once('/').unwrap_or(("", part));
    let name = if dir.is_empty() {
        format!("_rels/{file}.rels")
    } else {
        format!("{dir}/_rels/{file}.rels")
    };
    let Some(xml) = zip.read_optional(&name, warnings)? else {
        return Ok(HashMap::new());
    };
    let mut out = HashMap::new();
    let mut r = Reader::from_str(&xml);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e)
                if e.local_name().as_ref() == "Relationship" && out.len() < MAX_RELS =>
            {
                let (Some(id), Some(target)) = (attr(&e, "Id"), attr(&e, "Target")) else {
                    continue;
                };
                let external = attr(&e, "TargetMode").as_deref() == Some("External");
                let kind = attr(&e, "Type")
                    .and_then(|t| t.rsplit('/').next().map(str::to_string))
                    .unwrap_or_default();
                let target = if external {
                    target
                } else {
                    resolve(dir, &target)
                };
                out.insert(
                    id,
                    Rel {
                        target,
                        kind,
                        external,
                    },
                );
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// A relationship target relative to the directory `dir` as a part name: `../charts/c.xml`
/// from `ppt/slides` is `ppt/charts/c.xml`; a leading `/` starts at the package root.
pub fn resolve(dir: &str, target: &str) -> String {
    let mut parts: Vec<&str> = if target.starts_with('/') {
        Vec::new()
    } else {
        dir.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// `%XX` escapes in a part name decoded (a relationship target is a URI); anything that
/// does not decode stays as written.
fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(h) = b.get(i + 1..i + 3)
            && let Ok(h) = std::str::from_utf8(h)
            && let Ok(v) = u8::from_str_radix(h, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// An Office package's main part, found as Office finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MainPart {
    /// The part name (`word/document.xml`, or wherever the package put it).
    pub name: String,
    /// What the part's content type says the package is.
    pub format: Format,
}

/// What a main part's content type says the package is (DOCX, PPTX, XLSX, their templates
/// and macro-enabled forms; the binary workbook is not read).
fn format_of_content_type(ct: &str) -> Option<Format> {
    let ct = ct.trim().to_ascii_lowercase();
    if !ct.ends_with(".main+xml") {
        return None;
    }
    if ct.contains("wordprocessingml") || ct.contains("ms-word") {
        Some(Format::Docx)
    } else if ct.contains("presentationml") || ct.contains("ms-powerpoint") {
        Some(Format::Pptx)
    } else if ct.contains("spreadsheetml") || (ct.contains("ms-excel") && !ct.contains("binary")) {
        Some(Format::Xlsx)
    } else {
        None
    }
}

/// `[Content_Types].xml`: the content type of each overridden part (by lower-case part
/// name without the leading `/`) and the defaults by lower-case extension.
pub(super) struct ContentTypes {
    overrides: HashMap<String, String>,
    defaults: HashMap<String, String>,
}

impl ContentTypes {
    pub(super) fn read(zip: &mut Zip<'_>, warnings: &mut Vec<String>) -> Result<Self, DocError> {
        let mut out = ContentTypes {
            overrides: HashMap::new(),
            defaults: HashMap::new(),
        };
        let Some(xml) = zip.read_optional("[Content_Types].xml", warnings)? else {
            return Ok(out);
        };
        let mut r = Reader::from_str(&xml);
        while let Ok(ev) = r.read_event() {
            match ev {
                Event::Start(e) | Event::Empty(e)
                    if out.overrides.len() + out.defaults.len() < MAX_RELS =>
                {
                    match e.local_name().as_ref() {
                        "Override" => {
                            if let (Some(p), Some(t)) =
                                (attr(&e, "PartName"), attr(&e, "ContentType"))
                            {
                                let p = p.trim_start_matches('/').to_lowercase();
                                out.overrides.insert(p, t);
                            }
                        }
                        "Default" => {
                            if let (Some(x), Some(t)) =
                                (attr(&e, "Extension"), attr(&e, "ContentType"))
                            {
                                out.defaults.insert(x.to_lowercase(), t);
                            }
                        }
                        _ => {}
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(out)
    }

    /// The content type of `part`: its override, else its extension's default.
    pub(super) fn of(&self, part: &str) -> Option<&str> {
        let p = part.trim_start_matches('/').to_lowercase();
        if let Some(t) = self.overrides.get(&p) {
            return Some(t);
        }
        let ext = p.rsplit_once('.').map(|(_, x)| x)?;
        self.defaults.get(ext).map(String::as_str)
    }
}

/// The package's main part: the target of the `officeDocument` relationship in
/// `_rels/.rels` (absolute or relative), its format from `[Content_Types].xml`; without a
/// usable relationship, the part `[Content_Types].xml` names as a main document; without
/// either, the usual names (`word/document.xml`, `ppt/presentation.xml`,
/// `xl/workbook.xml`). `None`: no Office main part.
pub fn main_part(
    zip: &mut Zip<'_>,
    warnings: &mut Vec<String>,
) -> Result<Option<MainPart>, DocError> {
    let types = ContentTypes::read(zip, warnings)?;
    let by_name = |name: &str| {
        let n = name.to_ascii_lowercase();
        if n.ends_with("document.xml") || n.starts_with("word/") {
            Some(Format::Docx)
        } else if n.ends_with("presentation.xml") || n.starts_with("ppt/") {
            Some(Format::Pptx)
        } else if n.ends_with("workbook.xml") || n.starts_with("xl/") {
            Some(Format::Xlsx)
        } else {
            None
        }
    };
    let package = rels(zip, "", warnings)?;
    let mut offices: Vec<(&String, &Rel)> = package
        .iter()
        .filter(|(_, r)| r.kind == "officeDocument" && !r.external)
        .collect();
    offices.sort_by_key(|(id, _)| *id);
    for (_, rel) in offices {
        let Some(entry) = zip.entry(&rel.target) else {
            continue;
        };
        let format = types
            .of(&entry)
            .and_then(format_of_content_type)
            .or_else(|| by_name(&entry));
        if let Some(format) = format {
            return Ok(Some(MainPart {
                name: entry,
                format,
            }));
        }
    }
    let mut named: Vec<(&String, &String)> = types.overrides.iter().collect();
    named.sort();
    for (part, ct) in named {
        if let (Some(format), Some(entry)) = (format_of_content_type(ct), zip.entry(part)) {
            return Ok(Some(MainPart {
                name: entry,
                format,
            }));
        }
    }
    for (part, format) in [
        ("word/document.xml", Format::Docx),
        ("ppt/presentation.xml", Format::Pptx),
        ("xl/workbook.xml", Format::Xlsx),
    ] {
        if let Some(entry) = zip.entry(part) {
            return Ok(Some(MainPart {
                name: entry,
                format,
            }));
        }
    }
    Ok(None)
}

/// The main part of a package read as `format`: [`main_part`] when it is of that format,
/// else `fallback` (the usual name; reading it says what is missing).
pub(super) fn main_part_as(
    zip: &mut Zip<'_>,
    format: Format,
    fallback: &str,
    warnings: &mut Vec<String>,
) -> Result<String, DocError> {
    // The name as a part name (`/`-separated: folders and relationships are found from it);
    // the entry is found whatever its separators.
    Ok(match main_part(zip, warnings)? {
        Some(m) if m.format == format => m.name.replace('\\', "/"),
        _ => fallback.to_string(),
    })
}

/// The targets of `part`'s relationships of kind `kind` (inside the package), sorted.
pub(super) fn targets(rels: &HashMap<String, Rel>, kind: &str) -> Vec<String> {
    let mut t: Vec<String> = rels
        .values()
        .filter(|r| r.kind == kind && !r.external)
        .map(|r| r.target.clone())
        .collect();
    t.sort();
    t.dedup();
    t
}

/// Title, author and creation date from `docProps/core.xml`.
pub(super) fn core_metadata(
    zip: &mut Zip<'_>,
    warnings: &mut Vec<String>,
) -> Result<Metadata, DocError> {
    let mut m = Metadata::default();
    let Some(xml) = zip.read_optional("docProps/core.xml", warnings)? else {
        return Ok(m);
    };
    let mut r = Reader::from_str(&xml);
    let mut field: Option<u8> = None;
    let mut text = String::new();
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) => {
                field = match e.name().as_ref() {
                    "dc:title" => Some(0),
                    "dc:creator" => Some(1),
                    "dcterms:created" => Some(2),
                    _ => None,
                };
                text.clear();
            }
            Event::Text(t) if field.is_some() => text.push_str(&t),
            Event::GeneralRef(g) if field.is_some() => push_ref(&mut text, &g),
            Event::End(_) => {
                let v = text.trim().to_string();
                if !v.is_empty() {
                    match field {
                        Some(0) => m.title = Some(v),
                        Some(1) => m.author = Some(v),
                        Some(2) => m.created = Some(v),
                        _ => {}
                    }
                }
                field = None;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(m)
}

/// What is left of [`MAX_TABLE_POSITIONS`] for one document's tables.
pub(super) struct TableBudget {
    left: usize,
}

impl TableBudget {
    pub(super) fn new() -> Self {
        TableBudget {
            left: MAX_TABLE_POSITIONS,
        }
    }

    /// [`TableBudget::finish`] for a table already built.
    pub(super) fn admit(&mut self, t: Table, warnings: &mut Vec<String>) -> Option<Table> {
        self.finish(t.cells, t.rows, t.note, warnings)
    }

    /// A table from cells placed on a grid (`rows` rows): spans clamped to the grid, at
    /// most [`MAX_TABLE_COLS`] columns, and only as many rows as the budget allows (the
    /// cut is said in the table's note and a warning). `None` when nothing is left.
    pub(super) fn finish(
        &mut self,
        mut cells: Vec<Cell>,
        rows: usize,
        note: Option<String>,
        warnings: &mut Vec<String>,
    ) -> Option<Table> {
        let cols = cells
            .iter()
            .map(|c| c.c.saturating_add(c.colspan.max(1)))
            .max()
            .unwrap_or(0)
            .min(MAX_TABLE_COLS);
        if cols == 0 || rows == 0 {
            return None;
        }
        let mut note = note;
        let mut keep = rows;
        if rows.saturating_mul(cols) > self.left {
            keep = self.left / cols;
            let what = format!(
                "table cut at {keep} of {rows} rows: over the limit of {MAX_TABLE_POSITIONS} table cells per document"
            );
            warnings.push(what.clone());
            note = Some(match note {
                Some(n) => format!("{n}; {what}"),
                None => what,
            });
        }
        if keep == 0 {
            return None;
        }
        self.left -= keep * cols;
        cells.retain(|c| c.r < keep && c.c < cols);
        for c in &mut cells {
            c.colspan = c.colspan.clamp(1, cols - c.c);
            c.rowspan = c.rowspan.clamp(1, keep - c.r);
        }
        cells.sort_by_key(|c| (c.r, c.c));
        Some(Table {
            rows: keep,
            cols,
            cells,
            note,
        })
    }
}

/// A chart's title, kind and cached data.
#[derive(Debug, Default)]
pub(super) struct Chart {
    pub title: Option<String>,
    /// `Bar chart`, `Line chart`, … from the first plot's element.
    pub kind: Option<String>,
    /// Categories in the first column, one column per series, series names as the header.
    pub table: Option<Table>,
}

/// The most series and points per series read from one chart.
const MAX_SERIES: usize = 64;
const MAX_POINTS: usize = 10_000;

#[derive(Default)]
struct Series {
    name: String,
    cats: Vec<(usize, String)>,
    vals: Vec<(usize, String)>,
}

/// Reads a chart part (`c:chartSpace`): the values Office cached when it last drew the
/// chart, which is what a reader of the document saw.
pub(super) fn chart(xml: &str, part: &str) -> Result<Chart, DocError> {
    let mut r = Reader::from_str(xml);
    let mut out = Chart::default();
    let mut series: Vec<Series> = Vec::new();
    // Where we are: in the chart's own title, in a series' name/categories/values, the
    // current point index, and which level of a multi-level category cache.
    let (mut in_title, mut title_done, mut in_plot) = (false, false, false);
    let mut section: Option<u8> = None; // 0 name, 1 categories, 2 values
    let mut in_ser = false;
    let mut idx = 0usize;
    let mut lvl = 0usize;
    let mut in_v = false;
    let mut in_t = false;
    let mut title = String::new();
    let mut value = String::new();
    loop {
        let ev = r.read_event().map_err(|e| xml_err(part, e))?;
        match ev {
            Event::Start(e) => match e.name().as_ref() {
                "c:title" if !in_plot && !title_done && !in_ser => in_title = true,
                "c:plotArea" => in_plot = true,
                "c:ser" if in_plot => {
                    in_ser = series.len() < MAX_SERIES;
                    if in_ser {
                        series.push(Series::default());
                    }
                }
                "c:tx" if in_ser => section = Some(0),
                "c:cat" | "c:xVal" if in_ser => {
                    section = Some(1);
                    lvl = 0;
                }
                "c:val" | "c:yVal" if in_ser => section = Some(2),
                "c:lvl" => lvl += 1,
                "c:pt" => idx = num_attr(&e, "idx").unwrap_or(0),
                "c:v" => {
                    in_v = true;
                    value.clear();
                }
                "a:t" if in_title => in_t = true,
                name => {
                    if in_plot
                        && out.kind.is_none()
                        && let Some(k) = name
                            .strip_prefix("c:")
                            .and_then(|n| n.strip_suffix("Chart"))
                    {
                        out.kind = Some(chart_kind(k));
                    }
                }
            },
            Event::Empty(e) => {
                if in_plot
                    && out.kind.is_none()
                    && let Some(k) = e
                        .name()
                        .as_ref()
                        .strip_prefix("c:")
                        .and_then(|n| n.strip_suffix("Chart"))
                {
                    out.kind = Some(chart_kind(k));
                }
            }
            Event::Text(t) if in_v => value.push_str(&t),
            Event::Text(t) if in_t => title.push_str(&t),
            Event::GeneralRef(g) if in_v => push_ref(&mut value, &g),
            Event::GeneralRef(g) if in_t => push_ref(&mut title, &g),
            Event::End(e) => match e.name().as_ref() {
                "c:title" if in_title => {
                    in_title = false;
                    title_done = true;
                }
                "a:t" => in_t = false,
                "a:p" if in_title && !title.is_empty() => title.push(' '),
                "c:plotArea" => in_plot = false,
                "c:ser" => in_ser = false,
                "c:tx" | "c:cat" | "c:xVal" | "c:val" | "c:yVal" => section = None,
                "c:v" => {
                    in_v = false;
                    let v = value.trim().to_string();
                    if in_title {
                        title.push_str(&v);
                    } else if let (true, Some(s), Some(ser)) = (in_ser, section, series.last_mut())
                    {
                        match s {
                            0 => ser.name = v,
                            1 if lvl <= 1 && idx < MAX_POINTS => ser.cats.push((idx, v)),
                            2 if idx < MAX_POINTS => ser.vals.push((idx, v)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
    out.title = (!title.is_empty()).then_some(title);
    let points = series
        .iter()
        .flat_map(|s| s.cats.iter().chain(&s.vals))
        .map(|(i, _)| i + 1)
        .max()
        .unwrap_or(0);
    if series.is_empty() || points == 0 {
        return Ok(out);
    }
    // Sparse cells: a point index far out costs rows, not strings (the budget caps rows).
    let mut cells = Vec::new();
    let mut cats: HashMap<usize, String> = HashMap::new();
    for s in &series {
        for (i, v) in &s.cats {
            cats.entry(*i).or_insert_with(|| v.clone());
        }
    }
    cells.push(Cell::new(0, 0, String::new(), true));
    for (k, s) in series.iter().enumerate() {
        let name = if s.name.is_empty() {
            format!("Series {}", k + 1)
        } else {
            s.name.clone()
        };
        cells.push(Cell::new(0, k + 1, name, true));
        for (i, v) in &s.vals {
            cells.push(Cell::new(i + 1, k + 1, v.clone(), false));
        }
    }
    for (i, v) in cats {
        cells.push(Cell::new(i + 1, 0, v, false));
    }
    cells.sort_by_key(|c| (c.r, c.c));
    cells.dedup_by_key(|c| (c.r, c.c));
    let grid = Table {
        rows: points + 1,
        cols: series.len() + 1,
        cells,
        note: None,
    };
    out.table = Some(grid);
    Ok(out)
}

/// `bar` → `Bar chart`, `doughnut` → `Doughnut chart`.
fn chart_kind(k: &str) -> String {
    let k = k.trim_end_matches("3D");
    let mut c = k.chars();
    match c.next() {
        Some(f) => format!("{}{} chart", f.to_ascii_uppercase(), c.as_str()),
        None => "Chart".to_string(),
    }
}
