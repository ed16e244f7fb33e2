//! What kind of page a page is (docs/commands.md, `rss read`): an article, a forum thread, a
//! product, a listing of many items, a piece of documentation or a service page, decided
//! from the page itself before any extraction changes its tree — the types its JSON-LD
//! declares, its URL's path, and its structure (repeated posts, code blocks) — so the
//! extractor reads each as a reader would: every post of a thread, every card of a
//! listing, every section of a service page.
//!
//! Bounded whatever the page: at most [`MAX_SCRIPTS`] JSON-LD scripts of at most
//! [`MAX_SCRIPT_BYTES`] each are parsed (serde_json's own nesting limit applies), and the
//! structural counts are one pass over the tree.

use dom_query::Document;
use serde_json::Value;
use url::Url;

use super::tree::{self, Edge, contains_ignore_case};

/// The kinds of page read differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One running text: Readability's article.
    Article,
    /// A thread: every post is content.
    Forum,
    /// One product: name, price, description, specifications.
    Product,
    /// Many items (a category, a search result, an index): every card.
    Listing,
    /// Technical documentation: code blocks kept, sidebars out.
    Documentation,
    /// A service or landing page: hero, features, pricing and FAQ sections.
    Service,
}

/// JSON-LD scripts read on one page.
const MAX_SCRIPTS: usize = 16;
/// A JSON-LD script larger than this is not parsed (a product catalogue's is rarely this
/// large; a hostile one may be anything).
const MAX_SCRIPT_BYTES: usize = 256 << 10;
/// Values visited in one script's JSON when looking for its types.
const MAX_VALUES: usize = 4096;

/// What a page's JSON-LD says: its declared types, and the longest `articleBody` (the
/// fallback text of a page with no readable tree).
#[derive(Debug, Default)]
pub struct LinkedData {
    /// `@type` values, lower-cased.
    pub types: Vec<String>,
    /// The longest `articleBody` or `text` of an article or posting.
    pub body: Option<String>,
}

