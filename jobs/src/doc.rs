//! `doc`'s jobs: a document's bytes to text (`doc extract`) or to table files (`doc
//! tables`), with the formats, modes and OCR settings they carry
//! (docs/commands.md, `doc`).

use serde::{Deserialize, Serialize};

use crate::Job;

/// The largest input document (a file, or a download) paw reads.
pub const MAX_INPUT_BYTES: u64 = 100 << 20;

/// The formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// PDF.
    Pdf,
    /// Word (Office Open XML).
    Docx,
    /// PowerPoint (Office Open XML).
    Pptx,
    /// Excel (Office Open XML).
    Xlsx,
    /// A PNG image (read by OCR).
    Png,
    /// A JPEG image (read by OCR).
    Jpeg,
    /// A TIFF image (read by OCR; the first page).
    Tiff,
    /// An HTML page (its article, through the page extractor).
    Html,
    /// Comma-separated values (one table).
    Csv,
    /// Tab-separated values (one table).
    Tsv,
    /// Markdown (CommonMark with tables).
    #[serde(rename = "md")]
    Markdown,
    /// An EPUB book (a page per chapter).
    Epub,
    /// An e-mail message (RFC 5322 / MIME, `.eml`).
    Eml,
    /// An Outlook message (`.msg`, a compound file).
    Msg,
    /// An OpenDocument text (`.odt`).
    Odt,
    /// An OpenDocument spreadsheet (`.ods`, a page per sheet).
    Ods,
    /// An OpenDocument presentation (`.odp`, a page per slide).
    Odp,
    /// Rich Text Format (`.rtf`).
    Rtf,
}

impl Format {
    /// Its name in `--format` and results.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Docx => "docx",
            Format::Pptx => "pptx",
            Format::Xlsx => "xlsx",
            Format::Png => "png",
            Format::Jpeg => "jpeg",
            Format::Tiff => "tiff",
            Format::Html => "html",
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Markdown => "md",
            Format::Epub => "epub",
            Format::Eml => "eml",
            Format::Msg => "msg",
            Format::Odt => "odt",
            Format::Ods => "ods",
            Format::Odp => "odp",
            Format::Rtf => "rtf",
        }
    }

    /// The format a file name's extension names, for the formats that carry no signature
    /// in their bytes (text formats); `None` for the rest, which the bytes decide.
    pub fn from_extension(name: &str) -> Option<Self> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "html" | "htm" | "xhtml" => Format::Html,
            "csv" => Format::Csv,
            "tsv" | "tab" => Format::Tsv,
            "md" | "markdown" => Format::Markdown,
            "eml" => Format::Eml,
            _ => return None,
        })
    }

    /// The format a response's media type names (lower case, no parameters), if paw
    /// reads it.
    pub fn from_media_type(media: &str) -> Option<Self> {
        Some(match media {
            "application/pdf" | "application/x-pdf" => Format::Pdf,
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => {
                Format::Docx
            }
            "application/vnd.openxmlformats-officedocument.presentationml.presentation" => {
                Format::Pptx
            }
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" => Format::Xlsx,
            "image/png" => Format::Png,
            "image/jpeg" | "image/jpg" => Format::Jpeg,
            "image/tiff" => Format::Tiff,
            "text/html" | "application/xhtml+xml" => Format::Html,
            "text/csv" => Format::Csv,
            "text/tab-separated-values" => Format::Tsv,
            "text/markdown" | "text/x-markdown" => Format::Markdown,
            "application/epub+zip" => Format::Epub,
            "message/rfc822" => Format::Eml,
            "application/vnd.ms-outlook" => Format::Msg,
            "application/vnd.oasis.opendocument.text" => Format::Odt,
            "application/vnd.oasis.opendocument.spreadsheet" => Format::Ods,
            "application/vnd.oasis.opendocument.presentation" => Format::Odp,
            "application/rtf" | "text/rtf" => Format::Rtf,
            _ => return None,
        })
    }

    /// Whether it is a text format, known by its name or content type rather than by a
    /// signature in its bytes.
    pub fn is_text(self) -> bool {
        matches!(
            self,
            Format::Html | Format::Csv | Format::Tsv | Format::Markdown | Format::Eml
        )
    }

    /// Whether a link to it is read as a document rather than as a web page's article.
    pub fn is_document(self) -> bool {
        self != Format::Html
    }
}

/// Text, Markdown or the JSON document model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Plain text.
    Text,
    /// Markdown.
    Md,
    /// The JSON document model.
    Json,
}

