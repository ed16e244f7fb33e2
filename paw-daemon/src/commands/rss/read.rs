//! `rss read`: an article as its feed gave it, and on request its full text from
//! [`super::fulltext`]'s jobs (docs/commands.md `rss`, seed 003).

use std::time::Duration;

use paw_proto::ErrorCode;

use super::fulltext::{Extraction, Found, FullText};
use super::{fulltext_jobs, rss_store};
use crate::command::args::{clamp, parse};
use crate::command::{CmdError, CmdResult, Ctx, Output, Reply};
use paw_jobs::feed::Item;

/// The feed item `--name N --guid G` or `--link URL` names, if cached: its subscription's
/// name and URL, and the item.
async fn find_item(
    ctx: &Ctx,
    name: Option<&str>,
    guid: Option<&str>,
    link: Option<&str>,
) -> Result<Option<(String, String, Item)>, CmdError> {
    let subs = {
        let mut store = rss_store(&ctx.services).lock().await;
        match name {
            Some(n) => vec![store.state().require(n)?.clone()],
            None => store.state().subs.clone(),
        }
    };
    for sub in subs {
        let Some(feed) = rss_store(&ctx.services).cached(&sub.url).await else {
            continue;
        };
        let hit = feed.items.iter().find(|i| match (guid, link) {
            (Some(g), _) => i.guid == g,
            (None, Some(l)) => i.link.as_deref() == Some(l),
            _ => false,
        });
        if let Some(i) = hit {
            return Ok(Some((sub.name.clone(), sub.url.clone(), i.clone())));
        }
    }
    Ok(None)
}

/// one article as the feed gave it; --fulltext also fetches and extracts the page in the background
#[derive(clap::Parser)]
#[command(name = "rss read")]
#[command(group(clap::ArgGroup::new("item").required(true).args(["link", "name"])))]
pub struct Args {
    /// the article's link
    #[arg(long, value_name = "URL")]
    link: Option<String>,
    /// a subscription (name or title), with --guid
    #[arg(long, value_name = "N", requires = "guid")]
    name: Option<String>,
    /// the item's guid in that subscription
    #[arg(long, value_name = "G", requires = "name")]
    guid: Option<String>,
    /// extract the page's full text even when tools.rss.fulltext is off
    #[arg(long)]
    fulltext: bool,
    /// wait up to this many ms for the full text
    #[arg(long, value_name = "MS")]
    wait: Option<i64>,
    /// start the text at this character (paging a long article; default 0)
    #[arg(long, value_name = "N")]
    offset: Option<i64>,
    /// at most this many characters of text (default 20000, 100-200000)
    #[arg(long, value_name = "M")]
    max_chars: Option<i64>,
    /// md: also the article (and the feed's content) as Markdown, paged like the text
    #[arg(long, value_name = "text|md")]
    format: Option<String>,
}

/// Text characters one `rss read` answer carries by default: with the rest of the result,
/// well under a 25k-token host cap.
const PAGE_CHARS: i64 = 20_000;

/// The page of `text` from character `offset`, at most `max` characters: (page, total,
/// next offset while more remains).
fn page(text: &str, offset: usize, max: usize) -> (String, usize, Option<usize>) {
    let total = text.chars().count();
    let start = offset.min(total);
    let page: String = text.chars().skip(start).take(max).collect();
    let end = start + page.chars().count();
    (page, total, (end < total).then_some(end))
}

