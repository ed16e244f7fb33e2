//! DOCX and PPTX over `zip` + `quick-xml`, with every entry read through a size cap so a
//! zip bomb stops at a limit instead of filling memory.

use std::collections::HashMap;
use std::io::{Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::model::{Block, Document, Page, Table};
use super::{DocError, Format};

/// The most one XML part may inflate to.
pub const MAX_PART_BYTES: u64 = 64 << 20;
/// The most all parts together may inflate to.
pub const MAX_TOTAL_BYTES: u64 = 256 << 20;
/// The most slides read.
pub const MAX_SLIDES: usize = 2_000;

/// A zip archive in memory with an inflation budget.
pub struct Zip<'a> {
    archive: zip::ZipArchive<Cursor<&'a [u8]>>,
    inflated: u64,
}

impl<'a> Zip<'a> {
    /// Opens `bytes` as a zip archive.
    pub fn new(bytes: &'a [u8]) -> Result<Self, DocError> {
        let archive = zip::ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| DocError::Parse(format!("not a readable zip container: {e}")))?;
        Ok(Self {
            archive,
            inflated: 0,
        })
    }

    /// Whether the archive has an entry `name`.
    pub fn has(&self, name: &str) -> bool {
        self.archive.index_for_name(name).is_some()
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
        let mut f = self.archive.by_name(name).map_err(|e| match e {
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
            return Err(DocError::Parse(format!(
                "{name} inflates past the limit ({} MiB per part, {} MiB in all): refusing a possible zip bomb",
                MAX_PART_BYTES >> 20,
                MAX_TOTAL_BYTES >> 20
            )));
        }
        self.inflated += bytes.len() as u64;
        String::from_utf8(bytes).map_err(|_| DocError::Parse(format!("{name} is not UTF-8 XML")))
    }
}

fn xml_err(part: &str, e: impl std::fmt::Display) -> DocError {
    DocError::Parse(format!("{part}: malformed XML ({e})"))
}

fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .map(|a| a.value.to_string())
}

