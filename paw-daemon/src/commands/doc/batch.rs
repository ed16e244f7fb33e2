//! `doc extract --in DIR` (docs/commands.md "doc extract"): every readable file of a folder
//! under `.agents/` or in a `tools.doc.read_dirs` folder, each read in a worker as one file
//! is, one output each under `--out` (the folder's layout kept, the mode's extension
//! added) and `index.json` beside them; a progress event per file; a file that fails is an
//! entry of the index with its error code, and the batch goes on.
//!
//! Bounded: at most [`MAX_FILES`] files and [`MAX_TOTAL_BYTES`] read in all, folders at
//! most [`MAX_DEPTH`] deep. Symlinks are never followed (a link is listed as skipped), and
//! each file is canonicalised again and opened without following a final link, so nothing
//! outside the folder is read even if the folder changes during the batch. Under `.agents/`,
//! `skills/*/secrets/` is never read.

use std::path::{Path, PathBuf};

use paw_jobs::doc::{Extract, Format, Mode, OcrJob};
use paw_proto::ErrorCode;
use serde::Serialize;

use crate::command::{CmdError, CmdResult, Ctx, Output};

/// The most files one batch reads.
pub const MAX_FILES: usize = 1_000;
/// The most bytes one batch reads in all.
pub const MAX_TOTAL_BYTES: u64 = 1 << 30;
/// The deepest folder a batch descends to (the folder given is depth 0).
pub const MAX_DEPTH: usize = 16;
/// The most skipped names the index lists.
const MAX_SKIPPED: usize = 1_000;

/// The file extensions a batch reads: the formats `doc extract` knows.
const READABLE: &[&str] = &[
    "pdf", "docx", "pptx", "xlsx", "odt", "ods", "odp", "rtf", "epub", "html", "htm", "xhtml",
    "eml", "msg", "csv", "tsv", "tab", "md", "markdown", "png", "jpg", "jpeg", "tif", "tiff",
];

/// What a listing found.
#[derive(Debug, Default)]
pub struct Listing {
    /// Readable files: the path relative to the folder (with `/`), and the real path.
    pub files: Vec<(String, PathBuf)>,
    /// Names left out: links, unknown extensions, past the caps.
    pub skipped: Vec<String>,
    /// Whether [`MAX_FILES`] cut the listing.
    pub capped: bool,
}

/// Lists `root` (a real, canonical folder), breadth first and sorted within each folder.
/// `agents` is paw's `.agents/` (its credentials are never listed). Blocking.
pub fn list(root: &Path, agents: &Path) -> std::io::Result<Listing> {
    let agents = agents.canonicalize().ok();
    let mut out = Listing::default();
    let mut queue = std::collections::VecDeque::from([(root.to_path_buf(), String::new(), 0)]);
    let skip = |out: &mut Listing, name: String| {
        if out.skipped.len() < MAX_SKIPPED {
            out.skipped.push(name);
        }
    };
    while let Some((dir, prefix, depth)) = queue.pop_front() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)?.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            let Ok(kind) = e.file_type() else { continue };
            let path = e.path();
            if is_secret(agents.as_deref(), &path) {
                continue;
            }
            if kind.is_symlink() {
                skip(&mut out, format!("{rel} (a symbolic link: not followed)"));
            } else if kind.is_dir() {
                if depth + 1 > MAX_DEPTH {
                    skip(
                        &mut out,
                        format!("{rel}/ (deeper than {MAX_DEPTH} folders)"),
                    );
                } else {
                    queue.push_back((path, format!("{rel}/"), depth + 1));
                }
            } else if kind.is_file() {
                let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
                if !ext.is_some_and(|e| READABLE.contains(&e.as_str())) {
                    skip(&mut out, format!("{rel} (not a format doc extract reads)"));
                } else if out.files.len() >= MAX_FILES {
                    out.capped = true;
                    skip(&mut out, format!("{rel} (past {MAX_FILES} files)"));
                } else {
                    out.files.push((rel, path));
                }
            }
        }
    }
    Ok(out)
}

