//! Walks over a page's tree (dom_query's, the one Readability reads) for the article
//! extractor: a traversal with open and close edges, every element's text counts in one
//! pass, and the plain-text rendering. All are loops, never recursion on the input's
//! nesting, and each visits a node once: the extractor cleans, measures and renders the
//! article in the tree it was found in, instead of serialising it and parsing it again
//! (each of those parses cost more than the walk that followed it).

use std::collections::HashMap;

use dom_query::{NodeId, NodeRef};

/// Whether a node is an element named one of a list (read once): the one test every
/// reader of a page uses, kept where the text helpers below `page/` can use it too.
pub(crate) use crate::text::named;

/// One step of a traversal: entering a node (its children follow), or leaving it.
pub enum Edge<'a> {
    /// Entering the node.
    Open(NodeRef<'a>),
    /// Leaving it (after its children).
    Close(NodeRef<'a>),
}

/// The edges of `root`'s subtree, `root` included, in document order.
pub fn edges<'a>(root: &NodeRef<'a>) -> Edges<'a> {
    Edges {
        root: root.id,
        next: Some(Edge::Open(*root)),
    }
}

/// See [`edges`].
pub struct Edges<'a> {
    root: NodeId,
    next: Option<Edge<'a>>,
}

impl<'a> Iterator for Edges<'a> {
    type Item = Edge<'a>;

    fn next(&mut self) -> Option<Edge<'a>> {
        let this = self.next.take()?;
        self.next = match &this {
            Edge::Open(n) => Some(match n.first_child() {
                Some(c) => Edge::Open(c),
                None => Edge::Close(*n),
            }),
            Edge::Close(n) if n.id == self.root => None,
            Edge::Close(n) => match n.next_sibling() {
                Some(s) => Some(Edge::Open(s)),
                None => n.parent().map(Edge::Close),
            },
        };
        Some(this)
    }
}

/// An element's name and attributes, read in place ([`element`]).
pub struct El<'e> {
    /// Its local name (`div`).
    pub name: &'e str,
    attrs: &'e [dom_query::Attr],
}

impl<'e> El<'e> {
    /// The value of its attribute `name` (local name, as the parser lower-cased it).
    pub fn attr(&self, name: &str) -> Option<&'e str> {
        self.attrs
            .iter()
            .find(|a| &*a.name.local == name)
            .map(|a| &*a.value)
    }

    /// Its attributes, (local name, value), in the page's order.
    pub fn attrs(&self) -> impl Iterator<Item = (&'e str, &'e str)> + use<'e> {
        self.attrs.iter().map(|a| (&*a.name.local, &*a.value))
    }
}

/// `f` of element `n`'s name and attributes, read in place with one look-up of the node
/// (`NodeRef::attr` looks it up and copies the value each time); `None` for another
/// kind of node.
pub fn element<R>(n: &NodeRef<'_>, f: impl FnOnce(&El<'_>) -> R) -> Option<R> {
    n.query_or(None, |node| {
        node.as_element().map(|e| {
            f(&El {
                name: &e.name.local,
                attrs: &e.attrs,
            })
        })
    })
}

/// Whether `n` is an element for which `pred` holds ([`element`]).
pub fn element_is(n: &NodeRef<'_>, pred: impl FnOnce(&El<'_>) -> bool) -> bool {
    element(n, pred).unwrap_or(false)
}

/// Words of an id (split at `-` and `_`, any case) that name a box of the page's layout
/// as its sidebar, navigation, menu or footer: the `<aside>`, `<nav>` and `<footer>` of a
/// page written before HTML5 gave them elements (a blog's `div#sidebar` of archive months
/// and blogroll, WordPress's `ul#menu-main-menu`, `div#footer_setup`), no listing's. An
/// id, not a class: a class word names a component wherever it is used (a restaurant's
/// `menu-item` dishes, a shop's `nav-card` tiles), an id the one box the template placed.
/// Measured: docs/benchmarks.md, "Layout boxes named by their ids".
pub const LAYOUT_CHROME_IDS: &[&str] = &[
    "sidebar",
    "footer",
    "nav",
    "navigation",
    "navbar",
    "menu",
    "submenu",
    "sidenav",
    "subnav",
    "leftnav",
    "rightnav",
    "topnav",
];

/// A whole class word (any case) that names its box the page's sidebar: a theme's
/// `div.sidebar` holds the blog's widgets. Only the whole word: one split from a longer
/// class names the layout around the page's text (`has-sidebar`, `sidebar-layout`), and
/// those cost WCXB's development split 0.8702 → 0.8686.
pub const SIDEBAR_CLASS: &str = "sidebar";