/// Appends an entity reference's text.
fn push_ref(out: &mut String, r: &quick_xml::events::BytesRef<'_>) {
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

/// A paragraph being read from `w:p` / `a:p`.
#[derive(Default)]
struct Para {
    text: String,
    style: Option<String>,
    list_level: Option<u8>,
    ordered: bool,
}

/// Reads a DOCX: headings (`Heading1..6`, `Title`), list paragraphs, tables (one row per
/// `w:tr`, cell text joined), paragraphs.
pub fn docx(bytes: &[u8]) -> Result<Document, DocError> {
    let mut zip = Zip::new(bytes)?;
    let xml = zip.read("word/document.xml")?;
    let ordered_lists = zip
        .read("word/numbering.xml")
        .map(|x| ordered_lists(&x))
        .unwrap_or_default();
    let mut r = Reader::from_str(&xml);
    let mut blocks = Vec::new();
    let mut para: Option<Para> = None;
    // Open tables: rows, the current row's cells, the current cell's text.
    let mut tables: Vec<(Vec<Vec<String>>, Vec<String>, String)> = Vec::new();
    let mut in_text = false;
    loop {
        let ev = r
            .read_event()
            .map_err(|e| xml_err("word/document.xml", e))?;
        match ev {
            // Only an open `<w:t>` starts text; an empty `<w:t/>` has none.
            Event::Start(e) if e.name().as_ref() == "w:t" => in_text = true,
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "w:p" => para = Some(Para::default()),
                "w:pStyle" => {
                    if let Some(p) = para.as_mut() {
                        p.style = attr(&e, "w:val");
                    }
                }
                "w:ilvl" => {
                    if let Some(p) = para.as_mut() {
                        p.list_level = attr(&e, "w:val").and_then(|v| v.parse().ok());
                    }
                }
                "w:numId" => {
                    if let Some(p) = para.as_mut() {
                        let id = attr(&e, "w:val").unwrap_or_default();
                        p.list_level.get_or_insert(0);
                        p.ordered = ordered_lists.get(&id).copied().unwrap_or(false);
                    }
                }
                "w:tab" => push_para(&mut para, "\t"),
                "w:br" | "w:cr" => push_para(&mut para, "\n"),
                "w:tbl" => tables.push(Default::default()),
                "w:tr" => {
                    if let Some(t) = tables.last_mut() {
                        t.1.clear();
                    }
                }
                "w:tc" => {
                    if let Some(t) = tables.last_mut() {
                        t.2.clear();
                    }
                }
                _ => {}
            },
            Event::Text(t) if in_text => push_para(&mut para, &t),
            Event::GeneralRef(g) if in_text => {
                if let Some(p) = para.as_mut() {
                    push_ref(&mut p.text, &g);
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "w:t" => in_text = false,
                "w:p" => {
                    if let Some(p) = para.take() {
                        let text = p.text.trim().to_string();
                        if let Some(t) = tables.last_mut() {
                            if !text.is_empty() {
                                if !t.2.is_empty() {
                                    t.2.push(' ');
                                }
                                t.2.push_str(&text);
                            }
                        } else if !text.is_empty() {
                            blocks.push(para_block(
                                p.style.as_deref(),
                                p.list_level,
                                p.ordered,
                                text,
                            ));
                        }
                    }
                }
                "w:tc" => {
                    if let Some(t) = tables.last_mut() {
                        let cell = std::mem::take(&mut t.2);
                        t.1.push(cell);
                    }
                }
                "w:tr" => {
                    if let Some(t) = tables.last_mut() {
                        let row = std::mem::take(&mut t.1);
                        t.0.push(row);
                    }
                }
                "w:tbl" => {
                    if let Some((rows, _, _)) = tables.pop() {
                        match tables.last_mut() {
                            // A nested table becomes text in its parent's cell.
                            Some(parent) => {
                                let flat: Vec<String> = rows.iter().map(|r| r.join(" ")).collect();
                                parent.2.push_str(&flat.join(" "));
                            }
                            None => blocks.push(Block::table(Table::from_rows(rows, 1))),
                        }
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    let mut doc = Document::new(Format::Docx);
    let mut page = Page::new(1, None);
    page.blocks = blocks;
    doc.pages.push(page);
    doc.tidy();
    Ok(doc)
}

fn push_para(para: &mut Option<Para>, s: &str) {
    if let Some(p) = para.as_mut() {
        p.text.push_str(s);
    }
}

fn para_block(style: Option<&str>, list: Option<u8>, ordered: bool, text: String) -> Block {
    let style = style.unwrap_or("").to_ascii_lowercase();
    if style == "title" {
        return Block::heading(1, text);
    }
    if let Some(n) = style
        .strip_prefix("heading")
        .and_then(|n| n.trim().parse::<u8>().ok())
    {
        return Block::heading(n, text);
    }
    match list {
        Some(level) => Block::item(level, ordered, text),
        None if style.contains("list") => Block::item(0, false, text),
        None => Block::para(text),
    }
}

/// For each list (`w:num`) of numbering.xml, whether it counts: the format of its
/// abstract definition's first level is neither `bullet` nor `none`. Unreadable XML gives
/// no entries (every list then renders as bullets).
fn ordered_lists(xml: &str) -> HashMap<String, bool> {
    let mut r = Reader::from_str(xml);
    let mut level0_format: HashMap<String, String> = HashMap::new();
    let mut abstract_of: HashMap<String, String> = HashMap::new();
    let (mut abs, mut level, mut num) = (None::<String>, None::<String>, None::<String>);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "w:abstractNum" => abs = attr(&e, "w:abstractNumId"),
                "w:lvl" => level = attr(&e, "w:ilvl"),
                "w:numFmt" if level.as_deref() == Some("0") => {
                    if let (Some(a), Some(fmt)) = (&abs, attr(&e, "w:val")) {
                        level0_format.entry(a.clone()).or_insert(fmt);
                    }
                }
                "w:num" => num = attr(&e, "w:numId"),
                "w:abstractNumId" => {
                    if let (Some(n), Some(a)) = (&num, attr(&e, "w:val")) {
                        abstract_of.insert(n.clone(), a);
                    }
                }
                _ => {}
            },
            Event::End(e) => match e.name().as_ref() {
                "w:abstractNum" => abs = None,
                "w:lvl" => level = None,
                "w:num" => num = None,
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    abstract_of
        .into_iter()
        .map(|(n, a)| {
            let fmt = level0_format
                .get(&a)
                .map(String::as_str)
                .unwrap_or("bullet");
            (n, fmt != "bullet" && fmt != "none")
        })
        .collect()
}

/// Reads a PPTX: one section per slide (`Slide N: <title>`), the other text frames'
/// paragraphs as list items at their indent level.
pub fn pptx(bytes: &[u8]) -> Result<Document, DocError> {
    let mut zip = Zip::new(bytes)?;
    let mut slides: Vec<(u32, String)> = zip
        .names()
        .into_iter()
        .filter_map(|n| {
            let num = n
                .strip_prefix("ppt/slides/slide")?
                .strip_suffix(".xml")?
                .parse()
                .ok()?;
            Some((num, n))
        })
        .collect();
    slides.sort();
    if slides.len() > MAX_SLIDES {
        return Err(DocError::Parse(format!(
            "{} slides: more than the limit of {MAX_SLIDES}",
            slides.len()
        )));
    }
    let mut doc = Document::new(Format::Pptx);
    for (i, (_, name)) in slides.iter().enumerate() {
        let xml = zip.read(name)?;
        let (title, paras) = slide_text(&xml, name)?;
        let mut page = Page::new(
            i + 1,
            Some(match title {
                Some(t) => format!("Slide {}: {t}", i + 1),
                None => format!("Slide {}", i + 1),
            }),
        );
        for (level, text) in paras {
            page.blocks.push(Block::item(level, false, text));
        }
        doc.pages.push(page);
    }
    doc.tidy();
    Ok(doc)
}

/// A slide's title (the `title`/`ctrTitle` placeholder) and its other paragraphs with
/// their indent levels.
type SlideText = (Option<String>, Vec<(u8, String)>);

fn slide_text(xml: &str, part: &str) -> Result<SlideText, DocError> {
    let mut r = Reader::from_str(xml);
    let mut title: Option<String> = None;
    let mut paras = Vec::new();
    let mut shape_is_title = false;
    let mut para: Option<(u8, String)> = None;
    let mut in_text = false;
    loop {
        match r.read_event().map_err(|e| xml_err(part, e))? {
            // Only an open `<a:t>` starts text; an empty `<a:t/>` has none.
            Event::Start(e) if e.name().as_ref() == "a:t" => in_text = true,
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "p:sp" => shape_is_title = false,
                "p:ph" => {
                    let t = attr(&e, "type").unwrap_or_default();
                    shape_is_title = t == "title" || t == "ctrTitle";
                }
                "a:p" => para = Some((0, String::new())),
                "a:pPr" => {
                    if let Some(p) = para.as_mut() {
                        p.0 = attr(&e, "lvl").and_then(|v| v.parse().ok()).unwrap_or(0);
                    }
                }
                "a:br" => {
                    if let Some(p) = para.as_mut() {
                        p.1.push(' ');
                    }
                }
                _ => {}
            },
            Event::Text(t) if in_text => {
                if let Some(p) = para.as_mut() {
                    p.1.push_str(&t);
                }
            }
            Event::GeneralRef(g) if in_text => {
                if let Some(p) = para.as_mut() {
                    push_ref(&mut p.1, &g);
                }
            }
            Event::End(e) => match e.name().as_ref() {
                "a:t" => in_text = false,
                "a:p" => {
                    if let Some((level, text)) = para.take() {
                        let text = text.trim().to_string();
                        if text.is_empty() {
                            continue;
                        }
                        if shape_is_title {
                            match title.as_mut() {
                                Some(t) => {
                                    t.push(' ');
                                    t.push_str(&text);
                                }
                                None => title = Some(text),
                            }
                        } else {
                            paras.push((level.min(8), text));
                        }
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok((title, paras))
}
