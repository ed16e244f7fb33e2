//! `rss export`: the subscriptions as OPML 2.0 ([`super::opml_io::write`]).

use paw_proto::ErrorCode;

use super::rss_store;
use crate::commands::args::parse;
use crate::commands::out::write_bytes;
use crate::commands::{CmdError, CmdResult, Ctx, Output, Reply};

/// write the subscriptions as OPML 2.0
#[derive(clap::Parser)]
#[command(name = "rss export")]
pub struct Args {
    /// the OPML file to write, under .agents/
    #[arg(long, value_name = "P")]
    out: String,
}

/// Runs `rss export`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let rel = a.out.as_str();
    let subs = rss_store(&ctx.services).lock().await.state().subs.clone();
    let xml = super::opml_io::write(&subs)
        .map_err(|e| CmdError::new(ErrorCode::CommandFailed, format!("cannot write OPML: {e}")))?;
    let artifact = write_bytes(
        ctx,
        rel,
        xml.into_bytes(),
        "text/x-opml",
        "subscriptions as OPML 2.0",
    )
    .await?;
    let reply = Exported {
        ok: true,
        command: "rss export",
        count: subs.len(),
        out: artifact.path.clone(),
    };
    Ok(Output::reply(&reply, vec![artifact]))
}

/// `rss export`'s result.
#[derive(serde::Serialize)]
struct Exported {
    ok: bool,
    command: &'static str,
    count: usize,
    out: String,
}

impl Reply for Exported {
    fn stdout(&self) -> String {
        format!("Exported {} feeds to {}\n", self.count, self.out)
    }
}
