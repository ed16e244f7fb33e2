//! `doc tables` (docs/commands.md): every table of a document as its own CSV (RFC 4180),
//! TSV or JSON file. The tables are found and written out in a worker
//! (`paw_readers::doc::tables`); the daemon writes the files it answers with.

use paw_jobs::doc::TableFormat;
use serde::Serialize;

use super::{page_range, read_input};
use crate::command::args::parse;
use crate::command::{CmdError, CmdResult, Ctx, Output};

/// write every table of a document as its own CSV, TSV or JSON file
#[derive(clap::Parser)]
#[command(name = "doc tables")]
pub struct TablesArgs {
    /// the document, under .agents/ (or a folder listed in tools.doc.read_dirs)
    #[arg(long = "in", value_name = "P")]
    input: String,
    /// the folder to write the tables into, under .agents/
    #[arg(long, value_name = "D")]
    out_dir: String,
    /// each table's file format (default csv: RFC 4180)
    #[arg(long, value_name = "csv|tsv|json")]
    format: Option<String>,
    /// only the tables of these pages, slides or sheets, numbered from 1 (e.g. 3-5, or 4)
    #[arg(long, value_name = "A-B")]
    pages: Option<String>,
}

/// `doc tables`' result.
#[derive(Serialize)]
struct Written {
    ok: bool,
    command: &'static str,
    format: &'static str,
    tables: Vec<Written1>,
    warnings: Vec<String>,
}

/// One table written.
#[derive(Serialize)]
struct Written1 {
    path: String,
    page: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    rows: usize,
    cols: usize,
}

impl crate::command::Reply for Written {
    fn stdout(&self) -> String {
        let mut s = format!("{}: {} tables\n", self.format, self.tables.len());
        for t in &self.tables {
            s.push_str(&format!(
                "{} ({} rows × {} cols, {})\n",
                t.path,
                t.rows,
                t.cols,
                t.label
                    .clone()
                    .unwrap_or_else(|| format!("page {}", t.page))
            ));
        }
        for w in &self.warnings {
            s.push_str(&format!("warning: {w}\n"));
        }
        s
    }
}

/// `doc tables --in P --out-dir D [--format csv|tsv|json] [--pages A-B]`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: TablesArgs = parse(args)?;
    let to = match a.format.as_deref().unwrap_or("csv") {
        "csv" => TableFormat::Csv,
        "tsv" => TableFormat::Tsv,
        "json" => TableFormat::Json,
        other => {
            return Err(CmdError::invalid_args(format!(
                "--format must be csv, tsv or json, got {other:?}"
            )));
        }
    };
    let pages = a.pages.as_deref().map(page_range).transpose()?;
    let dir = a.out_dir.trim().trim_end_matches('/');
    // Checked before reading anything: a bad --out-dir must not cost a parse.
    crate::command::paths::resolve(ctx.home.agents(), &format!("{dir}/x.{}", to.ext()), true)?;
    let bytes = read_input(ctx, &a.input).await?;
    ctx.progress(1, 3, Some("read; finding tables in a worker"));
    let job = paw_jobs::doc::Tables {
        format: super::fetch::by_name(&a.input, &bytes),
        to,
        pages,
    };
    let found = super::jobs::tables(&ctx.services.workers, &bytes, job).await?;
    ctx.progress(
        2,
        3,
        Some(&format!("{} tables found; writing", found.files.len())),
    );
    let mut artifacts = Vec::with_capacity(found.files.len());
    let mut tables = Vec::with_capacity(found.files.len());
    for (t, content) in found.files {
        let what = format!("table {} of {}", tables.len() + 1, a.input);
        let art = crate::command::out::write_bytes(
            ctx,
            &format!("{dir}/{}", t.name),
            content,
            to.mime(),
            &what,
        )
        .await?;
        tables.push(Written1 {
            path: art.path.clone(),
            page: t.page,
            label: t.label,
            rows: t.rows,
            cols: t.cols,
        });
        artifacts.push(art);
    }
    ctx.progress(3, 3, Some("written"));
    let reply = Written {
        ok: true,
        command: "doc tables",
        format: found.format.as_str(),
        tables,
        warnings: found.warnings,
    };
    let source = format!("the document {}", a.input);
    Ok(Output::reply(&reply, artifacts).untrusted(source))
}
