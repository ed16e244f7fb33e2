//! RTF documents (docs/commands.md "doc extract"): text in paragraphs, headings (from
//! `\outlinelevelN`), list items (`\ls` / `\ilvl`, numbered when their list text holds a
//! digit), tables (`\intbl` … `\cell` … `\row`), footnotes (at the end, in order), title
//! and author from `\info`; hidden text (`\v`) is not read.
//!
//! A small tokenizer rather than a crate: the RTF crates on offer recurse per group or
//! keep the whole token stream. This one is a single pass over the bytes with a heap stack
//! of group states capped at [`MAX_DEPTH`]; `\binN` skips at most what is left of the
//! input; `\uN` and `\'hh` are decoded (the latter in the `\ansicpgN` code page, through
//! encoding_rs); destinations that are not text (font and colour tables, pictures, fields'
//! instructions, headers, footers, unknown `\*` destinations) are skipped.

use encoding_rs::{Encoding, WINDOWS_1252};

use super::flow::collapse;
use super::model::{Block, Document, Page, Table};
use super::ooxml::TableBudget;
use super::{DocError, Format};

/// The deepest group nesting read: Word writes a few dozen at most.
pub const MAX_DEPTH: usize = 1_000;

/// Destinations whose text is not the document's.
const SKIPPED: &[&str] = &[
    "fonttbl",
    "colortbl",
    "stylesheet",
    "pict",
    "object",
    "fldinst",
    "header",
    "headerl",
    "headerr",
    "headerf",
    "footer",
    "footerl",
    "footerr",
    "footerf",
    "listtable",
    "listoverridetable",
    "revtbl",
    "rsidtbl",
    "filetbl",
    "generator",
    "themedata",
    "colorschememapping",
    "latentstyles",
    "datastore",
    "xmlnstbl",
    "pgdsctbl",
    "mmathPr",
    "shpinst",
    "nonshppict",
    "shppict",
    "bkmkstart",
    "bkmkend",
    "nesttableprops",
    "pnseclvl",
    "operator",
    "company",
    "category",
    "keywords",
    "comment",
    "doccomm",
    "subject",
    "manager",
    "hlinkbase",
    "userprops",
    "xe",
    "tc",
    "annotation",
    "atnid",
    "atnauthor",
    "wgrffmtfilter",
    "template",
    "falt",
    "panose",
    "listpicture",
    "fchars",
    "lchars",
    "protusertbl",
    "docvar",
    "formfield",
    "blipuid",
    "nonesttables",
];

/// What a group sets.
#[derive(Clone)]
struct Group {
    /// Its text is not the document's.
    skip: bool,
    /// Its text goes to the metadata's title or author, or to the list number.
    into: Into,
    /// Characters to skip after `\uN` (`\ucN`).
    uc: usize,
    /// Hidden text (`\v`): not shown, not read.
    hidden: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Into {
    Body,
    Title,
    Author,
    ListText,
    Note,
}

/// The paragraph being read.
#[derive(Default)]
struct Para {
    text: String,
    outline: Option<u8>,
    list: Option<u8>,
    list_text: String,
    in_table: bool,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    encoding: &'static Encoding,
    /// `\'hh` bytes not yet decoded (a double-byte code page needs them in pairs).
    pending: Vec<u8>,
    /// Characters still to skip after a `\uN`.
    skip_chars: usize,
    stack: Vec<Group>,
    group: Group,
    para: Para,
    blocks: Vec<Block>,
    rows: Vec<Vec<String>>,
    row: Vec<String>,
    cell: String,
    title: String,
    author: String,
    /// The footnote being read, and the footnotes read (they end the document).
    note: String,
    notes: Vec<Block>,
    budget: TableBudget,
    warnings: Vec<String>,
}

/// Reads an RTF document.
pub fn read(bytes: &[u8]) -> Result<Document, DocError> {
    if !bytes.starts_with(b"{\\rtf") {
        return Err(DocError::Parse(
            "not an RTF document (no {\\rtf header)".into(),
        ));
    }
    let mut r = Reader {
        bytes,
        at: 0,
        encoding: WINDOWS_1252,
        pending: Vec::new(),
        skip_chars: 0,
        stack: Vec::new(),
        group: Group {
            skip: false,
            into: Into::Body,
            uc: 1,
            hidden: false,
        },
        para: Para::default(),
        blocks: Vec::new(),
        rows: Vec::new(),
        row: Vec::new(),
        cell: String::new(),
        title: String::new(),
        author: String::new(),
        note: String::new(),
        notes: Vec::new(),
        budget: TableBudget::new(),
        warnings: Vec::new(),
    };
    r.run()?;
    r.end_para();
    r.end_table();
    r.blocks.append(&mut r.notes);
    let mut doc = Document::new(Format::Rtf);
    let title = collapse(&r.title);
    let author = collapse(&r.author);
    doc.metadata.title = (!title.is_empty()).then_some(title);
    doc.metadata.author = (!author.is_empty()).then_some(author);
    doc.warnings = r.warnings;
    let mut page = Page::new(1, None);
    page.blocks = r.blocks;
    doc.pages.push(page);
    doc.tidy();
    Ok(doc)
}

impl Reader<'_> {
    fn run(&mut self) -> Result<(), DocError> {
        while self.at < self.bytes.len() {
            let b = self.bytes[self.at];
            match b {
                b'{' => {
                    self.at += 1;
                    self.skip_chars = 0;
                    if self.stack.len() >= MAX_DEPTH {
                        return Err(DocError::Parse(format!(
                            "the document nests groups deeper than {MAX_DEPTH}: refusing it"
                        )));
                    }
                    self.stack.push(self.group.clone());
                    // An ignorable destination (`{\*\name`) is skipped unless read below.
                    if self.bytes[self.at..].starts_with(b"\\*") {
                        self.at += 2;
                        let name = self.peek_word();
                        if !matches!(name, "fldrslt") {
                            self.flush_pending();
                            self.group.skip = true;
                        }
                    }
                }
                b'}' => {
                    self.at += 1;
                    self.skip_chars = 0;
                    self.flush_pending();
                    match self.stack.pop() {
                        Some(g) => {
                            if self.group.into == Into::Note && g.into != Into::Note {
                                self.end_note();
                            }
                            self.group = g;
                        }
                        None => return Ok(()),
                    }
                }
                b'\\' => self.control()?,
                b'\r' | b'\n' => self.at += 1,
                _ => {
                    self.at += 1;
                    if self.skip_chars > 0 {
                        self.skip_chars -= 1;
                        continue;
                    }
                    if b < 0x80 {
                        self.flush_pending();
                        self.push_char(b as char);
                    } else {
                        self.pending.push(b);
                    }
                }
            }
        }
        Ok(())
    }