/// Whether element `e`'s id names it one of the layout's chrome boxes
/// ([`LAYOUT_CHROME_IDS`]), or a class word its sidebar ([`SIDEBAR_CLASS`]): what a
/// listing's cards are not looked for in (`cards.rs`), and where a page's widgets' `h2`s
/// are not its sections (`kind.rs`).
pub fn layout_chrome(e: &El<'_>) -> bool {
    e.attr("id").is_some_and(|id| {
        id.split(['-', '_']).any(|w| {
            let w = w.trim_end_matches(|c: char| c.is_ascii_digit());
            LAYOUT_CHROME_IDS.iter().any(|x| w.eq_ignore_ascii_case(x))
        })
    }) || e.attr("class").is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|w| w.eq_ignore_ascii_case(SIDEBAR_CLASS))
    })
}

/// The first element under `root` for which `pred` holds, in document order: what a
/// selector's first match would be, tested by hand (matching a selector on every element
/// of a page cost up to 3.7 % of its extraction each time).
pub fn first_element<'a>(
    root: &NodeRef<'a>,
    pred: impl Fn(&NodeRef<'a>) -> bool,
) -> Option<NodeRef<'a>> {
    root.descendants_it().find(|n| n.is_element() && pred(n))
}

/// Whether `v` holds `word` (ASCII, lower case) in any case, without copying `v`. Each
/// window is compared only where its first byte matches (most classes hold no such byte
/// at most places): a whole comparison at every byte cost three times as much.
#[inline]
pub fn contains_ignore_case(v: &str, word: &[u8]) -> bool {
    let Some(&first) = word.first() else {
        return true;
    };
    let upper = first.to_ascii_uppercase();
    v.as_bytes()
        .windows(word.len())
        .any(|w| (w[0] == first || w[0] == upper) && w.eq_ignore_ascii_case(word))
}

/// Characters of `t`, not counting whitespace (how every length here is measured). Runs
/// of ASCII are counted byte by byte (a page's text is mostly ASCII; decoding each
/// character was 3 % of an extraction), the rest character by character.
pub fn nonspace(t: &str) -> usize {
    let mut n = 0;
    let mut rest = t;
    loop {
        let ascii = rest
            .bytes()
            .position(|b| !b.is_ascii())
            .unwrap_or(rest.len());
        let (run, after) = rest.split_at(ascii);
        // `char::is_whitespace` on ASCII: tab to carriage return, and space.
        n += run
            .bytes()
            .filter(|b| !matches!(b, b'\t'..=b'\r' | b' '))
            .count();
        let mut chars = after.chars();
        let Some(c) = chars.next() else { return n };
        n += usize::from(!c.is_whitespace());
        rest = chars.as_str();
    }
}

/// Characters of a text node (no whitespace), read in place; 0 for any other node.
pub fn text_len(n: &NodeRef<'_>) -> usize {
    n.query_or(0, |t| match &t.data {
        dom_query::NodeData::Text { contents } => nonspace(contents),
        _ => 0,
    })
}

/// What an element holds, counted by [`counts`].
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Characters of text (no whitespace).
    pub text: usize,
    /// Of those, characters inside a link.
    pub linked: usize,
    /// Whether an element inside it says it is the licence (`rel="license"`).
    pub licence: bool,
    /// Whether an element inside it is one of the `blocks` asked about.
    pub blocks: bool,
    /// Whether it is inside a link (an `a` between it and the root).
    pub in_link: bool,
    /// Whether a `table` or a `pre` is inside it.
    pub table: bool,
}

/// Every element's [`Counts`] under `root` (itself included), in one pass: asking each
/// element for its own subtree would be quadratic in the nesting (a page of nested
/// `<div class="share">` asks at every level).
pub fn counts(root: &NodeRef<'_>, blocks: &[&str]) -> HashMap<NodeId, Counts> {
    let mut all = HashMap::new();
    // The running counts of each open element.
    let mut open: Vec<Counts> = Vec::new();
    let mut in_link = 0usize;
    for edge in edges(root) {
        match edge {
            Edge::Open(n) if n.is_text() => {
                if let Some(c) = open.last_mut() {
                    let len = text_len(&n);
                    c.text += len;
                    if in_link > 0 {
                        c.linked += len;
                    }
                }
            }
            Edge::Open(n) if n.is_element() => {
                let is_link = n.has_name("a");
                in_link += usize::from(is_link);
                open.push(Counts {
                    in_link: in_link > usize::from(is_link),
                    ..Counts::default()
                });
            }
            Edge::Close(n) if n.is_element() => {
                let is_link = n.has_name("a");
                in_link -= usize::from(is_link);
                let c = open.pop().unwrap_or_default();
                let licence = n
                    .attr("rel")
                    .is_some_and(|r| r.split_ascii_whitespace().any(|w| w == "license"));
                let block = named(&n, blocks);
                let table = n.has_name("table") || n.has_name("pre");
                all.insert(n.id, c);
                if let Some(p) = open.last_mut() {
                    p.text += c.text;
                    p.linked += c.linked;
                    p.licence |= c.licence || licence;
                    p.blocks |= c.blocks || block;
                    p.table |= c.table || table;
                }
            }
            _ => {}
        }
    }
    all
}

