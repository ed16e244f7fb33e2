//! `doc extract` (docs/commands.md "doc extract, doc tables"): documents → a small block model → plain text or Markdown.
//!
//! ```text
//! doc extract (--in P | --url URL) --out P [--format auto|pdf|docx|pptx|xlsx|odt|ods|odp|rtf|epub|html|eml|msg|csv|tsv|md|png|jpeg|tiff] [--max-chars N] [--mode text|md|json] [--pages A-B] [--ocr auto|always|never] [--lang L] [--password-stdin] [--images none|refs|files]
//! ```
//!
//! The daemon's side: flags, the input file, OCR's language data, the worker job, the
//! output file. The document itself is read only in a worker (`paw_readers::doc`).

mod batch;
pub mod fetch;
mod figures;
pub mod jobs;
mod ocr;
mod sources;
mod tables;

use futures::FutureExt;
use futures::future::BoxFuture;
use paw_proto::{Capabilities, ErrorCode};

pub use paw_jobs::doc::MAX_INPUT_BYTES;
use paw_jobs::doc::{Format, Images, Mode, OcrJob};

use crate::command::args::{clamp, parse};
use crate::command::{
    CmdError, CmdResult, Command, CommandSpec, Ctx, Invocation, Output, SubcommandSpec,
};

static SPEC: CommandSpec = CommandSpec {
    name: "doc",
    summary: "turn PDF, DOCX, PPTX, XLSX, OpenDocument (ODT, ODS, ODP), RTF, EPUB, HTML, e-mail (EML, MSG), CSV/TSV, Markdown and image (OCR) files — under .agents/, in tools.doc.read_dirs or at a URL — into text, Markdown, a JSON document model or table files",
    usage: "doc extract (--in P | --url URL) --out P [--format auto|pdf|docx|pptx|xlsx|odt|ods|odp|rtf|epub|html|eml|msg|csv|tsv|md|png|jpeg|tiff] [--max-chars N] [--mode text|md|json] [--pages A-B] [--ocr auto|always|never] [--lang L] [--password-stdin] [--images none|refs|files]\n\
            doc tables --in P --out-dir D [--format csv|tsv|json] [--pages A-B]",
    subcommands: &[
        SubcommandSpec::of::<ExtractArgs>("extract"),
        SubcommandSpec::of::<tables::TablesArgs>("tables"),
    ],
    capabilities: Capabilities::WRITES_FILES,
    max_stdin_chars: 1024,
    default_timeout_ms: None,
    skill: include_str!("../../../../docs/skills/doc/SKILL.md"),
    schemas: &[(
        "doc extract --mode json",
        include_str!("../../../../docs/doc-model.schema.json"),
    )],
};

/// The `doc` command.
pub struct Doc;

impl Command for Doc {
    fn spec(&self) -> &'static CommandSpec {
        &SPEC
    }

    fn run(&self, ctx: Ctx, inv: Invocation) -> BoxFuture<'static, CmdResult> {
        async move {
            let (sub, args) = inv.subcommand();
            match sub.as_str() {
                "extract" => extract(&ctx, args, inv.stdin.as_deref()).await,
                "tables" => tables::run(&ctx, args).await,
                "" => Err(CmdError::invalid_args(
                    "missing subcommand: extract or tables",
                )),
                other => Err(CmdError::invalid_args(format!(
                    "unknown subcommand: doc {other}"
                ))),
            }
        }
        .boxed()
    }
}