/// Runs `rss read`.
pub async fn run(ctx: &Ctx, args: &[String]) -> CmdResult {
    let a: Args = parse(args)?;
    let wait = clamp(a.wait, 0, 0, i64::MAX) as u64;
    let offset = clamp(a.offset, 0, 0, i64::MAX) as usize;
    let max_chars = clamp(a.max_chars, PAGE_CHARS, 100, 200_000) as usize;
    let markdown = match a.format.as_deref() {
        None | Some("text") => false,
        Some("md") => true,
        Some(other) => {
            return Err(CmdError::invalid_args(format!(
                "--format must be text or md, not {other:?}"
            )));
        }
    };
    let (source, feed, item, link) = match (a.link.as_deref(), a.name.as_deref(), a.guid.as_deref())
    {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(CmdError::invalid_args(
                "give --link, or --name with --guid, not both",
            ));
        }
        (Some(l), None, None) => {
            let link = super::add::check_url(l)?;
            match find_item(ctx, None, None, Some(&link)).await? {
                Some((s, u, i)) => (Some(s), Some(u), Some(i), link),
                None => (None, None, None, link),
            }
        }
        (None, Some(n), Some(g)) => {
            let Some((s, u, i)) = find_item(ctx, Some(n), Some(g), None).await? else {
                return Err(CmdError::new(
                    ErrorCode::NotFound,
                    format!(
                        "no cached item with guid {g:?} in {n}; run `rss fetch --name {n}` first"
                    ),
                ));
            };
            let Some(link) = i.link.clone() else {
                return Err(CmdError::new(
                    ErrorCode::NotFound,
                    format!("item {g:?} of {n} has no link to read"),
                ));
            };
            (Some(s), Some(u), Some(i), link)
        }
        (None, _, _) => {
            return Err(CmdError::invalid_args(
                "missing required flag: --link, or --name with --guid",
            ));
        }
    };

    // The cached item's raw HTML is untrusted: sanitised and rendered in a worker.
    let (item, item_text) = match item {
        Some(i) => {
            let (mut items, mut texts) = super::jobs::render(
                &ctx.services.workers,
                vec![i],
                paw_jobs::feed::Form::FullText,
            )
            .await?;
            (items.pop(), texts.pop().flatten())
        }
        None => (None, None),
    };
    let mut reply = ReadReply {
        ok: true,
        command: "rss read",
        link: link.clone(),
        source,
        title: None,
        guid: None,
        published_at: None,
        content_html: None,
        content_text: None,
        fulltext_status: "disabled",
        full: None,
        total_chars: None,
        offset: None,
        next_offset: None,
        content_markdown: None,
        content_full_markdown: None,
        total_markdown_chars: None,
    };
    if let Some(i) = item {
        reply.title = i.title;
        reply.guid = Some(i.guid);
        reply.published_at = i.published_at;
        if let Some(h) = i.content_html {
            reply.content_html = Some(h);
            reply.content_text = Some(item_text.unwrap_or_default());
        } else {
            reply.content_text = i.summary;
        }
    }

    let cfg = &ctx.config.tools.rss.fulltext;
    let (status, record) = if !(cfg.enabled || a.fulltext) {
        ("disabled", None)
    } else {
        let backoff = Duration::from_secs(cfg.failure_backoff_secs);
        match fulltext_jobs(&ctx.services)
            .find_or_start(&ctx.services, &link, feed, backoff)
            .await
        {
            Found::Done(r) => (status_of(&r), Some(r)),
            Found::Pending(mut rx) => {
                if wait > 0 {
                    tokio::select! {
                        _ = rx.wait_for(Option::is_some) => {}
                        _ = tokio::time::sleep(Duration::from_millis(wait)) => {}
                        _ = ctx.cancel.cancelled() => {}
                    }
                }
                let done = rx.borrow().clone();
                match done {
                    Some(r) => (status_of(&r), Some(r)),
                    None => ("pending", None),
                }
            }
        }
    };
    reply.fulltext_status = status;
    let mut warnings = Vec::new();
    // A linked document's Markdown comes from its reader, kept in the record.
    let mut doc_markdown = None;
    if let Some(r) = record {
        doc_markdown = r.markdown.clone();
        // The feed item's title when there is one, else the article's own (its heading).
        if reply.title.is_none() {
            reply.title = r.title.clone();
        }
        reply.full = Some(r.full.clone());
        warnings.extend(r.warning.clone());
    }
    if markdown {
        // Sanitised HTML, still rendered in a worker (a parse of page-derived markup).
        let full_html = reply
            .full
            .as_ref()
            .and_then(|f| f.content_full_html.clone());
        let html: Vec<String> = [full_html.clone(), reply.content_html.clone()]
            .into_iter()
            .flatten()
            .collect();
        let mut md = super::jobs::markdown(&ctx.services.workers, html)
            .await?
            .into_iter();
        if full_html.is_some() {
            reply.content_full_markdown = md.next();
        } else if doc_markdown.is_some() {
            reply.content_full_markdown = doc_markdown;
        }
        if reply.content_html.is_some() {
            reply.content_markdown = md.next();
        }
    }
    reply.paginate(offset, max_chars);
    let source = format!("the article {}", reply.link);
    let mut out = Output::reply(&reply, Vec::new()).untrusted(source);
    warnings.extend(fulltext_jobs(&ctx.services).take_warnings());
    out.add_warnings(warnings);
    Ok(out)
}