/// Elements that start and end a paragraph of the plain text.
const BREAKING: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

/// Elements whose text is not shown: the sanitiser drops their content with them. An
/// `<iframe>`'s content is raw text, shown by no browser: a page of 2008 wrote its ads'
/// scripts there (`<IFRAME …><SCRIPT LANGUAGE='JavaScript1.1'>if (document.layers) …`).
const UNSHOWN: &[&str] = &["script", "style", "template", "svg", "iframe"];

/// Plain text of the subtree under `root`: one paragraph per block, separated by a blank
/// line; `<br>` a line break; whitespace inside a line collapsed, but a `<pre>`'s lines
/// kept as they are (code keeps its lines and indentation; only blank lines at its ends
/// and trailing spaces go); no markup, no image text, nothing of what the sanitiser drops
/// whole (scripts, styles, inline SVG: an icon's `<title>`, a sprite's symbol names, a
/// chart's axis labels).
pub fn text(root: &NodeRef<'_>) -> String {
    // Each line, and whether it is a `<pre>`'s (kept as it is).
    let mut lines: Vec<(String, bool)> = vec![(String::new(), false)];
    let paragraph_break = |lines: &mut Vec<(String, bool)>, blank: bool| {
        let last = lines.last().map(|l| l.0.trim().is_empty()).unwrap_or(true);
        if !last {
            lines.push((String::new(), false));
        }
        if blank && lines.len() > 1 && !lines[lines.len() - 2].0.is_empty() {
            let n = lines.len();
            lines.insert(n - 1, (String::new(), false));
        }
    };
    let (mut unshown, mut pre) = (0usize, 0usize);
    for edge in edges(root) {
        match edge {
            Edge::Open(n) if n.is_text() && unshown == 0 => {
                n.query(|t| {
                    if let dom_query::NodeData::Text { contents } = &t.data {
                        if pre == 0 {
                            if let Some(l) = lines.last_mut() {
                                l.0.push_str(contents);
                            }
                            return;
                        }
                        // The block's first text: the line it opens holds only the
                        // whitespace between the elements before it.
                        if let Some(l) = lines.last_mut()
                            && !l.1
                        {
                            if l.0.trim().is_empty() {
                                l.0.clear();
                            } else {
                                lines.push((String::new(), true));
                            }
                        }
                        for (i, piece) in contents.split('\n').enumerate() {
                            if i > 0 {
                                lines.push((String::new(), true));
                            }
                            if let Some(l) = lines.last_mut() {
                                l.0.push_str(piece);
                                l.1 = true;
                            }
                        }
                    }
                });
            }
            Edge::Open(n) if n.is_element() => {
                if named(&n, UNSHOWN) {
                    unshown += 1;
                } else if n.has_name("br") {
                    paragraph_break(&mut lines, false);
                } else if named(&n, BREAKING) {
                    paragraph_break(&mut lines, true);
                }
                pre += usize::from(n.has_name("pre"));
            }
            Edge::Close(n) if n.is_element() => {
                if named(&n, UNSHOWN) {
                    unshown -= 1;
                } else if named(&n, BREAKING) {
                    paragraph_break(&mut lines, true);
                }
                if n.has_name("pre") {
                    pre -= 1;
                    // What follows the block is not its line.
                    if lines.last().is_some_and(|l| l.1) {
                        lines.push((String::new(), false));
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = String::new();
    let mut blank = false;
    let mut at = 0;
    while at < lines.len() {
        if lines[at].1 {
            // A `<pre>`'s run of lines: one paragraph, its lines as they are.
            let end = lines[at..]
                .iter()
                .position(|l| !l.1)
                .map_or(lines.len(), |n| at + n);
            let block: Vec<&str> = lines[at..end].iter().map(|l| l.0.trim_end()).collect();
            let first = block.iter().position(|l| !l.trim().is_empty());
            let last = block.iter().rposition(|l| !l.trim().is_empty());
            if let (Some(first), Some(last)) = (first, last) {
                if !out.is_empty() {
                    out.push_str("\n\n");
                }
                out.push_str(&block[first..=last].join("\n"));
                blank = true;
            }
            at = end;
            continue;
        }
        let line = crate::text::collapse(&lines[at].0);
        at += 1;
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_open_and_close_each_node_once_in_document_order() {
        let doc = dom_query::Document::fragment("<div><p>a<b>b</b></p><p>c</p></div>x");
        let root = doc.root();
        let mut seen = Vec::new();
        for e in edges(&root) {
            match e {
                Edge::Open(n) => seen.push(format!(
                    "+{}",
                    n.node_name().map_or("#".into(), |t| t.to_string())
                )),
                Edge::Close(n) => seen.push(format!(
                    "-{}",
                    n.node_name().map_or("#".into(), |t| t.to_string())
                )),
            }
        }
        assert_eq!(
            seen.join(" "),
            "+# +html +div +p +# -# +b +# -# -b -p +p +# -# -p -div +# -# -html -#"
        );
        // A subtree's walk ends at its root, not at the end of the document.
        let p = doc.select("p").nodes()[0];
        assert_eq!(edges(&p).count(), 8);
    }

    #[test]
    fn an_iframes_raw_content_is_no_text() {
        let doc = dom_query::Document::from(
            "<html><body><p>The story.</p><iframe><script>document.write('ad')</script></iframe>\
             <p>Its end.</p></body></html>",
        );
        let text = text(&doc.root());
        assert!(
            text.contains("The story.") && text.contains("Its end."),
            "{text}"
        );
        assert!(!text.contains("document.write"), "{text}");
    }

    #[test]
    fn counts_sum_text_links_licences_and_blocks_up_the_tree() {
        let doc = dom_query::Document::fragment(
            "<div id=x><p>four <a href=/>link</a></p><span>ab <a rel=\"nofollow license\">cc</a></span></div>",
        );
        let c = counts(&doc.root(), &["p"]);
        let div = doc.select("#x").nodes()[0];
        let got = c[&div.id];
        assert_eq!((got.text, got.linked), (12, 6));
        assert!(got.licence && got.blocks && !got.in_link);
        let p = doc.select("p").nodes()[0];
        assert!(!c[&p.id].licence && !c[&p.id].blocks);
        let a = doc.select("p a").nodes()[0];
        assert!(!c[&a.id].in_link);
        assert_eq!(c[&a.id].linked, 4);
    }

    #[test]
    fn a_word_is_found_in_any_case_anywhere_in_a_value() {
        for v in ["modal", "Modal-wrap", "site-MODAL", "x mOdAl y", "modmodal"] {
            assert!(contains_ignore_case(v, b"modal"), "{v}");
        }
        for v in ["", "moda", "mod al", "m0dal", "\u{e9}modaX"] {
            assert!(!contains_ignore_case(v, b"modal"), "{v}");
        }
        assert!(contains_ignore_case("anything", b""));
    }

    #[test]
    fn nonspace_counts_every_character_but_whitespace_in_any_script() {
        // ASCII runs between other characters, and whitespace outside ASCII (no-break
        // space, ideographic space, next line) and inside it (vertical tab).
        for t in [
            "",
            "a b\tc\r\n",
            "\u{b}\u{c}x",
            "caf\u{e9} \u{a0}bar\u{3000}\u{65e5}\u{672c}\u{85}z",
            "\u{1F600}  \u{1F600}",
            "\u{1c}\u{1f}\u{7f}",
        ] {
            let chars = t.chars().filter(|c| !c.is_whitespace()).count();
            assert_eq!(nonspace(t), chars, "{t:?}");
        }
        assert_eq!(nonspace("caf\u{e9} \u{a0}b"), 5);
    }

    #[test]
    fn text_breaks_blocks_into_paragraphs_and_drops_what_is_not_shown() {
        let doc = dom_query::Document::fragment(
            "<h1>Title</h1><p>One  <b>two</b><br>three</p><script>var x</script><ul><li>a</li><li>b</li></ul>",
        );
        assert_eq!(text(&doc.root()), "Title\n\nOne two\nthree\n\na\n\nb");
    }

    #[test]
    fn a_pre_keeps_its_lines_and_indentation_and_what_follows_is_prose_again() {
        // Python's documentation: a highlighted example between two paragraphs whose
        // source lines are wrapped.
        let doc = dom_query::Document::fragment(
            "<p>Before the\ncode:</p>\n<div class='highlight'><pre><span></span>\
             <span class='gp'>&gt;&gt;&gt; </span>def f(x):\n<span class='gp'>... </span>    \
             return  x  \n\n<span class='gp'>... </span>    pass\n</pre></div>\n\
             <p>After the\ncode, <code>f()</code> returns.</p>",
        );
        assert_eq!(
            text(&doc.root()),
            "Before the code:\n\n>>> def f(x):\n...     return  x\n\n...     pass\n\n\
             After the code, f() returns."
        );
    }
}
