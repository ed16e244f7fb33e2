//! Article extraction for `rss read` full text (pure; CPU-bound, run off the async threads).
//!
//! Chosen by measurement (docs/benchmarks.md, "rss read"): dom_smoothie (a close port of
//! Readability.js, keeping class names) finds the article and its title; then rules a
//! reader would apply remove what Readability keeps but is not the article's text: figures
//! with their captions and credits, asides, navigation and footers inside the article;
//! blocks whose class or id names them as share bars, bylines, captions, newsletter
//! prompts, related links or ads; short lines that open like a byline or a credit
//! ("By …", "Updated …", "Photo: …"); and short blocks that are mostly links ("Related: …",
//! "More:" lists, tag rows; a linked item of a list or row of plain facts stays). Before
//! Readability, a pre-pass over the page's tree ([`before_readability`]) keeps what
//! Readability itself would drop: a reader's comment quoted between paragraphs, the
//! author's licence line after the text, and the fact box (a short `<dl>`) beside a short
//! text, appended to it; and it drops sign-up boxes (an e-mail field with its pitch). Each
//! rule was kept only for its effect on pages it was not tuned on (the benchmark's
//! held-out third, and the multilingual web corpus). The result is
//! sanitised with the same allowlist as feed content, relative URLs made absolute
//! against the page's final URL, and rendered to plain text keeping paragraph breaks.
//!
//! The article's title (the page's `<h1>` when `<title>` opens with it before a separator)
//! heads the text once. An article under 1,000 characters is weighed against the page's
//! largest block of text outside navigation, which replaces it when twice as long; a page
//! with no article gives that block with a warning, never a failure.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use dom_query::{Document, NodeId, NodeRef};
use url::Url;

use super::kind::{Kind, LinkedData};
use super::tree::{self, Counts, Edge, named, nonspace};
use crate::text::{HEADINGS, sanitize};

/// Subtrees dropped from the article: not its running text (a figure holding a table or
/// a code block is: WordPress puts every table in one).
const DROPPED: &[&str] = &["figure", "figcaption", "aside", "nav", "footer"];
/// Blocks tested for link density.
const BLOCKS: &[&str] = &[
    "p",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "dd",
    "dt",
    "div",
    "td",
    "th",
];
/// A block whose link text is more than this share of its text is navigation...
const LINK_DENSITY: f64 = 0.5;
/// ...unless it is at least this long (a real paragraph that links a lot).
const LINK_BLOCK_MAX_CHARS: usize = 200;
/// dom_smoothie's element budget: a page with more elements is refused, not ground through.
const MAX_ELEMENTS: usize = 50_000;

/// Readability tries again with looser rules (up to four passes over the page) while its
/// article is shorter than this (characters); its default is 500. paw weighs a short
/// article against the page's largest block anyway, so the later passes rarely change the
/// answer: at 250 the web corpus scores the same and the article benchmark 0.0001 higher,
/// 9 % faster (at 100 the corpus loses precision: docs/benchmarks.md).
const CHAR_THRESHOLD: usize = 250;

/// What separates a page's title from its site's name in `<title>` ("Heading | Site").
pub const TITLE_SEPARATORS: [char; 8] = ['|', '-', '–', '—', ':', '·', '»', '/'];

/// An article shorter than this (characters, no whitespace) is checked against the page's
/// largest block of text.
const SHORT_ARTICLE_CHARS: usize = 1000;

/// An extracted article.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// The article's title.
    pub title: String,
    /// The article body, sanitised HTML with absolute URLs, headed by its title.
    pub html: String,
    /// The article body as plain text, paragraphs separated by a blank line; the title is
    /// its first paragraph (once).
    pub text: String,
    /// Set when no article was recognised and this is the page's largest text block.
    pub warning: Option<String>,
}

/// What the result says when the extractor found no article and fell back.
pub const FALLBACK_WARNING: &str =
    "no article was recognised on the page; this is its largest block of text";

/// Extracts the article of `html`, a page fetched from `url` (after redirects).
pub fn extract(html: &str, url: &Url) -> Result<Extracted, String> {
    extract_as(html, url, None)
}

/// [`extract`], reading the page as `kind` when given instead of deciding its kind from
/// the page (for measuring each way of reading on pages whose kind is known).
pub fn extract_as(html: &str, url: &Url, kind: Option<Kind>) -> Result<Extracted, String> {
    read(html, url, kind, false)
}

/// A `<noscript>` shorter than this (characters, no whitespace) is not a page's text.
const NOSCRIPT_MIN_CHARS: usize = 200;

/// The page's `<noscript>` holding the most text, as HTML: what a page that draws itself
/// with a script shows a reader without one (a Discourse thread's posts). Parsed with
/// scripting off (as dom_query parses), a `<noscript>` holds its content as elements:
/// their markup, not their text, is read again (its text alone ran a thread's posts into
/// one line).
fn noscript(html: &str) -> Option<String> {
    let (doc, _) = super::shape::parse_measured(html, MAX_ELEMENTS);
    let found = doc.select("noscript");
    let (n, _) = found
        .nodes()
        .iter()
        .map(|n| {
            (
                n,
                n.descendants_it()
                    .map(|d| tree::text_len(&d))
                    .sum::<usize>(),
            )
        })
        .max_by_key(|(_, chars)| *chars)
        .filter(|(_, chars)| *chars >= NOSCRIPT_MIN_CHARS)?;
    // An `<iframe/>` written self-closing in it is raw text to the parser, which runs past
    // `</noscript>` to the page's end: that text is the page's markup.
    let swallowed = n.descendants_it().any(|d| {
        d.query_or(false, |t| match &t.data {
            dom_query::NodeData::Text { contents } => {
                tree::contains_ignore_case(contents, b"</noscript")
            }
            _ => false,
        })
    });
    let markup = if swallowed { n.text() } else { n.inner_html() };
    Some(markup.to_string())
}

/// [`extract_as`]; `nested` when `html` is a page's `<noscript>` (read once, not again).
fn read(html: &str, url: &Url, kind: Option<Kind>, nested: bool) -> Result<Extracted, String> {
    // Measured as it is built: a tree of a page nested too deep costs quadratic time, so
    // the builder stops at the limit and the page is refused by its shape.
    let (doc, shape) = super::shape::parse_measured(html, MAX_ELEMENTS);
    if !shape.buildable() {
        return Err(format!(
            "the page nests elements more than {} deep: not an article",
            super::shape::MAX_DEPTH
        ));
    }
    let ld = super::kind::linked_data(&doc);
    if shape.elements > MAX_ELEMENTS {
        // Too many elements to read as an article: the tree holds the page's first
        // MAX_ELEMENTS (the builder stopped there); its JSON-LD body or its largest block
        // is what a reader still gets, with a warning.
        return too_large(&doc, &ld, html, url).ok_or_else(|| {
            format!(
                "the page has {} elements (the limit is {MAX_ELEMENTS}): not an article",
                shape.elements
            )
        });
    }
    // What the page shows only when asked and what is not its text go from its tree, and
    // the panels it hides until opened are shown — in the tree parsed again, too, when
    // the copy was used already.
    let prepared = |page: Document| {
        // A streaming page's parts where its scripts put them, before anything hidden goes.
        super::streamed::reveal(&page, html);
        // Forms are weighed against the text left once what is not text is gone: a
        // consent manager's panel can hold more words than a thread's posts.
        let (_, _, gone) = drop_not_text(&page, shape.text_chars);
        drop_asked(&page, shape.text_chars.saturating_sub(gone));
        open_panels(&page);
        if html.contains("<pre") {
            code_languages(&page);
        }
        page
    };
    let doc = prepared(doc);
    let parsed = || prepared(super::shape::parse_measured(html, MAX_ELEMENTS).0);
    let kind = kind.unwrap_or_else(|| super::kind::kind(&doc, &ld, url));
    if kind == Kind::Product {
        not_product(&doc);
    }
    if kind == Kind::Article {
        drop_comments(&doc);
    }
    let opening = (kind == Kind::Forum).then(|| opening_post(&doc)).flatten();
    let cards = super::cards::find(&doc, super::cards::articles_own(kind));
    let listing = read_as_listing(&doc, kind, cards, shape.text_chars);
    if matches!(kind, Kind::Documentation | Kind::Service)
        && let Some(x) = by_kind(doc.clone(), kind, html, url)
    {
        return Ok(or_cards(x, cards, kind, listing, || doc, html, url));
    }
    // The page as it was parsed, for its largest block or its cards once Readability has
    // changed the tree: a copy of the tree costs a fraction of parsing the page again (on
    // the article benchmark's pages, copying every page's tree read 1.5–3.5 % more pages
    // per second than parsing again those over 64 KiB that wanted it). It costs memory: a
    // second tree on every page (the bench's peak heap on pages of 64 KiB or more, median
    // 5.8× → 7.0× their size: docs/benchmarks.md, "Recommendation headings").
    let mut page = Some(doc.clone());
    let named_body = (kind == Kind::Article)
        .then(|| content_body(&doc))
        .flatten();
    let cfg = dom_smoothie::Config {
        // Counted already (the tree builder stopped past the limit and the page was
        // refused): dom_smoothie's own count would walk the whole tree again.
        max_elements_to_parse: 0,
        // The classes name what a block is (`share-bar`, `byline`); sanitising drops them.
        keep_classes: true,
        char_threshold: CHAR_THRESHOLD,
        ..Default::default()
    };
    let mut r = dom_smoothie::Readability::with_document(doc, Some(url.as_str()), Some(cfg))
        .map_err(|e| format!("cannot read the page: {e}"))?;
    let boxes = before_readability(&r);
    // The article is cleaned, measured and rendered in Readability's own tree, where it
    // was found: not serialised and parsed again.
    let found = r.parse().ok().and_then(|article| {
        let root = tree::first_element(&r.doc.root(), |n| {
            n.id_attr().is_some_and(|i| &*i == ARTICLE_ROOT)
        })?;
        // A listing's article is its grid: cleaned as its cards are, its linked titles and
        // prices stay (as an article's text they would go as a menu does).
        if kind == Kind::Listing {
            clean(&root, true, Names::Any, true);
        } else {
            clean(&root, true, names_of(kind), false);
        }
        // A thread's reply quoting a post whole: the thread says it once.
        if kind == Kind::Forum {
            drop_repeated(&root, &tree::counts(&root, BLOCKS), 1);
        }
        let text = tree::text(&root);
        // Sanitised only once chosen over the page's largest block.
        (!text.trim().is_empty()).then(|| {
            (
                crate::text::collapse(&article.title),
                root.html().to_string(),
                text,
            )
        })
    });
    // No block holds more text than the page (a rendered block adds at most a list
    // marker or a line break per element: a quarter is room enough), so when the article
    // is over half of it none can be twice as long, and no block is looked for.
    let short = found.as_ref().is_none_or(|(_, _, text)| {
        let n = nonspace(text);
        n < SHORT_ARTICLE_CHARS && 2 * n <= shape.text_chars.saturating_add(shape.text_chars / 4)
    });
    // The block must hold twice the article's text to replace it: one that cannot is not
    // cleaned and rendered.
    let beat = found.as_ref().map_or(0, |(_, _, text)| 2 * nonspace(text));
    // A short article may be a piece of the page (the first cell of a table layout, one
    // of a listing's entries): the page's largest block of text, when it holds twice as
    // much. A page with a main text is never `failed`: with no article, its largest block.
    // An article under NAMED_BODY_ARTICLE_CHARS the page's named body holds twice over
    // was one piece of it (a page builder's sections, each its own block): the body,
    // cleaned as a block is.
    // The page's main ([`content_body`]) only when it holds at most MAIN_BODY_OVER times the
    // article: more is a news page's modules around its story.
    // A body the page names that Readability's article leaves out (a blog's sidebar of
    // widgets read instead of its short post): the article was read elsewhere, and the
    // body is the text.
    // Whether Readability's article holds the body the page names ([`content_body`]): a
    // short one that does is the text where the page says, not a piece of a larger block
    // (a blog's sidebar of widgets holds more than its short post); one that does not was
    // read elsewhere, and the body is the text.
    let named_read = named_body
        .filter(|&(_, chars, main)| !main && chars >= ELSEWHERE_BODY_MIN_CHARS)
        .and_then(|(id, _, _)| {
            let (_, _, text) = found.as_ref()?;
            let page = page.get_or_insert_with(parsed);
            let body = tree::text(&NodeRef::new(id, &page.tree));
            // Prose, not a listing's few words or a thread's first line under the name.
            if prose_chars(&body) < ELSEWHERE_BODY_MIN_CHARS {
                return None;
            }
            // Each way from one count of the words they share.
            let (shared, read, named) = shared_words(text, &body);
            Some(if 2 * shared >= named {
                Read::Body
            } else if 2 * shared >= read {
                Read::Within
            } else {
                Read::Elsewhere
            })
        });
    let elsewhere = named_read == Some(Read::Elsewhere);
    let named_body = named_body.filter(|&(_, chars, main)| {
        elsewhere
            || (found.is_some()
                && beat < 2 * NAMED_BODY_ARTICLE_CHARS
                && chars >= beat
                && (!main || 2 * chars <= MAIN_BODY_OVER * beat))
    });
    let block = if let Some((id, _, _)) = named_body {
        let page = page.take().unwrap_or_else(parsed);
        let (html, text) = block_text(&NodeRef::new(id, &page.tree), Names::Any, true);
        Some((String::new(), html, text))
    } else if short {
        let page = page.take().unwrap_or_else(parsed);
        largest_block(&page, beat, ARTICLE_SHARE).map(|(title, block)| {
            let (html, text) = block_text(&block, names_of(kind), super::cards::articles_own(kind));
            (title, html, text)
        })
    } else {
        None
    };
    let (title, body_html, body_text, warning) = match (found, block) {
        (Some(f), Some(b)) if elsewhere && nonspace(&b.2) > 0 => (f.0, b.1, b.2, None),
        // A block replacing the body the page names holds it (its column with an
        // event's or a product's details beside it), not a sidebar beside it.
        (Some(f), Some(b))
            if nonspace(&b.2) >= 2 * nonspace(&f.2)
                && (named_read != Some(Read::Body) || holds_most(&b.2, &f.2)) =>
        {
            (f.0, b.1, b.2, None)
        }
        (Some(f), _) => (f.0, f.1, f.2, None),
        (None, Some(b)) if nonspace(&b.2) > 0 => {
            (b.0, b.1, b.2, Some(FALLBACK_WARNING.to_string()))
        }
        (None, _) => {
            // Nothing outside scripts: the page's script-less version, else the body its
            // JSON-LD declares (with a warning), else nothing to read.
            if !nested && let Some(inner) = noscript(html) {
                return read(&inner, url, Some(kind), true);
            }
            if let Some(x) = linked_body(&ld, html) {
                return Ok(x);
            }
            return page_text(html, url).ok_or_else(|| "no text found on the page".into());
        }
    };
    let body_html = sanitize(&body_html, Some(url));
    let (body_html, body_text) = with_fact_boxes(body_html, body_text, &boxes, url);
    let x = finished(&title, body_html, body_text, html, warning);
    let page = || page.unwrap_or_else(parsed);
    // Text read where the page names its body is the article, whatever cards are beside
    // it (a blog's sidebar of widgets repeats one shape), unless the page is a listing.
    let x = if named_read == Some(Read::Body) || (named_read.is_some() && !listing) {
        x
    } else {
        or_cards(x, cards, kind, listing, page, html, url)
    };
    // A few words read (a "Loading" splash, the site's name) where the page's script-less
    // version holds a text: that version, as when nothing was read.
    let read_chars = nonspace(&x.text);
    if !nested
        && read_chars < NOSCRIPT_MIN_CHARS
        && let Some(inner) = noscript(html)
        && nonspace(&super::shape::text_only(&inner)) >= 2 * read_chars
        && let Ok(inner) = read(&inner, url, Some(kind), true)
    {
        return Ok(inner);
    }
    Ok(with_opening(x, opening, url))
}

/// Text read (characters, no whitespace) under which a page taken for an article has no
/// article to protect from its cards ([`or_cards`]).
const NO_ARTICLE_CHARS: usize = 250;

/// How many times the text read a page's repeated cards must hold to be read instead.
const CARDS_OVER: usize = 2;

/// The share of a page's text (all of it, as measured while parsing) its repeated cards
/// hold for a page that does not call itself an article to have them read as a
/// listing's.
const CARDS_SHARE: (usize, usize) = (1, 2);

/// The share that is enough on a page that links its next page (`rel="next"`, an element
/// named `pagination` or `pager`): a listing of many pages.
const PAGED_CARDS_SHARE: (usize, usize) = (1, 5);

/// How far above a code block its language may be named (Sphinx's
/// `<div class="highlight-python3"><div class="highlight"><pre>`).
const CODE_LANGUAGE_LEVELS: usize = 3;

/// Marks each code block (`<pre>`) with the language its page names for it, as a class
/// the sanitiser keeps (`language-python`: [`crate::text::code_language`]), so that its
/// Markdown fence says which language it is. The names are read from the block's
/// `<code>`, the block and the boxes up to [`CODE_LANGUAGE_LEVELS`] above: class words,
/// then `data-lang` / `data-language`. The first [`CODE_BLOCKS_MAX`] blocks are marked,
/// each looked at once and its boxes a fixed number of times; a class longer than
/// [`CODE_CLASS_MAX_BYTES`] is not read (a box's class read for every block under it would
/// otherwise cost its length times theirs). Returns how many blocks were looked at.
fn code_languages(doc: &Document) -> usize {
    let pres: Vec<NodeRef<'_>> = doc.select("pre").nodes().to_vec();
    let looked = pres.len().min(CODE_BLOCKS_MAX);
    for pre in pres.into_iter().take(CODE_BLOCKS_MAX) {
        let code = pre
            .element_children()
            .into_iter()
            .find(|c| c.has_name("code"));
        let own = code
            .into_iter()
            .chain(std::iter::once(pre))
            .map(|e| (e, true));
        let boxes = pre
            .ancestors_it(Some(CODE_LANGUAGE_LEVELS))
            .map(|e| (e, false));
        let language = own.chain(boxes).find_map(|(e, bare)| {
            tree::element(&e, |el| {
                let by_class = el
                    .attr("class")
                    .filter(|c| c.len() <= CODE_CLASS_MAX_BYTES)
                    .into_iter()
                    .flat_map(str::split_ascii_whitespace)
                    .find_map(|w| crate::text::code_language(w, bare));
                by_class.or_else(|| {
                    ["data-lang", "data-language"]
                        .iter()
                        .find_map(|a| crate::text::code_language(el.attr(a)?, true))
                })
            })
            .flatten()
        });
        if let Some(language) = language {
            let class = pre.attr("class").unwrap_or_default();
            pre.set_attr("class", format!("{class} {language}").trim());
        }
    }
    looked
}

/// Code blocks whose language is looked for on one page.
const CODE_BLOCKS_MAX: usize = 256;

/// A class longer than this (bytes) names no code block's language.
const CODE_CLASS_MAX_BYTES: usize = 1024;

/// A page's links to its next page, or its pagination bar.
fn pagination(e: &tree::El<'_>) -> bool {
    let rel = e.attr("rel");
    (e.name == "a"
        && rel.is_some_and(|r| {
            r.split_ascii_whitespace()
                .any(|w| w.eq_ignore_ascii_case("next"))
        }))
        || (e.name == "link" && rel.is_some_and(|r| r.eq_ignore_ascii_case("next")))
        || [e.attr("class"), e.attr("id")].iter().flatten().any(|v| {
            tree::contains_ignore_case(v, b"pagination") || tree::contains_ignore_case(v, b"pager")
        })
}

/// Whether a page's cards are read as a listing's ([`or_cards`]): on a page of another
/// kind than an article, and on one taken for an article that does not call itself one
/// ([`super::kind::calls_itself_article`]) whose cards hold [`CARDS_SHARE`] of its text
/// (`text_chars`, all of it as measured while parsing), or [`PAGED_CARDS_SHARE`] when the
/// page links its next page ([`pagination`]).
fn read_as_listing(
    doc: &Document,
    kind: Kind,
    cards: Option<super::cards::Cards>,
    text_chars: usize,
) -> bool {
    let holds = |c: usize, share: (usize, usize)| {
        c.saturating_mul(share.1) >= text_chars.saturating_mul(share.0)
    };
    kind != Kind::Article
        || cards.is_some_and(|c| {
            (holds(c.chars, CARDS_SHARE)
                || (holds(c.chars, PAGED_CARDS_SHARE)
                    && tree::first_element(&doc.root(), |n| tree::element_is(n, pagination))
                        .is_some()))
                && !super::kind::calls_itself_article(doc)
        })
}

/// `x`, or the page's repeated cards ([`super::cards`]) when they hold more than
/// [`CARDS_OVER`] times its text once cleaned: a listing read whole, under the title found.
/// `listing`: the page is of another kind than an article, or is taken for one but does
/// not call itself one ([`super::kind::calls_itself_article`]) and its cards hold
/// [`CARDS_SHARE`] of its text. On an article otherwise, only when its text is short
/// (under [`SHORT_ARTICLE_CHARS`]: a listing Readability read one card of), and the cards
/// are cleaned as an article's text is; on a listing they keep their figures (a
/// testimonial is one) and their linked titles (a card's title is its link), and a
/// thread's posts their `comment`/`author`/`date`-named blocks. A page taken for an
/// article whose text is not short keeps it unless the cards hold its longest paragraph
/// (they are its text and more, not a strip beside it) or that paragraph is not prose
/// ([`PROSE_MIN_CHARS`]). Measured:
/// docs/benchmarks.md, "Every kind of page". `page` gives the page's tree as parsed (the
/// cards' element is looked up in it by id).
fn or_cards(
    x: Extracted,
    cards: Option<super::cards::Cards>,
    kind: Kind,
    listing: bool,
    page: impl FnOnce() -> Document,
    html: &str,
    url: &Url,
) -> Extracted {
    let chars = nonspace(&x.text);
    // An article's own text of some length stands: the cards beside it are its comments,
    // its "related stories" (on Readability's test pages they replaced five articles) —
    // unless the page is read as a listing.
    if !listing && chars >= SHORT_ARTICLE_CHARS {
        return x;
    }
    let least = CARDS_OVER.saturating_mul(chars);
    let Some(cards) = cards else {
        return x;
    };
    if cards.chars <= least {
        return if kind == Kind::Forum {
            with_replies(x, cards, page, html, url)
        } else {
            x
        };
    }
    let page = page();
    let block = NodeRef::new(cards.id, &page.tree);
    super::cards::drop_chrome(&block, super::cards::articles_own(kind));
    let names = match kind {
        Kind::Forum => Names::Posts,
        k => names_of(k),
    };
    // A few words read (a "Showing 1–30 of 37" line) are no article whose strip of
    // cards beside it is to be cleaned as an article's: the cards are the page.
    clean(&block, false, names, listing || chars < NO_ARTICLE_CHARS);
    let text = tree::text(&block);
    if nonspace(&text) <= least {
        return x;
    }
    // Nor cards that are a sidebar's boxes of links, beside an article's prose.
    if kind == Kind::Article
        && chars >= LINK_BOXES_ARTICLE_CHARS
        && 2 * prose_chars(&x.text) >= chars
        && link_boxes(&block, &text)
    {
        return x;
    }
    // On a page taken for an article, cards that are the layout's boxes — the article's
    // column beside boxes of links — are no listing: the article stands.
    if kind == Kind::Article
        && chars >= LAYOUT_ARTICLE_CHARS
        && let Some(longest) = longest_paragraph(&x.text)
        && nonspace(longest) >= PROSE_MIN_CHARS
        && layout_boxes(&block, longest)
    {
        return x;
    }
    // On a page taken for an article, a text of some length stands against cards that do
    // not hold its longest paragraph, when that is prose: the cards are beside it, not it.
    // A text of short lines (a listing's entries Readability read without their bodies)
    // does not.
    if kind == Kind::Article
        && chars >= SHORT_ARTICLE_CHARS
        && let Some(longest) = x.text.split("\n\n").max_by_key(|p| p.len())
        && nonspace(longest) >= PROSE_MIN_CHARS
        && !text.contains(longest.trim())
    {
        return x;
    }
    let body = sanitize(&block.inner_html(), Some(url));
    // A thread's cards are its replies: the post they answer, read apart from them (a Q&A
    // site's question above its answers), comes first.
    if kind == Kind::Forum
        && let Some(longest) = longest_paragraph(&x.text)
        && nonspace(longest) >= PROSE_MIN_CHARS
        && !text.contains(longest)
        && 2 * prose_chars(&x.text) >= chars
    {
        return followed_by(x, &body, &text, html);
    }
    finished(&x.title, body, text, html, None)
}

/// Text read (characters, no whitespace) from which an article stands against cards that
/// are the page's layout boxes ([`layout_boxes`]).
const LAYOUT_ARTICLE_CHARS: usize = 350;

/// The share of the cards' text the card holding the article's longest paragraph holds, at
/// least, for them to be the page's layout boxes ([`layout_boxes`]).
const HOLDER_SHARE: (usize, usize) = (1, 4);

/// The share of a text in lines of prose under which it is boxes of links and short lines,
/// not an article's sections ([`no_prose`]).
const OTHERS_PROSE_SHARE: (usize, usize) = (3, 10);

/// Whether the cards in `block` (cleaned) are the page's layout boxes, not a listing: the
/// one holding the article's longest `paragraph` holds [`HOLDER_SHARE`] of their text or
/// more, and the others are no prose ([`no_prose`]: a box's headlines are lines, a `<br>`
/// between them). A news page of 2008 laid out in a table's rows or in `div`s of one
/// class: the story's row beside the rows of headlines, "most popular" and the site's
/// sections, read whole for a listing when the page does not call itself an article. An article whose sections are the cards (each a prose section under its
/// heading) is read whole, and a listing Readability read one card of has cards of about
/// that card's size. Each child's text is rendered once.
fn layout_boxes(block: &NodeRef<'_>, paragraph: &str) -> bool {
    let (mut holder, mut total, mut others, mut others_prose) = (None, 0usize, 0usize, 0usize);
    for card in block.element_children() {
        let text = tree::text(&card);
        let chars = nonspace(&text);
        total += chars;
        if text.contains(paragraph) {
            holder = holder.or(Some(chars));
        } else {
            others += chars;
            others_prose += line_prose_chars(&text);
        }
    }
    holder.is_some_and(|h| h * HOLDER_SHARE.1 >= total * HOLDER_SHARE.0)
        && no_prose(others_prose, others)
}

/// Whether text of `chars` characters, `prose` of them in lines of prose
/// ([`line_prose_chars`]), is no prose: under [`OTHERS_PROSE_SHARE`] of it.
fn no_prose(prose: usize, chars: usize) -> bool {
    prose * OTHERS_PROSE_SHARE.1 < chars * OTHERS_PROSE_SHARE.0
}

/// Characters (no whitespace) of `text`'s lines of prose ([`PROSE_MIN_CHARS`] or more
/// each): a box's headlines are lines, a `<br>` between them, where [`prose_chars`] would
/// count them one paragraph.
fn line_prose_chars(text: &str) -> usize {
    text.lines()
        .map(nonspace)
        .filter(|&n| n >= PROSE_MIN_CHARS)
        .sum()
}

/// Text read (characters, no whitespace) from which an article, half of it prose, stands
/// against cards that are boxes of links ([`link_boxes`]).
const LINK_BOXES_ARTICLE_CHARS: usize = 200;

/// Linked items of a list that make its card a box of links ([`link_boxes`]).
const LINK_BOX_ITEMS: usize = 3;

/// Steps (an element's opening or closing) of a list item's walk looked at for its link
/// ([`link_boxes`]): lists nested a page deep would otherwise have each item's subtree
/// walked once for every list above it.
const LINK_LOOK_STEPS: usize = 64;

/// Whether the cards in `block` (cleaned; `text` its text) are a sidebar's boxes of links,
/// not a listing: half of them or more hold a list of [`LINK_BOX_ITEMS`] linked items or
/// more, and their text is no prose ([`no_prose`]). A blog's archive, blogroll and categories, each a heading over its
/// list (WordPress's `ul.xoxo.blogroll`, a template's `ul`s of months). A listing's cards
/// are its entries, each a title and a line or a picture, not a list of links; a thread's
/// posts are prose. Each card's subtree is walked once, and each list item's first
/// [`LINK_LOOK_STEPS`] steps.
fn link_boxes(block: &NodeRef<'_>, text: &str) -> bool {
    let cards = block.element_children();
    let (boxes, _) = boxes_of_links(&cards);
    2 * boxes >= cards.len() && no_prose(line_prose_chars(text), nonspace(text))
}

/// How many of `cards` hold a list of [`LINK_BOX_ITEMS`] linked items or more
/// ([`link_boxes`]), and the steps of the walks that looked for the items' links.
fn boxes_of_links(cards: &[NodeRef<'_>]) -> (usize, usize) {
    let mut steps = 0usize;
    let mut linked = |item: &NodeRef<'_>| {
        item.has_name("li")
            && tree::edges(item).take(LINK_LOOK_STEPS).any(|e| {
                steps += 1;
                matches!(e, Edge::Open(a) if a.has_name("a"))
            })
    };
    let boxes = cards
        .iter()
        .filter(|card| {
            card.descendants().iter().any(|list| {
                (list.has_name("ul") || list.has_name("ol"))
                    && list
                        .element_children()
                        .iter()
                        .filter(|item| linked(item))
                        .count()
                        >= LINK_BOX_ITEMS
            })
        })
        .count();
    (boxes, steps)
}

/// Microdata types of a thread's opening post (`itemtype`'s last segment, any case).
const OPENING_POST_TYPES: &[&str] = &["question", "discussionforumposting"];