/// Reads the page's JSON-LD scripts (bounded: see the module's docs).
pub fn linked_data(doc: &Document) -> LinkedData {
    let mut ld = LinkedData::default();
    // `script[type='application/ld+json']` (the type in any case), tested by hand.
    for s in doc
        .root()
        .descendants_it()
        .filter(|n| {
            n.has_name("script")
                && n.attr("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("application/ld+json"))
        })
        .take(MAX_SCRIPTS)
    {
        let text = s.text();
        if text.len() > MAX_SCRIPT_BYTES {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(text.trim()) else {
            continue;
        };
        let mut stack: Vec<&Value> = vec![&v];
        let mut seen = 0;
        while let Some(v) = stack.pop() {
            seen += 1;
            if seen > MAX_VALUES {
                break;
            }
            match v {
                Value::Array(a) => stack.extend(a.iter()),
                Value::Object(o) => {
                    match o.get("@type") {
                        Some(Value::String(t)) => note_type(&mut ld.types, t),
                        Some(Value::Array(a)) => {
                            for t in a.iter().filter_map(Value::as_str) {
                                note_type(&mut ld.types, t);
                            }
                        }
                        _ => {}
                    }
                    for key in ["articleBody", "text"] {
                        if let Some(Value::String(b)) = o.get(key)
                            && ld.body.as_ref().is_none_or(|h| h.len() < b.len())
                        {
                            ld.body = Some(b.clone());
                        }
                    }
                    stack.extend(
                        o.iter()
                            .filter(|(k, _)| *k != "articleBody" && *k != "text")
                            .map(|(_, x)| x),
                    );
                }
                _ => {}
            }
        }
    }
    ld
}

/// Types kept per page (a catalogue's JSON-LD may name thousands).
const MAX_TYPES: usize = 64;

fn note_type(types: &mut Vec<String>, t: &str) {
    let t = t.to_ascii_lowercase();
    if types.len() < MAX_TYPES && !types.contains(&t) {
        types.push(t);
    }
}

/// Counts over the page's tree that tell kinds apart.
#[derive(Debug, Default)]
struct Signals {
    /// Elements whose class or id names a post or message (a thread's posts).
    posts: usize,
    /// `pre` blocks (code).
    code: usize,
    /// `section` elements.
    sections: usize,
    /// `article` elements.
    articles: usize,
    /// `h2` headings (a landing page's sections).
    h2: usize,
    /// Of them, those inside the page's chrome: a `nav`, `aside`, `header` or `footer`, or
    /// a box its id names the layout's sidebar, navigation, menu or footer (a blog's
    /// widgets' titles).
    h2_chrome: usize,
    /// `time` elements and elements whose class or id names an author or a date: a
    /// dated, signed text.
    signed: usize,
    /// Elements of class `comment` (a reader's comment).
    comments: usize,
    /// Elements that show a price or take an order: a class or id word `price` or
    /// `cart`, or microdata's `price` and `offers`.
    priced: usize,
    /// Elements of microdata type schema.org `Product` (`itemtype`).
    products: usize,
    /// Characters (no whitespace) of the paragraphs (`p`) outside any element whose
    /// class or id names comments: a post's own text beside its readers'.
    prose: usize,
}

fn signals(doc: &Document) -> Signals {
    let mut s = Signals::default();
    // The comments' element open now (the outermost), and the paragraphs open now.
    let (mut comments, mut paragraphs) = (None, 0usize);
    let mut chrome = None;
    for edge in tree::edges(&doc.root()) {
        let n = match edge {
            Edge::Open(n) => n,
            Edge::Close(n) => {
                if chrome == Some(n.id) {
                    chrome = None;
                }
                if comments == Some(n.id) {
                    comments = None;
                } else if n.has_name("p") {
                    paragraphs = paragraphs.saturating_sub(1);
                }
                continue;
            }
        };
        if paragraphs > 0 && comments.is_none() {
            // A text node's characters read in place (`text()` copies them).
            let text = n.query_or(None, |t| match &t.data {
                dom_query::NodeData::Text { contents } => Some(tree::nonspace(contents)),
                _ => None,
            });
            if let Some(chars) = text {
                s.prose += chars;
                continue;
            }
        }
        // The element's name and attributes read in place, once: reading each attribute
        // looks the node up and copies the value.
        tree::element(&n, |el| {
            match el.name {
                "pre" => s.code += 1,
                "section" => s.sections += 1,
                "article" => s.articles += 1,
                "h2" => s.h2 += 1,
                "time" => s.signed += 1,
                _ => {}
            }
            let (mut post, mut signed, mut priced) = (false, false, false);
            // A class or id naming comments (`commentlist`, `comments`, `comment-body`).
            let mut about_comments = false;
            for (name, v) in el.attrs() {
                match name {
                    name @ ("class" | "id") => {
                        post |= post_named(v);
                        signed |= signature_named(v);
                        priced |= price_named(v);
                        let named = contains_ignore_case(v, b"comment");
                        about_comments |= named;
                        if name == "class"
                            && named
                            && v.split_ascii_whitespace()
                                .any(|w| w.eq_ignore_ascii_case("comment"))
                        {
                            s.comments += 1;
                        }
                    }
                    "itemprop" => {
                        priced |=
                            v.eq_ignore_ascii_case("price") || v.eq_ignore_ascii_case("offers");
                    }
                    "itemtype" => s.products += usize::from(product_type(v)),
                    _ => {}
                }
            }
            if chrome.is_none()
                && (["nav", "aside", "header", "footer"].contains(&el.name)
                    || tree::layout_chrome(el))
            {
                chrome = Some(n.id);
            }
            if el.name == "h2" && (chrome.is_some() || widget_title(el)) {
                s.h2_chrome += 1;
            }
            s.posts += usize::from(post);
            s.signed += usize::from(signed);
            s.priced += usize::from(priced);
            if el.name == "p" {
                paragraphs += 1;
            } else if comments.is_none() && about_comments {
                comments = Some(n.id);
            }
        });
    }
    s
}

/// Whether a class or an id has one of `words` (any case) among its words, split at
/// whitespace, `-` and `_`.
fn has_word(v: &str, words: &[&str]) -> bool {
    v.split(|c: char| c.is_ascii_whitespace() || c == '-' || c == '_')
        .any(|w| words.iter().any(|p| w.eq_ignore_ascii_case(p)))
}

/// Whether a class or an id names one post of a thread.
fn post_named(v: &str) -> bool {
    has_word(
        v,
        &[
            "post",
            "message",
            "reply",
            "topic-post",
            "postbody",
            "comment-body",
        ],
    )
}

/// Whether a class or an id shows a price or takes an order ([`Signals::priced`]).
fn price_named(v: &str) -> bool {
    (contains_ignore_case(v, b"price") || contains_ignore_case(v, b"cart"))
        && has_word(v, &["price", "cart"])
}

/// Whether a microdata `itemtype` is schema.org's `Product` (its first URL, any scheme).
fn product_type(t: &str) -> bool {
    t.split_ascii_whitespace().next().is_some_and(|u| {
        u.rsplit_once("schema.org/")
            .is_some_and(|(_, name)| name.eq_ignore_ascii_case("product"))
    })
}

/// Whether a class or an id names an author or a date (`author`, `post-author`,
/// `authorName`, `date`, `pubdate`, `updated`).
fn signature_named(v: &str) -> bool {
    contains_ignore_case(v, b"author") || contains_ignore_case(v, b"date")
}

/// Path words that name a kind of page.
fn by_url(url: &Url) -> Option<Kind> {
    let path = url.path().to_ascii_lowercase();
    let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let has = |words: &[&str]| segs.iter().any(|s| words.contains(s));
    // A topic's own page (`/topic/software`, `/topics/machine-learning`): its index. A
    // thread's id opens its name (Invision's `/topic/1103020-payment-issues/`).
    if segs.len() == 2
        && ["topic", "topics"].contains(&segs[0])
        && !segs[1].bytes().any(|b| b.is_ascii_digit())
    {
        return Some(Kind::Listing);
    }
    if host.starts_with("forum")
        || host.starts_with("community")
        || host.starts_with("discuss")
        || has(&[
            "forum",
            "forums",
            "thread",
            "threads",
            "topic",
            "topics",
            "questions",
            "discussion",
            "discussions",
            "showthread.php",
            "viewtopic.php",
            "t",
            "comments",
        ])
    {
        return Some(Kind::Forum);
    }
    if host.starts_with("docs.")
        || host.starts_with("developer")
        || has(&[
            "docs",
            "doc",
            "documentation",
            "api",
            "reference",
            "manual",
            "guide",
            "guides",
            "tutorial",
            "wiki",
        ])
    {
        return Some(Kind::Documentation);
    }
    if has(&["product", "products", "p", "dp", "item", "itm"]) {
        return Some(Kind::Product);
    }
    // What a firm offers (`/services/seo/`, `/what-we-do/capabilities/`): its sections.
    if has(&[
        "services",
        "service",
        "what-we-do",
        "capabilities",
        "solutions",
        "expertise",
    ]) {
        return Some(Kind::Service);
    }
    // A section's own page (`/news`, `/blog/`, `/about/in-the-news/`,
    // `/sections/science/`): its index of entries, not one of them.
    if (segs.len() == 2 && segs[0] == "sections")
        || segs.len() <= 2
            && segs.last().is_some_and(|l| {
                [
                    "news",
                    "blog",
                    "press",
                    "events",
                    "articles",
                    "stories",
                    "insights",
                    "updates",
                    "publications",
                    "media",
                    "in-the-news",
                    "reviews",
                    "testimonials",
                    "resources",
                    "posts",
                    "newsroom",
                ]
                .contains(l)
            })
    {
        return Some(Kind::Listing);
    }
    if has(&[
        "category",
        "categories",
        "collections",
        "collection",
        "shop",
        "c",
        "tag",
        "tags",
        "search",
        "browse",
        "catalog",
    ]) {
        return Some(Kind::Listing);
    }
    None
}

/// A page of at least this many `section`s, no `article` and a short path is a service
/// or landing page.
const SERVICE_SECTIONS: usize = 4;

/// A page of at least this many `h2` headings, no date and no author that does not call
/// itself an article is a service or landing page.
const SERVICE_HEADINGS: usize = 3;

/// Elements of class `comment` on a page whose URL says nothing of its kind that make it a
/// thread ([`kind`]).
const THREAD_COMMENTS: usize = 10;

/// Characters (no whitespace) of paragraphs outside the comments from which a page of
/// [`THREAD_COMMENTS`] comments is a post with its readers' comments, not a thread: a
/// blog's post is longer than a thread's opening link and lines (measured on Dragnet's
/// blogs and WCXB's threads: docs/benchmarks.md, "Posts and their comments").
const POST_PROSE: usize = 1_000;

/// Whether the URL's path has a year of its own (`/2008/09/lean-startup.html`).
fn dated(url: &Url) -> bool {
    url.path().split('/').any(|w| {
        w.len() == 4
            && (w.starts_with("19") || w.starts_with("20"))
            && w.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Whether the URL's path is at most one segment deep (a site's own pages: `/pricing`).
fn shallow(url: &Url) -> bool {
    url.path().split('/').filter(|s| !s.is_empty()).count() <= 1
}

/// Whether the page calls itself an article: its OpenGraph type (`<meta
/// property="og:type">`) is `article`. A page that does not, and whose repeated cards
/// hold half its text, is read as a listing even when its structure looks like an
/// article's (`extract::or_cards`).
pub fn calls_itself_article(doc: &Document) -> bool {
    og_type_is(doc, &["article"]) && !archive(doc)
}

/// Whether the page's title (its `<title>` or its `og:title`) names it an archive: its
/// first part (before the site's name, after ` - `, ` | `, ` – ` or ` — `) is two words or
/// more ending in `Archives` — WordPress's title for a category's or tag's page of posts,
/// which its SEO plugins tag `og:type` `article` as they tag a post.
fn archive(doc: &Document) -> bool {
    let root = doc.root();
    let title = tree::first_element(&root, |n| n.has_name("title")).map(|t| t.text());
    let og = tree::first_element(&root, |n| {
        n.has_name("meta") && n.attr("property").is_some_and(|p| &*p == "og:title")
    })
    .and_then(|m| m.attr("content"));
    title.into_iter().chain(og).any(|text| {
        let first = [" - ", " | ", " – ", " — "]
            .iter()
            .filter_map(|sep| text.find(sep))
            .min()
            .map_or(&*text, |at| &text[..at]);
        let mut words = first.split_whitespace();
        let last = words.next_back();
        words.next().is_some() && last.is_some_and(|w| w.eq_ignore_ascii_case("archives"))
    })
}

/// Whether the page's OpenGraph type (`<meta property="og:type">`) is one of `types`.
fn og_type_is(doc: &Document, types: &[&str]) -> bool {
    tree::first_element(&doc.root(), |n| {
        n.has_name("meta") && n.attr("property").is_some_and(|p| &*p == "og:type")
    })
    .and_then(|m| m.attr("content"))
    .is_some_and(|t| types.iter().any(|x| t.trim().eq_ignore_ascii_case(x)))
}

/// The page's kind, from its JSON-LD types, its URL and its structure (in that order of
/// trust: a page that declares what it is, is that).
pub fn kind(doc: &Document, ld: &LinkedData, url: &Url) -> Kind {
    let declared = |names: &[&str]| ld.types.iter().any(|t| names.contains(&t.as_str()));
    // An FAQ's questions (`FAQPage` › `Question`) are a page's own answers, not a thread.
    if declared(&["discussionforumposting", "qapage"])
        || (declared(&["question"]) && !declared(&["faqpage"]))
    {
        return Kind::Forum;
    }
    if declared(&["product", "productgroup"]) {
        return Kind::Product;
    }
    if declared(&["techarticle", "apireference"]) {
        return Kind::Documentation;
    }
    let s = signals(doc);
    let url_kind = by_url(url);
    if declared(&[
        "newsarticle",
        "blogposting",
        "article",
        "report",
        "reportagenewsarticle",
    ]) {
        // An article that is a thread's first post is still a thread.
        return if url_kind == Some(Kind::Forum) && s.posts >= 4 {
            Kind::Forum
        } else if url_kind == Some(Kind::Service) {
            Kind::Service
        } else {
            Kind::Article
        };
    }
    if declared(&[
        "itemlist",
        "collectionpage",
        "searchresultspage",
        "offercatalog",
    ]) {
        return Kind::Listing;
    }
    // A page whose path says nothing of its kind but that says it is one product: its
    // OpenGraph type (a shop's platform writes it where no JSON-LD is), or the one
    // microdata `Product` on it (a listing's cards are each one).
    if url_kind.is_none()
        && (s.products == 1 || og_type_is(doc, &["product", "product.item", "og:product"]))
    {
        return Kind::Product;
    }
    match url_kind {
        Some(Kind::Forum) if s.posts >= 2 => Kind::Forum,
        Some(Kind::Documentation) if s.code > 0 => Kind::Documentation,
        // A product's path on a page that shows no price, in sections under headings with
        // no date or author: what a firm offers (a cloud's `/products/functions`).
        Some(Kind::Product)
            if s.priced == 0
                && url
                    .path()
                    .split('/')
                    .any(|w| w.eq_ignore_ascii_case("products"))
                && s.h2 >= SERVICE_HEADINGS
                && s.signed == 0
                && !declared(&["offer", "aggregateoffer"]) =>
        {
            Kind::Service
        }
        Some(k @ (Kind::Product | Kind::Listing | Kind::Service)) => k,
        // A story and its readers' comments (Slashdot, Lemmy): a thread, unless the page
        // calls itself an article, its path is dated or its paragraphs outside the
        // comments hold an article's text (a blog's post and its comments).
        None if s.comments >= THREAD_COMMENTS
            && !calls_itself_article(doc)
            && !dated(url)
            && s.prose < POST_PROSE =>
        {
            Kind::Forum
        }
        None if s.sections >= SERVICE_SECTIONS && s.articles == 0 && shallow(url) => Kind::Service,
        // Sections under their `h2` headings with no date or author anywhere, on a page
        // that does not call itself an article: a service or landing page (measured:
        // docs/benchmarks.md, "Every kind of page").
        _ if s.h2 - s.h2_chrome >= SERVICE_HEADINGS
            && s.signed == 0
            && !calls_itself_article(doc) =>
        {
            Kind::Service
        }
        _ => Kind::Article,
    }
}

/// Words a heading's class holds when it titles one of the site's widgets, not a section
/// of the page: WordPress's `widget-title` and `widgettitle`, TypePad's `module-header`,
/// a theme's `sidebar-heading`.
const WIDGET_WORDS: &[&[u8]] = &[b"widget", b"module", b"sidebar"];

/// Whether heading `el`'s class titles a widget ([`WIDGET_WORDS`]).
fn widget_title(el: &tree::El<'_>) -> bool {
    el.attr("class").is_some_and(|c| {
        WIDGET_WORDS
            .iter()
            .any(|w| tree::contains_ignore_case(c, w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(head: &str, body: &str, url: &str) -> Kind {
        let html = format!("<html><head>{head}</head><body>{body}</body></html>");
        let (doc, _) = super::super::shape::parse_measured(&html, 50_000);
        kind(&doc, &linked_data(&doc), &Url::parse(url).expect("url"))
    }

    fn ld(json: &str) -> String {
        format!("<script type=\"application/ld+json\">{json}</script>")
    }

    #[test]
    fn the_kind_is_what_the_page_declares_then_what_its_url_and_structure_say() {
        let u = "https://example.com/a/b";
        let posts = "<div class=\"post\">a</div>".repeat(3);
        let sections = "<section>s</section>".repeat(4);
        let cases = [
            (
                ld(r#"{"@graph": [{"@type": "DiscussionForumPosting"}]}"#),
                String::new(),
                u,
                Kind::Forum,
            ),
            (
                ld(r#"{"@type": ["Product"]}"#),
                String::new(),
                u,
                Kind::Product,
            ),
            (
                ld(r#"{"@type": "TechArticle"}"#),
                String::new(),
                u,
                Kind::Documentation,
            ),
            (
                ld(r#"{"@type": "NewsArticle"}"#),
                String::new(),
                u,
                Kind::Article,
            ),
            // A shop's FAQ: its questions are no thread.
            (
                ld(
                    r#"{"@type": "FAQPage", "mainEntity": [{"@type": "Question", "name": "Sizes?",
                        "acceptedAnswer": {"@type": "Answer", "text": "All."}}]}"#,
                ),
                String::new(),
                u,
                Kind::Article,
            ),
            (
                ld(r#"{"@type": "Question", "name": "Why?"}"#),
                String::new(),
                u,
                Kind::Forum,
            ),
            (
                String::new(),
                posts,
                "https://example.com/forum/t/1",
                Kind::Forum,
            ),
            (
                String::new(),
                "<pre>x</pre>".into(),
                "https://example.com/docs/api",
                Kind::Documentation,
            ),
            (
                String::new(),
                sections.clone(),
                "https://example.com/pricing",
                Kind::Service,
            ),
            (
                String::new(),
                sections,
                "https://example.com/2024/05/story",
                Kind::Article,
            ),
            (String::new(), "<p>text</p>".into(), u, Kind::Article),
            // A section's own page is its index; an entry under it is not.
            (
                String::new(),
                "<p>text</p>".into(),
                "https://example.org/about/in-the-news/",
                Kind::Listing,
            ),
            (
                String::new(),
                "<p>text</p>".into(),
                "https://example.org/news",
                Kind::Listing,
            ),
            (
                String::new(),
                "<p>text</p>".into(),
                "https://example.org/sections/science/",
                Kind::Listing,
            ),
            (
                String::new(),
                "<p>text</p>".into(),
                "https://news.example.edu/topic/software",
                Kind::Listing,
            ),
            (
                String::new(),
                "<div class='post'>a</div><div class='post'>b</div>".into(),
                "https://forum.example.com/topic/1103020-payment-issues/",
                Kind::Forum,
            ),
            (
                String::new(),
                "<p>text</p>".into(),
                "https://example.org/sections/health/2022/11/09/113/anxiety",
                Kind::Article,
            ),
            (
                String::new(),
                "<p>text</p>".into(),
                "https://example.org/news/2025/a-story",
                Kind::Article,
            ),
            // What a firm offers, however deep and whatever its SEO plugin's schema calls
            // the page; a story under the firm's news is still an article.
            (
                String::new(),
                "<p>text</p>".into(),
                "https://example.com/services/hr/consulting/",
                Kind::Service,
            ),
            (
                String::new(),
                "<p>text</p>".into(),
                "https://example.com/service/data-analytics-agency/",
                Kind::Service,
            ),
            (
                String::new(),
                "<pre>kind: Service</pre>".into(),
                "https://example.io/docs/concepts/service/",
                Kind::Documentation,
            ),
            (
                ld(r#"{"@graph": [{"@type": "WebPage"}, {"@type": "Article"}]}"#),
                "<p>text</p>".into(),
                "https://example.com/what-we-do/audit",
                Kind::Service,
            ),
            (
                ld(r#"{"@type": "Article"}"#),
                "<p>text</p>".into(),
                "https://example.com/news/our-services-grow",
                Kind::Article,
            ),
        ];
        for (head, body, url, want) in cases {
            assert_eq!(kind_of(&head, &body, url), want, "{head} {body} {url}");
        }
    }

    /// A landing page's sections: each heading an `h2` over a line.
    fn h2_sections<const N: usize>(headings: [&str; N]) -> String {
        headings
            .iter()
            .map(|h| format!("<h2>{h}</h2><p>What we offer: {h}.</p>"))
            .collect()
    }

    /// The first two of [`h2_sections`]: one heading too few.
    fn first_two(sections: &str) -> String {
        sections
            .splitn(3, "<h2>")
            .take(2)
            .collect::<Vec<_>>()
            .join("<h2>")
    }

    #[test]
    fn a_products_path_that_shows_no_price_in_headed_sections_is_a_service_page() {
        // A cloud's `/products/functions`: what a firm offers, not a shop's product.
        let u = "https://cloud.example.com/en-us/products/functions";
        let sections = h2_sections(["Overview", "Features", "Pricing"]);
        assert_eq!(kind_of("", &sections, u), Kind::Service);
        // A price shown (by name or microdata), an offer declared, fewer headings, a
        // date, or a shop's `/p/` path: a product.
        for priced in [
            "<span class='product-price'>$20</span>",
            "<button id='add-to-cart'>Add</button>",
            "<meta itemprop='price' content='20'>",
            "<time>2 May</time>",
        ] {
            assert_eq!(
                kind_of("", &format!("{priced}{sections}"), u),
                Kind::Product,
                "{priced}"
            );
        }
        let offer = ld(r#"{"@type": "Offer", "price": "20"}"#);
        assert_eq!(kind_of(&offer, &sections, u), Kind::Product);
        assert_eq!(kind_of("", &first_two(&sections), u), Kind::Product);
        assert_eq!(
            kind_of("", &sections, "https://shop.example.com/p/skillet/-/A-1"),
            Kind::Product
        );
    }

    #[test]
    fn a_story_under_many_comments_is_a_thread_unless_an_article_dated_or_a_long_post() {
        let comments: String = (0..10)
            .map(|i| format!("<div class='comment'><p>Reader {i} says this.</p></div>"))
            .collect();
        let story = format!("<p>The story itself.</p>{comments}");
        let u = "https://tech.example.org/story/24/01/12/169219/a-discussion";
        assert_eq!(kind_of("", &story, u), Kind::Forum);
        let nine: String = story.replacen("class='comment'", "class='note'", 1);
        assert_eq!(kind_of("", &nine, u), Kind::Article);
        let og = "<meta property='og:type' content='article'>";
        assert_eq!(kind_of(og, &story, u), Kind::Article);
        let blog = "https://blog.example.com/2008/09/lean-startup.html";
        assert_eq!(kind_of("", &story, blog), Kind::Article);
        // A post of an article's length outside the comments (in `p`s, not in the
        // comments' list): a blog's post and its readers' comments.
        let paragraph = "<p>A paragraph of the post, with words enough to be read as prose.</p>";
        let long = |n: usize| {
            format!(
                "{}<ol class='commentlist'>{comments}<p>{}</p></ol>",
                paragraph.repeat(n),
                "Pingback words. ".repeat(200)
            )
        };
        let post = long(POST_PROSE / 50);
        assert_eq!(kind_of("", &post, u), Kind::Article);
        assert_eq!(kind_of("", &long(POST_PROSE / 60), u), Kind::Forum);
    }

    #[test]
    fn a_page_that_says_it_is_one_product_is_one() {
        // A guitar shop's page: its path says nothing, its headed sections look like a
        // landing page's.
        let u = "https://www.shop.example/gb/player_strat_rw.htm";
        let sections = h2_sections(["Description", "Specifications", "Delivery"]);
        assert_eq!(kind_of("", &sections, u), Kind::Service);
        for product in ["product", " Product.Item "] {
            let og = format!("<meta property='og:type' content='{product}'>");
            assert_eq!(kind_of(&og, &sections, u), Kind::Product, "{product}");
        }
        // Microdata: one product is the page's, several are a listing's cards.
        let card = |scheme: &str| {
            format!("<div itemscope itemtype='{scheme}://schema.org/Product'>Strat</div>")
        };
        for scheme in ["https", "http"] {
            let one = format!("{}{sections}", card(scheme));
            assert_eq!(kind_of("", &one, u), Kind::Product, "{scheme}");
        }
        let two = format!("{}{}{sections}", card("https"), card("https"));
        assert_eq!(kind_of("", &two, u), Kind::Service);
        let offer = "<div itemscope itemtype='https://schema.org/Offer'>Strat</div>";
        assert_eq!(kind_of("", &format!("{offer}{sections}"), u), Kind::Service);
        // A path that names its kind says more: a shop's category writes `product` too.
        let og = "<meta property='og:type' content='product'>";
        let category = "https://shop.example.com/categories/casual-dresses.html";
        assert_eq!(kind_of(og, &sections, category), Kind::Listing);
        // The page's own website type says nothing.
        let og = "<meta property='og:type' content='website'>";
        assert_eq!(kind_of(og, &sections, u), Kind::Service);
    }

    #[test]
    fn headed_sections_without_a_date_or_an_author_are_a_service_page() {
        // Not under `/services/`, which says so by itself.
        let u = "https://example.com/data-analytics/overview";
        let sections = h2_sections(["Strategy", "Engineering", "Support"]);
        assert_eq!(kind_of("", &sections, u), Kind::Service);
        // Fewer headings, a date, an author or an article's own OpenGraph type: an article.
        assert_eq!(kind_of("", &first_two(&sections), u), Kind::Article);
        let dated = format!("<time datetime='2025-01-02'>2 January</time>{sections}");
        assert_eq!(kind_of("", &dated, u), Kind::Article);
        let signed = format!("<span class='post-author'>Ana</span>{sections}");
        assert_eq!(kind_of("", &signed, u), Kind::Article);
        let dated_by_name = format!("<p class='pubdate'>2 January</p>{sections}");
        assert_eq!(kind_of("", &dated_by_name, u), Kind::Article);
        let og = "<meta property='og:type' content='article'>";
        assert_eq!(kind_of(og, &sections, u), Kind::Article);
        // A blog's widgets titled in `h2`s, in its sidebar or footer: not its sections.
        let post = h2_sections(["The post"]);
        for chrome in [
            "<aside>{}</aside>",
            "<div id='sidebar-left'><div>{}</div></div>",
            "<div class='sidebar'>{}</div>",
            "<footer>{}</footer>",
        ] {
            let page = format!("{post}{}", chrome.replace("{}", &sections));
            assert_eq!(kind_of("", &page, u), Kind::Article, "{chrome}");
        }
        let page = format!("{sections}<aside>{post}</aside>");
        assert_eq!(kind_of("", &page, u), Kind::Service);
        // Or titled by their class as widgets, in a column of no name (TypePad's
        // `module-header`, WordPress's `widgettitle`).
        for class in ["module-header", "widgettitle", "widget-title"] {
            let widgets = sections.replace("<h2>", &format!("<h2 class='{class}'>"));
            let page = format!("<div id='alpha'>{widgets}</div><div id='beta'>{post}</div>");
            assert_eq!(kind_of("", &page, u), Kind::Article, "{class}");
        }
    }

    #[test]
    fn a_page_calls_itself_an_article_by_its_opengraph_type() {
        let says = |head: &str| {
            let html = format!("<html><head>{head}</head><body><p>text</p></body></html>");
            calls_itself_article(&super::super::shape::parse_measured(&html, 50_000).0)
        };
        assert!(says("<meta property='og:type' content='article'>"));
        assert!(says("<meta property=\"og:type\" content=\" Article \">"));
        assert!(!says("<meta property='og:type' content='website'>"));
        assert!(!says("<meta property='og:type' content='product'>"));
        assert!(!says("<meta name='description' content='article'>"));
        assert!(!says(""));
        // WordPress's page of a category's posts, tagged as a post is: an archive.
        let og = "<meta property='og:type' content='article'>";
        let titled = |title: &str, og_title: &str| {
            says(&format!(
                "{og}<title>{title}</title><meta property='og:title' content='{og_title}'>"
            ))
        };
        assert!(!titled(
            "Air Fryer Recipes Archives - Pinch of Yum",
            "Best Air Fryer"
        ));
        assert!(!titled(
            "Best Air Fryer Recipes - Pinch of Yum",
            "Air Fryer Recipes Archives"
        ));
        assert!(!titled("Zero Waste archives | Going Zero Waste", ""));
        assert!(titled("Archives - Pinch of Yum", "Archives"));
        assert!(titled("Inside the Digital Archive - DPC", ""));
        assert!(titled("What the archives hold for historians", ""));
    }

    #[test]
    fn json_ld_is_read_within_its_bounds() {
        let u = "https://example.com/a/b";
        // Only the first MAX_SCRIPTS scripts are read.
        let many = format!(
            "{}{}",
            ld("{}").repeat(MAX_SCRIPTS),
            ld(r#"{"@type": "Product"}"#)
        );
        assert_eq!(kind_of(&many, "", u), Kind::Article);
        // A script over MAX_SCRIPT_BYTES is not parsed.
        let big = ld(&format!(
            r#"{{"@type": "Product", "pad": "{}"}}"#,
            "x".repeat(MAX_SCRIPT_BYTES)
        ));
        assert_eq!(kind_of(&big, "", u), Kind::Article);
        // No more than MAX_VALUES values of one script are visited.
        let zeros = vec!["0"; MAX_VALUES + 1].join(",");
        let wide = ld(&format!(r#"[{{"@type": "Product"}}, [{zeros}]]"#));
        assert_eq!(kind_of(&wide, "", u), Kind::Article);
        let narrow = ld(r#"[{"@type": "Product"}, [0, 0]]"#);
        assert_eq!(kind_of(&narrow, "", u), Kind::Product);
        // Types kept per page are bounded.
        let types: Vec<String> = (0..MAX_TYPES + 10).map(|i| format!("\"T{i}\"")).collect();
        let (doc, _) = super::super::shape::parse_measured(
            &format!(
                "<html><head>{}</head></html>",
                ld(&format!("{{\"@type\": [{}]}}", types.join(",")))
            ),
            50_000,
        );
        assert_eq!(linked_data(&doc).types.len(), MAX_TYPES);
    }
}