/// extract a document's text (md keeps headings, lists, tables, slides, sheets, pages)
#[derive(clap::Parser)]
#[command(name = "doc extract")]
#[command(group(clap::ArgGroup::new("source").required(true).args(["input", "url"])))]
pub struct ExtractArgs {
    /// the document, under .agents/ (or a folder listed in tools.doc.read_dirs); a folder reads every document in it (then --out is a folder)
    #[arg(long = "in", value_name = "P")]
    input: Option<String>,
    /// the document at this http(s) URL, downloaded through the network guard (at most tools.doc.max_download_bytes)
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// the text or Markdown file to write, under .agents/ (for a folder --in: the folder of outputs and index.json)
    #[arg(long, value_name = "P")]
    out: String,
    /// the document's format (default auto: from its bytes)
    #[arg(
        long,
        value_name = "auto|pdf|docx|pptx|xlsx|odt|ods|odp|rtf|epub|html|eml|msg|csv|tsv|md|png|jpeg|tiff"
    )]
    format: Option<String>,
    /// cut the text at this many characters (default 0: no cut)
    #[arg(long, value_name = "N")]
    max_chars: Option<i64>,
    /// plain text, Markdown or the JSON document model (default text)
    #[arg(long, value_name = "text|md|json")]
    mode: Option<String>,
    /// only these pages, slides or sheets, numbered from 1 (e.g. 3-5, or 4)
    #[arg(long, value_name = "A-B")]
    pages: Option<String>,
    /// OCR: auto (pages with no text, and images), always or never (default: tools.doc.ocr)
    #[arg(long, value_name = "auto|always|never")]
    ocr: Option<String>,
    /// OCR languages, e.g. eng or eng+chi_sim, each one of tools.doc.ocr_languages
    #[arg(long, value_name = "L")]
    lang: Option<String>,
    /// the PDF's user password is the call's stdin (never on the command line)
    #[arg(long)]
    password_stdin: bool,
    /// pictures: none (descriptions only), refs (default: ![description]() in md) or files (each picture written beside --out in <name>_files/, linked from the md)
    #[arg(long, value_name = "none|refs|files")]
    images: Option<String>,
}

/// The `--format` values besides `auto`.
const FORMATS: &str = "auto, pdf, docx, pptx, xlsx, odt, ods, odp, rtf, epub, html, eml, msg, csv, tsv, md, png, jpeg or tiff";

/// `--pages A-B` (or `A`) as an inclusive range from 1.
pub(crate) fn page_range(s: &str) -> Result<(usize, usize), CmdError> {
    let bad = || {
        CmdError::invalid_args(format!(
            "--pages must be A-B or A, counted from 1, got {s:?}"
        ))
    };
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || b < a {
        return Err(bad());
    }
    Ok((a, b))
}

