//! The shape of untrusted HTML before any tree is built from it: how deep its elements nest
//! and how many there are, measured with html5ever's tokenizer alone (linear in the input),
//! and its text without any markup for pages too deep to build.
//!
//! Why: building the tree is not linear in nesting. html5ever's tree builder checks "is
//! there a `p` in button scope" by walking the stack of open elements for every start tag,
//! so 45,000 nested `<div>` cost ~10⁹ steps before the extractor scores anything (20 s of
//! worker CPU in the measured case); ammonia and html2text build the same tree. The
//! extractor refuses such a page, and the renderers flatten it to its text, in one pass.
//!
//! The extractor measures while it builds ([`parse_measured`]): one tokenizer pass feeds
//! both the measure and the tree builder, which gets no more tokens past the limits (a
//! separate measuring pass cost a quarter of an extraction).

use std::cell::Cell;

use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts, TreeSink};

/// The deepest nesting a page or fragment may have to be built as a tree. Real articles
/// nest a few dozen deep; the deepest of the 181 benchmark pages is under 40.
pub const MAX_DEPTH: usize = 512;

/// How deep elements nest, and how many there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// The deepest nesting of elements that must be closed explicitly.
    pub depth: usize,
    /// Start tags.
    pub elements: usize,
    /// Characters of text outside `script` and `style`, whitespace not counted (more than
    /// any block of the page renders to: entities count as their characters, and `title`
    /// counts too).
    pub text_chars: usize,
}

impl Shape {
    /// Whether a tree may be built from it.
    pub fn buildable(&self) -> bool {
        self.depth <= MAX_DEPTH
    }
}

/// Elements without content, and elements whose end tag may be left out (a parser closes
/// them itself: a page of unclosed `<p>` or `<li>` is not deep).
fn unnested(tag: &Tag) -> bool {
    matches!(
        &*tag.name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
            | "p"
            | "li"
            | "dt"
            | "dd"
            | "tr"
            | "td"
            | "th"
            | "option"
            | "optgroup"
            | "thead"
            | "tbody"
            | "tfoot"
            | "colgroup"
            | "rb"
            | "rt"
            | "rp"
    )
}

#[derive(Default)]
struct Sink {
    depth: Cell<usize>,
    shape: Cell<Shape>,
    /// Collect the text (for [`text_only`]).
    keep_text: bool,
    text: std::cell::RefCell<String>,
    /// Inside `script`/`style`: their text is not the page's.
    hidden: Cell<bool>,
    /// Inside a script or style whose text no reader of the tree needs (all but JSON-LD,
    /// where the article's metadata is).
    unread: Cell<bool>,
    /// Stop the tokenizer at the start tag that nests past [`MAX_DEPTH`] (a question of
    /// buildability needs no more).
    stop_too_deep: bool,
}

impl Sink {
    /// Whether `token`, just noted, is the start tag that took the page past
    /// [`MAX_DEPTH`]: the tokenizer stops there (a `Script` result, which it allows
    /// only for a tag; the nesting only grows, so nothing after it changes the answer).
    fn crossed(&self, token: &Token) -> bool {
        matches!(token, Token::TagToken(t) if t.kind == TagKind::StartTag)
            && self.shape.get().depth == MAX_DEPTH + 1
            && self.depth.get() == MAX_DEPTH + 1
    }