/// `rss read`'s result: the article as the feed gave it, and its full text when there is.
#[derive(serde::Serialize)]
struct ReadReply {
    ok: bool,
    command: &'static str,
    link: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    published_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_html: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_text: Option<String>,
    fulltext_status: &'static str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    full: Option<FullText>,
    /// Characters of the text paged (the full text when ready, else the feed's).
    #[serde(skip_serializing_if = "Option::is_none")]
    total_chars: Option<usize>,
    /// Where this page starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<usize>,
    /// Where the next page starts, while more remains (`--offset` it).
    #[serde(skip_serializing_if = "Option::is_none")]
    next_offset: Option<usize>,
    /// `--format md`: the feed's content as Markdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    content_markdown: Option<String>,
    /// `--format md`: the article as Markdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    content_full_markdown: Option<String>,
    /// `--format md`: characters of the Markdown paged (the article's when ready, else the
    /// feed content's); it is paged with the same `--offset` and `--max-chars`.
    #[serde(skip_serializing_if = "Option::is_none")]
    total_markdown_chars: Option<usize>,
}

impl ReadReply {
    /// Cuts the text to one page; when a page is not the whole text, the HTML twin goes
    /// (it would repeat the text in markup).
    fn paginate(&mut self, offset: usize, max: usize) {
        let md = if self.content_full_markdown.is_some() {
            self.content_full_markdown.as_mut()
        } else {
            self.content_markdown.as_mut()
        };
        let mut md_next = None;
        if let Some(m) = md {
            let (p, total, next) = page(m, offset, max);
            *m = p;
            self.total_markdown_chars = Some(total);
            md_next = next;
        }
        let full = self.full.as_mut().filter(|f| f.content_full_text.is_some());
        let (text, html) = match full {
            Some(f) => (&mut f.content_full_text, &mut f.content_full_html),
            None => (&mut self.content_text, &mut self.content_html),
        };
        let Some(t) = text.as_mut() else {
            return;
        };
        let (p, total, next) = page(t, offset, max);
        if offset > 0 || next.is_some() {
            *t = p;
            *html = None;
        }
        self.total_chars = Some(total);
        self.offset = Some(offset.min(total));
        self.next_offset = next.or(md_next);
    }
}

impl Reply for ReadReply {
    fn stdout(&self) -> String {
        let mut s = String::new();
        if let Some(t) = &self.title {
            s.push_str(&format!("{t}\n"));
        }
        s.push_str(&format!(
            "{}\nfull text: {}\n",
            self.link, self.fulltext_status
        ));
        let full = self.full.as_ref();
        if let Some(e) = full.and_then(|f| f.content_full_error.as_ref()) {
            s.push_str(&format!("full text failed: {e}\n"));
        }
        let body = self
            .content_full_markdown
            .as_ref()
            .or(self.content_markdown.as_ref())
            .or(full.and_then(|f| f.content_full_text.as_ref()))
            .or(self.content_text.as_ref());
        if let Some(b) = body.filter(|b| !b.is_empty()) {
            s.push('\n');
            s.push_str(b);
            s.push('\n');
        }
        if let (Some(next), Some(total)) = (self.next_offset, self.total_chars) {
            s.push_str(&format!(
                "\n[{next} of {total} characters; more with --offset {next}]\n"
            ));
        }
        s
    }
}

fn status_of(r: &Extraction) -> &'static str {
    if r.status == "ready" {
        "ready"
    } else {
        "failed"
    }
}

#[cfg(test)]
mod tests;