/// What one extraction produced, besides its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocText {
    /// The format read.
    pub format: Format,
    /// Pages, slides or sheets in the output (DOCX: 1 unless Word's page breaks are
    /// recorded).
    pub pages: usize,
    /// Tables in the output.
    pub tables: usize,
    /// Pages read by OCR.
    pub ocr_pages: usize,
    /// What was skipped or could not be read.
    pub warnings: Vec<String>,
    /// Characters of text (after truncation).
    pub chars: usize,
    /// Whether `--max-chars` cut the text.
    pub truncated: bool,
    /// With [`Extract::also_text`]: where the plain text starts in the reply's bytes
    /// (after the Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_at: Option<usize>,
    /// With [`Images::Files`]: each picture written, in payload order; their bytes end the
    /// reply's payload, one after another (after the text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageFile>,
}

/// `--images`: what becomes of a document's pictures (docs/commands.md "doc extract").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Images {
    /// No references: a figure is its description alone.
    None,
    /// `![description]()` in Markdown, no files (nothing is decoded or read for them).
    #[default]
    Refs,
    /// Each picture a file beside the output, linked from the Markdown by relative path.
    Files,
}

impl Images {
    /// From `--images`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "none" => Some(Images::None),
            "refs" => Some(Images::Refs),
            "files" => Some(Images::Files),
            _ => None,
        }
    }
}

/// One picture of a document as a file: made by the worker, written by the daemon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageFile {
    /// `p<page>-<n>.<ext>`, made by paw (never a name from the document).
    pub name: String,
    /// The page, slide or chapter it is first drawn on (from 1).
    pub page: usize,
    /// Its description (alt text), if the document gives one.
    pub alt: String,
    /// Its media type (`image/png`, `image/jpeg`, …), from its bytes.
    pub media_type: String,
    /// Width in pixels, where known.
    pub width: Option<u32>,
    /// Height in pixels, where known.
    pub height: Option<u32>,
    /// Bytes of it in the reply's payload.
    pub len: usize,
}

/// Whether `name` is one paw makes for a picture: `p<digits>-<digits>.<letters>`, so a
/// name from a worker can only ever be a plain file in the pictures' folder.
pub fn is_image_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('p') else {
        return false;
    };
    let Some((page, rest)) = rest.split_once('-') else {
        return false;
    };
    let Some((n, ext)) = rest.split_once('.') else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    digits(page)
        && digits(n)
        && !ext.is_empty()
        && ext.len() <= 4
        && ext.bytes().all(|b| b.is_ascii_lowercase())
}

/// `--ocr`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OcrMode {
    /// Only pages with no usable text, and image files.
    #[default]
    Auto,
    /// Every page.
    Always,
    /// None: image-only pages get a warning.
    Never,
}

impl OcrMode {
    /// From `--ocr` / `tools.doc.ocr`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "auto" => Some(OcrMode::Auto),
            "always" => Some(OcrMode::Always),
            "never" => Some(OcrMode::Never),
            _ => None,
        }
    }
}

/// The OCR part of a doc job, as it crosses to the worker. The language data travel after
/// the document in the job's payload, in `data`'s order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OcrJob {
    /// `--ocr`.
    pub mode: OcrMode,
    /// `--lang`, e.g. `eng` or `eng+chi_sim`.
    pub lang: String,
    /// Each installed language's name (and `osd`) with the length of its data in the
    /// payload; a language asked for and not here is not installed.
    pub data: Vec<(String, usize)>,
    /// The daemon holds the data back: a page that needs OCR fails the job with
    /// [`crate::JobFailure::NeedsData`], and the daemon sends it again with the data.
    #[serde(default)]
    pub deferred: bool,
    /// The pages that need OCR, as the job's first answer counted them (0: not known);
    /// the budget counts at most [`MAX_OCR_PAGES`] of them.
    #[serde(default)]
    pub pages: usize,
}

/// The most pages of one document read by OCR (later pages get a warning).
pub const MAX_OCR_PAGES: usize = 100;

/// Where Debian's (and most distributions') Tesseract 5 and 4 keep their language data.
pub const TESSDATA_DIRS: &[&str] = &[
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
    "/usr/local/share/tessdata",
];

/// The installed Tesseract data of one language (`eng`, `osd`, …) from the first of
/// [`TESSDATA_DIRS`] that has it. Read by the daemon (never by the sandboxed worker).
pub fn tessdata(lang: &str) -> Option<Vec<u8>> {
    TESSDATA_DIRS
        .iter()
        .find_map(|dir| std::fs::read(format!("{dir}/{lang}.traineddata")).ok())
}

/// When a doc job carries the language data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Never: OCR is off, or the document cannot need it.
    None,
    /// With the job: a picture.
    Now,
    /// Only if the worker asks (a PDF, `--ocr auto` or `always`: it answers with the count
    /// of pages to read).
    Deferred,
}

/// Whether `bytes` begin as a container whose format only a look inside tells: a zip
/// (Office, OpenDocument, EPUB) or a compound file (Outlook `.msg`).
pub fn is_container(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK") || bytes.starts_with(b"\xD0\xCF\x11\xE0")
}

