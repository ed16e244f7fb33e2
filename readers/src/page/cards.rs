//! A listing's repeated cards (docs/commands.md, `rss read`): the element whose children
//! repeat one shape — the same tag and first class word (or, with none, the same words
//! of their ids), each holding a line of text or more — and hold the most text that way. A news index, a shop's category, a list of
//! services or of press mentions is that element: Readability takes one card of it, or
//! the intro above it. Navigation, the page's header and footer and controls are no card's
//! text; an `<article>`'s own header is (its title and summary), but on a product's page
//! or a thread ([`articles_own`]). Found from the page's structure alone, whatever the
//! page calls itself; when it replaces what was read is the extractor's choice
//! (`extract::or_cards`): on WCXB's
//! development split listings went from 0.484 to 0.549 and collections from 0.539 to 0.598,
//! articles and the article benchmark unchanged (docs/benchmarks.md, "Every kind of page").
//!
//! One pass over the tree, bounded by its size: each element's children are grouped once,
//! when it closes (a sort of their shapes).

use std::hash::BuildHasher;

use dom_query::{Document, NodeId, NodeRef};

use super::tree::{self, Edge};

/// Subtrees whose text is not a listing's: navigation, chrome, scripts, controls. Not a
/// `<form>`: the extractor has removed those that hold less than half of the page's text
/// (`extract::drop_asked`); one left is the page's (a forum's posts in its moderation form).
pub const CHROME: &[&str] = &[
    "nav", "header", "footer", "aside", "script", "style", "noscript", "template", "svg", "button",
    "select", "iframe",
];

/// Of [`CHROME`], what is a card's own inside an `<article>`: HTML's `<header>` belongs to
/// its nearest sectioning element, so inside an article it is the article's heading, not
/// the page's banner (a news index's `<article><header><h2>` cards: AppleInsider's topic
/// pages hold every title and summary in one). Its `<footer>` too, by the same rule, but
/// counting one changed no page of WCXB's development split: left chrome.
const SECTION_OWN: &[&str] = &["header"];

/// Whether a page of `kind` reads an article's header as its own ([`SECTION_OWN`]): not a
/// product's, whose article-cards are other products (a shop's "Complete the look" tiles,
/// titled in their headers, outweighed the product's own text: WCXB dev 0625, 0.66 →
/// 0.11), nor a thread's, whose posts' headers are their date and number (`#1`).
pub fn articles_own(kind: super::kind::Kind) -> bool {
    !matches!(kind, super::kind::Kind::Product | super::kind::Kind::Forum)
}

/// Whether element `n`, met `in_article` elements deep inside `<article>`s, is chrome: named
/// one of `names` ([`CHROME`] for a listing), but an article's header when `articles_own`.
fn chrome(n: &NodeRef<'_>, names: &[&str], in_article: usize, articles_own: bool) -> bool {
    tree::named(n, names) && !(articles_own && in_article > 0 && tree::named(n, SECTION_OWN))
}

/// Whether `n`'s id or class names it one of the layout's chrome boxes
/// ([`tree::layout_chrome`]).
fn layout_chrome(n: &NodeRef<'_>) -> bool {
    tree::element_is(n, tree::layout_chrome)
}

/// [`chrome`] to a listing while its cards are looked for ([`find`]): also a box its id
/// names as the layout's chrome ([`layout_chrome`]).
fn listing_chrome(n: &NodeRef<'_>, in_article: usize, articles_own: bool) -> bool {
    chrome(n, CHROME, in_article, articles_own) || layout_chrome(n)
}

/// Removes what is chrome to a listing ([`chrome`]) from `block`'s subtree, in one pass.
pub fn drop_chrome(block: &NodeRef<'_>, articles_own: bool) {
    drop_named_outside_articles(block, CHROME, articles_own);
}