/// Whether `path` is under `.agents/skills/*/secrets/`.
fn is_secret(agents: Option<&Path>, path: &Path) -> bool {
    let Some(inside) = agents.and_then(|a| path.strip_prefix(a).ok()) else {
        return false;
    };
    let mut parts = inside.components().map(|c| c.as_os_str());
    parts.next().is_some_and(|p| p == "skills") && parts.nth(1).is_some_and(|p| p == "secrets")
}

/// Reads one listed file: canonicalised again (it must still be inside `root`), opened
/// without following a final link, at most `cap` bytes. Blocking.
fn read_one(root: &Path, path: &Path, cap: u64) -> Result<Vec<u8>, CmdError> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let real = path
        .canonicalize()
        .map_err(|e| CmdError::new(ErrorCode::NotFound, format!("cannot open: {e}")))?;
    if !real.starts_with(root) {
        return Err(CmdError::new(
            ErrorCode::PathEscapesAgentsRoot,
            "the file now resolves outside the folder (a symlink out)",
        ));
    }
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&real)
        .map_err(|e| CmdError::new(ErrorCode::NotFound, format!("cannot open: {e}")))?;
    let mut bytes = Vec::new();
    f.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(CmdError::new(
            ErrorCode::ParseError,
            format!("larger than {} MiB", cap >> 20),
        ));
    }
    if bytes.is_empty() {
        return Err(CmdError::new(ErrorCode::ParseError, "empty"));
    }
    Ok(bytes)
}

/// One file's line in `index.json`.
#[derive(Debug, Serialize)]
struct Entry {
    /// The file, relative to the folder.
    #[serde(rename = "in")]
    input: String,
    /// Its output, relative to `--out` (absent when it failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pages: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chars: Option<usize>,
    /// Pictures written beside its output (`--images files`).
    #[serde(skip_serializing_if = "is_zero")]
    images: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<EntryError>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Debug, Serialize)]
struct EntryError {
    code: &'static str,
    message: String,
}

/// `index.json`.
#[derive(Debug, Serialize)]
struct Index {
    /// The folder read, as given.
    folder: String,
    mode: Mode,
    files: Vec<Entry>,
    skipped: Vec<String>,
}

/// The batch's reply.
#[derive(Debug, Serialize)]
struct Batch {
    ok: bool,
    command: &'static str,
    /// Files listed, read, failed.
    files: usize,
    read: usize,
    failed: usize,
    skipped: usize,
    index: String,
    warnings: Vec<String>,
}

impl crate::command::Reply for Batch {
    fn stdout(&self) -> String {
        let mut s = format!(
            "{} files: {} read, {} failed, {} skipped → {}\n",
            self.files, self.read, self.failed, self.skipped, self.index
        );
        for w in &self.warnings {
            s.push_str(&format!("warning: {w}\n"));
        }
        s
    }
}

/// What every file of the batch is read with.
pub struct Settings {
    pub format: Option<Format>,
    pub mode: Mode,
    pub max_chars: usize,
    pub pages: Option<(usize, usize)>,
    pub ocr_mode: paw_jobs::doc::OcrMode,
    pub ocr_lang: String,
    pub images: paw_jobs::doc::Images,
}