/// Whether `bytes` are a PDF: `%PDF-` within the first 1,024 bytes, as viewers accept it
/// (a banner before the header, as Ghostscript and some mailers write, is skipped).
pub fn is_pdf(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
}

/// The format the first bytes announce by a signature alone (PDF, the pictures, RTF; a zip
/// package or a compound file needs a look inside, which only the worker takes).
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    if is_pdf(bytes) {
        Some(Format::Pdf)
    } else if bytes.starts_with(b"\x89PNG") {
        Some(Format::Png)
    } else if bytes.starts_with(b"\xFF\xD8\xFF") {
        Some(Format::Jpeg)
    } else if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        Some(Format::Tiff)
    } else if bytes.starts_with(b"{\\rtf") {
        Some(Format::Rtf)
    } else {
        None
    }
}

/// When a document (its first bytes, or the format asked) needs the language data.
pub fn plan(bytes: &[u8], format: Option<Format>, mode: OcrMode) -> Plan {
    let format = format.or_else(|| sniff(bytes));
    match (mode, format) {
        (OcrMode::Never, _) => Plan::None,
        (_, Some(Format::Png | Format::Jpeg | Format::Tiff)) => Plan::Now,
        // A PDF is asked for its pages first, under `always` too: the count of pages to
        // read sizes the OCR job's CPU budget (`worker.ocr_cpu_ms_per_page`).
        (OcrMode::Auto | OcrMode::Always, Some(Format::Pdf)) => Plan::Deferred,
        _ => Plan::None,
    }
}

/// The Debian package that holds a language's data (`chi_sim` → `tesseract-ocr-chi-sim`).
pub fn package_of(lang: &str) -> String {
    format!("tesseract-ocr-{}", lang.replace('_', "-").to_lowercase())
}

impl OcrJob {
    /// Bytes of language data at the end of the payload.
    pub fn data_len(&self) -> usize {
        self.data.iter().map(|(_, n)| n).sum()
    }
}

/// `doc extract`: the document's text, rendered and truncated. The text travels back as
/// the reply's bytes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Extract {
    /// The format asked for (None: detect from the bytes).
    pub format: Option<Format>,
    /// Text, Markdown or JSON.
    pub mode: Mode,
    /// `--max-chars` (0: no cap).
    pub max_chars: usize,
    /// `--pages A-B`: only these pages, slides or sheets (from 1).
    #[serde(default)]
    pub pages: Option<(usize, usize)>,
    /// `--ocr` and `--lang`; the language data follow the document in the payload.
    #[serde(default)]
    pub ocr: OcrJob,
    /// `--password-stdin`: the PDF's user password (from the call's stdin, never argv; it
    /// crosses only the worker's pipe and is never logged or audited).
    #[serde(default)]
    pub password: Option<String>,
    /// Also the plain text, from the same reading (a linked document in `rss read` keeps
    /// both): the reply's bytes are the rendering of `mode`, then the plain text, which
    /// starts at [`DocText::text_at`].
    #[serde(default)]
    pub also_text: bool,
    /// `--images`.
    #[serde(default)]
    pub images: Images,
    /// With [`Images::Files`]: the pictures' folder as the Markdown links it, relative to
    /// the output file (`report_files`).
    #[serde(default)]
    pub images_dir: String,
}

impl Job for Extract {
    const NAME: &'static str = "doc";
    type Reply = DocText;

    /// The document, not the language data that may travel with it.
    fn size(&self, payload: usize) -> usize {
        payload.saturating_sub(self.ocr.data_len())
    }

    /// Pictures as files (`--images files`) count twice: a PDF's pages are drawn again,
    /// which doubled the reading's time on the public PDFs (docs/benchmarks.md
    /// "Documents: figures").
    fn cost(&self, input: &[u8]) -> usize {
        let cost = packed_cost(input, self.size(input.len()));
        match self.images {
            Images::Files => cost.saturating_mul(2),
            _ => cost,
        }
    }

    /// OCR's cost is in its pixels, not its bytes: a job that carries the language data
    /// gets the ceiling.
    fn sized(&self) -> bool {
        self.ocr.data.is_empty()
    }

    /// Its pages for OCR, at most the [`MAX_OCR_PAGES`] OCR reads: the count comes from
    /// the worker's first answer about an untrusted document (10,000 blank pages must not
    /// buy 30,000 s of CPU).
    fn ocr_pages(&self) -> usize {
        self.ocr.pages.min(MAX_OCR_PAGES)
    }
}

/// How many times its own size a zip container (DOCX, PPTX, XLSX, EPUB) is budgeted at: its
/// work is in the XML it inflates to, which deflate packs 5–10 times.
pub const PACKED_WORK: usize = 8;