/// Removes the elements named one of `names` from `block`'s subtree, in one pass, but an
/// article's own header when `articles_own`.
pub fn drop_named_outside_articles(block: &NodeRef<'_>, names: &[&str], articles_own: bool) {
    let mut doomed = Vec::new();
    let mut in_article = 0usize;
    for edge in tree::edges(block) {
        match edge {
            Edge::Open(n) if n.is_element() => {
                if n.id != block.id && chrome(&n, names, in_article, articles_own) {
                    doomed.push(n);
                }
                in_article += usize::from(n.has_name("article"));
            }
            Edge::Close(n) if n.is_element() => in_article -= usize::from(n.has_name("article")),
            _ => {}
        }
    }
    for d in doomed {
        d.remove_from_parent();
    }
}

/// Fewest cards of one shape that make a listing.
const MIN_CARDS: usize = 3;

/// Fewest characters (no whitespace) a card holds to count: a title at least.
const MIN_CARD_CHARS: usize = 16;

/// The element holding a page's repeated cards: its id in the tree it was found in (the
/// same in a copy of that tree, or in the tree parsed again from the same page), and the
/// characters (no whitespace) of its whole text outside [`CHROME`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cards {
    pub id: NodeId,
    pub chars: usize,
}

/// One open element during the pass: its text so far, and its closed child elements'
/// shapes and texts.
#[derive(Default)]
struct Frame {
    chars: usize,
    kids: Vec<(u64, usize)>,
}

/// The page's repeated cards ([`Cards`]), `None` when no element has [`MIN_CARDS`]
/// children of one shape with text. `articles_own`: an article's header is its own
/// ([`SECTION_OWN`]), not chrome.
pub fn find(doc: &Document, articles_own: bool) -> Option<Cards> {
    let mut open: Vec<Frame> = vec![Frame::default()];
    let mut in_chrome = 0usize;
    let mut in_article = 0usize;
    // (cards' characters, the element, its whole text)
    let mut best: Option<(usize, NodeId, usize)> = None;
    for edge in tree::edges(&doc.root()) {
        match edge {
            Edge::Open(n) if n.is_text() => {
                if in_chrome == 0
                    && let Some(top) = open.last_mut()
                {
                    top.chars += tree::text_len(&n);
                }
            }
            Edge::Open(n) => {
                if n.is_element() {
                    in_chrome += usize::from(listing_chrome(&n, in_article, articles_own));
                    in_article += usize::from(n.has_name("article"));
                    open.push(Frame::default());
                }
            }
            Edge::Close(n) => {
                if !n.is_element() {
                    continue;
                }
                let Frame { chars, mut kids } = open.pop().unwrap_or_default();
                in_article -= usize::from(n.has_name("article"));
                let chrome = listing_chrome(&n, in_article, articles_own);
                if in_chrome == 0
                    && let Some(cards) = repeated(&mut kids)
                    && best.is_none_or(|(b, ..)| cards > b)
                {
                    best = Some((cards, n.id, chars));
                }
                in_chrome -= usize::from(chrome);
                if let Some(top) = open.last_mut() {
                    top.chars += chars;
                    top.kids.push((shape(&n), chars));
                }
            }
        }
    }
    best.map(|(_, id, chars)| Cards { id, chars })
}

/// The characters of the largest group of children of one shape when it has at least
/// [`MIN_CARDS`] members of [`MIN_CARD_CHARS`] or more (only those counted).
fn repeated(kids: &mut [(u64, usize)]) -> Option<usize> {
    if kids.len() < MIN_CARDS {
        return None;
    }
    kids.sort_unstable_by_key(|k| k.0);
    kids.chunk_by(|a, b| a.0 == b.0)
        .filter_map(|group| {
            let cards: Vec<usize> = group
                .iter()
                .map(|k| k.1)
                .filter(|&c| c >= MIN_CARD_CHARS)
                .collect();
            (cards.len() >= MIN_CARDS).then(|| cards.iter().sum())
        })
        .max()
}