    /// Counts `token` in the shape (and keeps its text when asked); for a start tag that
    /// opens raw text (`script`, `style`, `title`, …), the tokenizer state it needs.
    fn note(&self, token: &Token) -> Option<RawKind> {
        match token {
            Token::TagToken(tag) => {
                let mut shape = self.shape.get();
                match tag.kind {
                    TagKind::StartTag => {
                        shape.elements += 1;
                        if !tag.self_closing && !unnested(tag) {
                            let d = self.depth.get() + 1;
                            self.depth.set(d);
                            shape.depth = shape.depth.max(d);
                        }
                        self.shape.set(shape);
                        // What follows a start tag is its own: not the text of a script
                        // before it that was not raw text (an SVG `<script/>`).
                        self.hidden.set(false);
                        self.unread.set(false);
                        // The tokenizer alone does not know these hold raw text.
                        match &*tag.name {
                            "script" => {
                                self.hidden.set(true);
                                self.unread.set(!tag.attrs.iter().any(|a| {
                                    &*a.name.local == "type"
                                        && a.value
                                            .trim()
                                            .eq_ignore_ascii_case("application/ld+json")
                                }));
                                return Some(RawKind::ScriptData);
                            }
                            "style" => {
                                self.hidden.set(true);
                                self.unread.set(true);
                                return Some(RawKind::Rawtext);
                            }
                            "xmp" | "iframe" | "noembed" | "noframes" => {
                                self.hidden.set(true);
                                return Some(RawKind::Rawtext);
                            }
                            "title" | "textarea" => return Some(RawKind::Rcdata),
                            _ => {}
                        }
                    }
                    TagKind::EndTag => {
                        if !unnested(tag) {
                            self.depth.set(self.depth.get().saturating_sub(1));
                        }
                        self.hidden.set(false);
                        self.unread.set(false);
                        if self.keep_text {
                            self.text.borrow_mut().push(' ');
                        }
                    }
                }
            }
            Token::CharacterTokens(t) if !self.hidden.get() => {
                let mut shape = self.shape.get();
                shape.text_chars += t.chars().filter(|c| !c.is_whitespace()).count();
                self.shape.set(shape);
                if self.keep_text {
                    self.text.borrow_mut().push_str(t);
                }
            }
            _ => {}
        }
        None
    }
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let raw = self.note(&token);
        if self.stop_too_deep && self.crossed(&token) {
            return TokenSinkResult::Script(());
        }
        match raw {
            Some(kind) => TokenSinkResult::RawData(kind),
            None => TokenSinkResult::Continue,
        }
    }
}

/// The tree builder behind a [`Sink`] that measures each token first: once the page nests
/// past [`MAX_DEPTH`] the tokenizer stops (the page is refused); once it has more than
/// `max_elements` start tags, the builder gets no more tokens (its cost, quadratic in the
/// nesting, stops there) and the rest is only measured.
struct Measured<'a> {
    tb: TreeBuilder<<dom_query::Document as TreeSink>::Handle, dom_query::Document>,
    shape: Sink,
    max_elements: usize,
    /// The tokenizer's input: an unread script's or style's text is skipped in it
    /// ([`raw_text_end`]).
    input: &'a BufferQueue,
}