async fn extract(ctx: &Ctx, args: &[String], stdin: Option<&str>) -> CmdResult {
    let a: ExtractArgs = parse(args)?;
    let password = match (a.password_stdin, stdin) {
        (false, _) => None,
        (true, Some(p)) => Some(p.trim_end_matches(['\r', '\n']).to_string()),
        (true, None) => {
            return Err(CmdError::invalid_args(
                "--password-stdin given but the call has no stdin",
            ));
        }
    };
    let out = a.out.as_str();
    let format = match a.format.as_deref().unwrap_or("auto") {
        "auto" => None,
        "pdf" => Some(Format::Pdf),
        "docx" => Some(Format::Docx),
        "pptx" => Some(Format::Pptx),
        "xlsx" => Some(Format::Xlsx),
        "png" => Some(Format::Png),
        "jpeg" | "jpg" => Some(Format::Jpeg),
        "tiff" | "tif" => Some(Format::Tiff),
        "html" | "htm" => Some(Format::Html),
        "csv" => Some(Format::Csv),
        "tsv" => Some(Format::Tsv),
        "md" | "markdown" => Some(Format::Markdown),
        "epub" => Some(Format::Epub),
        "odt" => Some(Format::Odt),
        "ods" => Some(Format::Ods),
        "odp" => Some(Format::Odp),
        "rtf" => Some(Format::Rtf),
        "eml" => Some(Format::Eml),
        "msg" => Some(Format::Msg),
        other => {
            return Err(CmdError::invalid_args(format!(
                "--format must be one of {FORMATS}, got {other:?}"
            )));
        }
    };
    let mode = match a.mode.as_deref().unwrap_or("text") {
        "text" => Mode::Text,
        "md" => Mode::Md,
        "json" => Mode::Json,
        other => {
            return Err(CmdError::invalid_args(format!(
                "--mode must be text, md or json, got {other:?}"
            )));
        }
    };
    let images = match a.images.as_deref() {
        None => Images::Refs,
        Some(s) => Images::parse(s).ok_or_else(|| {
            CmdError::invalid_args(format!("--images must be none, refs or files, got {s:?}"))
        })?,
    };
    let max_chars = clamp(a.max_chars, 0, 0, i64::MAX) as usize;
    let pages = a.pages.as_deref().map(page_range).transpose()?;
    let ocr_mode = ocr::settings(&ctx.config.tools.doc, a.ocr.as_deref())?;
    let ocr_lang = ocr::language(&ctx.config.tools.doc, a.lang.as_deref())?;
    // Checked before reading anything: a bad --out must not cost a parse.
    crate::command::paths::resolve(ctx.home.agents(), out, true)?;
    let (images_link, images_folder) = figures::folder(out);
    if images == Images::Files {
        crate::command::paths::resolve(
            ctx.home.agents(),
            &format!("{images_folder}/p1-1.png"),
            true,
        )?;
    }
    let opened = match a.input.as_deref() {
        Some(input) => Some(open_input(ctx, input).await?),
        None => None,
    };
    if let (Some(input), Some(Input::Dir(root))) = (a.input.as_deref(), &opened) {
        let root = root.clone();
        if password.is_some() {
            return Err(CmdError::invalid_args(
                "--password-stdin reads one document; --in names a folder",
            ));
        }
        let settings = batch::Settings {
            format,
            mode,
            max_chars,
            pages,
            ocr_mode,
            ocr_lang,
            images,
        };
        return batch::run(ctx, input, root, out, settings).await;
    }
    let (bytes, format, input) = match (a.input.as_deref(), opened, a.url.as_deref()) {
        (Some(input), Some(Input::File(bytes)), None) => {
            // Text formats carry no signature: their file name says what they are.
            let format = format.or_else(|| fetch::by_name(input, &bytes));
            (bytes, format, input.to_string())
        }
        (None, _, Some(url)) => {
            let cap = ctx.config.tools.doc.max_download_bytes;
            let d = fetch::download(&ctx.services, url, cap).await?;
            let format = format.or_else(|| fetch::reader_for(&d.content_type, &d.body));
            (d.body, format, d.final_url)
        }
        _ => return Err(CmdError::invalid_args("give --in or --url, not both")),
    };
    // Progress in three steps: read, extracted, written.
    ctx.progress(1, 3, Some("read; extracting in a worker"));
    // The bytes are untrusted: they are parsed in a worker process (docs/reliability.md "Containment (workers)").
    let job = paw_jobs::doc::Extract {
        format,
        mode,
        max_chars,
        pages,
        ocr: OcrJob {
            lang: ocr_lang,
            ..OcrJob::default()
        },
        password,
        also_text: false,
        images,
        images_dir: if images == Images::Files {
            images_link
        } else {
            String::new()
        },
    };
    let jobs::Extracted {
        info: x,
        text,
        images: files,
    } = jobs::extract(&ctx.services.workers, bytes, job, ocr_mode).await?;
    ctx.progress(
        2,
        3,
        Some(&format!("{} characters extracted; writing", x.chars)),
    );
    let (chars, truncated) = (x.chars, x.truncated);
    let mime = match mode {
        Mode::Md => "text/markdown",
        Mode::Json => "application/json",
        Mode::Text => "text/plain",
    };
    let artifact = crate::command::out::write_bytes(
        ctx,
        out,
        text.into_bytes(),
        mime,
        &format!("text of {input}"),
    )
    .await?;
    let (pictures, mut written) = figures::write(ctx, &images_folder, files, &input).await?;
    ctx.progress(3, 3, Some("written"));
    let reply = Extracted {
        ok: true,
        command: "doc extract",
        format: x.format.as_str(),
        mode,
        pages: x.pages,
        tables: x.tables,
        ocr_pages: x.ocr_pages,
        extracted_chars: chars,
        truncated,
        warnings: x.warnings,
        images: pictures,
        out: artifact.path.clone(),
    };
    written.insert(0, artifact);
    let source = format!("the document {input}");
    Ok(Output::reply(&reply, written).untrusted(source))
}

/// What `--in` names: a folder (its real path, for `doc extract --in DIR`) or a file's bytes.
pub(crate) enum Input {
    Dir(std::path::PathBuf),
    File(Vec<u8>),
}

