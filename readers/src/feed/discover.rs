//! Feed discovery (the worker side of `rss add` given a page): the feed a page
//! advertises.

/// The first feed an HTML page advertises with `<link rel="alternate">`, made absolute.
pub fn discover_feed(html: &str, base: &url::Url) -> Option<String> {
    // A page too deep to build a tree of in linear time advertises nothing paw reads.
    if !crate::page::shape::buildable(html) {
        return None;
    }
    let doc = scraper::Html::parse_document(html);
    let sel = scraper::Selector::parse("link[rel][href]").ok()?;
    doc.select(&sel).find_map(|l| {
        let v = l.value();
        let rel = v.attr("rel")?.to_ascii_lowercase();
        let ty = v.attr("type").unwrap_or("").to_ascii_lowercase();
        let is_feed = rel.split_whitespace().any(|r| r == "alternate")
            && (ty.contains("rss")
                || ty.contains("atom")
                || ty.contains("feed+json")
                || ty == "application/json");
        if !is_feed {
            return None;
        }
        base.join(v.attr("href")?.trim())
            .ok()
            .map(|u| u.to_string())
    })
}