impl TokenSink for Measured<'_> {
    type Handle = <dom_query::Document as TreeSink>::Handle;

    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<Self::Handle> {
        // Built up to the limits (the deepest nesting and the element count only grow:
        // once past, always past); too deep, the tokenizer stops: the page is refused, and
        // tokenizing the rest cost a second of worker CPU a 2 MB page (debug build); while
        // building, the builder says which tags hold raw text.
        let raw = self.shape.note(&token);
        if self.shape.crossed(&token) {
            return TokenSinkResult::Script(self.tb.sink.get_document());
        }
        let shape = self.shape.shape.get();
        if !shape.buildable() || shape.elements > self.max_elements {
            return raw.map_or(TokenSinkResult::Continue, TokenSinkResult::RawData);
        }
        // A script's or a style's text is not built into the tree: Readability removes
        // both first, and they were a quarter of the article pages' bytes each.
        if self.shape.unread.get() && matches!(token, Token::CharacterTokens(_)) {
            return TokenSinkResult::Continue;
        }
        // Nor is it tokenized: half the article pages' bytes, and tokenizing them (a
        // token at every line break) was a sixth of an extraction. Only the text of the
        // start tag just noted as unread, when the builder says it is raw text.
        let opens_unread = self.shape.unread.get()
            && matches!(&token, Token::TagToken(t) if t.kind == TagKind::StartTag
                && matches!(&*t.name, "script" | "style"));
        let result = self.tb.process_token(token, line);
        if opens_unread
            && let TokenSinkResult::RawData(kind) = &result
            && let Some(mut rest) = self.input.peek_front_chunk_mut()
            && let Some(at) = raw_text_end(&rest, *kind)
        {
            rest.pop_front(at);
        }
        result
    }

    fn end(&self) {
        self.tb.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.tb
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// Where the raw text that starts `rest` ends (bytes), when the tokenizer in state `kind`
/// would end it at the first `</script` or `</style` (any case) followed by whitespace,
/// `/` or `>`: always for a style's text (raw text), and for a script's when no `<!--`
/// comes first (script data escaped, where such an end tag may be the text's own). `None`
/// when it would end elsewhere or past `rest`: the text is tokenized as it comes.
fn raw_text_end(rest: &str, kind: RawKind) -> Option<u32> {
    let name: &[u8] = match kind {
        RawKind::ScriptData => b"script",
        RawKind::Rawtext => b"style",
        _ => return None,
    };
    let bytes = rest.as_bytes();
    let end = memchr::memmem::find_iter(bytes, b"</").find(|&at| {
        let after = &bytes[at + 2..];
        after.len() > name.len()
            && after[..name.len()].eq_ignore_ascii_case(name)
            && matches!(
                after[name.len()],
                b'\t' | b'\n' | b'\x0c' | b' ' | b'/' | b'>'
            )
    })?;
    if kind == RawKind::ScriptData && memchr::memmem::find(&bytes[..end], b"<!--").is_some() {
        return None;
    }
    u32::try_from(end).ok()
}

/// Parses `html` into a document for the article extractor in one tokenizer pass,
/// measuring it on the way (as [`measure`] would): when the shape is not
/// [`buildable`](Shape::buildable) (measured only up to the start tag past the limit) or
/// has more than `max_elements` elements, the document holds only what came before and
/// the caller refuses the page by its shape.
pub fn parse_measured(html: &str, max_elements: usize) -> (dom_query::Document, Shape) {
    let opts = TreeBuilderOpts {
        // As dom_query parses (a `<noscript>`'s content is markup).
        scripting_enabled: false,
        ..Default::default()
    };
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let sink = Measured {
        tb: TreeBuilder::new(dom_query::Document::default(), opts),
        shape: Sink::default(),
        max_elements,
        input: &input,
    };
    let tok = Tokenizer::new(sink, Default::default());
    // A feed stops at the end of each script, and for good past the depth limit.
    while !matches!(tok.feed(&input), TokenizerResult::Done)
        && tok.sink.shape.shape.get().buildable()
    {}
    tok.end();
    let Measured { tb, shape, .. } = tok.sink;
    (tb.sink.finish(), shape.shape.get())
}

fn run(html: &str, keep_text: bool, stop_too_deep: bool) -> Sink {
    let sink = Sink {
        keep_text,
        stop_too_deep,
        ..Sink::default()
    };
    let tok = Tokenizer::new(sink, Default::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let _ = tok.feed(&input);
    tok.end();
    tok.sink
}

/// Whether a tree may be built from `html` ([`Shape::buildable`]). Markup with no more
/// tags than [`MAX_DEPTH`] cannot nest deeper, so most feed items and pages are answered
/// by counting `<` without tokenizing them; others are tokenized up to the first start
/// tag past the limit.
pub fn buildable(html: &str) -> bool {
    html.bytes().filter(|b| *b == b'<').count() <= MAX_DEPTH
        || run(html, false, true).shape.get().buildable()
}

/// Measures `html` in one pass.
pub fn measure(html: &str) -> Shape {
    run(html, false, false).shape.get()
}

/// The text of `html` (entities decoded, script and style left out) without building a
/// tree: what a page too deep to build renders as. Whitespace is not collapsed.
pub fn text_only(html: &str) -> String {
    run(html, true, false).text.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_what_must_be_closed_and_text_skips_scripts() {
        let s = measure("<div><div><p>a<p>b<ul><li>x<li>y</ul><br><img src=x></div></div>");
        assert_eq!(s.depth, 3);
        assert_eq!(s.elements, 9);
        let deep = "<div>".repeat(45_000);
        let s = measure(&deep);
        assert_eq!(s.depth, 45_000);
        assert!(!s.buildable());
        assert!(!buildable(&deep));
        // The question stops the tokenizer at the first start tag past the limit.
        let asked = run(&deep, false, true).shape.get();
        assert_eq!(
            (asked.depth, asked.elements),
            (MAX_DEPTH + 1, MAX_DEPTH + 1)
        );
        // Many tags that close: buildable, whether counted or measured.
        assert!(buildable(&"<b>x</b>".repeat(1_000)));
        assert!(buildable("<div><div></div></div>"));
        // `<div>` inside a script is not markup.
        let s = measure("<script>if (a<b) { x = '<div><div><div>'; }</script><div></div>");
        assert_eq!(s.depth, 1);
        assert_eq!(s.text_chars, 0);
        assert_eq!(
            measure("<p>Fish &amp; chips</p><style>p{}</style>").text_chars,
            10
        );
        assert_eq!(
            text_only("<p>Fish &amp; chips</p><script>var x='<b>';</script><style>p{}</style>ok"),
            "Fish & chips   ok"
        );
    }

    #[test]
    fn a_measured_parse_builds_the_page_and_stops_building_past_the_limits() {
        let page = "<html><head><title>T</title><script>var x = '<div><div>';</script></head>\
                    <body><div><p>Fish &amp; chips</p></div></body></html>";
        let (doc, shape) = parse_measured(page, 100);
        assert_eq!(shape, measure(page));
        assert_eq!(doc.select("p").text().to_string(), "Fish & chips");
        assert_eq!(
            doc.select("body div").length(),
            1,
            "a script's text is not markup"
        );
        // Too deep: measured and built only to the limit.
        let deep = format!("{}<p>x</p>", "<div>".repeat(45_000));
        let (doc, shape) = parse_measured(&deep, 100_000);
        assert_eq!(shape.depth, MAX_DEPTH + 1);
        assert_eq!(shape.elements, MAX_DEPTH + 1, "the tokenizer stopped there");
        assert!(!shape.buildable());
        assert!(doc.select("div").length() <= MAX_DEPTH + 1);
        // Too many elements: the same.
        let many = "<b>x</b>".repeat(1_000);
        let (doc, shape) = parse_measured(&many, 100);
        assert_eq!(shape.elements, 1_000);
        assert!(doc.select("b").length() <= 100);
    }

    #[test]
    fn scripts_and_styles_are_built_empty_but_json_ld_keeps_its_text() {
        let page = "<html><head><style>p { color: red }</style>\
                    <script type=\"application/ld+json\">{\"headline\": \"H\"}</script>\
                    <script>var x = 1;</script></head><body><p>text</p>\
                    <script>var y = 2;</script><p>more</p></body></html>";
        let (doc, shape) = parse_measured(page, 100);
        assert_eq!(shape, measure(page));
        assert_eq!(doc.select("style").text().to_string(), "");
        assert_eq!(doc.select("script").length(), 3);
        assert_eq!(
            doc.select("script").text().to_string(),
            "{\"headline\": \"H\"}"
        );
        assert_eq!(doc.select("p").text().to_string(), "textmore");
    }

    #[test]
    fn skipping_a_scripts_text_builds_the_tree_a_full_parse_builds() {
        // Where a script or style ends as the tokenizer reads it: any case, `/` or
        // whitespace after the name, a look-alike end tag inside, an escaped script
        // (`<!--`) whose `</script>` is its own, an unclosed one, a foreign one, and
        // raw text of other elements after a foreign script.
        let pages = [
            "<script>var s = '</scripts>'; if (a</b) {}</SCRIPT ><p>one</p>",
            "<style>a::after { content: '</styles>' }</style/><p>two</p>",
            "<script>var t = '</style>';</script><style>/* </script> */</style><p>three</p>",
            "<script><!-- document.write('<script>x</script>'); --></script><p>four</p>",
            "<script><!-- var x = 1;</script><p>five</p>",
            "<p>six</p><script>never closed <p>not markup</p>",
            "<svg><script>a < b</script><style>c</style></svg><p>seven</p>",
            "<svg><script>x<p><iframe>y</iframe><style>z</style><p>eight</p>",
            "<script>\r\n\0</script\t><p>nine</p><style>\n</style\n><script>b</script>",
            "<style>x</STYLE\x0c><p>ten</p><style>y</style>",
            "<svg><script/><iframe>eleven</iframe><script/><xmp>twelve</xmp></svg>",
        ];
        for page in pages {
            let (built, _) = parse_measured(page, 100);
            // A full parse, with the text a measured parse never builds taken out.
            let full = dom_query::Document::from(page);
            for n in full
                .select("script:not([type='application/ld+json']), style")
                .nodes()
            {
                for t in n.children() {
                    t.remove_from_parent();
                }
            }
            assert_eq!(built.html(), full.html(), "{page:?}");
        }
    }

    #[test]
    fn closing_tags_bring_the_depth_back() {
        let page = format!("{}text{}", "<div>".repeat(1_000), "</div>".repeat(1_000));
        let twice = format!("{page}{page}");
        assert_eq!(measure(&twice).depth, 1_000);
        assert_eq!(measure(&twice).elements, 2_000);
        assert_eq!(text_only(&page).trim(), "text");
    }
}