/// Runs the batch over `root` (the folder's real path), `input` as the agent wrote it.
pub async fn run(ctx: &Ctx, input: &str, root: PathBuf, out: &str, s: Settings) -> CmdResult {
    let dir = out.trim().trim_end_matches('/').to_string();
    let index_rel = format!("{dir}/index.json");
    crate::command::paths::resolve(ctx.home.agents(), &index_rel, true)?;
    let agents = ctx.home.agents().to_path_buf();
    let listed_root = root.clone();
    let listing = tokio::task::spawn_blocking(move || list(&listed_root, &agents))
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?
        .map_err(|e| {
            CmdError::new(
                ErrorCode::NotFound,
                format!("cannot list --in {input}: {e}"),
            )
        })?;
    let total = listing.files.len();
    let ext = match s.mode {
        Mode::Md => "md",
        Mode::Json => "json",
        Mode::Text => "txt",
    };
    let mut warnings = Vec::new();
    if listing.capped {
        warnings.push(format!(
            "more than {MAX_FILES} files: the rest are not read"
        ));
    }
    let mut entries = Vec::with_capacity(total);
    let mut artifacts = Vec::with_capacity(total + 1);
    let mut left = MAX_TOTAL_BYTES;
    let (mut read, mut failed) = (0, 0);
    for (i, (rel, path)) in listing.files.into_iter().enumerate() {
        ctx.progress(i, total, Some(&format!("reading {rel}")));
        let out_rel = format!("{rel}.{ext}");
        let answer = one(
            ctx,
            &root,
            &path,
            &rel,
            &format!("{dir}/{out_rel}"),
            &s,
            &mut left,
        )
        .await;
        match answer {
            Ok((info, arts)) => {
                read += 1;
                artifacts.extend(arts);
                entries.push(Entry {
                    input: rel,
                    out: Some(out_rel),
                    format: Some(info.format.as_str()),
                    pages: Some(info.pages),
                    chars: Some(info.chars),
                    images: info.images.len(),
                    warnings: info.warnings,
                    error: None,
                });
            }
            Err(e) => {
                failed += 1;
                entries.push(Entry {
                    input: rel,
                    out: None,
                    format: None,
                    pages: None,
                    chars: None,
                    images: 0,
                    warnings: Vec::new(),
                    error: Some(EntryError {
                        code: e.code.as_str(),
                        message: e.message,
                    }),
                });
            }
        }
    }
    ctx.progress(total, total, Some("writing the index"));
    let skipped = listing.skipped.len();
    let index = Index {
        folder: input.to_string(),
        mode: s.mode,
        files: entries,
        skipped: listing.skipped,
    };
    let bytes = serde_json::to_vec_pretty(&index)
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))?;
    let art = crate::command::out::write_bytes(
        ctx,
        &index_rel,
        bytes,
        "application/json",
        &format!("index of the documents in {input}"),
    )
    .await?;
    let reply = Batch {
        ok: true,
        command: "doc extract",
        files: total,
        read,
        failed,
        skipped,
        index: art.path.clone(),
        warnings,
    };
    artifacts.insert(0, art);
    Ok(Output::reply(&reply, artifacts).untrusted(format!("the documents in {input}")))
}

/// One file: read (within what is left of the batch's bytes), extracted in a worker,
/// written (with `--images files`, its pictures beside it).
async fn one(
    ctx: &Ctx,
    root: &Path,
    path: &Path,
    rel: &str,
    out: &str,
    s: &Settings,
    left: &mut u64,
) -> Result<(paw_jobs::doc::DocText, Vec<paw_proto::Artifact>), CmdError> {
    if *left == 0 {
        return Err(CmdError::new(
            ErrorCode::ParseError,
            format!(
                "not read: the batch already read {} MiB, its limit",
                MAX_TOTAL_BYTES >> 20
            ),
        ));
    }
    let cap = super::MAX_INPUT_BYTES.min(*left);
    let (root, path) = (root.to_path_buf(), path.to_path_buf());
    let bytes = tokio::task::spawn_blocking(move || read_one(&root, &path, cap))
        .await
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, e.to_string()))??;
    *left -= bytes.len() as u64;
    let format = s.format.or_else(|| super::fetch::by_name(rel, &bytes));
    let (link, folder) = super::figures::folder(out);
    let job = Extract {
        format,
        mode: s.mode,
        max_chars: s.max_chars,
        pages: s.pages,
        ocr: OcrJob {
            lang: s.ocr_lang.clone(),
            ..OcrJob::default()
        },
        password: None,
        also_text: false,
        images: s.images,
        images_dir: if s.images == paw_jobs::doc::Images::Files {
            link.clone()
        } else {
            String::new()
        },
    };
    let super::jobs::Extracted { info, text, images } =
        super::jobs::extract(&ctx.services.workers, bytes, job, s.ocr_mode).await?;
    let mime = match s.mode {
        Mode::Md => "text/markdown",
        Mode::Json => "application/json",
        Mode::Text => "text/plain",
    };
    let art = crate::command::out::write_bytes(
        ctx,
        out,
        text.into_bytes(),
        mime,
        &format!("text of {rel}"),
    )
    .await?;
    let (_, mut arts) = super::figures::write(ctx, &folder, images, rel).await?;
    arts.insert(0, art);
    Ok((info, arts))
}

#[cfg(test)]
mod tests;
