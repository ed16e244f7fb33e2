//! The `rss` jobs' work: feeds parsed, items rendered, pages' articles extracted, feeds
//! discovered in pages, OPML files read, HTML turned into Markdown.

use paw_jobs::JobFailure;
use paw_jobs::feed::{
    Discover, Extract, ExtractReply, FeedOutcome, FeedReply, Feeds, Form, MAX_OPML_FEEDS, Markdown,
    Opml, ParsedFeed, Render, Rendered,
};
use paw_readers::charset;
use paw_readers::feed::{discover, opml, parse::parse_feed, render};
use paw_readers::page::extract;
use paw_readers::text;

use crate::{Run, utf8};

impl Run for Feeds {
    fn run(self, input: Vec<u8>) -> Result<(Vec<FeedOutcome>, Vec<u8>), JobFailure> {
        let mut rest = input.as_slice();
        let mut out = Vec::with_capacity(self.feeds.len());
        for f in self.feeds {
            let (body, tail) = rest.split_at(f.len.min(rest.len()));
            rest = tail;
            // A feed that kills its worker, for the batch-isolation test.
            #[cfg(feature = "test-commands")]
            if body == paw_jobs::feed::TEST_CRASH_FEED {
                std::process::abort();
            }
            let base = f.base.and_then(|b| url::Url::parse(&b).ok());
            out.push(
                match parse_feed(body, f.content_type.as_deref(), base.as_ref()) {
                    Ok(ParsedFeed {
                        title,
                        ttl_minutes,
                        items,
                    }) => FeedOutcome::Parsed(FeedReply {
                        title,
                        ttl_minutes,
                        published_ms: items.iter().map(|i| i.published_ms).collect(),
                        items,
                    }),
                    Err(e) => FeedOutcome::Failed(JobFailure::parse(e.0)),
                },
            );
        }
        Ok((out, Vec::new()))
    }
}

impl Run for Render {
    fn run(self, _: Vec<u8>) -> Result<(Rendered, Vec<u8>), JobFailure> {
        let mut texts = Vec::new();
        let items = self
            .items
            .iter()
            .map(|i| match self.form {
                Form::Brief => render::brief(i),
                Form::Full => render::full(i),
                Form::FullText => {
                    let full = render::full(i);
                    texts.push(full.content_html.as_deref().map(extract::plain_text));
                    full
                }
            })
            .collect();
        Ok((Rendered { items, texts }, Vec::new()))
    }
}

impl Run for Extract {
    fn run(self, input: Vec<u8>) -> Result<(ExtractReply, Vec<u8>), JobFailure> {
        let u = url::Url::parse(&self.url)
            .map_err(|e| JobFailure::parse(format!("bad page url: {e}")))?;
        let x = extract::extract(
            &charset::decode_cow(&input, self.content_type.as_deref()),
            &u,
        )
        .map_err(JobFailure::parse)?;
        let html_len = x.html.len();
        let mut bytes = x.html.into_bytes();
        bytes.extend_from_slice(x.text.as_bytes());
        Ok((
            ExtractReply {
                title: x.title,
                html_len,
                warning: x.warning,
            },
            bytes,
        ))
    }
}

impl Run for Discover {
    fn run(self, input: Vec<u8>) -> Result<(Option<String>, Vec<u8>), JobFailure> {
        let url = url::Url::parse(&self.base).ok().and_then(|b| {
            discover::discover_feed(&charset::decode(&input, self.content_type.as_deref()), &b)
        });
        Ok((url, Vec::new()))
    }
}

impl Run for Markdown {
    fn run(self, _: Vec<u8>) -> Result<(Vec<String>, Vec<u8>), JobFailure> {
        let md = self.html.iter().map(|h| text::markdown(h)).collect();
        Ok((md, Vec::new()))
    }
}

impl Run for Opml {
    fn run(self, input: Vec<u8>) -> Result<(Self::Reply, Vec<u8>), JobFailure> {
        let feeds = opml::feeds_of(&utf8(input), MAX_OPML_FEEDS).map_err(JobFailure::parse)?;
        Ok((feeds, Vec::new()))
    }
}
