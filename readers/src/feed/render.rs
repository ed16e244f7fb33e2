//! Items rendered for handing out (the worker side of `rss fetch`/`news`/`read`): the
//! summary made from its source, `content_html` sanitised.

use paw_jobs::feed::Item;

use crate::text;

fn rendered_summary(item: &Item) -> Option<String> {
    item.summary.clone().or_else(|| {
        item.summary_source
            .as_deref()
            .map(text::summary)
            .filter(|s| !s.is_empty())
    })
}

/// The seed's six fields only, the summary rendered from its source.
pub fn brief(item: &Item) -> Item {
    Item {
        summary: rendered_summary(item),
        ..item.brief()
    }
}

/// The full form handed to users: the summary rendered, `content_html` sanitised, the raw
/// body dropped.
pub fn full(item: &Item) -> Item {
    let base = item
        .content_base
        .as_deref()
        .and_then(|b| url::Url::parse(b).ok());
    let content_html = item
        .content_html
        .clone()
        .or_else(|| {
            item.content_raw
                .as_deref()
                .map(|h| text::sanitize(h, base.as_ref()))
        })
        .filter(|h| !h.trim().is_empty());
    Item {
        summary: rendered_summary(item),
        content_html,
        ..item.full()
    }
}