/// Looks at `--in` — under .agents/, or (absolute or `~/`) inside a `tools.doc.read_dirs`
/// folder — and reads it when it is a file (at most [`MAX_INPUT_BYTES`], not empty): one
/// step on the blocking pool (each hop there is a thread wake-up on the call's path).
pub(crate) async fn open_input(ctx: &Ctx, input: &str) -> Result<Input, CmdError> {
    let dirs = ctx.config.tools.doc.read_dirs.clone();
    let agents = ctx.home.agents().to_path_buf();
    let input = input.to_string();
    tokio::task::spawn_blocking(move || {
        let path = if sources::is_outside(&input) {
            let user_home = std::env::var_os("HOME").map(std::path::PathBuf::from);
            sources::resolve(&dirs, user_home.as_deref(), &agents, &input)?
        } else {
            crate::command::paths::resolve(&agents, &input, false)?
        };
        let not_found = |e: std::io::Error| {
            CmdError::new(
                ErrorCode::NotFound,
                format!("cannot open --in {input}: {e}"),
            )
        };
        let meta = std::fs::metadata(&path).map_err(not_found)?;
        if meta.is_dir() {
            return std::fs::canonicalize(&path)
                .map(Input::Dir)
                .map_err(not_found);
        }
        if !meta.is_file() {
            return Err(CmdError::invalid_args(format!(
                "--in {input} is not a file"
            )));
        }
        if meta.len() > MAX_INPUT_BYTES {
            return Err(CmdError::new(
                ErrorCode::ParseError,
                format!(
                    "{input} is {} MiB; the limit is {} MiB",
                    meta.len() >> 20,
                    MAX_INPUT_BYTES >> 20
                ),
            ));
        }
        if meta.len() == 0 {
            return Err(CmdError::new(
                ErrorCode::ParseError,
                format!("{input} is empty"),
            ));
        }
        // Capped again while reading: the file may have grown since it was looked at.
        crate::command::read_capped_now(&path, MAX_INPUT_BYTES, meta.len())
            .map(Input::File)
            .map_err(|(code, e)| CmdError::new(code, format!("cannot read --in: {e}")))
    })
    .await
    .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?
}

/// Reads `--in`, which must be a file ([`open_input`]).
pub(crate) async fn read_input(ctx: &Ctx, input: &str) -> Result<Vec<u8>, CmdError> {
    match open_input(ctx, input).await? {
        Input::File(bytes) => Ok(bytes),
        Input::Dir(_) => Err(CmdError::invalid_args(format!(
            "--in {input} is not a file"
        ))),
    }
}

/// `doc extract`'s result.
#[derive(serde::Serialize)]
struct Extracted {
    ok: bool,
    command: &'static str,
    format: &'static str,
    mode: Mode,
    /// Pages, slides or sheets in the output.
    pages: usize,
    tables: usize,
    ocr_pages: usize,
    extracted_chars: usize,
    truncated: bool,
    warnings: Vec<String>,
    /// With `--images files`: each picture written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    images: Vec<figures::Picture>,
    /// Where the text went (shown on stdout; the artifact lists it).
    #[serde(skip)]
    out: String,
}

impl crate::command::Reply for Extracted {
    fn stdout(&self) -> String {
        let unit = match self.format {
            "pptx" | "odp" => "slides",
            "xlsx" | "ods" => "sheets",
            "epub" => "chapters",
            _ => "pages",
        };
        let mut s = format!(
            "{}: {} {unit}, {} tables, ",
            self.format, self.pages, self.tables
        );
        if self.ocr_pages > 0 {
            s.push_str(&format!("{} read by OCR, ", self.ocr_pages));
        }
        s.push_str(&format!(
            "{} characters{} → {}\n",
            self.extracted_chars,
            if self.truncated { " (truncated)" } else { "" },
            self.out
        ));
        if let Some(first) = self.images.first() {
            let folder = first.path.rsplit_once('/').map_or("", |(d, _)| d);
            s.push_str(&format!("{} pictures → {folder}/\n", self.images.len()));
        }
        for w in &self.warnings {
            s.push_str(&format!("warning: {w}\n"));
        }
        s
    }
}