/// An element's shape: its tag and the first word of its class, less words with a digit
/// (`item-3`, generated names) or of one character (an index's `vert_cats A`, `vert_cats
/// B`: each group named by its letter) and those that name a post's own taxonomy and state
/// (WordPress's `tag-vienna`, `category-news`, `post-type-text`, `status-publish`,
/// `format-standard`, `has-image`: each post of a blog's index has its own set). The
/// first word names the component (`Item`, `card`, `product-tile`); the words after it
/// say its state, which differs from one card to the next: a thread's comments classed
/// `Item Alt ItemComment` every other one and `Rank-Admin` for a moderator's, a shop's
/// tiles `on-sale` or `sold-out`. Measured on WCXB's development split: all the kept words
/// 0.8647, the first two 0.8653, the first 0.8661 (docs/benchmarks.md, "A card's first
/// class word"). With no such word, its id's words name it, and with none either its first
/// class word less its digits. Hashed with foldhash, read in place: no element costs an allocation.
fn shape(n: &NodeRef<'_>) -> u64 {
    use std::hash::{Hash, Hasher};
    let state = foldhash::fast::FixedState::default();
    tree::element(n, |e| {
        let mut h = state.build_hasher();
        e.name.hash(&mut h);
        let mut id_words = e
            .attr("id")
            .unwrap_or("")
            .split(['-', '_'])
            .filter(|w| naming(w))
            .peekable();
        let generated = e
            .attr("class")
            .and_then(|c| c.split_ascii_whitespace().next());
        match (component(e), generated) {
            (Some(c), _) => c.hash(&mut h),
            // An element with no class word is named by its id's words, less those with a
            // digit: the name a template's layout gives each of its boxes (Blogger's
            // `header-wrapper`, `main-wrap1` and `sidebar-wrapper` under its
            // `outer-wrapper`: classless `div`s that hold the page, no cards), where a
            // listing's cards are numbered (`post-123`, `item-2782836d-f601-…`: one name).
            _ if id_words.peek().is_some() => id_words.for_each(|w| w.hash(&mut h)),
            // With neither, by its first class word less its digits: a layout's boxes
            // classed only in generated words (Sky's `base-head-t1`, `base-nav-t2`,
            // `v5-content` under one wrapper) are as many shapes, not one with every
            // classless `div`, while numbered cards (`item-3`, `item-4`) stay one.
            (None, Some(first)) => {
                GENERATED.hash(&mut h);
                first
                    .bytes()
                    .filter(|b| !b.is_ascii_digit())
                    .for_each(|b| b.hash(&mut h));
            }
            (None, None) => {}
        }
        h.finish()
    })
    .unwrap_or_default()
}

/// Marks a shape named by a class of generated words ([`shape`]), apart from one named by
/// a word.
const GENERATED: u8 = 1;

/// Whether a word of a class or an id can name a component ([`shape`]): not one of one
/// character (an index's group letter) nor one with a digit (`item-3`, a generated name).
fn naming(w: &str) -> bool {
    w.len() > 1 && !w.bytes().any(|b| b.is_ascii_digit())
}

/// The word of an element's class that names its component ([`shape`]).
fn component<'e>(e: &tree::El<'e>) -> Option<&'e str> {
    e.attr("class").and_then(|class| {
        class.split_ascii_whitespace().find(|w| {
            naming(w)
                && ![
                    "tag-",
                    "category-",
                    "post-",
                    "type-",
                    "status-",
                    "format-",
                    "has-",
                ]
                .iter()
                .any(|p| w.starts_with(p))
        })
    })
}

/// Elements of the same component as the cards looked at, before them, for the post
/// they reply to ([`replies_to`]).
const POST_LOOKS: usize = 8;

