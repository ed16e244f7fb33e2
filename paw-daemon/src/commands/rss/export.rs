//! `rss export`: the subscriptions as OPML 2.0, each category a folder ([`write`]; writing
//! trusted data, so in the daemon).

use paw_proto::ErrorCode;

use super::rss_store;
use super::store::Subscription;
use crate::command::args::parse;
use crate::command::out::write_bytes;
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};

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
    let xml = write(&subs)
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

/// The subscriptions as an OPML 2.0 document: a subscription with a category sits in its
/// folder (`Tech/Rust`: the folder `Rust` inside `Tech`), folders in the order their first
/// subscription comes.
pub fn write(subs: &[Subscription]) -> Result<String, String> {
    let mut doc = opml::OPML {
        version: "2.0".into(),
        head: Some(opml::Head {
            title: Some("paw subscriptions".into()),
            ..opml::Head::default()
        }),
        ..opml::OPML::default()
    };
    for s in subs {
        let feed = opml::Outline {
            text: s.title.clone().unwrap_or_else(|| s.name.clone()),
            title: s.title.clone(),
            r#type: Some("rss".into()),
            xml_url: Some(s.url.clone()),
            ..opml::Outline::default()
        };
        let mut level = &mut doc.body.outlines;
        for folder in s.category.iter().flat_map(|c| c.split('/')) {
            let at = match level
                .iter()
                .position(|o| o.xml_url.is_none() && o.text == folder)
            {
                Some(i) => i,
                None => {
                    level.push(opml::Outline {
                        text: folder.to_string(),
                        title: Some(folder.to_string()),
                        ..opml::Outline::default()
                    });
                    level.len() - 1
                }
            };
            level = &mut level[at].outlines;
        }
        level.push(feed);
    }
    doc.to_string().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests;