/// The work in a document of `size` bytes beginning `input`: a zip container counts
/// [`PACKED_WORK`] times.
fn packed_cost(input: &[u8], size: usize) -> usize {
    if input.starts_with(b"PK\x03\x04") {
        size.saturating_mul(PACKED_WORK)
    } else {
        size
    }
}

/// `doc tables`: every table of the document as a file; their contents travel back one
/// after another as the reply's bytes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tables {
    /// The document's format (None: detect from the bytes).
    pub format: Option<Format>,
    /// Each table's file format.
    pub to: TableFormat,
    /// `--pages A-B`: only the tables of these pages, slides or sheets.
    pub pages: Option<(usize, usize)>,
}

/// [`Tables`]' reply.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TablesReply {
    /// The format read.
    pub format: Format,
    /// Each table file, in payload order.
    pub tables: Vec<TableFile>,
    /// What was skipped or could not be read.
    pub warnings: Vec<String>,
}

impl Job for Tables {
    const NAME: &'static str = "doc-tables";
    type Reply = TablesReply;

    fn cost(&self, input: &[u8]) -> usize {
        packed_cost(input, input.len())
    }
}

/// The file format of each table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableFormat {
    /// Comma-separated, RFC 4180 (CRLF line ends, quotes doubled).
    Csv,
    /// Tab-separated; tabs and line breaks in a cell become spaces.
    Tsv,
    /// `{page, rows, cols, cells, grid}`.
    Json,
}

impl TableFormat {
    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Tsv => "tsv",
            TableFormat::Json => "json",
        }
    }

    /// The artifact's MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            TableFormat::Csv => "text/csv",
            TableFormat::Tsv => "text/tab-separated-values",
            TableFormat::Json => "application/json",
        }
    }
}

/// One table file: its name under the output folder and what it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableFile {
    /// `<n>-<page-or-sheet>.<ext>`, n counted from 1 over the document.
    pub name: String,
    /// The page, slide or sheet it is on (from 1).
    pub page: usize,
    /// That page's label (`Sheet: Sales`), if it has one.
    pub label: Option<String>,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Bytes of its content in the reply's payload.
    pub len: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zip_container_is_budgeted_by_the_work_it_inflates_to() {
        let job = Extract {
            format: None,
            mode: Mode::Text,
            max_chars: 0,
            pages: None,
            ocr: OcrJob::default(),
            password: None,
            also_text: false,
            images: Images::Refs,
            images_dir: String::new(),
        };
        let mut docx = b"PK\x03\x04".to_vec();
        docx.resize(1000, 0);
        let mut pdf = b"%PDF-1.7\n".to_vec();
        pdf.resize(1000, 0);
        assert_eq!(job.cost(&docx), 8000);
        assert_eq!(job.cost(&pdf), 1000);
        let files = Extract {
            images: Images::Files,
            ..job.clone()
        };
        assert_eq!(files.cost(&pdf), 2000);
        // OCR's pages, as the worker counted them, buy at most the pages OCR reads.
        let mut ocr = job.clone();
        ocr.ocr.pages = 10_000;
        assert_eq!(ocr.ocr_pages(), MAX_OCR_PAGES);
        ocr.ocr.pages = 3;
        assert_eq!(ocr.ocr_pages(), 3);
        let tables = Tables {
            format: None,
            to: TableFormat::Csv,
            pages: None,
        };
        assert_eq!(tables.cost(&docx), 8000);
    }

    #[test]
    fn language_data_travel_only_with_what_may_need_them() {
        use OcrMode::*;
        assert_eq!(plan(b"\x89PNG\r\n\x1a\n", None, Auto), Plan::Now);
        assert_eq!(plan(b"II*\0", None, Always), Plan::Now);
        assert_eq!(plan(b"%PDF-1.7", None, Auto), Plan::Deferred);
        assert_eq!(plan(b"%PDF-1.7", None, Always), Plan::Deferred);
        assert_eq!(plan(b"%PDF-1.7", None, Never), Plan::None);
        assert_eq!(plan(b"\x89PNG", None, Never), Plan::None);
        assert_eq!(plan(b"PK\x03\x04", None, Always), Plan::None);
        assert_eq!(plan(b"PK\x03\x04", Some(Format::Jpeg), Auto), Plan::Now);
    }

    #[test]
    fn only_names_paw_makes_are_picture_names() {
        for good in ["p1-1.png", "p12-3.jpg", "p1-10.emf"] {
            assert!(is_image_name(good), "{good}");
        }
        for bad in [
            "../p1-1.png",
            "p1-1.png/../../x",
            "p1-1",
            "p-1.png",
            "p1-.png",
            "p1-1.PNG",
            "p1-1.pn/g",
            ".p1-1.png",
            "p1-1.png\0",
            "x1-1.png",
            "",
        ] {
            assert!(!is_image_name(bad), "{bad}");
        }
    }
}