    /// The control word after `\` at the read position, without consuming it.
    fn peek_word(&self) -> &str {
        let rest = &self.bytes[self.at..];
        let rest = rest.strip_prefix(b"\\").unwrap_or(rest);
        let n = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        std::str::from_utf8(&rest[..n]).unwrap_or("")
    }

    fn control(&mut self) -> Result<(), DocError> {
        self.at += 1;
        let Some(&c) = self.bytes.get(self.at) else {
            return Ok(());
        };
        if !c.is_ascii_alphabetic() {
            self.at += 1;
            match c {
                b'\'' => {
                    let hex = self.bytes.get(self.at..self.at + 2).unwrap_or(b"");
                    self.at += hex.len();
                    if let Some(v) = std::str::from_utf8(hex)
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                    {
                        if self.skip_chars > 0 {
                            self.skip_chars -= 1;
                        } else {
                            self.pending.push(v);
                        }
                    }
                }
                b'\\' | b'{' | b'}' => {
                    self.flush_pending();
                    self.push_char(c as char);
                }
                b'~' => self.push_str("\u{a0}"),
                b'_' => self.push_str("\u{2011}"),
                b'\r' | b'\n' => self.par(),
                _ => {}
            }
            return Ok(());
        }
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_alphabetic) && self.at - start < 32 {
            self.at += 1;
        }
        let word = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
        let num_start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) && self.at - num_start < 11 {
            self.at += 1;
        }
        let param: Option<i64> = std::str::from_utf8(&self.bytes[num_start..self.at])
            .ok()
            .and_then(|s| s.parse().ok());
        if self.bytes.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
        self.word(word, param)
    }

    fn word(&mut self, word: &str, param: Option<i64>) -> Result<(), DocError> {
        // A control word after `\uN` is one of the characters its fallback skips.
        if self.skip_chars > 0 && word != "u" && word != "bin" {
            self.skip_chars -= 1;
            return Ok(());
        }
        if word != "u" {
            self.flush_pending();
        }
        if SKIPPED.contains(&word) {
            self.group.skip = true;
            return Ok(());
        }
        match word {
            "bin" => {
                // Binary data: skipped, at most what is left.
                let n = param.unwrap_or(0).max(0) as usize;
                self.at = self.at.saturating_add(n).min(self.bytes.len());
            }
            "ansicpg" => {
                if let Some(cp) = param
                    && let Some(e) = codepage(cp)
                {
                    self.encoding = e;
                }
            }
            "uc" => self.group.uc = param.unwrap_or(1).clamp(0, 10) as usize,
            "u" => {
                self.flush_pending();
                if let Some(v) = param {
                    let v = if v < 0 { v + 65_536 } else { v };
                    if let Some(ch) = u32::try_from(v).ok().and_then(char::from_u32) {
                        self.push_char(ch);
                    }
                }
                self.skip_chars = self.group.uc;
            }
            "footnote" => {
                self.note.clear();
                self.group.into = Into::Note;
            }
            "v" => self.group.hidden = param != Some(0),
            "title" => self.group.into = Into::Title,
            "author" => self.group.into = Into::Author,
            "listtext" | "pntext" => {
                self.group.into = Into::ListText;
                self.para.list.get_or_insert(0);
            }
            "par" => self.par(),
            "sect" | "page" => self.par(),
            "line" => self.push_str("\n"),
            "tab" => self.push_str("\t"),
            "emdash" => self.push_str("\u{2014}"),
            "endash" => self.push_str("\u{2013}"),
            "bullet" => self.push_str("\u{2022}"),
            "lquote" => self.push_str("\u{2018}"),
            "rquote" => self.push_str("\u{2019}"),
            "ldblquote" => self.push_str("\u{201c}"),
            "rdblquote" => self.push_str("\u{201d}"),
            "emspace" | "enspace" | "qmspace" => self.push_str(" "),
            "pard" => {
                self.para.outline = None;
                self.para.list = None;
                self.para.in_table = false;
            }
            "intbl" => self.para.in_table = true,
            "outlinelevel" => {
                self.para.outline = param.map(|p| (p.clamp(0, 5) as u8) + 1);
            }
            "ls" => {
                self.para.list.get_or_insert(0);
            }
            "ilvl" => self.para.list = Some(param.unwrap_or(0).clamp(0, 8) as u8),
            "cell" => self.end_cell(),
            "nestcell" => self.push_str(" "),
            "row" => self.end_row(),
            _ => {}
        }
        Ok(())
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.push_str(c.encode_utf8(&mut buf));
    }

    fn push_str(&mut self, s: &str) {
        if self.group.skip || self.group.hidden {
            return;
        }
        match self.group.into {
            Into::Body if self.para.in_table => self.cell.push_str(s),
            Into::Body => self.para.text.push_str(s),
            Into::Title => self.title.push_str(s),
            Into::Author => self.author.push_str(s),
            Into::ListText => self.para.list_text.push_str(s),
            Into::Note => self.note.push_str(s),
        }
    }

    /// A footnote's group closed: it becomes a footnote block, numbered in order.
    fn end_note(&mut self) {
        let text = collapse(&std::mem::take(&mut self.note));
        if !text.is_empty() && self.notes.len() < 100_000 {
            let mark = (self.notes.len() + 1).to_string();
            self.notes.push(Block::footnote(mark, text));
        }
    }

    /// `\'hh` bytes decoded in the document's code page.
    fn flush_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let bytes = std::mem::take(&mut self.pending);
        let (text, _, _) = self.encoding.decode(&bytes);
        let text = text.into_owned();
        self.push_str(&text);
    }

    fn par(&mut self) {
        if self.group.skip {
            return;
        }
        if self.group.into == Into::Note {
            self.note.push(' ');
            return;
        }
        if self.para.in_table {
            self.cell.push(' ');
            return;
        }
        self.end_para();
    }

    /// The paragraph read so far becomes a block (closing a table before it).
    fn end_para(&mut self) {
        let text = collapse(&std::mem::take(&mut self.para.text));
        let list_text = std::mem::take(&mut self.para.list_text);
        if text.is_empty() {
            return;
        }
        self.end_table();
        let block = match (self.para.outline, self.para.list) {
            (Some(level), _) => Block::heading(level, text),
            (None, Some(level)) => {
                Block::item(level, list_text.chars().any(|c| c.is_ascii_digit()), text)
            }
            _ => Block::para(text),
        };
        self.blocks.push(block);
    }

    fn end_cell(&mut self) {
        if self.group.skip {
            return;
        }
        let text = collapse(&std::mem::take(&mut self.cell));
        if self.row.len() < super::ooxml::MAX_TABLE_COLS {
            self.row.push(text);
        }
    }

    fn end_row(&mut self) {
        if self.group.skip {
            return;
        }
        if !self.cell.trim().is_empty() {
            self.end_cell();
        }
        self.cell.clear();
        let row = std::mem::take(&mut self.row);
        if !row.is_empty() {
            self.rows.push(row);
        }
    }

    fn end_table(&mut self) {
        if self.rows.is_empty() {
            return;
        }
        let rows = std::mem::take(&mut self.rows);
        let table = Table::from_rows(rows, 1);
        if let Some(t) = self.budget.admit(table, &mut self.warnings) {
            self.blocks.push(Block::table(t));
        }
    }
}

/// The encoding of a Windows code page number (`\ansicpg1251`).
fn codepage(cp: i64) -> Option<&'static Encoding> {
    let label = match cp {
        65001 => "utf-8".to_string(),
        932 => "shift_jis".to_string(),
        936 => "gbk".to_string(),
        949 => "euc-kr".to_string(),
        950 => "big5".to_string(),
        10000 => "macintosh".to_string(),
        874 => "windows-874".to_string(),
        1250..=1258 => format!("windows-{cp}"),
        _ => return None,
    };
    Encoding::for_label(label.as_bytes())
}

#[cfg(test)]
mod tests;