/// A thread's opening post as its microdata marks it: the body (`itemprop` `text` or
/// `articleBody`) of the first element typed a `Question` or a `DiscussionForumPosting`,
/// not that of an answer or comment inside it; its HTML and text, when it holds prose.
/// Stack Exchange's question: Readability takes the longest answer for the article, and
/// the answers are the thread's cards, so without it the question is not read at all.
fn opening_post(doc: &Document) -> Option<(String, String)> {
    let typed = |n: &NodeRef<'_>| {
        n.attr("itemtype").is_some_and(|t| {
            let last = t.trim().rsplit('/').next().unwrap_or_default();
            OPENING_POST_TYPES
                .iter()
                .any(|x| last.eq_ignore_ascii_case(x))
        })
    };
    let post = tree::first_element(&doc.root(), typed)?;
    let body = tree::first_element(&post, |n| {
        n.attr("itemprop").is_some_and(|p| {
            p.split_ascii_whitespace()
                .any(|w| w == "text" || w == "articleBody")
        })
    })?;
    let nested = body
        .ancestors_it(None)
        .take_while(|a| a.id != post.id)
        .any(|a| a.attr("itemscope").is_some());
    if nested {
        return None;
    }
    let text = tree::text(&body);
    (prose_chars(&text) >= PROSE_MIN_CHARS).then(|| (body.html().to_string(), text))
}

/// `x` with the thread's opening post ([`opening_post`]) first, under its title, when what
/// was read does not hold the post's longest paragraph.
fn with_opening(x: Extracted, post: Option<(String, String)>, url: &Url) -> Extracted {
    let Some((post_html, post_text)) = post else {
        return x;
    };
    let Some(longest) = longest_paragraph(&post_text) else {
        return x;
    };
    if x.text.contains(longest) {
        return x;
    }
    let post_html = sanitize(&post_html, Some(url));
    let (head, rest) = match x.text.split_once("\n\n") {
        Some((first, rest)) if first.trim() == x.title.trim() => (first, rest),
        _ => ("", x.text.as_str()),
    };
    let text = if head.is_empty() {
        format!("{}\n\n{}", post_text.trim(), rest.trim_start())
    } else {
        format!("{head}\n\n{}\n\n{}", post_text.trim(), rest.trim_start())
    };
    let html = match x
        .html
        .strip_prefix("<h1>")
        .and_then(|h| h.split_once("</h1>"))
    {
        Some((title, rest)) => format!("<h1>{title}</h1>{post_html}{rest}"),
        None => format!("{post_html}{}", x.html),
    };
    Extracted { html, text, ..x }
}

/// The characters (no whitespace) of `text`'s paragraphs of prose ([`PROSE_MIN_CHARS`]
/// or more each): a post is mostly prose, a sidebar's rules or a list of names is not.
fn prose_chars(text: &str) -> usize {
    text.split("\n\n")
        .map(nonspace)
        .filter(|&n| n >= PROSE_MIN_CHARS)
        .sum()
}

/// A thread read as its opening post (`x`) followed by its replies, when the page's cards
/// are the replies to that post ([`super::cards::replies_to`]: of its component, Vanilla's
/// comments under its discussion) but hold too little to replace it; `x` otherwise.
fn with_replies(
    x: Extracted,
    cards: super::cards::Cards,
    page: impl FnOnce() -> Document,
    html: &str,
    url: &Url,
) -> Extracted {
    let Some(longest) = longest_paragraph(&x.text).filter(|p| nonspace(p) >= PROSE_MIN_CHARS)
    else {
        return x;
    };
    // The page's tree only for a post with a paragraph to look for (it may be parsed again).
    let page = page();
    if !super::cards::replies_to(&page, &cards, longest) {
        return x;
    }
    let block = NodeRef::new(cards.id, &page.tree);
    super::cards::drop_chrome(&block, super::cards::articles_own(Kind::Forum));
    clean(&block, false, Names::Posts, true);
    let replies = tree::text(&block);
    if nonspace(&replies) == 0 || x.text.contains(replies.trim()) {
        return x;
    }
    followed_by(x, &sanitize(&block.inner_html(), Some(url)), &replies, html)
}

/// `x` followed by `more` (its sanitised HTML and its text): a thread's post, then its
/// replies.
fn followed_by(x: Extracted, more_html: &str, more_text: &str, html: &str) -> Extracted {
    let body = format!("{}{more_html}", x.html);
    let text = format!("{}\n\n{}", x.text.trim_end(), more_text.trim());
    finished(&x.title, body, text, html, x.warning)
}

/// The longest of `text`'s paragraphs (apart by a blank line), trimmed: the one a post
/// is looked for by in the replies, the cards or what was read.
fn longest_paragraph(text: &str) -> Option<&str> {
    text.split("\n\n").map(str::trim).max_by_key(|p| p.len())
}

/// Characters of a paragraph of prose: [`or_cards`] counts them without whitespace,
/// [`quoted_in_the_flow`] as its text nodes' trimmed characters.
const PROSE_MIN_CHARS: usize = 80;

/// The result: the article's own title (see [`article_title`]) heading its text once.
fn finished(
    found: &str,
    body_html: String,
    body_text: String,
    page: &str,
    warning: Option<String>,
) -> Extracted {
    let title = article_title(found, page);
    let (html, text) = headed(&title, body_html, body_text);
    Extracted {
        title,
        html,
        text,
        warning,
    }
}

/// The page's largest block (holding `share` of the best block's text), cleaned and
/// rendered (its articles' headers kept: it serves documentation, service and oversized
/// pages); `None` when it has no text.
fn block_read(
    doc: &Document,
    share: (usize, usize),
    html: &str,
    url: &Url,
    warning: Option<String>,
    title: Option<String>,
    names: Names,
) -> Option<Extracted> {
    let (found, block) = largest_block(doc, 0, share)?;
    let title = title.unwrap_or(found);
    let (body, text) = block_text(&block, names, true);
    if nonspace(&text) == 0 {
        return None;
    }
    let body = sanitize(&body, Some(url));
    Some(finished(&title, body, text, html, warning))
}

/// A block taken as the page's text (its largest block, the body it names), cleaned as an
/// article's text is, its chrome out — but the headers of the articles in it when
/// `articles_own` ([`super::cards::articles_own`]): its HTML and its plain text. `names`:
/// see [`clean`].
fn block_text(block: &NodeRef<'_>, names: Names, articles_own: bool) -> (String, String) {
    super::cards::drop_named_outside_articles(block, CHROME, articles_own);
    let controls: Vec<NodeRef<'_>> = block.descendants_it().filter(control).collect();
    for c in controls {
        c.remove_from_parent();
    }
    clean(block, false, names, false);
    let text = tree::text(block);
    (block.inner_html().to_string(), text)
}

/// What the result says when the page was too large to read as an article.
pub const TOO_LARGE_WARNING: &str =
    "the page has too many elements to read as an article; this is its largest block of text";

/// A page with more elements than [`MAX_ELEMENTS`]: the JSON-LD `articleBody` when the
/// page declares one, else the largest block of the part of the page that was built.
fn too_large(doc: &Document, ld: &LinkedData, html: &str, url: &Url) -> Option<Extracted> {
    if let Some(x) = linked_body(ld, html) {
        return Some(Extracted {
            warning: Some(TOO_LARGE_WARNING.to_string()),
            ..x
        });
    }
    let warning = Some(TOO_LARGE_WARNING.to_string());
    block_read(doc, ARTICLE_SHARE, html, url, warning, None, Names::Any)
}

/// What the result says when the text is the body the page's JSON-LD declares.
pub const LINKED_DATA_WARNING: &str =
    "no article was recognised on the page; this is the article body its JSON-LD declares";

/// The `articleBody` (or a posting's `text`) the page's JSON-LD declares, as an article
/// with [`LINKED_DATA_WARNING`].
fn linked_body(ld: &LinkedData, html: &str) -> Option<Extracted> {
    let body = crate::text::collapse(ld.body.as_deref()?);
    if body.is_empty() {
        return None;
    }
    let body_html = format!("<p>{}</p>", html_escape(&body));
    Some(finished(
        "",
        body_html,
        body,
        html,
        Some(LINKED_DATA_WARNING.to_string()),
    ))
}

/// What the result says when the text is all the page shows.
pub const PAGE_TEXT_WARNING: &str =
    "no article was recognised on the page; this is all of its text, navigation included";

/// The last resort of a page with text but no article, no block outside its chrome and no
/// JSON-LD body (a page of link lists, a script's "enable JavaScript" notice): all the
/// text it shows, with [`PAGE_TEXT_WARNING`], rather than `failed` — a reader sees what
/// the page is.
fn page_text(html: &str, url: &Url) -> Option<Extracted> {
    let doc = super::shape::parse_measured(html, MAX_ELEMENTS).0;
    let body = *doc.select("body").nodes().first()?;
    let text = tree::text(&body);
    if nonspace(&text) == 0 {
        return None;
    }
    let body_html = sanitize(&body.inner_html(), Some(url));
    Some(finished(
        "",
        body_html,
        text,
        html,
        Some(PAGE_TEXT_WARNING.to_string()),
    ))
}

/// An article shorter than this (characters, no whitespace) is weighed against the body
/// the page names ([`content_body`]). A longer one is left as Readability found it: a
/// body is cleaned as a block is, without Readability's judgement of each element, and
/// Readability's test page of hotel secrets (3,441 characters) has a 50-slide gallery in
/// its `articleBody` that Readability leaves out.
const NAMED_BODY_ARTICLE_CHARS: usize = 3000;

/// How many times the article's text the page's main ([`content_body`]) may hold to be read
/// instead. Measured on the WCXB development split: 3 keeps two of the four pages it
/// reads whole, 5 adds a shop's rewards panel (−0.10); with no bound, a Yahoo story among
/// its modules on Readability's test pages (`yahoo-3`, 0.97 → 0.43).
const MAIN_BODY_OVER: usize = 4;

/// Text (characters, no whitespace) from which the body a page names
/// ([`content_body`]) is its article's text even where Readability read elsewhere.
const ELSEWHERE_BODY_MIN_CHARS: usize = 200;

/// The words `a` and `b` share (each as often as both have it), and how many words each
/// has: one count serves both directions of [`holds_most`].
fn shared_words(a: &str, b: &str) -> (usize, usize, usize) {
    let mut bag: HashMap<String, usize> = HashMap::new();
    let mut in_a = 0usize;
    for w in lowered_words(a) {
        in_a += 1;
        *bag.entry(w).or_default() += 1;
    }
    let (mut shared, mut in_b) = (0usize, 0usize);
    for w in lowered_words(b) {
        in_b += 1;
        if let Some(n) = bag.get_mut(&w).filter(|n| **n > 0) {
            *n -= 1;
            shared += 1;
        }
    }
    (shared, in_a, in_b)
}

/// Whether `read` holds most of `body`'s words (each as often as `body` has it): half of
/// them or more.
fn holds_most(read: &str, body: &str) -> bool {
    let (shared, _, all) = shared_words(read, body);
    2 * shared >= all
}

/// Where Readability's article was read, against the body the page names
/// ([`content_body`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// The article holds most of the body.
    Body,
    /// The body holds most of the article (and more: a post and its comments).
    Within,
    /// Neither holds most of the other.
    Elsewhere,
}

/// The words of `t`, lower case: its runs of letters and digits.
fn lowered_words(t: &str) -> impl Iterator<Item = String> + '_ {
    t.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// What a site's classes and ids name its article's body with (any case): blog engines'
/// and publishers' templates (WordPress's `entry-content`). Microdata's
/// `itemprop="articleBody"` names it too.
const CONTENT_BODY_NAMES: &[&str] = &[
    "entry-content",
    "post-content",
    "post_content",
    "postcontent",
    "post-body",
    "post-entry",
    "article-content",
    "article__content",
    "article-body",
    "article__body",
    "articlebody",
    "article-text",
    "story-body",
    "blog-content",
    "single-content",
];

static CONTENT_BODY_MATCHER: LazyLock<aho_corasick::AhoCorasick> =
    LazyLock::new(|| names_matcher(CONTENT_BODY_NAMES));

/// The first element the page names its article's body ([`CONTENT_BODY_NAMES`], or
/// `itemprop="articleBody"`), else its one `<main>` (or `role="main"`) when it has no
/// `<article>`; its text (characters, no whitespace), and whether it is the main. A page
/// builder's sections (a service's bands, a shop's blocks) are its main's children, and
/// Readability takes one of them; a page with an `<article>` says where its text is, and
/// one with two mains says neither is the page's. Tested by hand, one element at a time:
/// as a selector list it cost 6 % of an article's extraction. `None` when the page names
/// a second body outside the first: a thread's posts or a listing's entries, each named
/// so, where the first is one of several.
fn content_body(doc: &Document) -> Option<(NodeId, usize, bool)> {
    let named = |n: &NodeRef<'_>| {
        n.attr("itemprop").is_some_and(|v| &*v == "articleBody")
            || ["class", "id"].iter().any(|a| {
                n.attr(a)
                    .is_some_and(|v| CONTENT_BODY_MATCHER.is_match(v.as_bytes()))
            })
    };
    // One walk: a named body is taken where it is met; the page's mains and whether it
    // has an `<article>` are noted on the way, for a page that names none.
    let (mut main, mut mains, mut article) = (None, 0usize, false);
    for n in doc.root().descendants_it().filter(NodeRef::is_element) {
        if named(&n) {
            // The rest of the page, after the body's subtree: what follows it and each of
            // its ancestors.
            let named_in = |s: NodeRef<'_>| {
                s.is_element()
                    && (named(&s) || s.descendants_it().any(|m| m.is_element() && named(&m)))
            };
            if std::iter::successors(Some(n), NodeRef::parent)
                .flat_map(|a| std::iter::successors(a.next_sibling(), NodeRef::next_sibling))
                .any(named_in)
            {
                return None;
            }
            return Some((n.id, nonspace(&n.text()), false));
        }
        if article || mains > 1 {
            continue;
        }
        if n.has_name("article") {
            article = true;
        } else if n.has_name("main")
            || n.attr("role")
                .is_some_and(|r| r.trim().eq_ignore_ascii_case("main"))
        {
            mains += 1;
            main = Some(n);
        }
    }
    let main = main.filter(|_| mains == 1 && !article)?;
    Some((main.id, nonspace(&main.text()), true))
}

/// Ancestors of a text node [`drop_comments`] looks through for its paragraph (a link in
/// a paragraph's emphasis is three deep).
const PARAGRAPH_MAX_DEPTH: usize = 4;

/// Nodes of a heading read for its text by [`drop_comments`]: a title's, not a subtree's.
const HEADING_MAX_NODES: usize = 64;

/// Removes from an article's page, before Readability looks at it, the sections its
/// headings call readers' comments ([`super::boilerplate::opens_comments`]: "12 Comments",
/// "Leave a Reply") after [`COMMENTS_AFTER_CHARS`] of paragraphs' text: whatever they hold, the
/// comments are not the article (WCXB's references and trafilatura's leave them out), and
/// a long thread of them would be what Readability reads. Each heading's text is read
/// over at most [`HEADING_MAX_NODES`] nodes, and the page's counts are taken only when one
/// opens comments: one walk of the page, and one more for a page with comments.
fn drop_comments(doc: &Document) {
    let root = doc.root();
    let (mut before, mut headings) = (0usize, Vec::new());
    for n in root.descendants_it() {
        if n.is_text() {
            // Paragraphs' text only: a tiny post under a site's header and menus keeps its
            // comments here (Readability would read the sidebar without them); cleaning the
            // article takes them off it after ([`clean`]).
            if std::iter::successors(n.parent(), NodeRef::parent)
                .take(PARAGRAPH_MAX_DEPTH)
                .any(|a| a.has_name("p"))
            {
                before += tree::text_len(&n);
            }
            continue;
        }
        if before < COMMENTS_AFTER_CHARS || !named(&n, HEADINGS) {
            continue;
        }
        let (mut text, mut chars) = (String::new(), 0usize);
        for t in n
            .descendants_it()
            .take(HEADING_MAX_NODES)
            .filter(NodeRef::is_text)
        {
            chars += tree::text_len(&t);
            if chars > RECOMMENDS_MAX_CHARS {
                break;
            }
            text.push_str(&t.text());
        }
        if chars > 0
            && chars <= RECOMMENDS_MAX_CHARS
            && super::boilerplate::opens_comments(&crate::text::collapse(&text).to_lowercase())
        {
            headings.push(n);
        }
    }
    if headings.is_empty() {
        return;
    }
    let Some(body) = tree::first_element(&root, |n| n.has_name("body")) else {
        return;
    };
    let counts = tree::counts(&body, BLOCKS);
    let mut looked = 0usize;
    for h in headings {
        // An earlier section may hold this one.
        if h.ancestors_it(None).all(|a| a.id != body.id) {
            continue;
        }
        if let Some(section) = heading_section(&h, &body, &counts, usize::MAX, &mut looked) {
            for n in section {
                n.remove_from_parent();
            }
        }
    }
}

/// Text (characters, no whitespace) from which a block named a review is a product's
/// reviews rather than a count or a link to them.
const REVIEWS_MIN_CHARS: usize = 200;
/// At most this many such blocks are one product's reviews (a summary and the list);
/// more are a page's sections, each a review ("the best packs of the year").
const REVIEWS_MAX_BLOCKS: usize = 2;
/// Names of a firm's quoted customers: its page's own text, not reviews of a product.
const TESTIMONIAL_NAMES: &[&str] = &["testimonial", "testimonials"];

/// Utility classes that hide an element at every width (Bootstrap's, Bulma's, Etsy's…).
const HIDING_CLASSES: &[&str] = &[
    "hidden",
    "hide",
    "d-none",
    "display-none",
    "wt-display-none",
    "is-hidden",
    "u-hidden",
];

/// Words of a class that show an element at some width (`d-md-block`, `md:flex`,
/// `wt-display-block-lg`, `show-for-large`).
const SHOWING_WORDS: &[&str] = &["block", "flex", "inline", "grid", "table", "show"];

/// Whether a class list hides its element at every width: one of [`HIDING_CLASSES`], and
/// no class with a word of [`SHOWING_WORDS`] (split at `-`, `_` and `:`).
fn class_hidden(class: &str) -> bool {
    let mut words = class.split_ascii_whitespace();
    words
        .clone()
        .any(|w| HIDING_CLASSES.iter().any(|h| w.eq_ignore_ascii_case(h)))
        && !words.any(|w| {
            w.split(['-', '_', ':'])
                .any(|p| SHOWING_WORDS.iter().any(|s| p.eq_ignore_ascii_case(s)))
        })
}

/// Why [`not_product`] looks at a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotProduct {
    /// Named a review ([`REVIEW_NAMES`]).
    Reviews,
    /// Classed hidden at every width ([`class_hidden`]).
    Hidden,
}