/// Whether `cards` (in `doc`) are the replies to the post whose text holds `paragraph`:
/// an element before them, outside them, is of their container's component (Vanilla's
/// thread: the opening post in a `div.MessageList`, its comments the cards of a
/// `ul.MessageList`) and holds that paragraph. The first [`POST_LOOKS`] such elements are
/// rendered; the walk stops at the cards.
pub fn replies_to(doc: &Document, cards: &Cards, paragraph: &str) -> bool {
    let container = NodeRef::new(cards.id, &doc.tree);
    let Some(word) = tree::element(&container, |e| component(e).map(str::to_string)).flatten()
    else {
        return false;
    };
    let mut looks = 0usize;
    for edge in tree::edges(&doc.root()) {
        let Edge::Open(n) = edge else { continue };
        if n.id == cards.id || looks >= POST_LOOKS {
            return false;
        }
        if !tree::element_is(&n, |e| component(e) == Some(word.as_str()))
            || container.ancestors_it(None).any(|a| a.id == n.id)
        {
            continue;
        }
        looks += 1;
        if tree::text(&n).contains(paragraph) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards_text(html: &str) -> Option<String> {
        let (doc, _) = super::super::shape::parse_measured(html, 50_000);
        let c = find(&doc, true)?;
        Some(tree::text(&NodeRef::new(c.id, &doc.tree)))
    }

    #[test]
    fn the_element_whose_children_repeat_one_shape_with_text_is_the_listing() {
        let card = |i: usize| {
            format!(
                "<div class='card card-{i}'><h3><a href='/n/{i}'>Story number {i} of the week</a></h3><p>What happened in story {i}.</p></div>"
            )
        };
        let cards: String = (0..5).map(card).collect();
        let html = format!(
            "<html><body><nav><ul><li><a href='/'>Home page of the site</a></li><li><a href='/a'>About the people here</a></li><li><a href='/c'>Contact us by mail</a></li><li><a href='/d'>Donate to the cause</a></li></ul></nav>\
             <main><h1>News</h1><p>Our latest stories.</p><div class='grid'>{cards}</div></main></body></html>"
        );
        let text = cards_text(&html).expect("cards");
        for i in 0..5 {
            assert!(text.contains(&format!("Story number {i}")), "{text}");
        }
        assert!(
            !text.contains("Home page"),
            "navigation is not a listing: {text}"
        );
    }

    #[test]
    fn a_layouts_boxes_named_by_their_ids_are_no_cards_but_numbered_ones_are() {
        // Blogger's template: classless boxes under one wrapper, each named by its id,
        // holding the page — the header, the post, the sidebar's archive — are no listing.
        let para = "The lean startup is an application of lean thinking to new companies.";
        let layout = format!(
            "<div id='outer-wrapper'><div id='header-wrapper'><h1>Lessons Learned, a blog</h1></div>\
             <div id='main-wrap1'><p>{para}</p></div>\
             <div id='sidebar-wrapper'><p>Blog archive of the years 2008 to 2024</p></div></div>"
        );
        assert_eq!(
            cards_text(&format!("<html><body>{layout}</body></html>")),
            None
        );
        // Classless cards numbered by their ids (`post-12`, or a generated `item-…`) are one.
        let numbered: String = ["12", "2782836d-f601-45fc", "907"]
            .iter()
            .map(|n| format!("<div id='item-{n}'><h3>Story {n} of the week, in full</h3></div>"))
            .collect();
        let text = cards_text(&format!(
            "<html><body><main>{numbered}</main></body></html>"
        ))
        .expect("numbered cards");
        assert!(
            text.contains("Story 907") && text.contains("Story 12 "),
            "{text}"
        );
    }

    #[test]
    fn boxes_classed_in_generated_words_are_their_shapes_and_numbered_ones_one() {
        // Sky's layout: its boxes classed only in words with a digit, under one wrapper.
        let layout: String = ["base-head-t1", "base-nav-t1", "base-nav-t2", "v5-content"]
            .iter()
            .map(|c| {
                format!("<div class='{c}'><p>The {c} box of the page, with its text</p></div>")
            })
            .collect();
        assert_eq!(
            cards_text(&format!("<html><body><div>{layout}</div></body></html>")),
            None
        );
        let numbered: String = (3..7)
            .map(|i| format!("<div class='item-{i}'><h3>Story {i} of the week, in full</h3></div>"))
            .collect();
        let text = cards_text(&format!(
            "<html><body><main>{numbered}</main></body></html>"
        ))
        .expect("numbered cards");
        assert!(
            text.contains("Story 3 ") && text.contains("Story 6 "),
            "{text}"
        );
    }

    #[test]
    fn a_box_its_id_names_as_the_layouts_menu_holds_no_cards_but_a_class_may() {
        // A theme's sidebar, by its whole class word: no listing either.
        let widgets: String = (1..6)
            .map(|i| format!("<div class='widget'><a href='/w/{i}'>Widget {i} of the blog's sidebar</a></div>"))
            .collect();
        assert_eq!(
            cards_text(&format!(
                "<html><body><div class='sidebar'>{widgets}</div></body></html>"
            )),
            None
        );
        let items = |n: &str| -> String {
            (1..6)
                .map(|i| {
                    format!(
                        "<li class='item'><a href='/{i}'>{n} number {i}, with its words</a></li>"
                    )
                })
                .collect()
        };
        // WordPress's main menu, in a page written before `<nav>`: no listing.
        let menu = format!("<ul id='menu-main-menu'>{}</ul>", items("Section"));
        assert_eq!(
            cards_text(&format!("<html><body>{menu}</body></html>")),
            None
        );
        // A numbered submenu (Worldnow's `ul#submenu20`): no listing either.
        let submenu = format!("<ul id='submenu20'>{}</ul>", items("Section"));
        assert_eq!(
            cards_text(&format!("<html><body>{submenu}</body></html>")),
            None
        );
        // A restaurant's menu of dishes, named so by its class: its cards.
        let dishes = format!("<ul class='menu'>{}</ul>", items("Dish"));
        let text = cards_text(&format!("<html><body>{dishes}</body></html>")).expect("dishes");
        assert!(text.contains("Dish number 5"), "{text}");
    }

    #[test]
    fn posts_whose_classes_name_their_own_tags_are_one_shape() {
        // WordPress names each post's category, tags and type in its classes: five posts,
        // five sets of classes, one listing — beside three cards of another shape.
        let tags = ["vienna", "dubai", "oslo", "lima", "perth"];
        let posts: String = tags
            .iter()
            .map(|t| {
                format!(
                    "<article class='entry category-news tag-{t} post-type-text has-image'>\
                     <h2>A partnership signed in {t}</h2></article>"
                )
            })
            .collect();
        let promos = "<div class='promo'>Subscribe for the weekly letter</div>".repeat(3);
        let html = format!("<main><div>{promos}</div><section>{posts}</section></main>");
        let text = cards_text(&html).expect("cards");
        for t in tags {
            assert!(text.contains(&format!("signed in {t}")), "{text}");
        }
    }

    #[test]
    fn cards_whose_later_classes_say_their_state_are_one_shape() {
        // A thread's comments: every other one `Alt`, a moderator's `Rank-Admin`, the
        // poster's own `isOriginalPoster`; one component, `Item`, in four states.
        let classes = [
            "Item ItemComment",
            "Item Alt ItemComment Rank-Admin",
            "Item ItemComment isOriginalPoster",
            "Item Alt ItemComment",
        ];
        let comments: String = classes
            .iter()
            .enumerate()
            .map(|(i, c)| {
                format!(
                    "<li class='{c}'><p>Reply {i}: the upgrade broke the plugin, and rolling \
                     back fixed it here too.</p></li>"
                )
            })
            .collect();
        let promos = "<div class='promo'>Subscribe for the weekly letter</div>".repeat(3);
        let html = format!("<main><div>{promos}</div><ul class='Comments'>{comments}</ul></main>");
        let text = cards_text(&html).expect("cards");
        for i in 0..classes.len() {
            assert!(text.contains(&format!("Reply {i}:")), "{text}");
        }
    }

    #[test]
    fn an_indexs_groups_named_by_their_letter_are_one_shape() {
        // A catalogue's categories from A to Z, each letter's group classed with it.
        let groups: String = ["A", "B", "C", "D"]
            .iter()
            .map(|l| {
                format!(
                    "<div class='cats {l}'><div class='letter'>{l}</div><a href='/{l}1'>\
                     {l}nchors and {l}djusters</a><a href='/{l}2'>{l}lips and {l}lamps</a></div>"
                )
            })
            .collect();
        let promos = "<div class='promo'>Subscribe for the weekly catalogue</div>".repeat(3);
        let html = format!("<main><div>{promos}</div><div class='browse'>{groups}</div></main>");
        let text = cards_text(&html).expect("cards");
        for l in ["A", "D"] {
            assert!(text.contains(&format!("{l}lips and {l}lamps")), "{text}");
        }
    }

    #[test]
    fn an_articles_header_is_its_own_but_a_products_cards_headers_are_chrome() {
        // A news index's cards, each an <article> whose title and summary are in its
        // <header> (AppleInsider's topic pages): the header is the card's, not the page's.
        let stories: String = (0..4)
            .map(|i| {
                format!(
                    "<article class='river'><header><h2><a href='/s/{i}'>Story {i} about the \
                     new headphones</a></h2><p>What story {i} says in a line.</p></header></article>"
                )
            })
            .collect();
        let html = format!(
            "<header><nav><a href='/'>Home of the site, its banner</a></nav></header>\
             <main><h1>Headphones</h1><section>{stories}</section></main>"
        );
        let text = cards_text(&html).expect("cards");
        for i in 0..4 {
            assert!(text.contains(&format!("Story {i} about")), "{text}");
        }
        let (doc, _) = super::super::shape::parse_measured(&html, 50_000);
        // The page's own header (outside any article) is chrome still…
        let c = find(&doc, true).expect("cards");
        drop_chrome(&NodeRef::new(c.id, &doc.tree), true);
        let kept = tree::text(&NodeRef::new(c.id, &doc.tree));
        assert!(kept.contains("Story 3 about"), "{kept}");
        // …and on a page that reads them as chrome (a product's, a thread's), the headers
        // hold no card's text: no listing.
        assert_eq!(find(&doc, false), None);
        assert!(articles_own(super::super::kind::Kind::Listing));
        assert!(!articles_own(super::super::kind::Kind::Product));
        assert!(!articles_own(super::super::kind::Kind::Forum));
    }

    #[test]
    fn fewer_than_three_cards_or_cards_without_text_are_no_listing() {
        assert_eq!(
            cards_text(
                "<div><div class='c'>A card with enough text</div><div class='c'>Another card with text</div></div>"
            ),
            None
        );
        assert_eq!(
            cards_text(
                "<div><span class='c'>a</span><span class='c'>b</span><span class='c'>c</span></div>"
            ),
            None
        );
    }

    #[test]
    fn a_deep_and_wide_page_is_one_pass() {
        // 20,000 siblings of one shape under 400 nested divs: found, with no recursion.
        let cards = "<p class='x'>a line of a card's text</p>".repeat(20_000);
        let html = format!("{}{cards}{}", "<div>".repeat(400), "</div>".repeat(400));
        let text = cards_text(&html).expect("cards");
        assert!(text.len() > 20_000 * 20);
    }

    #[test]
    fn the_post_replied_to_is_looked_for_in_the_first_elements_of_its_component_only() {
        // A thread's replies (the cards of a `ul.MessageList`) and before them elements of
        // the same component, the last holding the post's paragraph: found when it is
        // among the first POST_LOOKS looked at, not past them (a page of thousands of
        // them is not rendered one by one). The notices are too short to be cards.
        let post = "The opening post of the thread, which the replies below answer one by one.";
        let page = |decoys: usize| {
            let before: String = (0..decoys)
                .map(|i| format!("<div class='MessageList'><p>Notice {i}.</p></div>"))
                .collect();
            let replies: String = (0..4)
                .map(|i| {
                    format!(
                        "<li class='Item'><p>Reply number {i}, agreeing with the post above.</p></li>"
                    )
                })
                .collect();
            format!(
                "<html><body>{before}<div class='MessageList'><p>{post}</p></div>\
                 <ul class='MessageList'>{replies}</ul></body></html>"
            )
        };
        let replied = |decoys: usize| {
            let (doc, _) = super::super::shape::parse_measured(&page(decoys), 50_000);
            let cards = find(&doc, false).expect("the replies are the cards");
            assert!(tree::text(&NodeRef::new(cards.id, &doc.tree)).contains("Reply number 3"));
            replies_to(&doc, &cards, post)
        };
        assert!(replied(0));
        assert!(replied(POST_LOOKS - 1));
        assert!(!replied(POST_LOOKS));
    }
}