/// Removes from a product's page, before Readability or its cards look at it, what is
/// not the product's text:
/// - its customer reviews: the outermost blocks named a review ([`REVIEW_NAMES`]) of
///   [`REVIEWS_MIN_CHARS`] or more, when there are at most [`REVIEWS_MAX_BLOCKS`] and none
///   holds the page's `h1` or is named a testimonial. Reviews often hold more text than
///   the description, so Readability would take them for the article;
/// - what its classes hide at every width ([`class_hidden`]): the buy box's other states
///   ("Notify me when back in stock", "Something went wrong"), overlays, a shipping
///   form's countries, another variant's details. Accordions are shown before
///   ([`open_panels`]) and lose the class then. On other kinds of page the hidden blocks
///   are a service's tabs and a FAQ's answers, which WCXB's references hold.
///
/// WCXB's references leave both out (docs/benchmarks.md, "A product's page").
fn not_product(doc: &Document) {
    let root = doc.root();
    let mut reviews: Vec<(NodeRef<'_>, usize, bool)> = Vec::new();
    let mut hidden: Vec<NodeRef<'_>> = Vec::new();
    // The outermost block being looked at: its id, why, its text and whether it holds an h1.
    let mut open: Option<(NodeId, NotProduct, usize, bool)> = None;
    for edge in tree::edges(&root) {
        match edge {
            Edge::Open(n) => match &mut open {
                Some((_, _, chars, h1)) => {
                    *chars += tree::text_len(&n);
                    *h1 |= n.has_name("h1");
                }
                None => {
                    let why = tree::element(&n, |e| {
                        if e.attr("class").is_some_and(class_hidden) {
                            Some(NotProduct::Hidden)
                        } else if el_named_as(e, REVIEW_NAMES) && !el_named_as(e, TESTIMONIAL_NAMES)
                        {
                            Some(NotProduct::Reviews)
                        } else {
                            None
                        }
                    });
                    open = why.flatten().map(|why| (n.id, why, 0, false));
                }
            },
            Edge::Close(n) => {
                let Some((id, why, chars, h1)) = open else {
                    continue;
                };
                if id != n.id {
                    continue;
                }
                open = None;
                match why {
                    NotProduct::Hidden if !h1 => hidden.push(n),
                    NotProduct::Reviews if chars >= REVIEWS_MIN_CHARS => {
                        reviews.push((n, chars, h1));
                    }
                    _ => {}
                }
            }
        }
    }
    for n in hidden {
        n.remove_from_parent();
    }
    if reviews.len() <= REVIEWS_MAX_BLOCKS && reviews.iter().all(|(_, _, h1)| !h1) {
        for (n, _, _) in reviews {
            n.remove_from_parent();
        }
    }
}

/// The id of the element Readability puts the article in.
const ARTICLE_ROOT: &str = "readability-page-1";

/// Whether element `n` is one the pre-pass looks at: a definition list (a fact box), a
/// licence link (`rel` with the word `license`, any case, or an `href` to a Creative
/// Commons licence or dedication), a block whose class or id holds `comment`, an e-mail
/// field (`type="email"`, any case; a sign-up). As the selector `dl, a[rel~=license],
/// a[href*='creativecommons.org/licenses/'], a[href*='creativecommons.org/publicdomain/'],
/// [class*=comment], [id*=comment], input[type=email]` would, tested by hand: matching the
/// selector list on every element cost 3.7 % of a page's extraction.
fn prepass_candidate(n: &NodeRef<'_>) -> bool {
    tree::element_is(n, |e| {
        (e.name == "dl")
            || (e.name == "a"
                && (e.attr("rel").is_some_and(|r| {
                    r.split_ascii_whitespace()
                        .any(|w| w.eq_ignore_ascii_case("license"))
                }) || e.attr("href").is_some_and(|h| {
                    h.contains("creativecommons.org/licenses/")
                        || h.contains("creativecommons.org/publicdomain/")
                })))
            || (e.name == "input"
                && e.attr("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("email")))
            || e.attr("class").is_some_and(|c| c.contains("comment"))
            || e.attr("id").is_some_and(|i| i.contains("comment"))
            || ((SECTION_HEADINGS.contains(&e.name) || e.name == "table") && header_named(e))
    })
}

/// Headings of an article's sections (its title, `h1`, is read apart).
const SECTION_HEADINGS: &[&str] = &["h2", "h3", "h4", "h5", "h6"];

/// Whether an element's class says `header` (any case): Readability takes such a block
/// for the page's header and drops it before scoring, and a section's heading is often so
/// classed (Substack's `header-anchor-post`, a theme's `section-header`). Its id is left:
/// a heading's link to itself names it ([`anchored_heading`]).
fn header_named(e: &tree::El<'_>) -> bool {
    e.attr("class")
        .is_some_and(|v| tree::contains_ignore_case(v, b"header"))
}
/// Whether `table`, its class naming a header ([`header_named`]), holds a header row or a
/// caption of its own among its first [`WALK_MAX_NODES`] nodes: a table of data.
fn header_named_table(table: &NodeRef<'_>) -> bool {
    tree::element_is(table, header_named)
        && table
            .descendants_it()
            .take(WALK_MAX_NODES)
            .any(|d| ["th", "thead", "caption"].iter().any(|t| d.has_name(t)))
}
/// A sign-up box is a heading, a line of pitch and the form (characters, no whitespace).
const SIGNUP_MAX_CHARS: usize = 300;
/// Candidates of each kind the pre-pass examines on one page: a hostile page of thousands
/// of comment-named blocks costs no more than a real one.
const PREPASS_MAX_CANDIDATES: usize = 64;
/// Nodes read under one candidate: what the pre-pass keeps is short, so a candidate with
/// more is not one (and the walk stays bounded, whatever the page).
const WALK_MAX_NODES: usize = 400;
/// A fact box is short: a few terms and their values (characters, no whitespace).
const FACT_BOX_MAX_CHARS: usize = 600;
/// A fact box's heading is a few words.
const HEADING_MAX_CHARS: usize = 80;
/// Fact boxes appended to one article.
const FACT_BOXES_MAX: usize = 3;
/// A quoted comment is a few sentences; a comments section is longer.
const QUOTE_MAX_CHARS: usize = 600;
/// A licence line is one sentence.
const LICENCE_MAX_CHARS: usize = 300;
/// How far the pre-pass looks for a licence link's line, and past neighbouring quotes.
const NEAR: usize = 4;
/// A block between a quote and the text with less text than this is a slot (an ad's
/// label, an empty box), looked past.
const SLOT_MAX_CHARS: usize = 16;
/// Site chrome: nothing inside it is the article's.
const PAGE_CHROME: &[&str] = &["nav", "header", "footer", "form"];

/// What a bounded walk over a candidate's subtree found.
#[derive(Debug, Default)]
struct Walk {
    /// Characters of text (no whitespace).
    chars: usize,
    /// Of those, characters inside a link.
    linked: usize,
    /// Terms (`dt`).
    terms: usize,
    /// Descriptions (`dd`).
    descriptions: usize,
    /// Headings or form controls: not a fact box, a quote or a licence line.
    structure: bool,
}

/// Elements of running text that may stand before a licence line or around a quote.
const FLOW: &[&str] = &[
    "p",
    "ul",
    "ol",
    "blockquote",
    "pre",
    "table",
    "dl",
    "figure",
];

/// Sums a walk over `n`'s subtree; `None` when it holds more than [`WALK_MAX_NODES`]
/// nodes.
fn walk_of(n: &NodeRef<'_>) -> Option<Walk> {
    let mut w = Walk::default();
    for (i, d) in n.descendants_it().enumerate() {
        if i > WALK_MAX_NODES {
            return None;
        }
        if d.is_text() {
            let chars = tree::text_len(&d);
            w.chars += chars;
            if d.ancestors_it(Some(3)).any(|a| a.has_name("a")) {
                w.linked += chars;
            }
        } else if let Some(name) = d.qual_name_ref() {
            match &*name.local {
                "dt" => w.terms += 1,
                "dd" => w.descriptions += 1,
                "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "form" | "input" | "textarea" => {
                    w.structure = true
                }
                _ => {}
            }
        }
    }
    Some(w)
}

/// Whether `n` is inside one of the `chrome` elements.
fn in_chrome(n: &NodeRef<'_>, chrome: &[&str]) -> bool {
    n.ancestors_it(None)
        .any(|a| chrome.iter().any(|c| a.has_name(c)))
}

/// Whether `n`'s class or id names it a comment.
fn comment_named(n: &NodeRef<'_>) -> bool {
    n.class().is_some_and(|c| c.contains("comment"))
        || n.id_attr().is_some_and(|c| c.contains("comment"))
}

/// Whether a sibling between a comment-named block and the running text is looked past:
/// another quote, or a slot with next to no text (an ad, an empty box).
fn passed(s: &NodeRef<'_>) -> bool {
    comment_named(s) || (!s.has_name("p") && walk_of(s).is_some_and(|w| w.chars < SLOT_MAX_CHARS))
}

/// Words in a class or id that name a modal dialog.
const MODAL_NAMES: &[&str] = &["modal"];

/// Whether `n`, found by [`asked_candidate`], is what a page shows only when asked: the
/// candidates' substring finds `modallink-wrap` too, which a name's words do not. A block named a
/// modal is one unless the page was saved with a modal `shown`.
fn asked(n: &NodeRef<'_>, shown: bool) -> bool {
    (n.has_name("form") && !text_in_a_form(n))
        || n.has_name("dialog")
        || n.attr("role")
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("dialog"))
        || n.attr("aria-modal")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || n.has_attr("popover")
        || (!shown && modal_named(n))
}

/// Whether form `n` is a wrapper of text, not a form: it has no control its reader fills
/// or presses (no `<input>` but `hidden` ones, no `<textarea>`, `<select>` or `<button>`)
/// and its text is mostly not links. Old Reddit wraps each comment in a form of one hidden
/// field (the comment's id, for its editor): that is the thread's text. A shop's compare
/// form around its product grid, or a store's "add all to cart" list, is links. Forms do
/// not nest, so the walks over all of them are linear in the page.
fn text_in_a_form(n: &NodeRef<'_>) -> bool {
    let (mut chars, mut linked, mut in_link) = (0usize, 0usize, 0usize);
    for edge in tree::edges(n) {
        match edge {
            Edge::Open(d) => {
                if named(&d, &["textarea", "select", "button"])
                    || (d.has_name("input")
                        && !d
                            .attr("type")
                            .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden")))
                {
                    return false;
                }
                in_link += usize::from(d.has_name("a"));
                let c = tree::text_len(&d);
                chars += c;
                if in_link > 0 {
                    linked += c;
                }
            }
            Edge::Close(d) => in_link -= usize::from(d.has_name("a")),
        }
    }
    chars > 0 && linked.saturating_mul(2) < chars
}

/// Words after `modal` in a name that say what opens a modal or may show one, not what
/// is one: a news site's article wrapper `modal-enabled` (its pictures open in one), a
/// `modal-trigger` link, a body's `modal-open`.
const NOT_MODAL_NAMES: &[&str] = &[
    "enabled", "trigger", "open", "opener", "link", "toggle", "close", "btn", "button",
];

/// Whether a class or the id of `n` has the word `modal` ([`MODAL_NAMES`]) not followed by
/// one of [`NOT_MODAL_NAMES`].
fn modal_named(n: &NodeRef<'_>) -> bool {
    let (class, id) = (n.class(), n.id_attr());
    class
        .as_deref()
        .into_iter()
        .flat_map(str::split_ascii_whitespace)
        .chain(id.as_deref())
        .any(|name| {
            let mut words = name.split(['-', '_']).peekable();
            while let Some(w) = words.next() {
                if MODAL_NAMES.iter().any(|m| w.eq_ignore_ascii_case(m))
                    && !words.peek().is_some_and(|next| {
                        NOT_MODAL_NAMES.iter().any(|x| next.eq_ignore_ascii_case(x))
                    })
                {
                    return true;
                }
            }
            false
        })
}

/// Of those, at most this many are looked at, and their text is counted over at most
/// [`ASKED_MAX_NODES`] nodes in all (nested ones are walked again for each).
const ASKED_MAX: usize = 256;
const ASKED_MAX_NODES: usize = 200_000;

/// Whether element `n` may be what a page shows only when the reader asks for it: a form
/// (its fields, a shop's cart and quick-order list) or a modal dialog (a cart drawer, a
/// sign-in box, "learn more"; a `popover`, shown only when opened), marked as one or
/// named one ([`MODAL_NAMES`]: a theme's `sidesheet-modal` of a loyalty scheme's terms).
/// This finds the candidates, as the selector `form, dialog, [role=dialog],
/// [aria-modal=true], [popover], [class*=modal i], [id*=modal i]` would (`role` and
/// `aria-modal` exactly, `modal` in any case), tested by hand: matching the selector list
/// on every element cost 3.5 % of a page's extraction; [`asked`] decides.
fn asked_candidate(n: &NodeRef<'_>) -> bool {
    tree::element_is(n, |e| {
        e.name == "form"
            || e.name == "dialog"
            || e.attr("role") == Some("dialog")
            || e.attr("aria-modal") == Some("true")
            || e.attr("popover").is_some()
            || e.attr("class")
                .is_some_and(|c| tree::contains_ignore_case(c, b"modal"))
            || e.attr("id")
                .is_some_and(|i| tree::contains_ignore_case(i, b"modal"))
    })
}

/// Removes, before the page's kind, cards or article are looked for, what it shows only when asked ([`asked_candidate`])
/// unless it holds half of the page's text (`text_chars`, all of it as measured while
/// parsing): a page whose whole body is one `<form>` (ASP.NET) keeps it. A form with an
/// e-mail field stays for [`before_readability`], which takes its sign-up box with the
/// pitch around it — when it is one: a form of more than [`SIGNUP_MAX_CHARS`] (an
/// enrolment popup's pages of terms) goes as any other. Trafilatura drops
/// forms the same way. Measured: docs/benchmarks.md, "Every kind of page". Returns the
/// nodes it walked.
fn drop_asked(doc: &Document, text_chars: usize) -> usize {
    let mut walked = 0usize;
    // A page saved with its modal open (`<body class="modal-open">`) shows it: the
    // article a news site opens over its front page.
    let shown = ["html", "body"].iter().any(|t| {
        doc.select_single(t)
            .nodes()
            .first()
            .is_some_and(|e| named_as(e, MODAL_NAMES))
    });
    let found: Vec<NodeRef<'_>> = doc
        .root()
        .descendants_it()
        .filter(asked_candidate)
        .collect();
    for n in found.iter().filter(|n| asked(n, shown)).take(ASKED_MAX) {
        let (mut chars, mut signup) = (0usize, false);
        for d in n.descendants_it() {
            if walked == ASKED_MAX_NODES {
                return walked;
            }
            walked += 1;
            chars += tree::text_len(&d);
            signup |= d.has_name("input")
                && d.attr("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("email"));
        }
        let signup = signup && chars <= SIGNUP_MAX_CHARS;
        if !signup && chars.saturating_mul(2) < text_chars {
            n.remove_from_parent();
        }
    }
    walked
}

/// Words in a class or id that name a disclosure panel ([`open_panels`]).
const PANEL_NAMES: &[&str] = &["accordion", "collapse", "collapsible", "faq", "answer"];

/// Hidden panels opened on one page at most ([`open_panels`]).
const PANELS_MAX: usize = 4096;

/// Shows what a page hides until its reader opens it: an accordion's panels, a FAQ's
/// answers, a `role="region"` a heading's button discloses — the page's own text (a guide's
/// weeks, a service's questions), which Readability drops as invisible (`hidden`,
/// `aria-hidden`, an inline `display: none`) or as named hidden (Kadence's
/// `kt-accordion-panel-hidden`). Each goes as if opened: those attributes, that style and
/// those class words removed. A tab panel is not one: a product's hidden tabs (shipping,
/// returns, its reviews) are not its content — measured on WCXB's development split
/// (docs/benchmarks.md, "Panels a reader opens"). Opens at most [`PANELS_MAX`]; returns
/// how many it opened.
fn open_panels(doc: &Document) -> usize {
    let panels: Vec<NodeRef<'_>> = doc
        .root()
        .descendants_it()
        .filter(|n| tree::element_is(n, |e| hidden(e) && panel(e)))
        .take(PANELS_MAX)
        .collect();
    for n in &panels {
        n.remove_attr("hidden");
        n.remove_attr("aria-hidden");
        if n.attr("style").is_some_and(|s| display_none(&s)) {
            n.remove_attr("style");
        }
        if let Some(class) = n
            .class()
            .filter(|c| c.split_ascii_whitespace().any(hidden_word))
        {
            let shown: Vec<&str> = class
                .split_ascii_whitespace()
                .filter(|w| !hidden_word(w))
                .collect();
            n.set_attr("class", &shown.join(" "));
        }
    }
    panels.len()
}

/// Whether `n` is hidden as Readability judges it, or named so ([`open_panels`]).
fn hidden(e: &tree::El<'_>) -> bool {
    e.attr("hidden").is_some()
        || e.attr("aria-hidden")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || e.attr("style").is_some_and(display_none)
        || e.attr("class").is_some_and(|c| {
            // Most classes hold no `hidden` at all: answered without splitting them.
            tree::contains_ignore_case(c, b"hidden") && c.split_ascii_whitespace().any(hidden_word)
        })
}

/// A class word that says its element is hidden (`kt-accordion-panel-hidden`, `is-hidden`).
fn hidden_word(w: &str) -> bool {
    w.split(['-', '_'])
        .any(|p| p.eq_ignore_ascii_case("hidden"))
}

/// Whether an inline style hides its element (`display: none`, any case, any whitespace
/// around the colon and the words; a `none` split by whitespace is not `none`).
fn display_none(style: &str) -> bool {
    // Most styles say nothing of `none`: answered without copying them.
    if !tree::contains_ignore_case(style, b"none") {
        return false;
    }
    let compact: String = style
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    compact.contains("display:none")
}

/// Whether `n` is a disclosure panel: `role="region"`, or named one ([`PANEL_NAMES`]).
fn panel(e: &tree::El<'_>) -> bool {
    e.attr("role")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("region"))
        || el_named_as(e, PANEL_NAMES)
}

/// The class word of a site builder's rendering of one part for one range of screen
/// widths: Framer writes each part once per breakpoint (`ssr-variant hidden-12t0irv`), its
/// style sheet showing one of them at each width.
const VARIANT_CLASS: &str = "ssr-variant";

/// Whether `n` is a site builder's rendering of a part for some screen widths
/// ([`VARIANT_CLASS`]). [`drop_not_text`] removes every one but the first among its
/// siblings: the page's text once, as a reader sees it, not once per breakpoint (a Framer
/// article read three times over scored 0.50 on WCXB's development split).
fn variant(n: &NodeRef<'_>) -> bool {
    n.attr("class").is_some_and(|c| {
        tree::contains_ignore_case(&c, VARIANT_CLASS.as_bytes())
            && c.split_ascii_whitespace().any(|w| w == VARIANT_CLASS)
    })
}

/// Elements ([`drop_not_text`]) removed from one page at most: a hostile page of more
/// keeps the rest rather than costing more.
const NOT_TEXT_MAX: usize = 4096;

/// What is on a page but not what it says ([`drop_not_text`]): a control's caption
/// (`<label>`), the classes that hide text from the eye for screen readers ("Load image 3
/// in gallery view", "Opens in a new window": [`SCREEN_READER_CLASSES`]), what the site
/// marks as not its text for search engines (`data-nosnippet`) and a consent manager's
/// banner and panel (OneTrust's, Didomi's, Usercentrics', a WordPress plugin's
/// `cookie-law-info-bar`: [`CONSENT_IDS`], [`CONSENT_CLASSES`]). Tested by hand, one
/// element at a time: as a selector list of substrings it cost a tenth of a page's
/// extraction.
fn not_text(e: &NodeRef<'_>) -> Option<NotText> {
    tree::element(e, |el| {
        if named_not_text(el) || skip_link(e, el) {
            Some(NotText::Named)
        } else {
            el.attr("data-nosnippet").map(|_| NotText::Marked)
        }
    })
    .flatten()
}

/// Bytes of a skip link's text at most ([`skip_link`]): a link to a place on the page that
/// says more is no skip link (a table of contents' entry), and is not compared.
const SKIP_LINK_MAX_BYTES: usize = 256;

/// Whether `e` is a skip link: a link to a place on its own page (`href="#…"`) whose text
/// opens "Skip to" or its like in the vocabulary's languages
/// ([`super::boilerplate::skips`]). Links do not nest, so reading each one's text reads
/// the page's once at most.
fn skip_link(e: &NodeRef<'_>, el: &tree::El<'_>) -> bool {
    if el.name != "a"
        || !el
            .attr("href")
            .is_some_and(|h| h.trim_start().starts_with('#'))
    {
        return false;
    }
    let text = e.text();
    text.len() <= SKIP_LINK_MAX_BYTES
        && super::boilerplate::skips(&crate::text::collapse(&text).to_lowercase())
}

/// Why an element is [`not_text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotText {
    /// Its name or classes say so.
    Named,
    /// Only `data-nosnippet` does ([`marked_body`] may keep it).
    Marked,
}

/// [`not_text`] by the element's name or classes alone (not by `data-nosnippet`).
fn named_not_text(e: &tree::El<'_>) -> bool {
    if e.name == "label" {
        return true;
    }
    let class = e.attr("class").unwrap_or_default();
    // A word holds a consent manager's name only where the whole class does: most classes
    // are answered with one search of the automaton, not one per word.
    let consent = CONSENT_CLASS_MATCHER.is_match(class);
    // A microdata value in a box hidden at every width is for machines: a thread's
    // comments repeat their author and date so.
    (e.attr("itemprop").is_some() && class_hidden(class))
        || class.split_ascii_whitespace().any(|w| {
            SCREEN_READER_CLASSES.contains(&w)
            || FORM_STATE_CLASSES.contains(&w)
            // A post's own category or tag (`category-cookie-recipes`) names no banner.
            || (consent
                && !TAXONOMY_CLASSES.iter().any(|t| w.starts_with(t))
                && CONSENT_CLASS_MATCHER.is_match(w))
        })
        || e.attr("id")
            .is_some_and(|id| CONSENT_ID_MATCHER.is_match(id))
}

/// Classes that hide text from the eye for assistive technology.
const SCREEN_READER_CLASSES: &[&str] = &[
    "sr-only",
    "visually-hidden",
    "visuallyhidden",
    "screen-reader-text",
    "screen-reader-only",
    "u-visually-hidden",
    "v-visible-sr",
];

/// Classes of what a form shows only once it is sent, hidden until then by the
/// framework's own style sheet: Webflow's "Thank you! Your submission has been received!"
/// and "Oops! Something went wrong while submitting the form."
const FORM_STATE_CLASSES: &[&str] = &["w-form-done", "w-form-fail"];

/// What a consent manager's ids hold (any case).
const CONSENT_IDS: &[&str] = &[
    "consent",
    "cookie",
    "onetrust",
    "gdpr",
    "didomi",
    "usercentrics",
];

/// Classes that name a post's own taxonomy (WordPress's `category-…`, `tag-…`).
const TAXONOMY_CLASSES: &[&str] = &["category-", "tag-"];

/// What a consent manager's classes hold (any case): narrower than its ids, as a post's
/// classes name its categories (`category-cookies`).
const CONSENT_CLASSES: &[&str] = &["consent", "cookie-", "cookie_", "cookiebanner", "gdpr"];

static CONSENT_ID_MATCHER: LazyLock<aho_corasick::AhoCorasick> =
    LazyLock::new(|| names_matcher(CONSENT_IDS));
static CONSENT_CLASS_MATCHER: LazyLock<aho_corasick::AhoCorasick> =
    LazyLock::new(|| names_matcher(CONSENT_CLASSES));

/// An automaton finding any of `words` in any case.
fn names_matcher(words: &[&str]) -> aho_corasick::AhoCorasick {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(words)
        .unwrap_or_else(|e| panic!("the names make an automaton: {e}"))
}

/// Removes, with the forms and dialogs, what is on the page but is not its text
/// ([`not_text`]). Every `<label>`: the caption of a control, a choice the reader makes
/// on the page (a product's size or colour, a category's filters, a review filter's
/// languages). Readability takes such a list for prose when its labels carry counts with
/// commas (Steam's review languages: "Russian Mostly Positive (1,316,678)" stood in for
/// the game's description). Trafilatura leaves labels out too; a label that is an
/// accordion's question, drawn with a checkbox, goes with them. And text for screen
/// readers only, which a sighted reader never sees. And a consent manager's panel, which
/// lists its purposes and partners at more length than many a page's text (on a page
/// parsed again for its largest block too: [`read`]). Measured: docs/benchmarks.md, "Every
/// kind of page". Returns the elements removed (at most [`NOT_TEXT_MAX`]), the nodes
/// walked to weigh marked blocks (at most [`ASKED_MAX_NODES`]), and the characters of text
/// removed (counted over at most [`ASKED_MAX_NODES`] nodes of its own; an element inside
/// one removed is not counted again).
fn drop_not_text(doc: &Document, text_chars: usize) -> (usize, usize, usize) {
    // What holds the page's heading or its marked text is never one of these, whatever
    // its class says (`<body class="consent-managed">`, a post's `category-cookie-recipes`).
    let marked = tree::first_element(&doc.root(), |n| n.has_name("main") || n.has_name("article"));
    let heading = tree::first_element(&doc.root(), |n| n.has_name("h1"));
    let mut holds: HashSet<NodeId> = HashSet::new();
    for n in marked.iter().chain(heading.iter()) {
        holds.insert(n.id);
        holds.extend(n.ancestors_it(None).map(|a| a.id));
    }
    // A script's data the page writes as text (a hidden `<div>` of JSON for a buy box's
    // prices), and a part's renderings for other screen widths ([`variant`]: all but the
    // first under their parent), found in the same walk.
    let mut data: Vec<NodeRef<'_>> = Vec::new();
    let mut variants: Vec<NodeRef<'_>> = Vec::new();
    let mut rendered: HashSet<NodeId> = HashSet::new();
    let found: Vec<(NodeRef<'_>, NotText)> = doc
        .root()
        .descendants_it()
        .filter(|e| {
            if e.is_text() {
                if data_text(e) {
                    data.push(*e);
                }
                return false;
            }
            if !e.is_element() {
                return false;
            }
            if variants.len() < NOT_TEXT_MAX
                && variant(e)
                && e.parent().is_some_and(|p| !rendered.insert(p.id))
            {
                variants.push(*e);
                return false;
            }
            !holds.contains(&e.id)
        })
        .filter_map(|e| not_text(&e).map(|why| (e, why)))
        .take(NOT_TEXT_MAX)
        .collect();
    for v in &variants {
        v.remove_from_parent();
    }
    let mut chars = 0usize;
    for t in &data {
        chars += tree::text_len(t);
        t.remove_from_parent();
    }
    let (mut removed, mut walked) = (0usize, 0usize);
    // What went is counted within its own bound: a large consent panel does not use up
    // the walk that weighs marked blocks.
    let mut counted = 0usize;
    // Those found inside one already removed, whose text was counted with it.
    let ids: HashSet<NodeId> = found.iter().map(|(n, _)| n.id).collect();
    let mut inside: HashSet<NodeId> = HashSet::new();
    for (n, why) in &found {
        let body = *why == NotText::Marked
            && marked.is_some_and(|m| marked_body(n, m.id, text_chars, &mut walked));
        if body {
            continue;
        }
        if !inside.contains(&n.id) {
            for d in n.descendants_it() {
                if counted == ASKED_MAX_NODES {
                    break;
                }
                counted += 1;
                chars += tree::text_len(&d);
                if ids.contains(&d.id) {
                    inside.insert(d.id);
                }
            }
        }
        n.remove_from_parent();
        removed += 1;
    }
    (removed, walked, chars)
}

/// A text node of data is at least this long (characters, no whitespace): a short one may
/// be an example in the prose (`{"a": 1}`).
const DATA_MIN_CHARS: usize = 100;

/// Whether text node `t` is a script's data, not prose: a JSON object or array of at least
/// [`DATA_MIN_CHARS`] characters, whole (it parses), or a [`uuid`] alone, outside `<pre>`
/// and `<code>` (where it is a documentation page's example) and outside scripts. Each
/// text node is looked at once, and parsed only when it opens and closes as JSON does:
/// linear in the page.
fn data_text(t: &NodeRef<'_>) -> bool {
    let data = t.query_or(false, |n| match &n.data {
        dom_query::NodeData::Text { contents } => {
            let s = contents.trim();
            uuid(s)
                || (matches!(s.as_bytes().first(), Some(b'{' | b'['))
                    && matches!(s.as_bytes().last(), Some(b'}' | b']'))
                    && s.contains("\":")
                    && nonspace(s) >= DATA_MIN_CHARS
                    && serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok())
        }
        _ => false,
    });
    // A script's own text (JSON-LD, which Readability reads for the title) is no text of
    // the page's and stays.
    data && !t.ancestors_it(None).any(|a| {
        a.has_name("pre") || a.has_name("code") || a.has_name("script") || a.has_name("template")
    })
}

/// Whether `s` is a UUID and nothing else (`7868484a-db29-4baf-990e-8b645ccb1899`): an
/// identifier no reader reads. eBay spells its "Sponsored" labels as letters between spans
/// of them that its style sheet hides (about 120 words of them on each of its item pages
/// in WCXB's development split).
fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                *c == b'-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

/// Whether `n`, marked `data-nosnippet` alone, is the page's text all the same: inside its
/// `<main>` or `<article>` (`marked`) and holding half of the page's text (`text_chars`) —
/// a publisher keeping its body out of search results' snippets. A site's legal footnotes
/// outside it go whatever their length. Its place and its text are counted over at most
/// [`ASKED_MAX_NODES`] nodes in all (`walked`, across the page's candidates); past that,
/// it stays.
fn marked_body(n: &NodeRef<'_>, marked: NodeId, text_chars: usize, walked: &mut usize) -> bool {
    let mut inside = false;
    for a in n.ancestors_it(None) {
        if *walked == ASKED_MAX_NODES {
            return true;
        }
        *walked += 1;
        if a.id == marked {
            inside = true;
            break;
        }
    }
    if !inside {
        return false;
    }
    let mut chars = 0usize;
    for d in n.descendants_it() {
        if *walked == ASKED_MAX_NODES {
            return true;
        }
        *walked += 1;
        chars += tree::text_len(&d);
    }
    chars.saturating_mul(2) >= text_chars
}

/// Runs on the page's tree before Readability, which would drop what a reader keeps:
///
/// - a block named as a comment that sits between paragraphs of the running text is a
///   reader's comment the author quotes (`<p>…</p><div class="reader-comment">…</div><p>`);
///   a comments section is not between paragraphs. It becomes a `<blockquote>` without its
///   class and id, which Readability keeps.
/// - the line that carries the author's licence (a `rel="license"` link or a Creative
///   Commons licence URL) directly after the running text becomes a plain paragraph:
///   Readability drops footers, and divs whose text is a fifth link.
///
/// Returns the page's fact boxes: short definition lists of mostly plain text outside the
/// site's chrome (an event's date and place, a product's price), which Readability drops
/// with the sidebar they sit in; [`with_fact_boxes`] appends them to a short article.
///
/// One selector pass over the tree, then at most [`PREPASS_MAX_CANDIDATES`] candidates of
/// each kind, each read for at most [`WALK_MAX_NODES`] nodes: linear in the page.
fn before_readability(r: &dom_smoothie::Readability) -> Vec<String> {
    let found: Vec<NodeRef<'_>> = r
        .doc
        .root()
        .descendants_it()
        .filter(prepass_candidate)
        .collect();
    let (mut boxes, mut quotes, mut licences) = (Vec::new(), Vec::new(), Vec::new());
    let (mut lists, mut named, mut links, mut fields) = (0, 0, 0, 0);
    let mut signups = Vec::new();
    let mut lines = Vec::new();
    let mut headings = Vec::new();
    for n in &found {
        // A section's heading, or a table of data whose class names its own header row
        // (Wikipedia's sortable tables are `sticky-header`): not the page's header, which
        // Readability drops by that word, table and all.
        if tree::element_is(n, |e| SECTION_HEADINGS.contains(&e.name) && header_named(e))
            || (n.has_name("table") && header_named_table(n))
        {
            if headings.len() < PREPASS_MAX_CANDIDATES {
                headings.push(*n);
            }
        } else if n.has_name("dl") {
            lists += 1;
            if lists > PREPASS_MAX_CANDIDATES || boxes.len() >= FACT_BOXES_MAX {
                continue;
            }
            // A list inside another is read with it (and so each node once).
            if n.ancestors_it(None).any(|a| a.has_name("dl")) {
                continue;
            }
            let Some(w) = walk_of(n) else { continue };
            if w.terms < 2
                || w.descriptions < 2
                || w.structure
                || w.chars == 0
                || w.chars > FACT_BOX_MAX_CHARS
                || w.linked * 4 > w.chars
                || in_chrome(n, PAGE_CHROME)
            {
                continue;
            }
            // Its heading, when one stands right before it, says what the facts are of.
            let heading = n
                .prev_element_sibling()
                .filter(|h| {
                    tree::named(h, SECTION_HEADINGS)
                        && walk_of(h).is_some_and(|w| w.chars <= HEADING_MAX_CHARS)
                })
                .map(|h| h.html().to_string())
                .unwrap_or_default();
            boxes.push(format!("{heading}{}", n.html()));
        } else if n.has_name("input") {
            fields += 1;
            if fields > PREPASS_MAX_CANDIDATES {
                continue;
            }
            // An e-mail field asks the reader to sign up (a newsletter, an account, a
            // comment): the box around it, as far up as it holds little else, is not the
            // article. Readability keeps the pitch and drops only the form.
            let mut signup = None;
            for a in n.ancestors_it(Some(NEAR + 2)) {
                if ["body", "main", "article"].iter().any(|t| a.has_name(t))
                    || walk_of(&a).is_none_or(|w| w.chars > SIGNUP_MAX_CHARS)
                {
                    break;
                }
                signup = Some(a);
            }
            signups.extend(signup);
        } else if n.has_name("a") {
            links += 1;
            if links > PREPASS_MAX_CANDIDATES {
                continue;
            }
            // The line the link is in: its nearest block.
            let Some(line) = n.ancestors_it(Some(NEAR)).find(|a| {
                ["p", "div", "footer", "section", "aside", "small"]
                    .iter()
                    .any(|t| a.has_name(t))
            }) else {
                continue;
            };
            // Several links in one line: the line is read once.
            if lines.contains(&line.id) {
                continue;
            }
            lines.push(line.id);
            let Some(w) = walk_of(&line) else { continue };
            let phrasing = line.element_children().iter().all(|c| {
                [
                    "a", "span", "em", "strong", "b", "i", "small", "abbr", "time", "img", "br",
                ]
                .iter()
                .any(|t| c.has_name(t))
            });
            let after_text = line.prev_element_sibling().is_some_and(|s| {
                FLOW.iter().any(|t| s.has_name(t)) && walk_of(&s).is_none_or(|w| w.chars > 0)
            });
            if phrasing
                && after_text
                && w.chars <= LICENCE_MAX_CHARS
                && !w.structure
                && !in_chrome(&line, &["nav", "header", "footer", "form", "aside"])
            {
                licences.push(line);
            }
        } else {
            named += 1;
            if named > PREPASS_MAX_CANDIDATES
                || !["div", "p", "blockquote", "section", "aside", "figure"]
                    .iter()
                    .any(|t| n.has_name(t))
            {
                continue;
            }
            // Between paragraphs: the nearest siblings that are neither quotes themselves
            // nor slots with next to no text (an ad, an empty box) are paragraphs with text.
            let mut before = n.prev_element_sibling();
            for _ in 0..NEAR {
                match before {
                    Some(b) if passed(&b) => before = b.prev_element_sibling(),
                    _ => break,
                }
            }
            let mut after = n.next_element_sibling();
            for _ in 0..NEAR {
                match after {
                    Some(a) if passed(&a) => after = a.next_element_sibling(),
                    _ => break,
                }
            }
            // (A paragraph too long to read is one with text.)
            let paragraph_before =
                before.is_some_and(|b| b.has_name("p") && walk_of(&b).is_none_or(|w| w.chars > 0));
            let paragraph_after =
                after.is_some_and(|a| a.has_name("p") && walk_of(&a).is_none_or(|w| w.chars > 0));
            if !paragraph_before || !paragraph_after {
                continue;
            }
            let Some(w) = walk_of(n) else { continue };
            if w.chars > 0 && w.chars <= QUOTE_MAX_CHARS && !w.structure && w.linked * 4 <= w.chars
            {
                quotes.push(*n);
            }
        }
    }
    // Changed only now: the tree is not borrowed by a walk any more.
    for q in quotes {
        q.rename("blockquote");
        q.remove_attrs(&["class", "id"]);
    }
    for l in licences {
        l.rename("p");
        l.remove_attrs(&["class", "id"]);
    }
    for s in signups {
        s.remove_from_parent();
    }
    // A section's heading named `header` is a heading, not the page's header: named
    // `heading` instead, it is scored and kept as any heading is (Substack's section
    // headings were all lost); so is a table of data named for its header row.
    for h in headings {
        if let Some(v) = h.attr("class") {
            h.set_attr(
                "class",
                &v.to_ascii_lowercase().replace("header", "heading"),
            );
        }
    }
    boxes
}

/// A short article (the text of an event, a product, a place) with the page's fact boxes
/// after it, each once: Readability drops the box beside the text, where the date, the
/// price or the address is. A long article is the page's text already; nothing is added.
fn with_fact_boxes(html: String, text: String, boxes: &[String], url: &Url) -> (String, String) {
    if boxes.is_empty() || nonspace(&text) >= SHORT_ARTICLE_CHARS {
        return (html, text);
    }
    let (mut html, mut text) = (html, text);
    for b in boxes {
        let fragment = Document::fragment(b.as_str());
        let root = fragment.html_root();
        clean(&root, false, Names::Any, false);
        let box_text = tree::text(&root);
        let box_html = sanitize(&root.inner_html(), Some(url));
        let lines: Vec<&str> = box_text.lines().filter(|l| !l.trim().is_empty()).collect();
        // A box whose lines the article holds already is in it.
        let held = lines.iter().filter(|l| text.contains(**l)).count();
        if lines.is_empty() || held * 2 > lines.len() {
            continue;
        }
        html.push_str(&box_html);
        text.push_str("\n\n");
        text.push_str(&box_text);
    }
    (html, text)
}

/// The article's own title: the page's first `<h1>` when the title found (from `<title>`
/// or `og:title`) contains it — "Opening hours | Corner Bakery" is "Opening hours" — else
/// the title found. A cheap scan of the raw page for the first `<h1>…</h1>`.
fn article_title(found: &str, page: &str) -> String {
    let lower = page.get(..page.len().min(1 << 20)).unwrap_or(page);
    let Some(at) = find_ascii_ci(lower, "<h1") else {
        return found.to_string();
    };
    let rest = &lower[at..];
    let Some(open_end) = rest.find('>') else {
        return found.to_string();
    };
    let inner = &rest[open_end + 1..];
    let Some(close) = find_ascii_ci(inner, "</h1").filter(|&c| c <= 2000) else {
        return found.to_string();
    };
    // Tags inside the heading (a link, a span) dropped; entities decoded by the parser
    // would be better, but a heading with entities rarely matches anyway.
    let mut text = String::new();
    let mut in_tag = false;
    for c in inner[..close].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let heading = crate::text::collapse(&text);
    if heading.is_empty() {
        return found.to_string();
    }
    if found.is_empty() {
        return heading;
    }
    // The heading opens the title and a separator follows it: what follows is the site's
    // name ("Heading | Site", "Heading - Site"). A heading that is the site's name (the
    // title's end) is not taken.
    let rest = found
        .get(..heading.len())
        .filter(|head| head.eq_ignore_ascii_case(&heading))
        .and_then(|_| found.get(heading.len()..))
        .map(str::trim_start);
    match rest {
        Some(r) if r.starts_with(TITLE_SEPARATORS) => heading,
        _ => found.to_string(),
    }
}

/// Where `needle` (ASCII, opening with `<`) starts in `hay`, any case: each `<` is found
/// with a plain byte search and only there is the rest compared.
fn find_ascii_ci(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let first = *n.first()?;
    let mut from = 0;
    while let Some(i) = memchr::memchr(first, h.get(from..)?) {
        let at = from + i;
        if h.get(at..at + n.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(n))
        {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The article headed by its title, once: when the text does not already open with it,
/// an `<h1>` and a first paragraph are added.
fn headed(title: &str, html: String, text: String) -> (String, String) {
    let key = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let t = key(title);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if t.is_empty() || key(first) == t {
        return (html, text);
    }
    let escaped = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    (
        format!("<h1>{escaped}</h1>{html}"),
        format!("{title}\n\n{text}"),
    )
}

/// The share of the best block's score the article's fallback block must hold (the
/// smallest container holding it is taken).
const ARTICLE_SHARE: (usize, usize) = (4, 5);

/// The share for a page that is not one running text: its text spreads over posts and
/// sections, so the container taken holds nearly all of it.
const PAGE_SHARE: (usize, usize) = (95, 100);

/// A documentation page or a service page, read as its kind says instead of as one
/// article: the container holding (nearly) all of its text outside navigation
/// (Readability takes one section), cleaned as an article's block is. `None` when the
/// page has no such block. (A thread is read as Readability's text, then its posts as
/// its repeated cards: on WCXB's forums that measured above this container,
/// docs/benchmarks.md, "Every kind of page".)
fn by_kind(doc: Document, kind: Kind, html: &str, url: &Url) -> Option<Extracted> {
    let names = names_of(kind);
    // The title Readability gives an article (from `<title>`, its headings and meta
    // tags), not the block's heading: a documentation or service page is titled as an
    // article of the same page would be. Readability reads its metadata without changing
    // the tree, so the block is then read from the same copy. It takes only a URL with an
    // authority (`scheme://…`); with another, the block's heading stands.
    if !url.has_authority() {
        return block_read(&doc, PAGE_SHARE, html, url, None, None, names);
    }
    let r = dom_smoothie::Readability::with_document(doc, Some(url.as_str()), None).ok()?;
    let title =
        Some(crate::text::collapse(&r.get_article_metadata(None).title)).filter(|t| !t.is_empty());
    block_read(&r.doc, PAGE_SHARE, html, url, None, title, names)
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Elements a page's main text may sit in, for [`largest_block`].
const CONTAINERS: &[&str] = &["article", "main", "section", "div", "td", "body"];
/// Whether `n` is a control a block's text leaves out ([`largest_block`], [`block_text`]):
/// a `<button>` (Stack Exchange's "Follow", a shop's "Add to cart", a size's swatch), but
/// not one that opens a panel (`aria-expanded`: an accordion's question, a process's step)
/// or holds a heading (an FAQ's question drawn as a button): that is the panel's title.
fn control(n: &NodeRef<'_>) -> bool {
    n.has_name("button")
        && n.attr("aria-expanded").is_none()
        && tree::first_element(n, |d| tree::named(d, HEADINGS)).is_none()
}

/// Subtrees never taken as the main text.
const CHROME: &[&str] = &[
    "nav", "header", "footer", "aside", "form", "script", "style", "noscript", "template",
    "textarea", "select", "iframe",
];

/// The page's largest block of text that is not navigation (its text outside navigation,
/// headers and footers, less twice its link text), and the page's title: the smallest
/// container holding at least four fifths of the best one's. One pass over the tree
/// (hostile pages reach this path: no per-element subtree walks). For pages the article
/// extractor finds nothing on. `None` as well when its text, with room for what rendering
/// adds (a list marker or a line break per element: a quarter), is under `beat` characters.
fn largest_block(
    page: &Document,
    beat: usize,
    share: (usize, usize),
) -> Option<(String, NodeRef<'_>)> {
    // Per open element: (text outside chrome, link text outside chrome).
    let mut open: Vec<(usize, usize)> = vec![(0, 0)];
    let (mut in_chrome, mut in_link) = (0usize, 0usize);
    // Each container outside chrome: (id, score, text).
    let mut scored: Vec<(NodeId, usize, usize)> = Vec::new();
    let (mut h1, mut title) = (None, None);
    for edge in tree::edges(&page.root()) {
        match edge {
            Edge::Open(n) if n.is_text() => {
                if in_chrome == 0
                    && let Some(top) = open.last_mut()
                {
                    let len = tree::text_len(&n);
                    top.0 += len;
                    if in_link > 0 {
                        top.1 += len;
                    }
                }
            }
            Edge::Open(n) => {
                let Some(name) = n.qual_name_ref() else {
                    continue;
                };
                let name = &*name.local;
                in_chrome += usize::from(CHROME.contains(&name) || control(&n));
                in_link += usize::from(name == "a");
                if h1.is_none() && name == "h1" {
                    h1 = Some(n);
                }
                if title.is_none() && name == "title" {
                    title = Some(n);
                }
                open.push((0, 0));
            }
            Edge::Close(n) => {
                let Some(name) = n.qual_name_ref() else {
                    continue;
                };
                let name = &*name.local;
                let (len, linked) = open.pop().unwrap_or((0, 0));
                let chrome = CHROME.contains(&name) || control(&n);
                if in_chrome == 0 && CONTAINERS.contains(&name) {
                    scored.push((n.id, len.saturating_sub(linked * 2), len));
                }
                in_chrome -= usize::from(chrome);
                in_link -= usize::from(name == "a");
                if let Some(top) = open.last_mut() {
                    top.0 += len;
                    top.1 += linked;
                }
            }
        }
    }
    let best = scored.iter().map(|(_, s, _)| *s).max().filter(|&b| b > 0)?;
    let (block, _, total) = scored
        .iter()
        .filter(|(_, s, _)| *s * share.1 >= best * share.0)
        .min_by_key(|(_, _, total)| *total)?;
    if total.saturating_add(total / 4) < beat {
        return None;
    }
    let title = h1
        .or(title)
        .map(|t| crate::text::collapse(&t.text()))
        .unwrap_or_default();
    Some((title, NodeRef::new(*block, &page.tree)))
}

/// Words in a class or id that name a block that is not the article's running text.
const BOILERPLATE_NAMES: &[&str] = &[
    "share",
    "sharing",
    "social",
    "related",
    "newsletter",
    "subscribe",
    "subscription",
    "signup",
    "byline",
    "author",
    "caption",
    "credit",
    "credits",
    "timestamp",
    "dateline",
    "date",
    "published",
    "updated",
    "meta",
    "tags",
    "breadcrumb",
    "breadcrumbs",
    "promo",
    "advert",
    "advertisement",
    "ad",
    "ads",
    "sponsor",
    "sponsored",
    "recommended",
    "recommendations",
    "popular",
    "trending",
    "toolbar",
    "tools",
    "print",
    "comments",
    "comment",
    "disclaimer",
    "bio",
];

/// Boilerplate names of the site's other pages: never a card's body ([`clean`]).
const ELSEWHERE_NAMES: &[&str] = &[
    "related",
    "recommended",
    "recommendations",
    "popular",
    "trending",
];

/// Boilerplate names that are a card's own text on a listing: a shop's grid of thumbnails
/// puts each product's name and price in its `caption` (Bootstrap's `.thumbnail .caption`,
/// Etsy's `wt-text-caption` titles), as a listing's figures are its cards' pictures.
const CARD_TEXT_NAMES: &[&str] = &["caption"];

/// Words in a class or id that name a quotation: a block so named stays, whatever else
/// its name says (`comment-quote`: a reader's comment the author quotes).
const QUOTATION_NAMES: &[&str] = &["quote", "quotation", "blockquote", "citation"];

/// Names of a product page's customer reviews: WCXB's references leave them out of a
/// product's content (its description and specification), and on an article they are its
/// text (a review is one), so they are boilerplate on products only.
const REVIEW_NAMES: &[&str] = &["review", "reviews"];

/// A post's user card and its votes: who wrote it, their badges and score, when.
const USER_CARD_CLASSES: &[&str] = &[
    "post-signature",
    "user-info",
    "user-details",
    "userinfo",
    "postprofile",
    "js-vote-count",
    "vote-count",
    "badgecount",
    "comment-user",
    "comment-date",
    "user-action-time",
    "message-userdetails",
];

/// The word that names a post's signature as a word of its class or id (phpBB's
/// `signature`, Invision's `ipsEntry__signature`): what each of a poster's posts ends with,
/// their computer's parts or a motto, is part of none of them — between two posts it is
/// no quotation in the flow either.
const SIGNATURE_NAME: &str = "signature";

/// Boilerplate names that are a thread's posts on a forum's page.
const POST_NAMES: &[&str] = &["comment", "comments", "author", "meta", "date"];

/// Which names are boilerplate besides [`BOILERPLATE_NAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names {
    /// Those only.
    Any,
    /// A thread's posts: less [`POST_NAMES`], which name its content.
    Posts,
    /// A product's page: and [`REVIEW_NAMES`].
    Product,
    /// A page of sections or entries (a service's, a listing's, a thread read as a
    /// block): those only, and a paragraph the page shows again goes ([`drop_repeated`],
    /// blocks of [`REPEATED_MIN_CHARS`] or more).
    Sections,
}

/// The names a block of a page of `kind` is cleaned with ([`Names`]).
fn names_of(kind: Kind) -> Names {
    match kind {
        Kind::Product => Names::Product,
        Kind::Article | Kind::Documentation => Names::Any,
        Kind::Forum | Kind::Listing | Kind::Service => Names::Sections,
    }
}

/// The words of a class and an id, split at spaces, `-` and `_`.
fn name_words<'a>(class: Option<&'a str>, id: Option<&'a str>) -> impl Iterator<Item = &'a str> {
    class
        .into_iter()
        .flat_map(str::split_ascii_whitespace)
        .chain(id)
        .flat_map(|c| c.split(['-', '_']))
}

/// Whether one of the words of `e`'s class or id ([`name_words`]) is one of `names`.
fn named_as(e: &NodeRef<'_>, names: &[&str]) -> bool {
    tree::element_is(e, |e| el_named_as(e, names))
}

/// [`named_as`] of an element read in place.
fn el_named_as(e: &tree::El<'_>, names: &[&str]) -> bool {
    name_words(e.attr("class"), e.attr("id"))
        .any(|w| names.iter().any(|n| w.eq_ignore_ascii_case(n)))
}

fn boilerplate_name(e: &NodeRef<'_>, counts: &HashMap<NodeId, Counts>, names: Names) -> bool {
    let (class, id) = (e.class(), e.id_attr());
    let words = || name_words(class.as_deref(), id.as_deref());
    let classes = || {
        class
            .as_deref()
            .into_iter()
            .flat_map(str::split_ascii_whitespace)
    };
    // A microformats entry (`hentry`, `h-entry`) is a post, whatever its taxonomy classes
    // say (`author-jane-doe`, `tag-comments`).
    if classes().any(|w| w == "hentry" || w == "h-entry") {
        return false;
    }
    if classes().any(|w| USER_CARD_CLASSES.iter().any(|u| w.eq_ignore_ascii_case(u)))
        || words().any(|w| w.eq_ignore_ascii_case(SIGNATURE_NAME))
    {
        return true;
    }
    words().any(|w| {
        BOILERPLATE_NAMES.iter().any(|b| w.eq_ignore_ascii_case(b))
            && !(names == Names::Posts && POST_NAMES.iter().any(|p| w.eq_ignore_ascii_case(p)))
    }) && !words().any(|w| QUOTATION_NAMES.iter().any(|q| w.eq_ignore_ascii_case(q)))
        && !quoted_in_the_flow(e, counts)
}

/// Siblings [`quoted_in_the_flow`] looks past for the next one with text: a hostile page
/// of thousands of empty named siblings costs no more than a real one.
const FLOW_LOOKAHEAD: usize = 32;

/// Whether `e` sits in the article's running text: a paragraph of prose
/// ([`PROSE_MIN_CHARS`] characters or more) follows it as a sibling. A reader's comment the author quotes between paragraphs
/// is part of the post; a comments section ends it.
fn quoted_in_the_flow(e: &NodeRef<'_>, counts: &HashMap<NodeId, Counts>) -> bool {
    let mut next = e.next_element_sibling();
    for _ in 0..FLOW_LOOKAHEAD {
        let Some(s) = next else { return false };
        if counts.get(&s.id).is_some_and(|c| c.text > 0) {
            return s.has_name("p")
                && s.descendants_it()
                    .filter(|t| t.is_text())
                    .map(|t| t.text().trim().chars().count())
                    .sum::<usize>()
                    >= PROSE_MIN_CHARS;
        }
        next = s.next_element_sibling();
    }
    false
}

/// Whether `e` is a heading whose links all point to itself (`<h2 id="events"><a
/// href="#events">`, or to the link's own id): a documentation page's section
/// headings link to themselves (MDN's `heading-anchor`) and are its text, not a link to
/// elsewhere. A bare `href="#"` (a script's toggle) is not one, nor a heading with no link
/// of its own (a card's title inside its link).
fn anchored_heading(e: &NodeRef<'_>) -> bool {
    if !named(e, HEADINGS) {
        return false;
    }
    let own = e.id_attr();
    let mut links = e.descendants_it().filter(|d| d.has_name("a")).peekable();
    // Linking nowhere: not one.
    links.peek().is_some()
        && links.all(|a| {
            a.attr("href").is_some_and(|h| {
                h.trim().strip_prefix('#').is_some_and(|f| {
                    !f.is_empty()
                        && (own.as_deref() == Some(f) || a.id_attr().as_deref() == Some(f))
                })
            })
        })
}

/// Blocks shorter than this (characters, no whitespace) are tested for a boilerplate opening.
const OPENING_BLOCK_MAX_CHARS: usize = 120;

/// Short lines that open a block that is not the article's text.
const BOILERPLATE_OPENINGS: &[&str] = &[
    "by ",
    "updated",
    "published",
    "posted",
    "photo:",
    "photo by",
    "image:",
    "image ",
    "©",
    "credit:",
    "caption",
    "advertisement",
    "advert",
    "continue reading",
    "read more",
    "related:",
    "sign up",
    "subscribe",
    "follow us",
    "share",
    "click here",
    "close",
];

/// The placeholder text of a template: a block opening with it is no page's text.
const PLACEHOLDER: &str = "lorem ipsum dolor sit amet";

/// Whether block `e` opens with [`PLACEHOLDER`] (any case): a template's sample text left in
/// the page, shown or hidden (a product's empty "Details" tab, a landing page's unused
/// slides). Only its first text is read.
fn placeholder(e: &NodeRef<'_>) -> bool {
    e.descendants_it()
        .filter(NodeRef::is_text)
        .find_map(|t| {
            let text = t.text();
            let s = text.trim_start().as_bytes();
            (!s.is_empty()).then(|| {
                s.len() >= PLACEHOLDER.len()
                    && s[..PLACEHOLDER.len()].eq_ignore_ascii_case(PLACEHOLDER.as_bytes())
            })
        })
        .unwrap_or(false)
}

/// Removes from the article under `root`, in place: the dropped subtrees, blocks named
/// as boilerplate by their class or id, short blocks that open like boilerplate, blocks
/// of a template's [`PLACEHOLDER`] text when they hold under half of it, and
/// link-dense short blocks. `root` itself is judged too when `with_root` (the article's
/// own container); a container that goes takes the article's text with it. `names`: which
/// names are boilerplate, and which repeats go ([`Names`]: on a product's page its reviews
/// ([`REVIEW_NAMES`]) and blocks that repeat one before them ([`drop_repeated`])); `cards`:
/// a listing's cards, whose figures and short linked blocks (a card's picture, its linked
/// title) are its content — and when `root` is not judged itself, its children are the
/// cards, and a block holding most of one is its body whatever its name.
fn clean(root: &NodeRef<'_>, with_root: bool, names: Names, cards: bool) {
    let counts = tree::counts(root, BLOCKS);
    let of = |e: &NodeRef<'_>| counts.get(&e.id).copied().unwrap_or_default();
    let total = of(root).text;
    let mut doomed = Vec::new();
    // A product's reviews (outermost blocks so named) and their text: they go only when
    // together they hold under half of the text (a "best of" page whose sections are each
    // named a review is those reviews).
    let (mut reviews, mut reviewed, mut in_review) = (Vec::new(), 0usize, None);
    // Blocks of a template's placeholder and their text: likewise, they go only when they
    // hold under half of it (a page of nothing else shows nothing else: Readability's test
    // pages are written in it).
    let (mut placeholders, mut placeheld) = (Vec::new(), 0usize);
    // Nodes [`heading_section`] looked at: linear in the article (its test counts them).
    let mut looked = 0usize;
    // A listing's cards found by their shape are the children of `root` when it is not
    // judged itself ([`or_cards`]): the text of the one open, and how deep the walk is.
    let (mut card, mut depth) = (0usize, 0usize);
    // The `<pre>` open (its id), inside which elements are the code's own markup: a
    // highlighter's `<span class="hljs-comment">` (Prism's `token comment`) is the
    // code's comment, not a reader's, and goes with nothing in the block.
    let mut in_code = None;
    let mut data_cells = DataCells::default();
    // Text met so far, in the page's order: an article's before its comments' heading.
    let mut before = 0usize;
    for edge in tree::edges(root) {
        let e = match edge {
            Edge::Open(e) => {
                depth += 1;
                e
            }
            Edge::Close(e) => {
                depth -= 1;
                if in_review == Some(e.id) {
                    in_review = None;
                }
                if in_code == Some(e.id) {
                    in_code = None;
                }
                continue;
            }
        };
        if depth == 2 && e.is_element() {
            card = of(&e).text;
        }
        before += tree::text_len(&e);
        if !e.is_element() || (!with_root && e.id == root.id) || in_code.is_some() {
            continue;
        }
        if e.has_name("pre") {
            in_code = Some(e.id);
        }
        let c = of(&e);
        if names == Names::Product && in_review.is_none() && named_as(&e, REVIEW_NAMES) {
            in_review = Some(e.id);
            reviewed += c.text;
            reviews.push(e);
        }
        // A footer or aside that carries the author's licence is the post's own line.
        // A listing's figures are its cards' pictures; a figure holding a table is text.
        let kept_figure =
            (cards && named(&e, &["figure", "figcaption"])) || (c.table && e.has_name("figure"));
        if named(&e, DROPPED) && !c.licence && !kept_figure {
            doomed.push(e);
            continue;
        }
        // A section a heading calls recommendations ("You may also like", "Similar
        // items"): the site's other pages, not this one's text. Innermost headings only:
        // each text is read for one.
        // On an article, a section a heading calls its readers' comments ("12 Comments",
        // "Leave a Reply") after its text: whatever it holds, the comments are not the
        // article (WCXB's references and trafilatura's leave them out).
        if c.text <= RECOMMENDS_MAX_CHARS
            && c.text > 0
            && !c.blocks
            && named(&e, HEADINGS)
            && let Some(limit) = section_limit(
                &e,
                total,
                names == Names::Any && (!with_root || before >= COMMENTS_AFTER_CHARS),
            )
            && let Some(section) = heading_section(&e, root, &counts, limit, &mut looked)
        {
            doomed.extend(section);
            continue;
        }
        // A card's own text whatever its name: in a card, a block that holds most of it is
        // the card's body (arXiv's listing wraps each entry in `div.meta`), unless named
        // for the site's other pages; and a listing's captions.
        let card_text = cards
            && ((!with_root
                && depth > 2
                && c.text * 4 >= card * 3
                && !named_as(&e, ELSEWHERE_NAMES))
                || named_as(&e, CARD_TEXT_NAMES));
        // Blocks whose class or id says what they are (a share bar, a byline, a caption),
        // unless one holds a quarter of the article: then the name is not about that block
        // alone.
        if c.text * 4 < total && !c.licence && !card_text && boilerplate_name(&e, &counts, names) {
            doomed.push(e);
            continue;
        }
        // Innermost blocks only: a container is judged by its own blocks.
        if c.blocks || !named(&e, BLOCKS) {
            continue;
        }
        let len = c.text;
        if len > 0 && placeholder(&e) {
            placeholders.push(e);
            placeheld += len;
            continue;
        }
        if len == 0 || len >= LINK_BLOCK_MAX_CHARS {
            continue;
        }
        // A short line that opens like a byline, a credit or a prompt, or holds a site's
        // notice in any of the vocabulary's languages (a paywall appeal, a copyright line).
        if len < OPENING_BLOCK_MAX_CHARS.max(super::boilerplate::MAX_BLOCK_CHARS) {
            let text = crate::text::collapse(&e.text()).to_lowercase();
            if (len < OPENING_BLOCK_MAX_CHARS
                && BOILERPLATE_OPENINGS.iter().any(|o| text.starts_with(o)))
                || (len < super::boilerplate::MAX_BLOCK_CHARS
                    && (super::boilerplate::is_boilerplate(&text)
                        || super::boilerplate::reading_time(&text)))
            {
                doomed.push(e);
                continue;
            }
        }
        let linked = if c.in_link { len } else { c.linked };
        if !cards
            && linked as f64 > LINK_DENSITY * len as f64
            && !fact_in_a_row(&e, &counts)
            && !data_cells.holds(&e)
            && !anchored_heading(&e)
        {
            doomed.push(e);
        }
    }
    if reviewed.saturating_mul(2) < total {
        doomed.extend(reviews);
    }
    if placeheld.saturating_mul(2) < total {
        doomed.extend(placeholders);
    }
    for e in doomed {
        if e.id == root.id {
            e.remove_children();
        } else {
            e.remove_from_parent();
        }
    }
    match names {
        Names::Product | Names::Posts => {
            drop_repeated(root, &counts, 1);
        }
        Names::Sections => {
            drop_repeated(root, &counts, REPEATED_MIN_CHARS);
        }
        Names::Any => {}
    }
}

/// Characters (no whitespace) of a heading read for [`heading_section`]: a section's
/// title, not a sentence that mentions related products.
const RECOMMENDS_MAX_CHARS: usize = 60;

/// Characters (no whitespace) of an article's text before a heading of its readers'
/// comments for the comments to go: a post of a few lines at least, not a page that is
/// its comments.
const COMMENTS_AFTER_CHARS: usize = 200;

/// Whether `heading` opens a section that goes, and the text (characters, no whitespace)
/// twice which it must hold less of ([`heading_section`]): recommendations
/// ([`super::boilerplate::recommends`]) when under half of `total`; with `comments`,
/// readers' comments ([`super::boilerplate::opens_comments`]) whatever they hold.
fn section_limit(heading: &NodeRef<'_>, total: usize, comments: bool) -> Option<usize> {
    let text = crate::text::collapse(&heading.text()).to_lowercase();
    if super::boilerplate::recommends(&text) {
        Some(total)
    } else if comments && super::boilerplate::opens_comments(&text) {
        Some(usize::MAX)
    } else {
        None
    }
}

/// The section `heading` opens ([`section_limit`]): the
/// outermost element under `root` whose text the heading begins, or, when the heading is
/// not first in its parent, the heading and the siblings after it up to the next heading
/// of its rank or above (of any rank for readers' comments, whose `limit` is `usize::MAX`:
/// they hold no heading). `None` when that section holds half of `limit` or more: then it
/// is the text, whatever its heading says. Adds the nodes it looked
/// at to `looked`: over a page's headings, linear in the page — an element's siblings
/// before it are read for the one heading its text begins with, and a heading's siblings
/// after it up to the next heading of its rank, each sibling for one heading of each rank.
fn heading_section<'a>(
    heading: &NodeRef<'a>,
    root: &NodeRef<'a>,
    counts: &HashMap<NodeId, Counts>,
    limit: usize,
    looked: &mut usize,
) -> Option<Vec<NodeRef<'a>>> {
    let of = |e: &NodeRef<'_>| counts.get(&e.id).map_or(0, |c| c.text);
    // Any node's text: an element's as counted, a text node's own.
    let chars_of = |n: &NodeRef<'_>| {
        if n.is_element() {
            of(n)
        } else {
            tree::text_len(n)
        }
    };
    let small = |chars: usize| chars.saturating_mul(2) < limit;
    // Up while nothing with text comes before the heading.
    let mut top = *heading;
    while let Some(parent) = top.parent().filter(|p| p.id != root.id && p.is_element()) {
        *looked += 1;
        let before = std::iter::successors(top.prev_sibling(), NodeRef::prev_sibling).any(|s| {
            *looked += 1;
            chars_of(&s) > 0
        });
        if before || !small(of(&parent)) {
            break;
        }
        top = parent;
    }
    if top.id != heading.id {
        return Some(vec![top]);
    }
    let rank = |e: &NodeRef<'_>| {
        e.qual_name_ref()
            .and_then(|q| q.local.strip_prefix('h').and_then(|d| d.parse::<u8>().ok()))
    };
    let own = rank(heading)?;
    let mut section = vec![*heading];
    let mut chars = of(heading);
    for s in std::iter::successors(heading.next_sibling(), NodeRef::next_sibling) {
        *looked += 1;
        // Readers' comments end at the next heading of any rank: they hold none.
        if s.is_element()
            && named(&s, HEADINGS)
            && rank(&s).is_some_and(|r| r <= own || limit == usize::MAX)
        {
            break;
        }
        chars += chars_of(&s);
        section.push(s);
    }
    small(chars).then_some(section)
}

/// A table's or a definition list's values: "Yes" in two rows of a product's
/// specifications is each row's, not a repeat ([`drop_repeated`] leaves them).
const FIGURES: &[&str] = &["td", "th", "dd", "dt"];

/// Blocks [`drop_repeated`] compares in one text: a product's has far fewer; past them a
/// hostile page keeps its repeats rather than costing more.
const REPEATED_MAX_BLOCKS: usize = 1024;

/// Characters (no whitespace) a block holds for [`drop_repeated`] to weigh it on a page of
/// sections ([`Names::Sections`]): a paragraph, not a "Learn more" (40 moved many more
/// pages both ways: docs/benchmarks.md, "Panels a reader opens").
const REPEATED_MIN_CHARS: usize = 80;

/// Removes from a product's text under `root` each innermost block (one of [`BLOCKS`]
/// holding none) whose text is a block's before it: a shop shows its product's name,
/// price and opening lines again in a sticky "add to cart" bar, its description both in
/// the buy box and in a tab, a "Sold out" on each swatch. A reader needs them once.
/// Every block on products and a thread's posts (a reply quoting a post whole); on a
/// service page or a listing (features drawn twice, for wide and narrow screens) only
/// blocks of `min_chars` or more ([`REPEATED_MIN_CHARS`]) under a heading that repeats one
/// before it: shorter, or under a heading of their own, they are each section's ("Cancel
/// any time" under each plan; one of Readability's test pages repeats a paragraph under
/// each heading). Headings count among the blocks compared. Not on articles and
/// documentation: there it cost Readability's test pages and documentation (a code
/// sample's lines shown for each language), measured in docs/benchmarks.md, "Every kind of
/// page" and "Panels a reader opens". Compares at most [`REPEATED_MAX_BLOCKS`] blocks and
/// returns how many it compared; `counts` are those the cleaning measured before it
/// removed anything.
fn drop_repeated(root: &NodeRef<'_>, counts: &HashMap<NodeId, Counts>, min_chars: usize) -> usize {
    // Sections: a paragraph goes only under a heading that repeats one before it (or
    // before any heading): a section drawn again. One repeated under headings of its own is
    // each section's (a notice under each heading).
    let sections = min_chars > 1;
    let (mut seen, mut headings) = (HashSet::new(), HashSet::new());
    let mut under_repeat = true;
    let mut repeats = Vec::new();
    let mut compared = 0usize;
    for edge in tree::edges(root) {
        let Edge::Open(e) = edge else { continue };
        if !e.is_element() || e.id == root.id {
            continue;
        }
        let heading = sections && named(&e, HEADINGS);
        if !heading
            && (!named(&e, BLOCKS)
                || named(&e, FIGURES)
                || counts
                    .get(&e.id)
                    .is_none_or(|c| c.blocks || c.text < min_chars))
        {
            continue;
        }
        if compared == REPEATED_MAX_BLOCKS {
            break;
        }
        compared += 1;
        let text = crate::text::collapse(&e.text());
        if nonspace(&text) == 0 {
            continue;
        }
        if heading {
            under_repeat = !headings.insert(text);
        } else if !seen.insert(text) && under_repeat {
            repeats.push(e);
        }
    }
    for e in repeats {
        e.remove_from_parent();
    }
    compared
}

/// Items of a list, cells of a row, terms and values of a definition list.
const ITEMS: &[&str] = &["li", "td", "th", "dd", "dt"];

/// Whether a link-dense item `e` is one fact of a list or row that is mostly plain text:
/// the place's name linked in a row of its hours and prices, the address linked in a list
/// of a market's days and stalls. A list of links (a menu, related headlines) is link-dense
/// as a whole and goes with its items.
fn fact_in_a_row(e: &NodeRef<'_>, counts: &HashMap<NodeId, Counts>) -> bool {
    if !named(e, ITEMS) {
        return false;
    }
    let Some(row) = e.parent().filter(|p| p.is_element()) else {
        return false;
    };
    // Not the only item: a row of one link is a link.
    let items = row
        .children_it(false)
        .filter(|c| c.is_element())
        .take(2)
        .count();
    let c = counts.get(&row.id).copied().unwrap_or_default();
    items > 1 && c.text > 0 && (c.linked as f64) <= LINK_DENSITY * c.text as f64
}

/// Columns a table's header row names for its linked cells to be its data.
const DATA_COLUMNS: usize = 3;

/// Which cells are a table's data ([`DataCells::holds`]), each row and each table judged
/// once: a table of thousands of linked rows is read in time linear in it, not once per
/// cell (its test counts the nodes looked at).
#[derive(Default)]
struct DataCells {
    rows: HashMap<NodeId, bool>,
    tables: HashMap<NodeId, bool>,
    /// Nodes looked at.
    looked: usize,
}

impl DataCells {
    /// Whether `e` is a cell of a table of data: a row of [`DATA_COLUMNS`] cells or more
    /// in a table whose first row is all header cells, as many. A table of names
    /// (laureates, a league's clubs) links most of its cells, and they are its data; a
    /// table of links beside the text (a navigation box: a header cell and its list of
    /// links) has rows of two.
    fn holds(&mut self, e: &NodeRef<'_>) -> bool {
        if !named(e, &["td", "th"]) {
            return false;
        }
        let Some(row) = e.parent().filter(|p| p.has_name("tr")) else {
            return false;
        };
        if let Some(&data) = self.rows.get(&row.id) {
            return data;
        }
        let data = self.cells(&row) >= DATA_COLUMNS
            && row
                .ancestors_it(Some(2))
                .find(|a| a.has_name("table"))
                .is_some_and(|table| self.of_data(&table));
        self.rows.insert(row.id, data);
        data
    }

    /// Cells of `row`, up to [`DATA_COLUMNS`].
    fn cells(&mut self, row: &NodeRef<'_>) -> usize {
        let looked = &mut self.looked;
        row.children_it(false)
            .inspect(|_| *looked += 1)
            .filter(|c| named(c, &["td", "th"]))
            .take(DATA_COLUMNS)
            .count()
    }

    /// Whether `table`'s first row (in its `thead`, else in its first row group) is
    /// [`DATA_COLUMNS`] header cells or more and nothing else.
    fn of_data(&mut self, table: &NodeRef<'_>) -> bool {
        if let Some(&data) = self.tables.get(&table.id) {
            return data;
        }
        let looked = std::cell::Cell::new(0usize);
        let first = table
            .children_it(false)
            .inspect(|_| looked.set(looked.get() + 1))
            .filter(|c| named(c, &["thead", "tbody", "tr"]))
            .find_map(|g| {
                if g.has_name("tr") {
                    Some(g)
                } else {
                    g.children_it(false)
                        .inspect(|_| looked.set(looked.get() + 1))
                        .find(|r| r.has_name("tr"))
                }
            });
        self.looked += looked.get();
        let data = first.is_some_and(|first| {
            self.cells(&first) >= DATA_COLUMNS
                && first
                    .children_it(false)
                    .inspect(|_| self.looked += 1)
                    .filter(|c| c.is_element())
                    .all(|c| c.has_name("th"))
        });
        self.tables.insert(table.id, data);
        data
    }
}

/// Plain text of article HTML: one paragraph per block, separated by a blank line; `<br>`
/// a line break; whitespace inside a line collapsed; no markup, no image text.
pub fn plain_text(html: &str) -> String {
    let fragment = Document::fragment(html);
    tree::text(&fragment.root())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> String {
        format!(
            "<html><head><title>The Title Of This Story - Site</title></head><body>\
             <nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav>\
             <article><h1>The Title Of This Story</h1>{body}</article>\
             <footer>© Site</footer></body></html>"
        )
    }

    /// Asserts the text read holds each of `kept` and none of `gone`.
    fn reads(x: &Extracted, kept: &[&str], gone: &[&str]) {
        for k in kept {
            assert!(x.text.contains(k), "{k}: {}", x.text);
        }
        for g in gone {
            assert!(!x.text.contains(g), "{g}: {}", x.text);
        }
    }

    fn para(n: usize) -> String {
        (0..n)
            .map(|i| format!("<p>Paragraph {i} says something worth reading about the subject, in words long enough to count as prose for an extractor.</p>"))
            .collect()
    }

    #[test]
    fn a_code_blocks_language_reaches_its_markdown_fence() {
        let url = Url::parse("https://example.com/docs/guide").expect("url");
        let body = format!(
            "{}<div class='highlight-python3 notranslate'><div class='highlight'><pre>\
             <span class='kn'>import</span> logging</pre></div></div>{}\
             <pre><code class='hljs language-rs'>fn main() {{}}</code></pre>\
             <div class='shell'><pre>ls -l</pre></div>\
             <pre data-lang='Shell'>echo hi</pre>\
             <pre class='language-&lt;script&gt;'>plain</pre>{}",
            para(2),
            para(1).replace("Paragraph", "Between"),
            para(1).replace("Paragraph", "After"),
        );
        let x = extract(&page(&body), &url).expect("extracted");
        let md = crate::text::markdown(&x.html);
        for fence in [
            "```python\nimport logging\n```",
            "```rust\nfn main() {}\n```",
            // A box's bare class word is a style, not a language.
            "```\nls -l\n```",
            "```bash\necho hi\n```",
            "```\nplain\n```",
        ] {
            assert!(md.contains(fence), "{fence}: {md}");
        }
        assert!(!x.html.contains("script"), "{}", x.html);
    }

    #[test]
    fn code_languages_are_looked_for_within_bounds() {
        // Past the bound, blocks are not marked; a box's class too long to read names none.
        let pres = "<pre>x = 1</pre>".repeat(CODE_BLOCKS_MAX + 10);
        let doc = Document::from(format!("<div class='highlight-python'>{pres}</div>"));
        assert_eq!(code_languages(&doc), CODE_BLOCKS_MAX);
        assert_eq!(doc.select("pre.language-python").length(), CODE_BLOCKS_MAX);
        let padded = format!("highlight-python {}", "x ".repeat(CODE_CLASS_MAX_BYTES));
        let doc = Document::from(format!("<div class='{padded}'><pre>x = 1</pre></div>"));
        code_languages(&doc);
        assert_eq!(doc.select("pre[class]").length(), 0);
        // A `data-lang` longer than any language's name is not read, even padded.
        let padded = format!("{}python", " ".repeat(64));
        assert_eq!(crate::text::code_language(&padded, true), None);
        assert_eq!(
            crate::text::code_language(" python ", true),
            Some("language-python")
        );
    }

    #[test]
    fn a_code_blocks_comments_stay_whatever_the_highlighter_names_them() {
        let url = Url::parse("https://example.com/posts/git").expect("url");
        // highlight.js and Prism wrap a comment in a span named for it; a reader's
        // comment box is named the same way, and goes.
        let body = format!(
            "{}<pre><code class='language-bash hljs'><span class='hljs-comment'># stage \
             every change</span>\ngit add -A\n<span class='token comment'># record \
             them</span>\ngit commit</code></pre>{}<div class='comment'>Great post, thanks \
             for writing it up!</div>",
            para(2),
            para(1).replace("Paragraph", "After"),
        );
        let x = extract(&page(&body), &url).expect("extracted");
        for kept in [
            "# stage every change",
            "git add -A",
            "# record them",
            "After 0",
        ] {
            assert!(x.text.contains(kept), "{kept}: {}", x.text);
        }
        assert!(!x.text.contains("Great post"), "{}", x.text);
    }

    #[test]
    fn a_section_heading_classed_as_a_header_stays() {
        let url = Url::parse("https://example.com/p/vibe-coding").expect("url");
        // Substack's section heading, with its link button; a theme's `section-header`.
        let body = format!(
            "{}<h2 class='header-anchor-post'>Introducing Mentor Mode<div \
             class='header-anchor-parent'><button aria-label='Link'>#</button></div></h2>{}\
             <h3 class='Section-Header'>What it costs</h3>{}",
            para(2),
            para(2).replace("Paragraph", "Section"),
            para(1).replace("Paragraph", "Cost"),
        );
        let x = extract(&page(&body), &url).expect("extracted");
        for kept in [
            "Introducing Mentor Mode",
            "What it costs",
            "Section 1 says",
            "Cost 0",
        ] {
            assert!(x.text.contains(kept), "{kept}: {}", x.text);
        }
        assert!(x.html.contains("<h2>Introducing Mentor Mode"), "{}", x.html);
    }

    #[test]
    fn a_table_of_linked_names_stays_and_a_box_of_links_goes() {
        let url = Url::parse("https://en.wikipedia.org/wiki/List_of_laureates").expect("url");
        // Wikipedia's sortable table: classed for its sticky header row, every laureate a
        // link. Beside it a navigation box: a header cell and its row of links.
        let row = |year: usize| {
            format!(
                "<tr><th>{year}</th><td><a href='/wiki/A{year}'>Physicist Name{year}</a></td>\
                 <td><a href='/wiki/B{year}'>Chemist Name{year}</a></td>\
                 <td><a href='/wiki/C{year}'>Writer Name{year}</a></td></tr>"
            )
        };
        let rows: String = (1901..1921).map(row).collect();
        let body = format!(
            "{}<h2>List of laureates</h2><table class='wikitable sortable sticky-header'>\
             <tbody><tr><th>Year</th><th>Physics</th><th>Chemistry</th><th>Literature</th></tr>\
             {rows}</tbody></table>{}<table class='navbox'><tbody><tr><th>Related lists\
             </th><td><a href='/wiki/X'>Fields Medal</a> · <a href='/wiki/Y'>Turing \
             Award</a></td></tr></tbody></table>",
            para(3),
            para(1).replace("Paragraph", "Closing"),
        );
        let x = extract(&page(&body), &url).expect("extracted");
        reads(
            &x,
            &[
                "Physicist Name1901",
                "Chemist Name1920",
                "Writer Name1910",
                "Closing 0",
            ],
            &["Turing"],
        );
    }

    /// A blog of the TypePad years: a sidebar of widgets (each a titled box of the author's
    /// books, their shops and a blurb), then the post in the body the theme names
    /// (`entry-content`), a few short paragraphs.
    fn blog_page() -> String {
        let widget = |i: usize| {
            format!(
                "<div class='module-typelist module'><h2 class='module-header'>Book {i}</h2>\
                 <div class='module-content'><p>Buy Book {i} now from these online retailers, \
                 in hardcover, paperback or for your reader; ask for bulk orders of Book {i} \
                 and find it at a retailer near you.</p><ul><li><a href='/b{i}/a'>Shop A</a>\
                 </li><li><a href='/b{i}/b'>Shop B</a></li></ul></div></div>"
            )
        };
        let sidebar: String = (0..12).map(widget).collect();
        let post = |i: usize| {
            format!(
                "<div class='entry'><h3 class='entry-header'>Two deadlines {i}</h3>\
                 <div class='entry-content'><p>The application deadline {i} for the free \
                 summer seminar is Friday morning; please remind any students you know that \
                 they are almost out of time.</p><p>The project I launched last month is almost \
                 over, and the oversized book is the thing to get while it lasts.</p>\
                 <p>I am enjoying a new book by a writer I admire; it is always a treat.</p>\
                 </div><p class='entry-footer'>Posted by Seth on July 12</p></div>"
            )
        };
        let posts = post(0);
        format!(
            "<html><head><title>Seth's Blog</title></head><body>\
             <div id='alpha'>{sidebar}</div><div id='beta'>{posts}</div></body></html>"
        )
    }

    #[test]
    fn a_short_post_in_the_body_the_page_names_is_read_not_the_sidebar_beside_it() {
        let url = Url::parse("https://example.com/blog/2012/07/two-deadlines.html").expect("url");
        let x = extract(&blog_page(), &url).expect("extracted");
        reads(
            &x,
            &["application deadline 0", "oversized book", "always a treat"],
            &["Buy Book", "retailer near you"],
        );
    }

    #[test]
    fn a_body_named_once_is_the_pages_and_one_of_several_is_not() {
        let body = |i: usize| {
            format!("<div class='post'><div class='post-content'><p>Post {i}</p></div></div>")
        };
        let page = |n: usize| {
            let posts: String = (0..n).map(body).collect();
            Document::from(format!(
                "<html><body><div id='main'>{posts}</div></body></html>"
            ))
        };
        assert!(content_body(&page(1)).is_some_and(|(_, chars, main)| chars == 5 && !main));
        // A thread's posts, each named a body (Tapatalk's), or a blog's front page.
        assert_eq!(content_body(&page(3)), None);
        // A body named twice, nested, is one.
        let nested = Document::from(
            "<html><body><div class='entry-content'><div class='post-body'><p>Post</p></div>\
             </div></body></html>",
        );
        assert!(content_body(&nested).is_some());
    }

    #[test]
    fn comments_go_from_an_article_after_its_text_and_from_a_block_anywhere() {
        let comments: String = (0..12)
            .map(|i| format!("<li><p>Congratulations from reader {i}, and welcome.</p></li>"))
            .collect();
        let cleaned = |before: &str, with_root: bool| {
            let doc = Document::from(format!(
                "<div id='read'>{before}<div class='commentsblock'><h3>12 Comments</h3>\
                 <ul>{comments}</ul></div></div>"
            ));
            let root = *doc.select("#read").nodes().first().expect("root");
            clean(&root, with_root, Names::Any, false);
            tree::text(&root)
        };
        // What Readability read: the post, then its comments.
        let post = "<p>Max Jacob Newport. Born 11/6/12. Future Study Hacker, already reading, \
                    with a photograph taken on the morning he came home from the hospital, \
                    and a note on the nights since, which have been short, and the naps, \
                    which have been long, for all three of them, and for the cat.</p>";
        let read = cleaned(post, true);
        assert!(
            read.contains("Max Jacob") && !read.contains("reader 3"),
            "{read}"
        );
        // With too little before them they are the text read (a page of comments).
        let read = cleaned("<p>A photo.</p>", true);
        assert!(read.contains("reader 3"), "{read}");
        // A block of the page weighed against a short article: comments wherever they are.
        let block = cleaned("", false);
        assert!(!block.contains("reader 3"), "{block}");
    }

    #[test]
    fn an_articles_readers_comments_under_their_heading_go() {
        let url = Url::parse("https://example.com/2012/11/new-ssl-flaw.html").expect("url");
        let comment = |i: usize| {
            format!(
                "<li class='commentpost'><strong>{i} Reader{i}</strong> | 10/29/2012\
                 <p>Reader {i} writes at length: it is a flaw, and yes it is about the library, \
                 but it is as much the library's fault as drunk driving is the car's; what \
                 matters is who ships the fix and when it reaches the people using it.</p></li>"
            )
        };
        let list: String = (0..20).map(comment).collect();
        for heading in [
            "<h2>20 Comments</h2>",
            "<h3>Leave a Reply</h3>",
            "<h2>Kommentare</h2>",
        ] {
            let body = format!(
                "{}<div class='commentsblock'>{heading}<ol class='commentlist'>{list}</ol></div>",
                para(3)
            );
            let x = extract(&page(&body), &url).expect("extracted");
            reads(
                &x,
                &["Paragraph 0", "Paragraph 2"],
                &["Reader 3 writes", "Reader 19"],
            );
        }
        // A paper's discussion is its own text.
        let body = format!(
            "{}<h2>Discussion</h2>{}",
            para(3),
            para(6).replace("Paragraph", "Finding")
        );
        let x = extract(&page(&body), &url).expect("extracted");
        reads(&x, &["Paragraph 0", "Finding 5"], &[]);
    }

    #[test]
    fn comments_readability_reads_instead_of_a_short_post_do_not_replace_it() {
        // The post is short; the comments under their heading hold more: read whole by
        // the largest block, they go there too, and the post stays.
        let url = Url::parse("https://example.com/2012/10/webcast.html").expect("url");
        let comment = |i: usize| {
            format!(
                "<li><strong>{i} Reader{i}</strong><p>Reader {i} says the link seems to be \
                 broken, and gives another one that works, with thanks for the post and a \
                 question about the client running in the browser.</p></li>"
            )
        };
        let list: String = (0..30).map(comment).collect();
        let html = format!(
            "<html><head><title>Webcast</title></head><body><div id='main'>\
             <div class='post'><h1>Webcast</h1><p>Mark your calendars and register today for \
             the broadcast of November 13th, with previews of the new edition.</p><p>This \
             should be pretty exciting, and the recording will follow for those who cannot join \
             on the day; the slides come with it, and the questions asked on the call.</p></div>\
             <div class='commentsblock'><h3>Post a Comment</h3><ol>{list}</ol></div></div>\
             </body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        reads(&x, &["Mark your calendars"], &["Reader 7 says"]);
    }

    #[test]
    fn a_large_table_of_linked_cells_is_judged_in_linear_time() {
        // Thousands of rows of linked cells, each row group opening with comments: every
        // row and the table are judged once, not the table's first row once per cell.
        let rows = 3000;
        let row = "<tr><td><a href='/a'>A</a></td><td><a href='/b'>B</a></td>\
                   <td><a href='/c'>C</a></td></tr>";
        let html = format!(
            "<table><tbody>{}<tr><th>X</th><th>Y</th><th>Z</th></tr>{}</tbody></table>",
            "<!-- a note -->".repeat(rows),
            row.repeat(rows)
        );
        let doc = Document::from(html.as_str());
        let cells: Vec<NodeRef<'_>> = doc
            .root()
            .descendants_it()
            .filter(|n| n.has_name("td"))
            .collect();
        assert_eq!(cells.len(), 3 * rows);
        let mut data = DataCells::default();
        assert!(cells.iter().all(|c| data.holds(c)));
        // Each row's cells, the table's first row group and its header row: once each.
        let nodes = 4 * (rows + 1) + (2 * rows + 1) + 4;
        assert!(data.looked <= nodes, "{} nodes looked at", data.looked);
    }

    #[test]
    fn a_section_its_heading_calls_recommendations_goes_and_the_storys_own_stay() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let other = |what: &str| {
            format!(
                "<p>{what}: another story of the site, told at a length that reads as prose to \
                 any extractor and longer than a caption.</p>"
            )
        };
        // A wrapped section, one of siblings up to the next heading of its rank (a German
        // one), and the story's own last section after it.
        let body = format!(
            "{}<div class='band'><h2>You may also like</h2>{}{}</div>{}\
             <h2>Ähnliche Artikel</h2>{}{}<h2>Notes on sources</h2>{}",
            para(4),
            other("Wrapped one"),
            other("Wrapped two"),
            para(1).replace("Paragraph 0", "Paragraph nine"),
            other("Sibling one"),
            other("Sibling two"),
            para(1).replace("Paragraph 0", "The sources note"),
        );
        let x = extract(&page(&body), &url).expect("extracted");
        for kept in [
            "Paragraph 3 says",
            "Paragraph nine says",
            "Notes on sources",
            "The sources note says",
        ] {
            assert!(x.text.contains(kept), "{kept}: {}", x.text);
        }
        for gone in ["You may also like", "Wrapped", "Ähnliche", "Sibling"] {
            assert!(!x.text.contains(gone), "{gone}: {}", x.text);
        }
        // A section that holds most of the text is the text, whatever its heading says.
        let most = format!("{}<h2>Related articles</h2>{}", para(1), para(4));
        let x = extract(&page(&most), &url).expect("extracted");
        assert!(x.text.contains("Related articles"), "{}", x.text);
        assert!(x.text.contains("Paragraph 3 says"), "{}", x.text);
    }

    #[test]
    fn recommendation_headings_cost_a_walk_linear_in_the_page() {
        // Thousands of recommendation headings, each after a paragraph and before one, in
        // one parent and nested: each looks at its neighbours, never at the whole run.
        let pair = "<p>Text before.</p><h3>You may also like</h3>";
        for body in [
            format!("<div>{}</div>", pair.repeat(2_000)),
            format!(
                "{}{}",
                format!("<div>{pair}").repeat(400),
                "</div>".repeat(400)
            ),
        ] {
            let doc = Document::from(format!("<article>{body}<p>The end.</p></article>"));
            let root = *doc.select("article").nodes().first().expect("article");
            let counts = tree::counts(&root, BLOCKS);
            let total = counts[&root.id].text;
            let (mut looked, mut headings, mut nodes) = (0usize, 0usize, 0usize);
            for n in root.descendants_it() {
                nodes += 1;
                if n.has_name("h3") {
                    headings += 1;
                    if let Some(limit) = section_limit(&n, total, true) {
                        heading_section(&n, &root, &counts, limit, &mut looked);
                    }
                }
            }
            assert!(headings >= 400);
            assert!(
                looked <= 4 * nodes,
                "{looked} nodes looked at, {nodes} in the page"
            );
        }
    }

    #[test]
    fn the_articles_heading_heads_the_text_once() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let x = extract(&page(&para(5)), &url).expect("extracted");
        assert_eq!(x.title, "The Title Of This Story");
        assert!(
            x.text.starts_with("The Title Of This Story\n\n"),
            "{}",
            x.text
        );
        assert_eq!(x.text.matches("The Title Of This Story").count(), 1);
        assert!(x.html.starts_with("<h1>"), "{}", x.html);
        assert_eq!(x.warning, None);
    }

    /// A press page: a heading, a line of intro, then `n` cards (a linked title, its source
    /// and date), each too short for Readability to take as a paragraph.
    fn news_index(n: usize) -> String {
        let cards: String = (0..n)
            .map(|i| {
                format!(
                    "<li class='teaser'><a href='/news/{i}'>Tutoring program {i} shows promise</a> \
                     <span class='source'>Gazette {i}, 12/0{}/2025</span></li>",
                    i % 9 + 1
                )
            })
            .collect();
        format!(
            "<html><head><title>News | Center</title></head><body><nav><a href='/'>Home</a></nav>\
             <main><h1>News</h1><p>What the press says about our work, and where it said it.</p><ul class='teasers'>{cards}</ul></main>\
             <footer>© Center</footer></body></html>"
        )
    }

    #[test]
    fn a_listing_is_read_as_all_its_cards_not_one() {
        // A category page (by its URL): Readability alone gives the intro.
        let url = Url::parse("https://center.example.org/category/press").expect("url");
        let x = extract(&news_index(12), &url).expect("extracted");
        for i in 0..12 {
            assert!(
                x.text
                    .contains(&format!("Tutoring program {i} shows promise"))
                    && x.text.contains(&format!("Gazette {i},")),
                "card {i} missing: {}",
                x.text
            );
        }
        assert!(!x.text.contains("© Center"), "{}", x.text);
        assert_eq!(x.warning, None);
    }

    #[test]
    fn a_short_post_stands_against_the_modules_of_a_sidebar_named_by_its_id() {
        // A blog written before HTML5 named its columns: the post beside `div#sidebar`'s
        // modules (the author's books, the archive's months) that hold more text than it.
        let url =
            Url::parse("https://blog.example.net/2012/07/a-fire-in-south-buffalo").expect("url");
        let module = |i: usize| {
            format!(
                "<div class='module'><h3>Books by the author, volume {i}</h3><ul>\
                 <li><a href='/b/{i}/1'>Buy volume {i} now from these online retailers</a></li>\
                 <li><a href='/b/{i}/2'>Find volume {i} at a bookstore near you today</a></li>\
                 <li><a href='/b/{i}/3'>Read the first chapter of volume {i} for free</a></li>\
                 </ul></div>"
            )
        };
        let modules: String = (1..9).map(module).collect();
        let html = format!(
            "<html><head><title>A fire in South Buffalo</title></head><body>\
             <div id='container'><div id='content'><h1>A fire in South Buffalo</h1>\
             <p>When I was growing up, there was intense competition for news among the local \
             networks, and every evening our shows were interrupted by a fire across town.</p>\
             <p>Today's competition for clicks makes that battle look quaint, and the companies \
             racing to the bottom are getting there faster than anyone expected.</p></div>\
             <div id='sidebar'>{modules}</div></div></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        reads(
            &x,
            &["interrupted by a fire", "racing to the bottom"],
            &["online retailers", "first chapter"],
        );
    }

    #[test]
    fn a_story_laid_out_in_a_tables_rows_stands_against_the_rows_of_headlines() {
        // A news page of 2008: one table, the story in one row, headlines in the others.
        let url = Url::parse("https://news.example.com/story.asp?NewsID=25318").expect("url");
        let headlines = |n: usize| -> String {
            (0..8)
                .map(|i| {
                    format!("<a href='/s/{n}/{i}'>Headline {i} of the section {n} today</a><br>")
                })
                .collect()
        };
        let rows: String = (1..4)
            .map(|n| format!("<tr><td><b>Section {n}</b><br>{}</td></tr>", headlines(n)))
            .collect();
        let html = format!(
            "<html><head><title>Kosovo talks resume</title></head><body><table><tbody>\
             <tr><td><h1>Kosovo talks resume</h1><p>Talks on the future status of Kosovo \
             resumed in Vienna on Monday, with both delegations saying they were ready to \
             discuss the proposals put forward by the envoy.</p><p>The envoy said he hoped \
             to present a settlement to the Security Council before the end of the month, \
             after consulting the members of the Contact Group.</p><p>Neither side has \
             changed its position since the last round, diplomats in the city said, but both \
             agreed to meet again next week.</p></td></tr>{rows}\
             </tbody></table></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        reads(
            &x,
            &["resumed in Vienna", "the Contact Group"],
            &["Headline 3 of the section 2"],
        );
    }

    #[test]
    fn an_iframes_raw_content_is_not_text() {
        // A page of 2008 wrote its ads' scripts inside iframes: raw text no browser shows,
        // here in each card of a listing.
        let url = Url::parse("https://www.example-tv.com/category/news").expect("url");
        let card = |i: usize| {
            format!(
                "<div class='card'><h3><a href='/s/{i}'>Story number {i} of the week</a></h3>\
                 <p>What happened in story {i}, told in a line.</p><IFRAME id='wnsz_{i}'>\
                 <SCRIPT LANGUAGE='JavaScript1.1'>if (document.layers) \
                 {{document.write('<SCR' + 'IPT SRC=/Global/ad.asp>');}}</SCRIPT></IFRAME></div>"
            )
        };
        let cards: String = (0..6).map(card).collect();
        let html = format!(
            "<html><head><title>News</title></head><body><main><h1>News</h1>\
             <div class='grid'>{cards}</div></main></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        reads(
            &x,
            &["Story number 5 of the week"],
            &["document.write", "SCRIPT", "JavaScript1.1"],
        );
        assert!(!x.html.contains("document.write"), "{}", x.html);
    }

    #[test]
    fn a_short_post_stands_against_boxes_of_links_beside_it() {
        // A blog of 2012: the post, and a column of boxes, each a heading over its links
        // (the archive's months, the blogroll, the categories), named nothing.
        let url = Url::parse("https://blog.example.org/2012/10/election-day").expect("url");
        let links = |b: usize| -> String {
            (1..7)
                .map(|i| {
                    format!("<li><a href='/b/{b}/{i}'>Link {i} of box {b}, to elsewhere</a></li>")
                })
                .collect()
        };
        let boxes: String = (1..6)
            .map(|b| {
                format!(
                    "<div class='box'><h3>Box {b}</h3><ul>{}</ul></div>",
                    links(b)
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Election day</title></head><body><div id='wrap'>\
             <div id='post'><h1>Election day</h1><p>As the media has made us all aware, election \
             day is fast approaching, and we want to offer a free resource to help voters think \
             about their responsibility.</p><p>The booklet is yours for the asking until the end \
             of the month, while our supply lasts.</p></div><div id='col2'>{boxes}</div>\
             </div></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        reads(
            &x,
            &["election day is fast approaching", "while our supply lasts"],
            &["Link 3 of box 2"],
        );
    }

    #[test]
    fn looking_for_boxes_of_links_in_nested_lists_is_bounded() {
        // Lists nested a thousand deep in each card, no link in them: each item is looked
        // at for its first steps, not its whole subtree once for every list above it.
        let depth = 1000;
        let nested = format!(
            "{}x{}",
            "<ul><li>".repeat(depth),
            "</li></ul>".repeat(depth)
        );
        let html = format!(
            "<html><body><div id='cards'>{}</div></body></html>",
            (0..3)
                .map(|_| format!("<div class='c'>{nested}</div>"))
                .collect::<String>()
        );
        let doc = Document::from(html.as_str());
        let cards = tree::first_element(&doc.root(), |n| n.attr("id").as_deref() == Some("cards"))
            .expect("cards")
            .element_children();
        let (boxes, steps) = boxes_of_links(&cards);
        assert_eq!(boxes, 0);
        assert!(
            steps <= 3 * depth * LINK_LOOK_STEPS,
            "{steps} steps for {} items",
            3 * depth
        );
    }

    #[test]
    fn a_threads_user_cards_and_votes_are_not_its_text() {
        // A question and its answers as Stack Exchange writes them: each post's score, and
        // its signature (when, who, their badges) under it.
        let url = Url::parse("https://askubuntu.example.com/questions/7809/back-up").expect("url");
        let post = |i: usize| {
            format!(
                "<div class='answer'><div class='js-vote-count'>{}</div><div class='post-text'>\
                 <p>Answer {i}: copy the home folder with rsync to a second disk, then check \
                 the copy before you trust it with anything.</p></div><div class='post-signature'>\
                 <div class='user-action-time'>answered Oct {i}, 2010 at 22:13</div>\
                 <div class='user-details'><a href='/users/{i}'>helper{i}</a> \
                 <span class='badgecount'>{i}</span> silver badges</div></div></div>",
                i * 7 + 3
            )
        };
        let answers: String = (1..6).map(post).collect();
        let html = format!(
            "<html><head><title>How to back up my system?</title></head><body><main>\
             <h1>How to back up my system?</h1><div class='question'><p>What is the simplest \
             way to back up everything on my machine to a second disk every week?</p></div>\
             {answers}</main></body></html>"
        );
        let x = extract_as(&html, &url, Some(Kind::Forum)).expect("extracted");
        assert!(x.text.contains("Answer 4: copy"), "{}", x.text);
        for card in ["silver badges", "answered Oct", "helper2"] {
            assert!(!x.text.contains(card), "{card}: {}", x.text);
        }
    }

    #[test]
    fn a_blogs_posts_are_no_bylines_whatever_their_taxonomy_classes_say() {
        // A blog's index as WordPress writes it: each post an `hentry` whose classes name
        // its author and tags (`author-jane-doe`, `tag-comments`). Cleaned as a
        // listing's cards, every post stays; a byline inside one still goes.
        let posts: String = (0..8)
            .map(|i| {
                format!(
                    "<article class='entry hentry author-jane-doe tag-comments'><h2>\
                     <a href='/news/{i}'>Partnership {i} is signed</a></h2><p>The firms of \
                     deal {i} will work together.</p><div class='byline'>By Jane Doe</div>\
                     </article>"
                )
            })
            .collect();
        let doc = Document::from(format!("<section class='blog-list'>{posts}</section>"));
        let list = *doc.select("section").nodes().first().expect("section");
        clean(&list, false, Names::Any, true);
        let text = tree::text(&list);
        for i in 0..8 {
            assert!(text.contains(&format!("deal {i} will")), "{i}: {text}");
        }
        assert!(!text.contains("By Jane Doe"), "{text}");
    }

    #[test]
    fn a_listing_read_as_an_article_keeps_its_linked_titles() {
        // A shop's category with a long text under its grid: Readability takes the grid
        // and the text together, and the cards' names and prices, each a link, are the
        // listing's content, not a menu.
        let url = Url::parse("https://shop.example.com/category/dresses").expect("url");
        let cards: String = (0..6)
            .map(|i| {
                format!(
                    "<li class='tile'><a href='/p/{i}'><h2>Striped midi dress number {i}</h2>\
                     <div class='price'>${i}9</div></a><small>Select your size</small></li>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Dresses</title></head><body><nav><a href='/'>Home</a></nav>\
             <main><h1>Dresses</h1><p>A list of casual dresses, six styles.</p>\
             <ul class='grid'>{cards}</ul>{}</main></body></html>",
            para(6)
        );
        let x = extract_as(&html, &url, Some(Kind::Listing)).expect("extracted");
        holds_each(
            &x.text,
            (0..6).map(|i| format!("Striped midi dress number {i}")),
        );
    }

    #[test]
    fn a_page_calling_itself_an_article_with_a_few_words_and_a_grid_is_its_grid() {
        // A maker's range page: it says it is an article, Readability finds one line, and
        // the grid of models (each name and price a link) is what the page holds.
        let url =
            Url::parse("https://maker.example.com/en-us/garden/robotic-mowers/").expect("url");
        let cards: String = (0..5)
            .map(|i| {
                format!(
                    "<div class='card'><a href='/m/{i}'><h3>Robotic mower model {i} for \
                     small lawns</h3></a><a href='/m/{i}#buy'><span>$1,{i}99</span></a></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Robotic mowers</title>\
             <meta property='og:type' content='article'></head><body>\
             <nav><a href='/'>Home</a></nav><main><h1>Robotic mowers</h1><p>Compare models.</p>\
             <div class='grid'>{cards}</div></main></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        holds_each(&x.text, (0..5).map(|i| format!("Robotic mower model {i}")));
    }

    #[test]
    fn a_shops_thumbnails_captions_are_its_cards_text() {
        // A shop's category (ASP.NET: the page one form; Bootstrap's thumbnails): each
        // product's name, maker and price sit in the thumbnail's `caption`, itself a link.
        let url = Url::parse("https://shop.example.com/4k-projectors").expect("url");
        let cards: String = (0..8)
            .map(|i| {
                format!(
                    "<div class='col-md-4 category-product'><a class='thumbnail' href='/p/{i}'>\
                     <img src='/p/{i}.jpg' alt=''></a><a href='/p/{i}'><div class='caption'>\
                     <div class='name'>Laser projector model {i} with 5000 lumens</div>\
                     <div>Manufacturer: Maker {i}</div><span class='price'>Price: $4,{i}99.00</span>\
                     </div></a></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>4K projectors</title></head><body><form id='MainForm'>\
             <header><nav><a href='/'>Home</a></nav></header><section><h1>4K projectors</h1>\
             <div class='product-list row'>{cards}</div><p>Products 1-8 of 8</p></section>\
             </form></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        holds_each(
            &x.text,
            (0..8).map(|i| format!("Laser projector model {i} with 5000 lumens")),
        );
        holds_each(&x.text, (0..8).map(|i| format!("Price: $4,{i}99.00")));
    }

    #[test]
    fn panels_a_page_hides_until_opened_are_its_text_and_its_hidden_tabs_and_modals_are_not() {
        // A guide's steps in an accordion (each panel a `role="region"` shown on a click,
        // or named `…-hidden` as Kadence's are) and a FAQ's answers: the page's text.
        let url = Url::parse("https://example.com/guides/installing-solar").expect("url");
        let steps: String = (0..4)
            .map(|i| {
                format!(
                    "<div class='accordion-item'><h3><button>Week {i} of the work</button></h3>\
                     <div role='region' style='display: none;'><p>In week {i} the installer \
                     surveys the roof, files the permits and orders the panels for the job.</p>\
                     </div></div>"
                )
            })
            .collect();
        let kadence = "<div class='kt-accordion-pane'><div class='kt-accordion-panel \
                       kt-accordion-panel-hidden'><div class='kt-accordion-panel-inner'><ul>\
                       <li>Net metering credits the energy the panels send back to the grid.</li>\
                       <li>Batteries keep the lights on through an outage of the grid.</li>\
                       </ul></div></div></div>";
        let faq = "<div class='faq'><h3>Do panels work in winter?</h3><div class='faq-answer' \
                   hidden><p>Yes: cold panels are more efficient, and snow slides off them \
                   within days of a storm.</p></div></div>";
        // What stays hidden: a sign-up modal, and a product-style tab panel.
        let modal = "<div class='modal' style='display:none'><p>Join our newsletter for a \
                     free quote on solar panels today.</p></div>";
        let tab = "<div role='tabpanel' hidden><p>Shipping and returns: free shipping on \
                   orders over fifty dollars.</p></div>";
        let html = page(&format!(
            "{}{steps}{kadence}{faq}{modal}{tab}{}",
            para(2),
            para(1)
        ));
        let x = extract(&html, &url).expect("extracted");
        holds_each(
            &x.text,
            (0..4).map(|i| format!("In week {i} the installer surveys the roof")),
        );
        holds_each(
            &x.text,
            [
                "Net metering credits the energy",
                "Batteries keep the lights on",
                "cold panels are more efficient",
            ]
            .into_iter()
            .map(String::from),
        );
        assert!(!x.text.contains("Join our newsletter"), "{}", x.text);
        assert!(!x.text.contains("Shipping and returns"), "{}", x.text);
    }

    #[test]
    fn a_page_of_more_hidden_panels_than_the_bound_has_only_the_bound_opened() {
        let html = "<div role='region' hidden>a panel</div>".repeat(PANELS_MAX + 10);
        let (doc, _) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        assert_eq!(open_panels(&doc), PANELS_MAX);
        assert_eq!(doc.select("[hidden]").length(), 10);
    }

    /// Asserts that `text` holds each of `lines`.
    fn holds_each(text: &str, lines: impl Iterator<Item = String>) {
        for line in lines {
            assert!(text.contains(&line), "{line}: {text}");
        }
    }

    #[test]
    fn a_blocks_articles_keep_their_headers_and_the_pages_header_goes() {
        // A front page read as its largest block: each story's <header> holds its title and
        // dek (Phoronix's), the block's own banner is chrome.
        let stories: String = (0..3)
            .map(|i| {
                format!(
                    "<article><header><h2>Kernel {i} released</h2><p>What changed in {i}.</p>\
                     </header><p>The body of story {i}, a paragraph of it.</p></article>"
                )
            })
            .collect();
        let html = format!("<div id='b'><header>Site banner and menu</header>{stories}</div>");
        for (own, titled) in [(true, true), (false, false)] {
            let doc = Document::from(html.as_str());
            let block = tree::first_element(&doc.root(), |n| n.has_name("div")).expect("block");
            let (_, text) = block_text(&block, Names::Any, own);
            assert!(text.contains("The body of story 2"), "{text}");
            assert_eq!(text.contains("Kernel 2 released"), titled, "{own}: {text}");
            assert!(!text.contains("Site banner"), "{text}");
        }
    }

    #[test]
    fn a_thread_is_its_opening_post_and_the_replies_to_it() {
        // Vanilla's thread: the opening post in a div.MessageList, its comments the cards of
        // a ul.MessageList, together less than twice the post — the post and every reply.
        // Cards of another component (a "similar threads" strip) are not replies.
        let post = "The project has ended its open source edition, and the maintainers wrote \
                    that the last release will get security fixes for one more year only. "
            .repeat(4);
        let thread = |list: &str| {
            let replies: String = (0..3)
                .map(|i| {
                    format!(
                        "<li class='Item Alt ItemComment'><div class='Message'>Reply {i}: we \
                         moved our forum to another engine last spring.</div></li>"
                    )
                })
                .collect();
            format!(
                "<html><head><title>Open source has ended</title></head><body><main>\
                 <div class='MessageList Discussion'><div class='Item ItemDiscussion'>\
                 <h1>Open source has ended</h1><div class='Message'><p>{post}</p></div></div>\
                 </div><ul class='{list}'>{replies}</ul></main></body></html>"
            )
        };
        let url = Url::parse("https://forum.example/discussion/1/open-source").expect("url");
        for (list, replied) in [("MessageList DataList Comments", true), ("Similar", false)] {
            let x = extract_as(&thread(list), &url, Some(Kind::Forum)).expect("extracted");
            assert!(
                x.text.contains("security fixes for one more year"),
                "{}",
                x.text
            );
            for i in 0..3 {
                assert_eq!(
                    x.text.contains(&format!("Reply {i}: we moved")),
                    replied,
                    "{list}: {}",
                    x.text
                );
            }
        }
    }

    #[test]
    fn a_thread_whose_replies_outweigh_its_post_opens_with_the_post() {
        // Lemmy's post and its comments: Readability reads the post, the comments are
        // cards holding more than twice its text — the thread is the post, then them.
        let post = "Here is our regular update that explains what we have been working on \
                    for the past two weeks, so that users can keep up with development. ";
        let comments: String = (0..8)
            .map(|i| {
                format!(
                    "<li class='comment'><article><div class='md'><p>Comment {i}: thanks for \
                     the update, the new moderation tools have made our instance far easier \
                     to run, and the federation fixes helped too.</p></div></article></li>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Development update</title></head><body><main>\
             <div class='post'><h1>Development update</h1><div class='md'><p>{post}</p><p>{post}</p>\
             </div></div><ul class='comments'>{comments}</ul></main></body></html>"
        );
        let url = Url::parse("https://lemmy.example/post/21018364").expect("url");
        let x = extract_as(&html, &url, Some(Kind::Forum)).expect("extracted");
        let opened = x.text.find("Here is our regular update").expect("the post");
        let replied = x.text.find("Comment 7: thanks").expect("the comments");
        assert!(opened < replied, "{}", x.text);
    }

    #[test]
    fn a_blocks_buttons_are_controls_but_a_panels_toggle_is_its_title() {
        // A service page read as its block: "Book a call" and "Follow" are controls; an
        // accordion's question (`aria-expanded`, or a heading drawn as a button) titles
        // the answer below it.
        let sections: String = (0..4)
            .map(|i| {
                format!(
                    "<section><h2>Feature {i}</h2><p>Feature {i} keeps every invoice of the \
                     firm in one ledger, reconciled each night with the bank's own statement.</p>\
                     <button type='button'>Book a call {i}</button></section>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Ledger for firms</title></head><body><main><h1>Ledger for firms</h1>\
             {sections}<section><h2>Questions</h2>\
             <button aria-expanded='false' aria-controls='a1'>How long does the setup take?</button>\
             <div id='a1'><p>The setup takes one afternoon, with the bank's export in hand.</p></div>\
             <button type='button'><h5>Can the ledger be exported?</h5></button>\
             <div><p>Every ledger exports to a spreadsheet or to the accountant's own tool.</p></div>\
             <button class='js-follow'>Follow</button></section></main></body></html>"
        );
        let url = Url::parse("https://ledger.example/").expect("url");
        let x = extract_as(&html, &url, Some(Kind::Service)).expect("extracted");
        reads(
            &x,
            &[
                "Feature 3 keeps",
                "How long does the setup take?",
                "Can the ledger be exported?",
            ],
            &["Book a call", "Follow"],
        );
    }

    #[test]
    fn a_posts_signature_is_not_its_text() {
        // phpBB's `signature`, Invision's `ipsEntry__signature`: what each poster's posts
        // all end with (their computer's parts, a motto) is no part of any of them.
        let posts: String = (0..4)
            .map(|i| {
                format!(
                    "<div class='post'><div class='content'><p>Post {i}: the case fits a long \
                     graphics card, but the cooler needs a taller clearance than the panel \
                     allows, so pick a lower one.</p></div><div class='{}'><p>CPU: Ryzen 5 \
                     760{i}, Case: Lancool 205M, Total: 104{i} pounds</p><p>Build {i} of mine</p></div></div>",
                    ["signature", "ipsEntry__signature ipsResponsive_hidePhone"][i % 2]
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Editing PC build</title></head><body><main>\
             <h1>Editing PC build</h1>{posts}</main></body></html>"
        );
        let url = Url::parse("https://forum.example/topic/1571202-editing-pc-build/").expect("url");
        let x = extract_as(&html, &url, Some(Kind::Forum)).expect("extracted");
        assert!(x.text.contains("Post 3: the case fits"), "{}", x.text);
        assert!(!x.text.contains("Lancool"), "{}", x.text);
    }

    #[test]
    fn a_questions_body_marked_in_microdata_opens_its_thread() {
        // Stack Exchange's question: Readability takes the longest answer, the answers are
        // the thread's cards, and the question — its own `itemprop="text"` in the
        // `Question` — is read first, under the title, once.
        let answer = |i: usize| {
            format!(
                "<div class='answer' itemprop='suggestedAnswer' itemscope \
                 itemtype='https://schema.org/Answer'><div class='s-prose' itemprop='text'>\
                 <p>Answer {i}: press Alt and D to focus the address bar, then Shift and Tab \
                 twice to bring the focus to the list of files, which works every time.</p>\
                 <p>It also works in later versions, and no program has to be installed.</p>\
                 </div></div>"
            )
        };
        let answers: String = (1..5).map(answer).collect();
        let question = "This has bothered me for so long: which key moves the focus to the \
                        files pane of an Explorer window?";
        let html = format!(
            "<html><head><title>Focus the files pane?</title></head><body>\
             <main itemscope itemtype='https://schema.org/QAPage'><h1>Focus the files pane?</h1>\
             <div class='question' itemprop='mainEntity' itemscope \
             itemtype='https://schema.org/Question'><div class='s-prose' itemprop='text'>\
             <p>{question}</p></div></div><div id='answers'>{answers}</div></main></body></html>"
        );
        let url = Url::parse("https://superuser.example.com/questions/442960/focus").expect("url");
        let x = extract_as(&html, &url, Some(Kind::Forum)).expect("extracted");
        let asked = x.text.find("This has bothered me").expect("the question");
        let answered = x.text.find("Answer 1: press").expect("the answers");
        assert!(
            x.text.starts_with("Focus the files pane?\n\n"),
            "{}",
            x.text
        );
        assert!(asked < answered, "{}", x.text);
        assert_eq!(
            x.text.matches("This has bothered me").count(),
            1,
            "{}",
            x.text
        );
    }

    #[test]
    fn an_articles_own_text_stands_against_the_cards_beside_it() {
        // An article with forty cards of other stories below it holding more than twice
        // its text: the article is read, not the strip.
        let related: String = (0..40)
            .map(|i| format!("<div class='card'><a href='/r/{i}'>Another story number {i} on a quite different subject</a><p>Its summary {i}, a sentence or two about that other story and why one might read it.</p></div>"))
            .collect();
        let html = format!(
            "<html><head><title>The Title Of This Story - Site</title></head><body>\
             <article><h1>The Title Of This Story</h1>{}</article><div class='more'>{related}</div></body></html>",
            para(12)
        );
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("Paragraph 11 says"), "{}", x.text);
        assert!(!x.text.contains("Another story number"), "{}", x.text);
    }

    #[test]
    fn the_largest_block_skips_navigation_and_the_title_is_the_pages_heading() {
        let url = Url::parse("https://example.com/shop/opening-hours").expect("url");
        let html = "<html><head><title>Opening hours | Corner Bakery</title></head><body>\
             <header><nav><a href=\"/\">Home</a> <a href=\"/shop\">Shop</a></nav></header>\
             <div class=\"content\"><h1>Opening hours</h1><ul>\
             <li>Monday to Friday: 7:00 to 18:00</li><li>Saturday: 8:00 to 14:00</li>\
             <li>Sunday: closed</li><li>12 Mill Street, Northtown</li></ul></div>\
             <footer><a href=\"/imprint\">Imprint</a> © Corner Bakery</footer></body></html>";
        let x = extract(html, &url).expect("extracted");
        assert_eq!(x.title, "Opening hours");
        assert!(x.text.contains("Saturday: 8:00 to 14:00"), "{}", x.text);
        assert!(x.text.contains("12 Mill Street"), "{}", x.text);
        assert!(!x.text.contains("Imprint"), "{}", x.text);
        assert!(!x.text.contains("Shop"), "{}", x.text);
        assert_eq!(x.text.matches("Opening hours").count(), 1, "{}", x.text);
        let page = |html: &str| super::super::shape::parse_measured(html, MAX_ELEMENTS).0;
        let doc = page(html);
        let (title, block) = largest_block(&doc, 0, ARTICLE_SHARE).expect("a block");
        let block = block.inner_html().to_string();
        assert_eq!(title, "Opening hours");
        assert!(
            block.contains("12 Mill Street") && !block.contains("Imprint"),
            "{block}"
        );
        // A block that cannot hold what it must beat (twice an article, with room for
        // rendering) is not handed back to be cleaned and rendered.
        let held = tree::text(&largest_block(&doc, 0, ARTICLE_SHARE).expect("a block").1);
        assert!(largest_block(&doc, 2 * nonspace(&held) + 2, ARTICLE_SHARE).is_none());
        // A page with no text outside its navigation has none.
        let empty = page("<html><body><nav><a href=\"/\">x</a></nav></body></html>");
        assert!(largest_block(&empty, 0, ARTICLE_SHARE).is_none());
    }

    #[test]
    fn a_short_article_that_is_a_piece_of_the_page_gives_way_to_the_pages_largest_block() {
        // Readability takes the first cell of a table layout; the page holds four times it.
        let url = Url::parse("https://example.com/events/spring-fair").expect("url");
        let rows: String = [
            "Spring fair on the market square, Saturday 12 April from 10:00 to 17:00",
            "Entry is free; the raffle tickets cost 2 euros each and fund the school trip",
            "Stalls: bread and cakes, plants, second-hand books, a bicycle repair corner",
            "Parking at the sports hall on Mill Street, a five minute walk from the square",
        ]
        .iter()
        .map(|r| format!("<tr><td>{r}</td></tr>"))
        .collect();
        let html = format!(
            "<html><head><title>Spring fair</title></head><body><table>{rows}</table></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("second-hand books"), "{}", x.text);
        assert!(x.text.contains("Parking at the sports hall"), "{}", x.text);
        assert_eq!(x.warning, None);
    }

    #[test]
    fn captions_and_link_lists_go_and_the_text_stays() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let body = format!(
            "{}<figure><img src=\"pic.jpg\"><figcaption>A caption (Photo: Agency)</figcaption></figure>\
             <p><a href=\"/other\">Related: another story entirely</a></p>{}",
            para(4),
            para(3)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        assert_eq!(x.title, "The Title Of This Story");
        assert!(x.text.contains("Paragraph 0 says"), "{}", x.text);
        assert!(x.text.contains("Paragraph 2 says"), "{}", x.text);
        assert!(!x.text.contains("caption"), "{}", x.text);
        assert!(!x.text.contains("Related:"), "{}", x.text);
        assert!(!x.text.contains("Home"), "{}", x.text);
        assert!(
            x.text.contains("\n\n"),
            "paragraphs are kept apart: {}",
            x.text
        );
    }

    #[test]
    fn share_bars_bylines_and_credits_go_by_their_names_and_openings() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let body = format!(
            "<div class=\"share-bar\"><a href=\"/f\">Facebook</a> <span>Twitter Email</span></div>\
             <p class=\"article-byline\">Jane Doe, Staff Writer</p>\
             <p>Updated 5:27 am CST, Wednesday, November 20, 2019</p><p>6 min read</p>{}\
             <p>Photo: Someone, Agency</p><div id=\"newsletter-signup\"><p>Get our newsletter</p><form><input></form></div>{}",
            para(4),
            para(3)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        for gone in [
            "Facebook",
            "Jane Doe",
            "Updated",
            "min read",
            "Photo:",
            "newsletter",
        ] {
            assert!(!x.text.contains(gone), "{gone}: {}", x.text);
        }
        assert!(x.text.contains("Paragraph 3 says"), "{}", x.text);
        // A container named like boilerplate that holds most of the article stays.
        let body = format!("<div class=\"post-meta-wrapper\">{}</div>", para(6));
        let x = extract(&page(&body), &url).expect("extracted");
        assert!(x.text.contains("Paragraph 5 says"), "{}", x.text);
    }

    #[test]
    fn text_lengths_in_one_pass_are_each_elements_own() {
        let doc = Document::fragment(
            "<div class=a> one <p>two <b>three</b></p><div><i>four</i> </div></div><p>five</p>",
        );
        let counts = tree::counts(&doc.root(), BLOCKS);
        for e in doc.root().descendants_it().filter(|d| d.is_element()) {
            let naive = nonspace(&e.text());
            assert_eq!(
                counts.get(&e.id).map(|c| c.text),
                Some(naive),
                "<{:?}>",
                e.node_name()
            );
        }
        assert_eq!(counts[&doc.html_root().id].text, 19);
        let linked =
            Document::fragment("<ul><li>at <a href=x>Mill Street</a></li><li>daily</li></ul>");
        let c = tree::counts(&linked.html_root(), BLOCKS)[&linked.html_root().id];
        assert_eq!((c.text, c.linked), (17, 10));
    }

    #[test]
    fn a_named_block_is_quoted_in_the_flow_only_when_prose_follows_within_reach() {
        let prose = "A paragraph of prose that follows the quoted block, long enough to count as the running text.";
        let with_gap = |gap: usize| {
            Document::fragment(format!(
                "<div><div class=\"comment\">quoted</div>{}<p>{prose}</p></div>",
                "<div class=\"share\"></div>".repeat(gap)
            ))
        };
        let quoted = |doc: &Document| {
            let root = doc.html_root();
            let counts = tree::counts(&root, BLOCKS);
            let first = doc.select(".comment").nodes()[0];
            quoted_in_the_flow(&first, &counts)
        };
        assert!(quoted(&with_gap(0)));
        assert!(quoted(&with_gap(FLOW_LOOKAHEAD - 1)));
        // Past the look-ahead the prose is not looked for: thousands of empty named
        // siblings cost each of them a few steps, not a walk to the end of the row.
        assert!(!quoted(&with_gap(FLOW_LOOKAHEAD)));
        assert!(!quoted(&with_gap(5_000)));
    }

    #[test]
    fn a_tag_is_found_in_any_case_where_it_starts() {
        assert_eq!(find_ascii_ci("<p>x</p><H1 class=a>T</h1>", "<h1"), Some(8));
        assert_eq!(
            find_ascii_ci("<p>x</p><H1 class=a>T</h1>", "</h1"),
            Some(21)
        );
        assert_eq!(find_ascii_ci("<p>x</p><h2>", "<h1"), None);
        assert_eq!(find_ascii_ci("ends with <h", "<h1"), None);
        assert_eq!(find_ascii_ci("", "<h1"), None);
    }

    #[test]
    fn a_long_paragraph_full_of_links_is_kept() {
        let url = Url::parse("https://example.com/").expect("url");
        let linked = format!(
            "<p><a href=\"/x\">{}</a></p>",
            "a sentence that happens to be one long link ".repeat(6)
        );
        let x = extract(&page(&format!("{}{linked}", para(4))), &url).expect("extracted");
        assert!(x.text.contains("one long link"), "{}", x.text);
    }

    #[test]
    fn an_empty_page_is_an_error_not_a_panic() {
        let url = Url::parse("https://example.com/").expect("url");
        assert!(extract("", &url).is_err());
        assert!(extract("<html><body></body></html>", &url).is_err());
    }

    #[test]
    fn a_fact_box_beside_a_short_text_is_appended_once() {
        let url = Url::parse("https://example.com/events/reading").expect("url");
        let html = "<html><head><title>A reading - Site</title></head><body><main><article>\
             <h1>A reading</h1><p>The author reads from her second novel and talks with the \
             host about winters on a small island and counting geese.</p></article></main>\
             <aside><div><h3>Details</h3><dl><dt>When</dt><dd>Thursday 3 April, 19:30</dd>\
             <dt>Where</dt><dd>Harbour Street 12, first floor</dd><dt>Entry</dt><dd>12, reduced 8</dd>\
             </dl></div><ul><li><a href=\"/a\">Most read one</a></li><li><a href=\"/b\">Most read two</a></li></ul></aside>\
             <footer><dl><dt>Phone</dt><dd>0123</dd><dt>Mail</dt><dd>info at site</dd></dl></footer></body></html>";
        let x = extract(html, &url).expect("extracted");
        assert!(x.text.contains("Thursday 3 April, 19:30"), "{}", x.text);
        assert!(x.text.contains("Harbour Street 12"), "{}", x.text);
        assert_eq!(x.text.matches("Thursday 3 April").count(), 1, "{}", x.text);
        // The site's footer is chrome, and a list of links is no box of facts.
        assert!(!x.text.contains("0123"), "{}", x.text);
        assert!(!x.text.contains("Most read"), "{}", x.text);
        // A long article is the page's text already: nothing is added to it.
        let long = html.replace("<p>The author", &format!("{}<p>The author", para(10)));
        let x = extract(&long, &url).expect("extracted");
        assert!(!x.text.contains("Thursday 3 April"), "{}", x.text);
    }

    #[test]
    fn a_readers_comment_quoted_between_paragraphs_stays_and_a_comments_section_goes() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let body = format!(
            "{}<p>Two readers wrote in.</p>\
             <div class=\"reader-comment\"><p>Put a lid on the barrel or it breeds mosquitoes.</p></div>\
             <div class=\"ad-slot\"><span>Ad</span></div>\
             <div class=\"reader-comment\"><p>Paint it dark and the algae stay away.</p></div>\
             <p>Both were right.</p>{}\
             <div id=\"comments\" class=\"comments-area\"><h3>Leave a comment</h3>\
             <div class=\"comment\"><p>First comment below the post, not part of it.</p></div></div>",
            para(3),
            para(2)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        assert!(x.text.contains("Put a lid on the barrel"), "{}", x.text);
        assert!(x.text.contains("algae stay away"), "{}", x.text);
        assert!(!x.text.contains("First comment below"), "{}", x.text);
    }

    #[test]
    fn the_authors_licence_line_after_the_text_stays() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        for line in [
            "<footer class=\"post-footer license\">This post is under <a rel=\"license\" \
             href=\"/licence\">CC BY-SA 4.0</a>.</footer>",
            "<div class=\"license\">This post is under \
             <a href=\"https://creativecommons.org/licenses/by/4.0/\">CC BY 4.0</a>.</div>",
        ] {
            let body = format!("{}{line}", para(5));
            let x = extract(&page(&body), &url).expect("extracted");
            assert!(
                x.text.contains("This post is under CC"),
                "{line}: {}",
                x.text
            );
        }
    }

    #[test]
    fn a_sign_up_box_goes_with_its_pitch() {
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let body = format!(
            "{}<div class=\"box\"><h3>The morning letter</h3><p>Our best stories once a week.</p>\
             <form><input type=\"email\"><button>Go</button></form></div>{}",
            para(3),
            para(3)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        assert!(!x.text.contains("best stories once a week"), "{}", x.text);
        assert!(x.text.contains("Paragraph 2 says"), "{}", x.text);
    }

    #[test]
    fn a_popups_long_form_with_an_e_mail_field_is_no_sign_up_box() {
        // An enrolment popup: a form asking for an e-mail address among pages of terms
        // goes as any form does; a sign-up box (a line of pitch and the field) stays for
        // the pre-pass, which takes it with its pitch.
        let terms: String = (0..12)
            .map(|i| format!("<p>Clause {i}: the tutor meets the student twice a week.</p>"))
            .collect();
        let html = page(&format!(
            "{}<div role='dialog' class='enrol'><form><input type='email'>{terms}</form></div>\
             <div class='box'><p>Our best stories once a week.</p><form><input type='email'>\
             </form></div>",
            para(12)
        ));
        let (doc, shape) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        drop_asked(&doc, shape.text_chars);
        assert_eq!(doc.select(".enrol").length(), 0);
        assert_eq!(doc.select(".box form").length(), 1);
    }

    #[test]
    fn a_form_with_nothing_to_fill_around_prose_is_the_pages_text() {
        // Old Reddit: each comment in a form of one hidden field (its id, for its editor).
        let comment = |i: usize, extra: &str| {
            format!(
                "<form class='usertext c{i}'><input type='hidden' name='thing_id' \
                 value='t1_{i}'>{extra}<div class='md'><p>Comment {i}: might this also help \
                 the inner ear grow its cells again?</p></div></form>"
            )
        };
        let (field, button) = ("<input type='text' name='q'>", "<button>Save</button>");
        let links = "<form class='compare'><a href='/p/1'>A camera with a 4K sensor</a> \
                     <a href='/p/2'>Another camera with a 4K sensor</a> $199</form>";
        let html = page(&format!(
            "{}{}{}{}{}{links}",
            para(12),
            comment(1, ""),
            comment(2, ""),
            comment(3, field),
            comment(4, button),
        ));
        let (doc, shape) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        drop_asked(&doc, shape.text_chars);
        // Nothing to fill: the comments stay. A field or a button to press, or a form of
        // links (a shop's compare form around its grid): they go.
        for (class, kept) in [("c1", 1), ("c2", 1), ("c3", 0), ("c4", 0), ("compare", 0)] {
            assert_eq!(
                doc.select(&format!("form.{class}")).length(),
                kept,
                "{class}"
            );
        }
    }

    #[test]
    fn a_threads_posts_in_their_form_stay_beside_a_larger_consent_panel() {
        // An Invision forum writes its posts inside a moderation form; a consent manager's
        // panel (nested, as OneTrust's) lists its purposes at more length than the posts.
        // The form holds half of the text the page has once that panel is gone.
        let url = Url::parse("https://forum.example.com/topic/1882-new-case/").expect("url");
        let purposes: String = (0..12)
            .map(|i| {
                format!(
                    "<p>Purpose {i}: these cookies let the site and its partners measure \
                     audiences and remember the choices a visitor made on earlier visits.</p>"
                )
            })
            .collect();
        let posts: String = ["Rabbids", "DevBiker"]
            .iter()
            .enumerate()
            .map(|(i, who)| {
                format!(
                    "<article class='cPost ipsComment'><aside>{who}</aside><div class='cPost_content'>\
                     <p>Post {i}: the two ports on the new case connect its lighting hub to the \
                     controller, and the manual says nothing about either of them.</p></div></article>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>New case - Forum</title></head><body><main><h1>New case</h1>\
             <div id='comments'><form action='/moderate'>{posts}</form></div></main>\
             <div id='onetrust-consent-sdk'><div id='onetrust-pc-sdk'>{purposes}</div></div>\
             </body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        holds_each(&x.text, (0..2).map(|i| format!("Post {i}: the two ports")));
        assert!(!x.text.contains("Purpose 3"), "{}", x.text);
    }

    #[test]
    fn a_listings_cards_wrapped_whole_in_a_boilerplate_name_are_its_text() {
        // arXiv's recent submissions: each entry's `dd` holds one `div.meta`, a name that
        // marks a byline elsewhere. The entries are the page, under a few lines of intro;
        // Readability's text (the entries' numbers, without their bodies) is short lines.
        let url = Url::parse("https://arxiv.example/list/cs.AI/recent").expect("url");
        let entries: String = (0..60)
            .map(|i| {
                format!(
                    "<dt>[{i}] <a href='/abs/{i}'>arXiv:2603.{i:05}</a> [<a href='/pdf/{i}'>pdf</a>]</dt>\
                     <dd><div class='meta'><div class='list-title'>Title: Paper {i} on sparse \
                     attention in long contexts</div><div class='list-authors'><a href='/a/{i}'>Ada \
                     Lovelace</a>, <a href='/b/{i}'>Alan Turing</a></div><div class='list-subjects'>\
                     Subjects: Artificial Intelligence (cs.AI)</div></div></dd>"
                )
            })
            .collect();
        let intro = "<h2>Authors and titles for recent submissions</h2>\
             <p>Showing up to 50 entries per page: fewer | more | all</p>";
        let html = format!(
            "<html><head><title>Artificial Intelligence</title></head><body><div id='dlpage'>\
             <h1>Artificial Intelligence</h1>{intro}<dl>{entries}</dl></div></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        for i in [0, 29, 59] {
            assert!(
                x.text.contains(&format!("Title: Paper {i} on sparse")),
                "{i}: {}",
                x.text
            );
        }
        // Read as an article of short lines (the entries' numbers without their bodies, a
        // pager line the cards do not hold), the page still gets its cards; an article of
        // prose whose paragraph they do not hold keeps its text.
        let doc = Document::from(html.as_str());
        let cards = super::super::cards::find(&doc, true);
        for (line, cards_read) in [
            (
                "Showing up to 50 entries per page: fewer | more | all",
                true,
            ),
            (
                "A paragraph of prose the cards do not hold, long enough to be a paragraph of an article's own text.",
                false,
            ),
        ] {
            let numbers: String = (0..60)
                .map(|i| format!("[{i}] arXiv:2603.{i:05} [pdf]\n\n"))
                .collect();
            let read = Extracted {
                title: "Artificial Intelligence".into(),
                html: String::new(),
                text: format!("{numbers}{line}"),
                warning: None,
            };
            let x = or_cards(
                read,
                cards,
                Kind::Article,
                true,
                || doc.clone(),
                &html,
                &url,
            );
            assert_eq!(
                x.text.contains("Title: Paper 29 on sparse"),
                cards_read,
                "{line}"
            );
        }
    }

    #[test]
    fn a_card_whose_body_is_named_related_is_not_kept_as_a_cards_body() {
        // Cards read as a listing's: a card's one block is its body whatever its name says
        // (`meta`), but not a block named for the site's other pages (`related-product`).
        let slide = |name: &str, i: usize| {
            format!(
                "<div class='slide'><div class='{name}'>Summit Pack {i} in recycled nylon with a \
                 rain cover, ninety-nine pounds</div></div>"
            )
        };
        for (name, kept) in [("meta", true), ("related-product", false)] {
            let slides: String = (0..8).map(|i| slide(name, i)).collect();
            let doc = Document::from(format!("<div class='carousel'>{slides}</div>"));
            let block = *doc
                .select("div.carousel")
                .nodes()
                .first()
                .expect("carousel");
            clean(&block, false, Names::Product, true);
            assert_eq!(tree::text(&block).contains("Summit Pack 3"), kept, "{name}");
        }
    }

    #[test]
    fn a_shops_cart_form_and_its_modal_are_not_the_products_text() {
        // A product page: its description, then a quick-order form listing every variant
        // and a cart drawer (a modal), each holding more text than the description.
        let url = Url::parse("https://shop.example.com/products/trail-pack").expect("url");
        let rows: String = (0..12)
            .map(|i| {
                format!(
                    "<tr><td>Colour {i} / 40L SKU-{i:04}</td><td>$39.99/ea</td><td>Quantity</td></tr>"
                )
            })
            .collect();
        let drawer: String = (0..12)
            .map(|i| format!("<p>Recently viewed item {i}: a pack in colour {i}, $39.99</p>"))
            .collect();
        let html = format!(
            "<html><head><title>Trail Pack 40L</title></head><body>\
             <main><h1>Trail Pack 40L</h1>\
             <div class='description'><p>Made of rip-stop nylon that sheds rain and resists \
             tears, with a rain cover in the pocket under the pack.</p><p>A padded back and \
             shoulder straps that breathe keep the weight comfortable on long days.</p></div>\
             <form action='/cart/update'><table>{rows}</table><button>Update</button></form>\
             </main><div role='dialog' aria-modal='true' class='cart-drawer'><h2>Your cart</h2>{drawer}</div>\
             </body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("rip-stop nylon"), "{}", x.text);
        assert!(x.text.contains("padded back"), "{}", x.text);
        for chrome in ["SKU-0003", "Your cart", "Recently viewed"] {
            assert!(!x.text.contains(chrome), "{chrome}: {}", x.text);
        }
    }

    #[test]
    fn a_heading_that_links_to_itself_is_text_and_one_that_links_elsewhere_is_not() {
        // A reference page (MDN's shape): each section's heading is a link to itself.
        let url = Url::parse("https://developer.example.org/docs/Web/API/WebSocket").expect("url");
        let section = |id: &str, title: &str| {
            format!(
                "<section><h2 id='{id}'><a class='heading-anchor' href='#{id}'>{title}</a></h2>\
                 <p>The {title} of the interface are listed here with what each one does, when \
                 it is available and what it returns to the script that asks for it.</p></section>"
            )
        };
        let html = format!(
            "<html><head><title>WebSocket</title></head><body><main><article><h1>WebSocket</h1>\
             <p>The WebSocket object provides the API for creating and managing a connection \
             to a server, and for sending and receiving data on the connection.</p>{}{}{}\
             <h3><a href='#'>Show more</a></h3><h3><a href='#comments'>Jump to comments</a></h3>\
             <h3><a href='/docs/Web/API/EventSource'>EventSource</a></h3>\
             <h3 id='sse'><a href='/docs/Web/API/Server-sent_events#sse'>Server-sent events</a></h3>\
             </article></main></body></html>",
            section("instance_properties", "Instance properties"),
            section("instance_methods", "Instance methods"),
            section("browser_compatibility", "Browser compatibility"),
        );
        let x = extract(&html, &url).expect("extracted");
        for heading in [
            "Instance properties",
            "Instance methods",
            "Browser compatibility",
        ] {
            assert!(
                x.text.split("\n\n").any(|p| p.trim() == heading),
                "{heading}: {}",
                x.text
            );
        }
        // A script's bare `#`, a link to another place on the page and one to another page
        // (even ending in the heading's own id) go as link lines do.
        for chrome in [
            "Show more",
            "Jump to comments",
            "EventSource",
            "Server-sent events",
        ] {
            assert!(!x.text.contains(chrome), "{chrome}: {}", x.text);
        }
        // The rule itself: a heading with no link of its own (a card's title inside its
        // link) is not one; a link to the heading's id or to the link's own is.
        let heading = |h: &str| {
            let doc = Document::from(format!("<html><body>{h}</body></html>"));
            let found = doc.select("h2");
            anchored_heading(found.nodes().first().expect("a heading"))
        };
        assert!(!heading("<a href='/docs/x'><h2 id='x'>A card</h2></a>"));
        assert!(!heading("<h2 id='x'>No link</h2>"));
        assert!(heading("<h2 id='x'><a href='#x'>Itself</a></h2>"));
        assert!(heading("<h2><a id='y' href='#y'>Its link</a></h2>"));
        assert!(!heading(
            "<h2 id='x'><a href='#x'>Itself</a> <a href='/y'>and another</a></h2>"
        ));
    }

    #[test]
    fn a_scripts_data_written_as_text_is_not_the_pages_text_and_an_example_of_it_is() {
        // A shop's buy box keeps its prices as JSON in a hidden `<div>`; the page's JSON-LD
        // and a documentation example (in `<pre>`) are JSON too, and a sentence may open
        // with a brace.
        let url = Url::parse("https://shop.example.com/dp/atomic-habits").expect("url");
        let offers: String = (0..8)
            .map(|i| format!("{{\"displayPrice\":\"EUR {i}.49\",\"priceAmount\":{i}.49,\"buyingOptionType\":\"NEW\"}}"))
            .collect::<Vec<_>>()
            .join(",");
        let html = format!(
            "<html><head><title>Atomic Habits</title><script type='application/ld+json'>\
             {{\"@context\":\"https://schema.org\",\"@type\":\"Article\",\"headline\":\"Atomic Habits: \
             Tiny Changes, Remarkable Results\",\"author\":{{\"@type\":\"Person\",\"name\":\"James Clear\"}}}}\
             </script></head><body><main><h1>Atomic Habits</h1>\
             <div class='description'><p>No matter your goals, this book offers a proven \
             framework for improving every day, with practical strategies for forming good \
             habits and breaking bad ones.</p><p>{{braces}} open this paragraph, which is \
             prose all the same, and says so at length to be read as text by any reader.</p>\
             <pre>{{\"habit\": \"read\", \"minutes\": 20, \"cue\": \"after dinner\", \
             \"reward\": \"tea with a chapter of the book\", \"streak\": \"thirty days\"}}</pre>\
             <p>{{\"Every action you take is a vote for the type of person you wish to become\": \
             the thesis of the whole book, in braces as a reviewer set it in a long review}}</p><p>Clear draws on biology, psychology and neuroscience to make good habits \
             inevitable and bad habits impossible, with stories from athletes and artists.</p>\
             </div><div class='a-section aok-hidden'>{{\"desktop_buybox_group_1\":[{offers}]}}</div>\
             </main></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(!x.text.contains("displayPrice"), "{}", x.text);
        assert!(x.text.contains("proven framework"), "{}", x.text);
        assert!(
            x.text.contains("{braces} open this paragraph"),
            "{}",
            x.text
        );
        assert!(x.text.contains("after dinner"), "{}", x.text);
        // Braces and a quoted key that are not JSON: prose.
        assert!(
            x.text.contains("in braces as a reviewer set it"),
            "{}",
            x.text
        );
        // A script's JSON stays in the tree, where Readability reads its metadata; the
        // buy box's is data.
        let (doc, _) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        let json = |sel: &str| {
            let found = doc.select(sel);
            let e = *found.nodes().first().expect(sel);
            e.first_child().expect("its text")
        };
        assert!(!data_text(&json("script")));
        assert!(data_text(&json("div.aok-hidden")));
    }

    #[test]
    fn identifiers_spelling_a_hidden_label_and_a_templates_placeholder_are_not_read() {
        // An item page in eBay's manner: each "Sponsored" label spelt as letters between
        // spans of UUIDs its style sheet hides; the seller's description; and a tab the
        // template left with its sample text. A UUID in the prose or in code stays.
        let url = Url::parse("https://shop.example.com/itm/404928375058").expect("url");
        let id = |i: usize| format!("{i:08x}-db29-4baf-990e-8b645ccb1899");
        let label: String = "Sponsored"
            .chars()
            .enumerate()
            .map(|(i, c)| {
                format!(
                    "<span class='a{i}'>{c}</span><span class='z'>{}</span>",
                    id(i)
                )
            })
            .collect();
        let cards: String = (0..4)
            .map(|i| format!("<li><div class='lbl'>{label}</div><a href='/itm/{i}'>Timing belt kit number {i} for small cars</a></li>"))
            .collect();
        let html = format!(
            "<html><head><title>Timing belt kit</title></head><body><main>\
             <h1>Timing belt kit with water pump</h1>\
             <div class='desc'><p class='ad'>{label}</p><p>A complete timing belt kit with its water pump, for the \
             small petrol engines of the last decade. The tensioner and idler are included, \
             and every part is new, boxed and sold with its maker's warranty.</p>\
             <p>Quote order {} when you write to the seller about this kit and its fitting.</p>\
             <pre>curl https://api.example.com/orders/{}</pre></div>\
             <div class='tab'><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do \
             eiusmod tempor incididunt ut labore et dolore magna aliqua.</p></div>\
             <ul class='related'>{cards}</ul></main></body></html>",
            id(7),
            id(8)
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(!x.text.contains(&id(0)), "{}", x.text);
        assert!(!x.text.contains(&id(3)), "{}", x.text);
        assert!(!x.text.to_lowercase().contains("lorem"), "{}", x.text);
        assert!(x.text.contains("complete timing belt kit"), "{}", x.text);
        assert!(
            x.text.contains(&format!("Quote order {} when", id(7))),
            "{}",
            x.text
        );
        assert!(x.text.contains(&id(8)), "{}", x.text);
        // A page of nothing but the placeholder shows it.
        let sample = "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod \
                      tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, \
                      quis nostrud exercitation ullamco laboris nisi ut aliquip.</p>"
            .repeat(4);
        let html = format!(
            "<html><head><title>Sample</title></head><body><article><h1>Sample</h1>{sample}\
             </article></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("quis nostrud exercitation"), "{}", x.text);
        assert!(uuid("7868484a-db29-4baf-990e-8B645CCB1899"));
        assert!(!uuid("7868484a-db29-4baf-990e-8b645ccb189"));
        assert!(!uuid("7868484a-db29-4baf-990e8-b645ccb1899"));
        assert!(!uuid("7868484g-db29-4baf-990e-8b645ccb1899"));
        let block = |html: &str| {
            let doc = Document::from(html);
            let found = doc.select("p");
            placeholder(found.nodes().first().expect("a p"))
        };
        assert!(block(
            "<p>  <b>LOREM IPSUM dolor sit amet</b>, consectetur</p>"
        ));
        assert!(!block(
            "<p>Lorem ipsum is the sample text typesetters use.</p>"
        ));
        assert!(!block("<p>Lorem ipsum</p>"));
        assert!(!block("<p>Éé</p>"));
    }

    #[test]
    fn a_block_named_a_modal_goes_unless_the_page_was_saved_with_it_open() {
        // A shop's category: a short description, and a loyalty scheme's terms in a side
        // sheet the theme names a modal (no role, no aria-modal), holding more text.
        let url = Url::parse("https://shop.example.com/browse/clogs").expect("url");
        let terms: String = (0..4)
            .map(|i| format!("<p>Rule {i}: members earn {i} points per dollar spent on any pair, and the points expire after a year.</p>"))
            .collect();
        let links: String = (0..12)
            .map(|i| format!("<a href='/help/{i}'>Help topic number {i}</a> "))
            .collect();
        let page = |body_class: &str| {
            format!(
                "<html><head><title>Classic Clogs</title></head><body class='{body_class}'>\
                 <main><h1>Classic Clogs</h1><div class='seo-copy'><p>Experience iconic comfort \
                 with classic clogs: light, roomy and easy to clean, in every colour the season \
                 brings.</p><p>Find clogs for women, men and kids, lined for winter or open for \
                 the beach, with charms to make them yours.</p>\
                 <div class='modallink-wrap'><p>Sizes run large: order a size down, as most of \
                 our customers tell us, and see the size chart for each model.</p></div></div></main>\
                 <footer>{links}</footer><div class='sidesheet-modal'><h5>Earning</h5>{terms}</div>\
                 </body></html>"
            )
        };
        let x = extract(&page(""), &url).expect("extracted");
        assert!(x.text.contains("iconic comfort"), "{}", x.text);
        // A word of a name, not a substring of one: `modallink-wrap` is no modal.
        assert!(x.text.contains("order a size down"), "{}", x.text);
        assert!(!x.text.contains("points per dollar"), "{}", x.text);
        // Saved with a modal open (`modal-open` on the body), the page shows its modals.
        let x = extract(&page("modal-open"), &url).expect("extracted");
        assert!(x.text.contains("points per dollar"), "{}", x.text);
        // A name that says a modal may open, not that it is one: a news site's article
        // wrapper `modal-enabled` (its pictures open in one), beside more text than it.
        let url = Url::parse("https://news.example.com/2024/05/01/harbour/").expect("url");
        let story = "<p>The harbour reopened on Tuesday after a week of repairs to the sea \
             wall, which the storm of last month had breached in two places.</p><p>Fishing \
             boats were the first back in, followed by the ferry to the islands, which had \
             run from the next town over while the wall was mended.</p>";
        let more: String = (0..8)
            .map(|i| format!("<li><p>Elsewhere {i}: a short item on another story of the week, with a line or two about it.</p></li>"))
            .collect();
        let html = format!(
            "<html><head><title>Harbour reopens</title></head><body>\
             <div class='box article modal-enabled'><h1>Harbour reopens</h1>\
             <a class='modal-trigger' href='#'>Enlarge</a>{story}</div>\
             <div class='more-news'><ul>{more}</ul></div></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("sea wall"), "{}", x.text);
    }

    #[test]
    fn a_products_customer_reviews_go_and_a_page_of_reviews_keeps_them() {
        let url = Url::parse("https://shop.example.com/products/trail-pack").expect("url");
        let description = "<p>Made of rip-stop nylon that sheds rain and resists tears, with \
             a rain cover in the pocket under the pack and a padded back that breathes on long \
             days in the hills.</p><p>Two side pockets hold a bottle each; the lid opens wide \
             and closes with a zip that keeps the weather out.</p><p>The frame is light \
             aluminium, the hip belt carries most of the load, and the back panel can be set to \
             four lengths for a torso from short to tall.</p><p>It weighs 1.2 kg and holds 40 \
             litres; a sleeve inside takes a water bladder of up to three litres.</p>";
        let reviews = |n: usize| -> String {
            (0..n)
                .map(|i| {
                    format!(
                        "<div class='review'><p>Reviewer {i} says the pack carried well on a \
                         long walk and the straps stayed comfortable all day.</p><p>Rated {} \
                         of 5 after a month of use on the trails.</p></div>",
                        i % 5 + 1
                    )
                })
                .collect()
        };
        let page = |body: String| {
            format!(
                "<html><head><title>Trail Pack 40L</title></head><body><main><h1>Trail Pack \
                 40L</h1>{body}</main></body></html>"
            )
        };
        // Reviews beside the description: the product's text is its description.
        let x = extract(
            &page(format!(
                "{description}<div id='reviews'>{}</div>",
                reviews(2)
            )),
            &url,
        )
        .expect("extracted");
        assert!(x.text.contains("rip-stop nylon"), "{}", x.text);
        assert!(!x.text.contains("Reviewer 1"), "{}", x.text);
        // Sections each named a review that hold most of the page are the page.
        let x = extract(&page(format!("{description}{}", reviews(8))), &url).expect("extracted");
        assert!(x.text.contains("Reviewer 7"), "{}", x.text);
    }

    #[test]
    fn a_products_reviews_longer_than_its_description_are_not_read_for_it() {
        let url = Url::parse("https://shop.example.com/product/227955/trail-pack").expect("url");
        let review = |i: usize| {
            format!(
                "<div class='individual-review'><h3>Reviewer {i}</h3><p>I took the pack on a \
                 long walk over three days in the hills and the straps stayed comfortable \
                 from the first mile to the last, with the hip belt carrying most of the \
                 load.</p><p>The side pockets hold a bottle each and the rain cover came out \
                 of its pocket in seconds when the weather turned on the second day.</p></div>"
            )
        };
        let reviews: String = (0..6).map(review).collect();
        let page = |reviews: &str| {
            format!(
                "<html><head><title>Trail Pack 25</title><meta property='og:type' \
                 content='product'></head><body><main><h1>Trail Pack 25</h1><div \
                 class='description'><p>Keep the day's gear within easy reach: the pack fits \
                 a wide range of bodies and has pockets for everything.</p><p>Ripstop nylon \
                 with a water-repellent finish, a padded back panel and a removable hip \
                 belt.</p></div>{reviews}</main></body></html>"
            )
        };
        // The reviews in one block named so: the description is the product's text.
        let x = extract(
            &page(&format!("<div class='product-reviews'>{reviews}</div>")),
            &url,
        )
        .expect("extracted");
        assert!(x.text.contains("Ripstop nylon"), "{}", x.text);
        assert!(!x.text.contains("Reviewer 3"), "{}", x.text);
        // A firm's testimonials, a wrapper that holds the page's heading, or sections each
        // named a review are the page's own text.
        for kept in [
            format!("<div class='testimonials review-wall'>{reviews}</div>"),
            format!("<div class='review-page'><h1>Trail Pack</h1>{reviews}</div>"),
            (0..6)
                .map(|i| review(i).replace("individual-review", "review"))
                .collect(),
        ] {
            let x = extract(&page(&kept), &url).expect("extracted");
            assert!(x.text.contains("Reviewer 3"), "{kept}: {}", x.text);
        }
    }

    /// A shop's product page: its heading, a description of three paragraphs and `extra`
    /// inside the same container.
    fn product_page(extra: &str) -> String {
        format!(
            "<html><head><title>Trail Pack 40L</title></head><body><main><h1>Trail Pack \
             40L</h1><div class='description'><p>Made of rip-stop nylon that sheds rain and \
             resists tears, with a rain cover in the pocket under the pack.</p><p>A padded \
             back and shoulder straps that breathe keep the weight comfortable on long \
             days.</p><p>Two side pockets hold a bottle each, and the lid opens wide.</p>\
             </div>{extra}</main></body></html>"
        )
    }

    #[test]
    fn the_choices_a_reader_makes_are_not_the_products_text() {
        // A review filter of radio buttons, one label per language with its count: the
        // counts' commas make Readability score the list as prose, over the description.
        let languages: String = (0..30)
            .map(|i| {
                format!(
                    "<input type='radio' name='lang' id='lang{i}'><label for='lang{i}'>\
                     Language {i} <span>Mostly Positive</span> <span>({},{:03},{:03})</span>\
                     </label><br>",
                    i + 1,
                    i * 7,
                    i * 13
                )
            })
            .collect();
        let html = product_page(&format!(
            "<div class='filter'><div>Languages with enough reviews to get a score of their \
             own, split out below, for ease of filtering by language.</div>{languages}</div>"
        ));
        let url = Url::parse("https://shop.example.com/app/trail-pack").expect("url");
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("rip-stop nylon"), "{}", x.text);
        assert!(!x.text.contains("Language 3"), "{}", x.text);
    }

    #[test]
    fn text_for_screen_readers_only_is_not_the_pages() {
        // Hidden from the eye inside the running text: a link's "opens in a new window", a
        // gallery button's name.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let hidden = "<p>The council published its report on the bridge, <a href='/report'>\
                      read it here<span class='sr-only'> (opens in a new window)</span></a>, \
                      and the residents will be heard on Tuesday evening at the library.\
                      <span class='visually-hidden'>Load image 1 in gallery view</span></p>";
        let x =
            extract(&page(&format!("{}{hidden}{}", para(2), para(2))), &url).expect("extracted");
        assert!(x.text.contains("residents will be heard"), "{}", x.text);
        for unseen in ["gallery view", "new window"] {
            assert!(!x.text.contains(unseen), "{unseen}: {}", x.text);
        }
    }

    #[test]
    fn a_part_rendered_once_per_screen_width_is_read_once() {
        // Framer's article: the same text three times, for desktop, tablet and phone, each
        // shown at its widths by the builder's style sheet.
        let url = Url::parse("https://builder.example/blog/remodel-cost").expect("url");
        let variant = |hidden: &str| {
            format!(
                "<div class='ssr-variant {hidden}'><div class='framer-bkf1oq'>{}</div></div>",
                para(6)
            )
        };
        let body = format!(
            "{}{}{}",
            variant("hidden-bnz77l hidden-1rq27kw"),
            variant("hidden-12t0irv"),
            variant("hidden-72rtr7")
        );
        let x = extract(&page(&body), &url).expect("extracted");
        assert_eq!(x.text.matches("Paragraph 5 says").count(), 1, "{}", x.text);
    }

    #[test]
    fn renderings_removed_from_one_page_are_bounded() {
        // A hostile page of more renderings than the bound keeps those past it.
        let n = NOT_TEXT_MAX + 10;
        let html = format!(
            "<html><body><div>{}</div></body></html>",
            "<div class='ssr-variant'>v</div>".repeat(n)
        );
        let (doc, shape) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        drop_not_text(&doc, shape.text_chars);
        let left = doc
            .root()
            .descendants_it()
            .filter(|e| e.attr("class").is_some_and(|c| &*c == "ssr-variant"))
            .count();
        assert_eq!(left, n - NOT_TEXT_MAX);
    }

    #[test]
    fn a_skip_link_is_not_the_pages_text_but_prose_saying_skip_is() {
        // A shop's landing page read as its block, the links past the navigation for
        // keyboards and screen readers, in two languages, inside its main section as
        // Birkenstock's are; the page's own advice to skip a step, and its link to its
        // notes, stay.
        let url = Url::parse("https://shop.example/").expect("url");
        let sections: String = (0..4)
            .map(|i| {
                format!(
                    "<div><h2>Range {i}</h2><p>Range {i} of sandals is made of cork and \
                     leather in the workshop, soled again for a fee when worn.</p></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Sandals</title></head><body><main><section>\
             <a href='#main-content' class='skip-to-main-link'>Skip to main content</a>\
             <a href=' #inhalt'>Zum Inhalt springen</a><h1>Sandals</h1>{sections}\
             <p>Skip to the fitting guide if you know your size already; see \
             <a href='#notes'>the notes</a> for widths.</p></section></main></body></html>"
        );
        let x = extract_as(&html, &url, Some(Kind::Service)).expect("extracted");
        reads(
            &x,
            &[
                "Skip to the fitting guide",
                "the notes for widths",
                "Range 3 of",
            ],
            &["Skip to main content", "Zum Inhalt springen"],
        );
    }

    #[test]
    fn what_a_form_shows_once_sent_is_not_the_pages_text() {
        // Webflow's sign-up form with its two hidden states below it.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let form = "<div class='w-form'><p>Get the weekly letter on bridges and roads.</p></div>\
                    <div class='form__success w-form-done'><div>Thank you! Your submission has \
                    been received!</div></div><div class='w-form-fail'><div>Oops! Something went \
                    wrong while submitting the form.</div></div>";
        let x = extract(&page(&format!("{}{form}{}", para(3), para(3))), &url).expect("extracted");
        assert!(x.text.contains("Paragraph 2 says"), "{}", x.text);
        for unseen in ["submission has been received", "Something went wrong"] {
            assert!(!x.text.contains(unseen), "{unseen}: {}", x.text);
        }
    }

    #[test]
    fn microdata_hidden_at_every_width_is_not_the_pages_text_and_a_note_shown_wider_is() {
        // A thread's comment carries its author and date again for machines, as microdata
        // in boxes Bootstrap's `d-none` hides; a sidebar note `d-none d-lg-block` shows on a
        // desktop.
        let url = Url::parse("https://example.com/questions/12/backing-up").expect("url");
        let comment = "<p>Why leave out the system folder when the rest goes in the archive \
                       with everything else?<span class='d-none' itemprop='datePublished'>\
                       2017-03-04 22:02:22</span><span class='v-visible-sr'>Commented</span></p>";
        let wide = "<div class='d-none d-lg-block'><p>Keep the archive on a second disk, not \
                    on the one it was made from, so a failing drive takes only one copy.</p></div>";
        let x = extract(
            &page(&format!("{}{comment}{wide}{}", para(2), para(2))),
            &url,
        )
        .expect("extracted");
        holds_each(
            &x.text,
            [
                "Why leave out the system folder",
                "Keep the archive on a second disk",
            ]
            .into_iter()
            .map(String::from),
        );
        for unseen in ["2017-03-04", "Commented"] {
            assert!(!x.text.contains(unseen), "{unseen}: {}", x.text);
        }
    }

    #[test]
    fn what_is_shown_only_when_asked_is_removed_and_walked_within_bounds() {
        // More popovers than the bound, side by side: only the bound's number go.
        let cards = "<div popover><p>Pick a browser and allow notifications.</p></div>"
            .repeat(ASKED_MAX + 44);
        let (doc, _) = super::super::shape::parse_measured(&page(&cards), MAX_ELEMENTS);
        drop_asked(&doc, usize::MAX);
        assert_eq!(doc.select("[popover]").length(), 44);
        // Nested ones (within the depth a page may have) are each walked whole: the walk
        // stops at its own bound.
        let level = format!("<div popover>{}", "<p>Allow notifications.</p>".repeat(5));
        let nested = format!("{}{}", level.repeat(400), "</div>".repeat(400));
        let (doc, _) = super::super::shape::parse_measured(&page(&nested), MAX_ELEMENTS);
        assert_eq!(drop_asked(&doc, usize::MAX), ASKED_MAX_NODES);
    }

    #[test]
    fn a_popover_is_not_the_pages_text_until_it_is_opened() {
        // A forum's "configure push notifications" card, shown over the page on a click
        // (HTML's `popover`): steps for each browser, in the story's own box.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let steps: String = (0..3)
            .map(|i| {
                format!(
                    "<p>Browser {i}: open its settings, find this site in the list of sites \
                     and adjust your notification preference there.</p>"
                )
            })
            .collect();
        let card = format!("<div popover id='push'><h4>Configure notifications</h4>{steps}</div>");
        let x = extract(&page(&format!("{}{card}{}", para(2), para(2))), &url).expect("extracted");
        assert!(!x.text.contains("notification preference"), "{}", x.text);
        assert!(
            x.text.contains("Paragraph 1 says something worth reading"),
            "{}",
            x.text
        );
    }

    /// A consent manager's panel with `purposes` lines on the page of a short story, after
    /// `pad` bytes of script (which a reader never sees).
    fn consent_page(purposes: usize, pad: usize) -> String {
        let panel: String = (0..purposes)
            .map(|i| {
                format!(
                    "<div class='ot-cat-item'><h4>Purpose {i}</h4><p>Store and/or access \
                     information on a device and select personalised advertising: {i} \
                     partners can use this purpose.</p></div>"
                )
            })
            .collect();
        page(&format!(
            "{}<script>var pad = '{}';</script><div id='onetrust-consent-sdk'>\
             <div class='ot-pc-content'><h2>Privacy Preference Center</h2>{panel}</div></div>",
            para(3),
            "x".repeat(pad)
        ))
    }

    #[test]
    fn a_consent_managers_panel_is_not_the_pages_text_however_large() {
        // The panel holds five times the story's text: neither Readability nor the largest
        // block takes it, on a small page or a large one.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        for pad in [0, 128 << 10] {
            let html = consent_page(40, pad);
            let x = extract(&html, &url).expect("extracted");
            assert!(x.text.contains("Paragraph 2 says"), "{pad}: {}", x.text);
            assert!(!x.text.contains("partners can use"), "{pad}: {}", x.text);
        }
    }

    #[test]
    fn a_class_naming_consent_or_cookies_on_what_holds_the_text_leaves_it() {
        // The page's body says the site manages consent, and a post's classes carry its
        // category: what holds the heading or the article is never taken for the panel.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let post = page(&para(4))
            .replace(
                "<body>",
                "<body class='site use-consent-management-enabled'>",
            )
            .replace(
                "<article>",
                "<div class='post category-cookie-recipes'><article class='cookie-recipe'>",
            )
            .replace("</article>", "</article></div>");
        let x = extract(&post, &url).expect("extracted");
        assert!(x.text.contains("Paragraph 3 says"), "{}", x.text);
        // Read as the article, not as the page's whole text with its menu.
        assert!(!x.text.contains("Home News"), "{}", x.text);
        assert_eq!(x.warning, None);
        // Nor a card of a blog's index, which holds no heading of the page.
        let card = "<div class='card category-cookie-recipes'>Oat cookies</div>";
        let doc = Document::from(format!("<main><h1>Recipes</h1></main>{card}"));
        drop_not_text(&doc, 0);
        assert_eq!(doc.select(".card").length(), 1);
    }

    #[test]
    fn a_body_marked_not_for_snippets_is_still_the_articles_text() {
        // A publisher keeps its article's body out of search snippets: the mark says
        // nothing about what a reader reads. A short marked line (a banner) still goes.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let body = format!(
            "<div data-nosnippet>{}</div><div data-nosnippet>Subscribe for full access.</div>",
            para(6)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        assert!(x.text.contains("Paragraph 5 says"), "{}", x.text);
        assert!(!x.text.contains("Subscribe for full access"), "{}", x.text);
    }

    #[test]
    fn nested_marks_cost_a_bounded_walk() {
        // Each of 300 nested marked blocks would be walked whole: the count stops.
        let html = page(&format!(
            "{}{}{}",
            "<div data-nosnippet>".repeat(300),
            para(2_000),
            "</div>".repeat(300)
        ));
        let (doc, shape) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        assert!(drop_not_text(&doc, shape.text_chars).1 <= ASKED_MAX_NODES);
    }

    #[test]
    fn text_removed_as_not_text_is_counted_once_however_nested() {
        let doc = Document::from(
            "<main><h1>Post</h1><p>Body</p></main><div id='cookie-sdk'><p>Accept all</p>\
             <div id='cookie-panel'><p>Purposes</p></div></div>",
        );
        let (removed, _, chars) = drop_not_text(&doc, 0);
        assert_eq!(removed, 2);
        assert_eq!(chars, "AcceptallPurposes".len());
    }

    #[test]
    fn text_removed_as_not_text_is_counted_within_a_bound() {
        // A consent panel of more nodes than the bound: its count stops there.
        let html = format!(
            "<main><h1>Post</h1></main><div id='cookie-panel'>{}</div>",
            "<p>a</p>".repeat(ASKED_MAX_NODES)
        );
        let doc = Document::from(html.as_str());
        let (removed, _, chars) = drop_not_text(&doc, 0);
        assert_eq!(removed, 1);
        assert!(chars <= ASKED_MAX_NODES / 2 + 1, "{chars}");
    }

    #[test]
    fn what_is_not_text_is_removed_within_a_bound() {
        let html = product_page(&"<label>Size</label>".repeat(NOT_TEXT_MAX + 10));
        let (doc, _) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        assert_eq!(drop_not_text(&doc, 0).0, NOT_TEXT_MAX);
        assert_eq!(doc.select("label").length(), 10);
    }

    #[test]
    fn what_a_products_classes_hide_at_every_width_is_not_its_text() {
        // The buy box's state for a sold-out size, classed hidden until chosen.
        let block = |class: &str| {
            format!(
                "<div class='{class}'><p>Notify me when this pack is back in stock: leave \
                 your address and we will write to you the day it is on the shelves again, \
                 in every colour and size.</p><p>Sign up to hear of new colours before they \
                 sell out, and of the trails our members walked with them.</p></div>"
            )
        };
        let shop = Url::parse("https://shop.example.com/products/trail-pack").expect("url");
        for class in [
            "notify hidden",
            "notify d-none",
            "notify wt-display-none",
            "Hide",
        ] {
            let x = extract(&product_page(&block(class)), &shop).expect("extracted");
            assert!(x.text.contains("rip-stop nylon"), "{class}: {}", x.text);
            assert!(!x.text.contains("Notify me"), "{class}: {}", x.text);
        }
        // Shown at some width, or on another kind of page (a service's hidden tabs), it
        // stays.
        for class in [
            "notify d-none d-md-block",
            "notify wt-display-none wt-display-flex-lg",
        ] {
            let x = extract(&product_page(&block(class)), &shop).expect("extracted");
            assert!(x.text.contains("Notify me"), "{class}: {}", x.text);
        }
        let article = Url::parse("https://example.com/a/trail-pack.html").expect("url");
        let x = extract(&product_page(&block("notify d-none")), &article).expect("extracted");
        assert!(x.text.contains("Notify me"), "{}", x.text);
    }

    #[test]
    fn a_products_text_shown_twice_on_its_page_is_read_once() {
        // The buy box opens with the description's first paragraph, which the
        // description's tab shows again.
        let repeat = "<div class='tab'><p>Made of rip-stop nylon that sheds rain and resists \
                      tears, with a rain cover in the pocket under the pack.</p></div>";
        let url = Url::parse("https://shop.example.com/products/trail-pack").expect("url");
        let x = extract(&product_page(repeat), &url).expect("extracted");
        assert_eq!(x.text.matches("rip-stop nylon").count(), 1, "{}", x.text);
        assert!(x.text.contains("side pockets"), "{}", x.text);
        // On an article a repeat is the author's (a refrain): it stays.
        let url = Url::parse("https://example.com/a/trail-pack.html").expect("url");
        let x = extract(&product_page(repeat), &url).expect("extracted");
        assert_eq!(x.text.matches("rip-stop nylon").count(), 2, "{}", x.text);
    }

    #[test]
    fn a_products_specifications_keep_values_that_repeat() {
        // "Yes" in three rows of the specifications is each row's value; the sticky bar's
        // copy of the product's name is a repeat.
        let html = "<div id='text'><h1>Trail Pack 40L</h1><table><tr><th>Waterproof</th>\
                    <td>Yes</td></tr><tr><th>Breathable</th><td>Yes</td></tr></table><dl>\
                    <dt>Rain cover</dt><dd>Yes</dd></dl><div>Trail Pack 40L</div></div>";
        let doc = Document::from(html);
        let root = *doc.select("#text").nodes().first().expect("root");
        let counts = tree::counts(&root, BLOCKS);
        drop_repeated(&root, &counts, 1);
        let text = tree::text(&root);
        assert_eq!(text.matches("Yes").count(), 3, "{text}");
        assert_eq!(text.matches("Trail Pack").count(), 1, "{text}");
    }

    #[test]
    fn repeated_blocks_compared_in_a_text_are_bounded() {
        let blocks: String = (0..REPEATED_MAX_BLOCKS + 5)
            .map(|i| format!("<p>Line {i}</p>"))
            .collect();
        let html = format!("<div id='text'>{blocks}<p>Line 0</p></div>");
        let doc = Document::from(html.as_str());
        let root = *doc.select("#text").nodes().first().expect("root");
        let counts = tree::counts(&root, BLOCKS);
        assert_eq!(drop_repeated(&root, &counts, 1), REPEATED_MAX_BLOCKS);
        // The repeat past the budget is not compared, and stays.
        assert_eq!(doc.select("p").length(), REPEATED_MAX_BLOCKS + 6);
    }

    #[test]
    fn a_post_quoted_in_a_reply_is_read_once() {
        // A reply quotes Post 1 whole before answering it: the thread says it once.
        let quoted = "<div class=\"post comment\"><span class=\"author\">gus</span>\
                      <blockquote><p>Post 1 of the thread: ben writes a reply long enough to \
                      be a post, with details about the problem and what was tried so far \
                      without luck.</p></blockquote><p>Post 6 of the thread: gus answers that \
                      the driver from before the update brought the printer back.</p></div>";
        let html = thread(false).replace("</div></main>", &format!("{quoted}</div></main>"));
        let x = extract(&html, &thread_url()).expect("extracted");
        assert_every_post(&x.text);
        assert!(x.text.contains("Post 6 of the thread"), "{}", x.text);
        assert_eq!(
            x.text.matches("Post 1 of the thread").count(),
            1,
            "{}",
            x.text
        );
    }

    #[test]
    fn a_post_quoted_in_a_short_threads_reply_is_read_once() {
        // Two replies (too few to be cards): the thread is read as Readability reads it,
        // and the second reply's quote of the first is read once.
        let first = "The printer went offline after the update, and turning it off and on \
                     again did not bring it back on the network at all.";
        let html = format!(
            "<html><head><title>Printer offline</title></head><body><main><h1>Printer \
             offline</h1><div class='thread'><div class='post'><p>{first}</p><p>{}</p></div>\
             <div class='post'><blockquote><p>{first}</p></blockquote><p>The driver from \
             before the update brought mine back: remove the new one, restart, then install \
             the old one from the vendor's archive page, and it stays on the network.</p>\
             <p>{}</p></div></div></main></body></html>",
            para(2),
            para(2)
        );
        let x = extract(&html, &thread_url()).expect("extracted");
        assert!(x.text.contains("vendor's archive page"), "{}", x.text);
        assert_eq!(
            x.text.matches("turning it off and on").count(),
            1,
            "{}",
            x.text
        );
    }

    #[test]
    fn a_threads_posts_inside_its_moderation_form_are_its_text() {
        // Forum software that wraps the replies in one form (moderators' checkboxes): the
        // form holds most of the page's text, so it stays, and its posts are the thread's
        // cards (Readability alone drops the comment-named replies).
        let x = extract(&thread(true), &thread_url()).expect("extracted");
        assert_every_post(&x.text);
    }

    #[test]
    fn nested_dialogs_cost_a_bounded_walk() {
        // Each of 300 nested dialogs would be walked whole (300 × 4,000 nodes): the walk
        // stops at its budget, and the page is still read.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let inner = "<p>A line of text inside the dialogs.</p>".repeat(2_000);
        let html = format!(
            "<html><body>{}{inner}{}<article>{}</article></body></html>",
            "<div role='dialog'>".repeat(300),
            "</div>".repeat(300),
            para(5)
        );
        let (doc, shape) = super::super::shape::parse_measured(&html, MAX_ELEMENTS);
        assert!(drop_asked(&doc, shape.text_chars) <= ASKED_MAX_NODES);
        assert!(extract(&html, &url).is_ok());
    }

    #[test]
    fn a_page_that_is_one_form_is_still_read() {
        // ASP.NET wraps the whole page in one form: it is the page, not a form on it.
        let url = Url::parse("https://example.com/a/story.aspx").expect("url");
        let html = format!(
            "<html><head><title>The Title Of This Story</title></head><body>\
             <form id='aspnetForm' action='story.aspx'><article><h1>The Title Of This Story</h1>{}</article></form>\
             </body></html>",
            para(5)
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("Paragraph 4 says"), "{}", x.text);
    }

    #[test]
    fn inline_svg_labels_are_not_the_articles_text() {
        // An icon sprite's symbol titles and an icon's label inside the article: neither is
        // read, in the text or in the HTML.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let sprite = "<svg style=\"display:none\"><symbol id=\"i-arrow\"><title>arrow-down \
                      arrow-left checkmark clipboard</title></symbol></svg>";
        let body = format!(
            "{}<p><svg><title>Share icon</title><use href=\"#i-arrow\"/></svg> {}</p>{}",
            para(2),
            "A sentence beside an icon, long enough to be part of the story itself: the council \
             met on Tuesday, heard the residents and voted to fund the library and the bridge.",
            para(2)
        );
        let x = extract(&page(&format!("{sprite}{body}")), &url).expect("extracted");
        assert!(x.text.contains("beside an icon"), "{}", x.text);
        for label in ["arrow-down", "Share icon"] {
            assert!(!x.text.contains(label), "{}", x.text);
            assert!(!x.html.contains(label), "{}", x.html);
        }
    }

    #[test]
    fn a_linked_item_in_a_list_of_plain_facts_stays() {
        let url = Url::parse("https://example.com/markets").expect("url");
        let body = format!(
            "{}<ul><li>Address: <a href=\"/map\">Anger Square 2, Northtown</a></li>\
             <li>Thursdays, 8 to 17</li><li>A fish van every week</li></ul>\
             <table><thead><tr><th>Museum</th><th>Open</th><th>Entry</th></tr></thead><tbody>\
             <tr><td><a href=\"/m/1\">Maritime Museum</a></td><td>daily 10 to 17</td><td>12.50</td></tr>\
             <tr><td><a href=\"/m/2\">City Gallery</a></td><td>Tuesday to Sunday 11 to 17</td><td>15.00</td></tr>\
             </tbody></table>\
             <ul><li><a href=\"/x\">A related headline</a></li><li><a href=\"/y\">Another one</a></li></ul>{}",
            para(3),
            para(2)
        );
        let x = extract(&page(&body), &url).expect("extracted");
        assert!(x.text.contains("Anger Square 2"), "{}", x.text);
        assert!(x.text.contains("Maritime Museum"), "{}", x.text);
        assert!(!x.text.contains("related headline"), "{}", x.text);
    }

    fn post(who: &str, n: usize) -> String {
        format!(
            "<div class=\"post comment\"><span class=\"author\">{who}</span>\
             <p>Post {n} of the thread: {who} writes a reply long enough to be a post, with \
             details about the problem and what was tried so far without luck.</p></div>"
        )
    }

    fn thread_url() -> Url {
        Url::parse("https://community.example.org/t/printer-offline/4411").expect("url")
    }

    /// A thread: a question, then six comment-classed replies ([`post`]), in a moderation
    /// form when `in_form`.
    fn thread(in_form: bool) -> String {
        let replies: String = ["ana", "ben", "cy", "dee", "eve", "fay"]
            .iter()
            .enumerate()
            .map(|(i, w)| post(w, i))
            .collect();
        let replies = format!("<div class=\"replies\">{replies}</div>");
        let replies = if in_form {
            format!("<form action=\"/t/4411/moderate\" method=\"post\">{replies}</form>")
        } else {
            replies
        };
        format!(
            "<html><head><title>Printer offline - Example Community</title></head><body>\
             <nav><a href=\"/\">Latest</a> <a href=\"/c\">Categories</a></nav>\
             <main><h1>Printer offline</h1><div class=\"topic\"><p>My printer shows offline \
             since the update.</p></div>{replies}</main>\
             <footer>Powered by a forum</footer></body></html>"
        )
    }

    fn assert_every_post(text: &str) {
        for n in 0..6 {
            assert!(text.contains(&format!("Post {n} of the thread")), "{text}");
        }
    }

    #[test]
    fn every_reply_of_a_thread_is_its_text_whatever_its_class_says() {
        // Readability keeps the question and the first reply, and drops the others as
        // "comments": the replies are the thread's repeated posts, read whole with their
        // comment-named blocks.
        let x = extract(&thread(false), &thread_url()).expect("extracted");
        assert_every_post(&x.text);
        assert!(
            x.text.contains("ana"),
            "the author's name stays: {}",
            x.text
        );
        assert!(!x.text.contains("Categories"), "{}", x.text);
        assert_eq!(x.warning, None);
    }

    /// A page of `n` cards, each a heading and a paragraph; the first card's paragraph is
    /// `first` characters long, the others 300. `head` goes in `<head>`.
    fn sections(head: &str, first: usize) -> String {
        let card = |i: usize, len: usize| {
            let words = "word ".repeat(len / 5);
            format!("<div class='tile'><h3>Tile {i}</h3><p>Tile {i} says {words}</p></div>")
        };
        let cards: String = (0..8)
            .map(|i| card(i, if i == 0 { first } else { 300 }))
            .collect();
        format!(
            "<html><head><title>Our work | Center</title>{head}</head><body>\
             <nav><a href='/'>Home</a></nav><main><h1>Our work</h1><div class='grid'>{cards}</div>\
             </main></body></html>"
        )
    }

    #[test]
    fn a_page_not_calling_itself_an_article_whose_cards_hold_half_its_text_is_read_as_them() {
        // Readability read one card's long text (1,200 characters): on a page that does
        // not call itself an article, the cards holding it and the rest are read.
        let url = Url::parse("https://center.example.org/work").expect("url");
        let read = |html: &str| {
            let (doc, shape) = super::super::shape::parse_measured(html, MAX_ELEMENTS);
            let cards = super::super::cards::find(&doc, true);
            let listing = read_as_listing(&doc, Kind::Article, cards, shape.text_chars);
            let first = "word ".repeat(1500 / 5);
            let x = finished(
                "Our work",
                String::new(),
                format!("Tile 0 says {first}"),
                html,
                None,
            );
            or_cards(x, cards, Kind::Article, listing, || doc, html, &url).text
        };
        let text = read(&sections("", 1500));
        for i in 0..8 {
            assert!(text.contains(&format!("Tile {i} says")), "{text}");
        }
        // The same page calling itself an article keeps the text read.
        let text = read(&sections(
            "<meta property='og:type' content='article'>",
            1500,
        ));
        assert!(!text.contains("Tile 3 says"), "{text}");
        assert!(text.contains("Tile 0 says"), "{text}");
    }

    /// A service page's three sections (Strategy, Engineering, Support), each an `h2` and a
    /// paragraph opening with its heading, in `<div class={class}>`.
    fn service_sections(class: &str) -> String {
        ["Strategy", "Engineering", "Support"]
            .iter()
            .map(|h| {
                format!(
                    "<div class='{class}'><h2>{h}</h2><p>{h}: {}</p></div>",
                    "what we do for you in this part of the work, and how. ".repeat(3)
                )
            })
            .collect()
    }

    #[test]
    fn a_service_page_is_read_whole_under_the_title_an_article_of_it_would_have() {
        // Sections under h2 headings, no date, no author: a service page, read as the
        // container of all its sections, titled from `<title>` as Readability titles an
        // article (not by the block's own heading).
        let url = Url::parse("https://acme.example.com/data-analytics/retail").expect("url");
        let sections = service_sections("band");
        let html = format!(
            "<html><head><title>Data analytics services for retailers | Acme</title></head>\
             <body><nav><a href='/'>Home</a></nav><main><h1>We make data useful</h1>{sections}\
             </main><footer>© Acme</footer></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert_eq!(x.title, "Data analytics services for retailers");
        for h in ["Strategy:", "Engineering:", "Support:"] {
            assert!(x.text.contains(h), "{}", x.text);
        }
        assert!(!x.text.contains("© Acme"), "{}", x.text);
    }

    #[test]
    fn a_service_pages_sections_shown_twice_are_read_once_and_short_repeats_stay() {
        // A landing page draws its features twice (a desktop grid and a mobile carousel),
        // headings and all; each plan repeats a short line ("Cancel any time") and a long
        // notice under its own heading, which are each plan's.
        let url = Url::parse("https://acme.example.com/data-analytics/retail").expect("url");
        let features = service_sections("feature");
        let plans: String = ["Basic", "Team", "Enterprise"]
            .iter()
            .map(|p| {
                format!(
                    "<div class='plan'><h3>{p} plan</h3><p>Cancel any time.</p><p>Prices \
                     exclude sales tax, which is added at checkout where the law of your state \
                     or country requires it of us.</p></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Data analytics services | Acme</title></head><body>\
             <nav><a href='/'>Home</a></nav><main><h1>We make data useful</h1>\
             <div class='desktop'>{features}</div><div class='mobile'>{features}</div>\
             <div class='plans'>{plans}</div></main></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        for h in ["Strategy:", "Engineering:", "Support:"] {
            assert_eq!(x.text.matches(h).count(), 1, "{h}: {}", x.text);
        }
        assert_eq!(x.text.matches("Cancel any time").count(), 3, "{}", x.text);
        assert_eq!(
            x.text.matches("Prices exclude sales tax").count(),
            3,
            "{}",
            x.text
        );
    }

    #[test]
    fn cards_holding_a_fifth_of_a_page_that_links_its_next_page_are_a_listing() {
        // Eight cards (~1,100 characters) beside a long text (~2,000 characters) that is
        // not theirs: a fifth of the page, not half.
        let cards: String = (0..8)
            .map(|i| {
                format!(
                    "<div class='item'><a href='/p/{i}'>Product number {i}</a><p>{}</p></div>",
                    "good and cheap ".repeat(8)
                )
            })
            .collect();
        let page = |pager: &str| {
            format!(
                "<html><head><title>Lamps | Shop</title></head><body><main><h1>Lamps</h1><p>{}</p>\
                 <div class='grid'>{cards}</div>{pager}</main></body></html>",
                "About our lamps and how they are made. ".repeat(60)
            )
        };
        let listing = |html: &str| {
            let (doc, shape) = super::super::shape::parse_measured(html, MAX_ELEMENTS);
            let cards = super::super::cards::find(&doc, true);
            read_as_listing(&doc, Kind::Article, cards, shape.text_chars)
        };
        assert!(!listing(&page("")));
        assert!(listing(&page("<a rel='next' href='?page=2'>Next</a>")));
        assert!(listing(&page("<ul class='Pagination'><li>1</li></ul>")));
        assert!(!listing(&format!(
            "<meta property='og:type' content='article'>{}",
            page("<a rel='next' href='?page=2'>Next</a>")
        )));
    }

    #[test]
    fn a_page_drawn_by_a_script_is_read_from_its_noscript() {
        // A Discourse thread: the body is a splash; the posts are in <noscript>.
        let url = Url::parse("https://forum.example.org/t/update-broke-it/931").expect("url");
        let posts: String = (0..3).map(|i| post("user", i)).collect();
        let html = format!(
            "<html><head><title>Update broke it</title></head><body>\
             <section id=\"splash\"><noscript><style>x{{}}</style></noscript></section>\
             <div id=\"app\"></div><noscript data-path=\"/t/update-broke-it/931\">\
             <header><a href=\"/\">Community</a></header><div id=\"main-outlet\">\
             <h1>Update broke it</h1>{posts}</div></noscript></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("Post 2 of the thread"), "{}", x.text);
        assert_eq!(x.warning, None);
        // Read as markup, not as its text run together: each post its own paragraph, the
        // header not among them.
        for i in 0..3 {
            assert!(
                x.text
                    .split("\n\n")
                    .any(|p| p.trim().starts_with(&format!("Post {i} of"))),
                "{}",
                x.text
            );
        }
        assert!(!x.text.contains("Community"), "{}", x.text);
        // A tag manager's `<iframe/>` written self-closing in an earlier `<noscript>` runs,
        // parsed with scripting off, past `</noscript>` to the page's end: that text is
        // the page's markup, read as such.
        let swallowing = html.replace(
            "<div id=\"app\"></div>",
            "<noscript><iframe src=\"https://tags.example.com/ns.html\" style=\"display:none\"/>\
             </noscript><div id=\"app\"></div>",
        );
        let x = extract(&swallowing, &url).expect("extracted");
        assert!(
            x.text
                .split("\n\n")
                .any(|p| p.trim().starts_with("Post 2 of")),
            "{}",
            x.text
        );
        // The same with a few words drawn before the script runs (a "Loading" splash, the
        // site's name): still the posts.
        let splash = html.replace(
            "<div id=\"app\"></div>",
            "<div id=\"app\"><p>Loading</p><p>Example Community</p></div>",
        );
        let x = extract(&splash, &url).expect("extracted");
        assert!(x.text.contains("Post 2 of the thread"), "{}", x.text);
    }

    #[test]
    fn a_page_of_navigation_only_gives_all_its_text_with_a_warning() {
        // A category page that is only link lists in its header and sidebar, and a page
        // drawn by a script that says so: no article, no block outside the chrome, no
        // JSON-LD body — what the page shows, not `failed`.
        let url = Url::parse("https://shop.example.com/category/gadgets/").expect("url");
        let links: String = ["Radios", "Power Banks", "Speakers", "Cables"]
            .iter()
            .map(|l| format!("<li><a href='/c/{l}'>{l}</a></li>"))
            .collect();
        let html = format!(
            "<html><head><title>Gadgets</title></head><body><header><nav><ul>{links}</ul>\
             </nav></header><aside><ul>{links}</ul></aside></body></html>"
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("Power Banks"), "{}", x.text);
        assert_eq!(x.warning.as_deref(), Some(PAGE_TEXT_WARNING));
        let html = "<html><body><noscript></noscript><div id='app'></div>\
                    <p>You need to enable JavaScript to run this app.</p></body></html>";
        let x = extract(html, &url).expect("extracted");
        assert!(x.text.contains("enable JavaScript"), "{}", x.text);
        // Nothing shown at all is still an error.
        assert!(extract("<html><body><div></div></body></html>", &url).is_err());
    }

    #[test]
    fn a_page_with_no_text_but_its_json_ld_body_gives_that_body_with_a_warning() {
        let url = Url::parse("https://example.com/news/story").expect("url");
        let html = "<html><head><title>Story</title><script type=\"application/ld+json\">\
             {\"@type\": \"NewsArticle\", \"articleBody\": \"The council voted to keep the \
             library open on Sundays.\"}</script></head><body><div id=\"root\"></div>\
             </body></html>";
        let x = extract(html, &url).expect("extracted");
        assert!(
            x.text.contains("keep the library open on Sundays"),
            "{}",
            x.text
        );
        assert_eq!(x.warning.as_deref(), Some(LINKED_DATA_WARNING));
    }

    #[test]
    fn a_page_of_too_many_elements_gives_its_largest_block_with_a_warning() {
        let url = Url::parse("https://example.com/big").expect("url");
        let cells = "<span></span>".repeat(MAX_ELEMENTS);
        let html = format!(
            "<html><head><title>Big</title></head><body><div><p>{}</p></div>\
             <div>{cells}</div></body></html>",
            "A sentence of the page's own text. ".repeat(20)
        );
        let x = extract(&html, &url).expect("read, not refused");
        assert!(
            x.text.contains("A sentence of the page's own text."),
            "{}",
            &x.text[..200]
        );
        assert_eq!(x.warning.as_deref(), Some(TOO_LARGE_WARNING));
    }

    #[test]
    fn a_table_in_a_figure_is_the_articles_text_and_a_pictures_caption_is_not() {
        // WordPress puts every table block in a `<figure class="wp-block-table">`.
        let url = Url::parse("https://example.com/a/story.html").expect("url");
        let rows: String = (2013..2025)
            .map(|y| format!("<tr><td>1/1/{y}</td><td>+{}.1%</td></tr>", y - 2000))
            .collect();
        let html = page(&format!(
            "{}<figure class='wp-block-table'><table><thead><tr><th>Date</th>\
             <th>Median sale price change</th></tr></thead><tbody>{rows}</tbody></table>\
             </figure><figure><img src='/bridge.jpg'><figcaption>Photo: the bridge at dawn \
             (Agency)</figcaption></figure>{}",
            para(3),
            para(2)
        ));
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("Median sale price change"), "{}", x.text);
        assert!(x.text.contains("1/1/2024"), "{}", x.text);
        assert!(!x.text.contains("the bridge at dawn"), "{}", x.text);
    }

    /// A post as a page builder writes it: the body the site names (`entry-content`) holds
    /// seven sections, each its own nest of columns and widgets. The first has five
    /// widgets of long paragraphs (Readability's pick); the six after it one widget of a few
    /// short ones each, together more than the first.
    fn built_page() -> String {
        built_page_in("<div class='entry-content'>", "</div>")
    }

    /// A page builder's seven sections (the first long, the rest short) between `open` and
    /// `close`, after a menu and before a footer.
    fn built_page_in(open: &str, close: &str) -> String {
        let section = |s: usize| {
            // Each widget's class is its own (Elementor names every element by its id).
            let widget = |w: usize, p: String| {
                format!(
                    "<div class='elementor-widget elementor-element-{s}{w}'>\
                     <div class='elementor-widget-container'>{p}</div></div>"
                )
            };
            let widgets: String = if s == 0 {
                (0..5)
                    .map(|w| {
                        widget(
                            w,
                            format!(
                                "<p>Section 0 part {w} tells how the sensors were placed, room by \
                             room, floor by floor, and how the dashboard was set up to follow \
                             who is where, step by step, with the settings that worked, the \
                             ones that did not, and why the second floor needed a proxy of \
                             its own before the readings settled down.</p>"
                            ),
                        )
                    })
                    .collect()
            } else {
                // Short paragraphs (each scores little), a heading over every other.
                let head = if s.is_multiple_of(2) {
                    "<h3>One more step</h3>"
                } else {
                    ""
                };
                let paras: String = (0..s % 3 + 2)
                    .map(|p| {
                        format!(
                            "<p>Section {s} part {p} gives one more step of the setup, with \
                             the setting that made it work.</p>"
                        )
                    })
                    .collect();
                widget(0, format!("{head}{paras}"))
            };
            format!(
                "<div class='elementor-section elementor-element-{s}'>\
                 <div class='elementor-container'>\
                 <div class='elementor-column'><div class='elementor-widget-wrap'>{widgets}\
                 </div></div></div></div>"
            )
        };
        let body: String = (0..7).map(section).collect();
        format!(
            "<html><head><title>Track who is in each room</title>\
             <meta property='og:type' content='article'></head><body>\
             <nav><a href='/'>Home</a> <a href='/smart-home'>Smart home</a></nav>\
             <div class='site-content'><h1>Track who is in each room</h1>\
             {open}{body}{close}</div>\
             <footer>© Site</footer></body></html>"
        )
    }

    #[test]
    fn a_page_builders_sections_in_the_pages_one_main_are_read_whole() {
        let url = Url::parse("https://example.com/home/rooms.html").expect("url");
        let sections = |x: &Extracted| {
            (0..7)
                .filter(|s| x.text.contains(&format!("Section {s} part 0")))
                .count()
        };
        for (open, close) in [("<main>", "</main>"), ("<div role='main'>", "</div>")] {
            let x = extract(&built_page_in(open, close), &url).expect("extracted");
            assert_eq!(sections(&x), 7, "{open}: {}", x.text);
            assert!(!x.text.contains("Smart home"), "{}", x.text);
        }
        // A page with an `<article>` (here a teaser outside the sections) or with two
        // mains is left as Readability reads it: one section.
        for (open, close) in [
            (
                "<aside><article><p>Teaser</p></article></aside><main>",
                "</main>",
            ),
            ("<main></main><main>", "</main>"),
        ] {
            let x = extract(&built_page_in(open, close), &url).expect("extracted");
            assert_eq!(sections(&x), 1, "{open}: {}", x.text);
        }
        // A main holding more than MAIN_BODY_OVER times the article: a story among a news
        // page's modules.
        let teasers: String = (0..100)
            .map(|i| format!("<li>Teaser {i}: another headline on another subject</li>"))
            .collect();
        let close = format!("<ul class='more'>{teasers}</ul></main>");
        let x = extract(&built_page_in("<main>", &close), &url).expect("extracted");
        assert_eq!(sections(&x), 1, "{}", x.text);
    }

    #[test]
    fn an_article_the_pages_named_body_holds_twice_over_is_the_whole_body() {
        let url = Url::parse("https://example.com/2025/12/rooms.html").expect("url");
        let x = extract(&built_page(), &url).expect("extracted");
        for s in 0..7 {
            assert!(
                x.text.contains(&format!("Section {s} part 0")),
                "section {s}: {}",
                x.text
            );
        }
        assert!(!x.text.contains("Smart home"), "{}", x.text);
    }

    #[test]
    fn a_text_area_is_no_part_of_the_body() {
        // A "republish this story" box holds the article's HTML in a text area.
        let url = Url::parse("https://example.com/2025/12/rooms.html").expect("url");
        let html = built_page().replace(
            "</div></div><footer>",
            "<div class='republish'><textarea>&lt;p&gt;This story was written by the \
             newsroom and may be republished with credit.&lt;/p&gt;</textarea></div>\
             </div></div><footer>",
        );
        let x = extract(&html, &url).expect("extracted");
        assert!(x.text.contains("Section 5 part 0"), "{}", x.text);
        assert!(!x.text.contains("may be republished"), "{}", x.text);
    }
}
