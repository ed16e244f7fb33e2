//! HTML to plain text, summaries, and sanitising (pure functions).

use std::cell::RefCell;
use std::collections::HashSet;

/// The length of a digest summary, in characters, before `…`.
pub const SUMMARY_CHARS: usize = 200;

/// Plain text of an HTML fragment: tags stripped, entities decoded, whitespace collapsed.
pub fn html_to_text(html: &str) -> String {
    if !html.contains('<') && !has_entity(html) {
        return collapse(html);
    }
    // Too deep to build a tree of in linear time: its text, flattened.
    if !crate::page::shape::buildable(html) {
        return collapse(&crate::page::shape::text_only(html));
    }
    let rendered = html2text::config::plain_no_decorate()
        .string_from_read(html.as_bytes(), 100_000)
        .unwrap_or_else(|_| html.to_string());
    collapse(&rendered)
}

/// Sanitised HTML (an article, an item's content) as Markdown: headings, lists, links,
/// tables, code (htmd, turndown.js's rules). Too deep to build a tree of in linear time:
/// its plain text.
pub fn markdown(html: &str) -> String {
    if !crate::page::shape::buildable(html) {
        return collapse(&crate::page::shape::text_only(html));
    }
    let converter = htmd::HtmlToMarkdown::builder()
        .skip_tags(vec!["script", "style", "img"])
        .build();
    let ready = markdown_ready(html);
    converter
        .convert(ready.as_deref().unwrap_or(html))
        .map(|md| md.trim().to_string())
        .unwrap_or_else(|_| html_to_text(html))
}

/// A data table's rows and columns from which it is one whatever its markup says
/// (Readability's `_markDataTables`): ten rows or more, more than four columns, or more
/// than ten cells.
const DATA_TABLE_ROWS: usize = 10;
const DATA_TABLE_COLUMNS: usize = 4;
const DATA_TABLE_CELLS: usize = 10;

/// `html` with each data table given one header row, or `None` when no table changes.
/// htmd writes a table as Markdown's only when it has a header (`<th>`, `<thead>`), and
/// otherwise each cell as its own paragraph: a price list or a schedule whose first row
/// is plain cells loses its rows and columns. It takes a row's plain cells only, so a
/// specification's row names (`<th>Weight</th><td>7.9 oz</td>`) go, and the header row's
/// header cells only, so an empty corner cell shifts the header. A data table is one that
/// says so (a caption, `<thead>`, `<tfoot>`, `<col>`, `<th>`) or is large enough
/// (Readability's rule: not one nested in, or holding, another table, nor one of a
/// single row or column; [`DATA_TABLE_ROWS`], [`DATA_TABLE_COLUMNS`],
/// [`DATA_TABLE_CELLS`]): its first row's cells become header cells and every other
/// row's plain cells, as the reviewed Markdown of WCXB's pages writes them. A heading inside a
/// data table's cell becomes strong text (htmd would write `####` inside the cell). A
/// layout table (a page laid out in two cells) is left to be read as paragraphs.
/// Measured on WCXB's reviewed Markdown: docs/benchmarks.md, "Markdown that keeps its
/// structure".
fn headed_tables(doc: &dom_query::Document) -> bool {
    let mut changed = false;
    for table in doc.select("table").nodes() {
        let nested = table.ancestors_it(None).any(|a| a.has_name("table"))
            || table.descendants_it().any(|d| d.has_name("table"));
        if nested {
            continue;
        }
        let rows: Vec<_> = table
            .descendants_it()
            .filter(|d| d.has_name("tr"))
            .collect();
        let columns = rows
            .iter()
            .map(|r| {
                r.element_children()
                    .iter()
                    .filter(|c| named(c, CELLS))
                    .count()
            })
            .max()
            .unwrap_or(0);
        let marked = table.descendants_it().any(|d| named(&d, DATA_TABLE_MARKS));
        let large = rows.len() > 1
            && columns > 1
            && (rows.len() >= DATA_TABLE_ROWS
                || columns > DATA_TABLE_COLUMNS
                || rows.len() * columns > DATA_TABLE_CELLS);
        if !(marked || large) {
            continue;
        }
        // One header row, then rows of plain cells: a header cell anywhere else (a
        // specification's row names) would be dropped from its row, and a plain cell in
        // the header row (an empty corner) would shift the header's columns.
        for (i, row) in rows.iter().enumerate() {
            let (from, to) = if i == 0 { ("td", "th") } else { ("th", "td") };
            for c in row.element_children().iter().filter(|c| c.has_name(from)) {
                c.rename(to);
            }
        }
        let headings: Vec<_> = table
            .descendants_it()
            .filter(|d| named(d, HEADINGS) && d.ancestors_it(None).any(|a| named(&a, CELLS)))
            .collect();
        for h in headings {
            h.rename("strong");
        }
        changed = true;
    }
    changed
}

/// Headings: a data table's cell writes them strong and they take a card's link; the
/// page's readers weigh sections by them.
pub(crate) const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];

/// Block elements besides [`HEADINGS`] a link may hold that Markdown's links cannot: a
/// card's link around its heading and summary.
const BLOCKS_IN_LINKS: &[&str] = &[
    "p",
    "div",
    "ul",
    "ol",
    "table",
    "section",
    "article",
    "figure",
    "blockquote",
];

/// Moves a link that holds a heading (a listing's card: `<a href><h3>Title</h3><p>…</p>
/// </a>`) onto the heading's text: htmd writes such a link around its blocks, `[### Title`
/// … `](url)`, which is no heading and no link in Markdown. The first heading inside
/// takes the link; a block link with no heading is left as it is. Returns whether one
/// moved.
fn headings_linked(doc: &dom_query::Document) -> bool {
    let links: Vec<_> = doc
        .select("a[href]")
        .nodes()
        .iter()
        .copied()
        .filter(|a| {
            a.descendants_it()
                .any(|d| named(&d, HEADINGS) || named(&d, BLOCKS_IN_LINKS))
        })
        .collect();
    let mut changed = false;
    for a in links {
        let Some(heading) = a.descendants_it().find(|d| named(d, HEADINGS)) else {
            continue;
        };
        let (Some(href), Some(first)) = (a.attr("href"), heading.first_child()) else {
            continue;
        };
        let link = doc.tree.new_element("a");
        link.set_attr("href", &href);
        link.append_children(&first);
        heading.append_child(&link);
        a.rename("div");
        a.remove_attr("href");
        changed = true;
    }
    changed
}

/// `html` made ready for htmd ([`headed_tables`], [`headings_linked`], [`coded_pres`]), or
/// `None` when nothing changes (one more parse of the article, only when it has a table,
/// a link or a preformatted block).
fn markdown_ready(html: &str) -> Option<String> {
    if !html.contains("<table") && !html.contains("<a ") && !html.contains("<pre") {
        return None;
    }
    let doc = dom_query::Document::fragment(html);
    let tables = headed_tables(&doc);
    let links = headings_linked(&doc);
    let code = coded_pres(&doc);
    (tables || links || code).then(|| doc.html().to_string())
}

/// Gives each preformatted block one `<code>` holding its text: htmd fences only a
/// `<pre>` whose one child is a `<code>`, and writes any other (a highlighter's
/// `<pre><span>…`, a manual's `<pre>` with emphasised placeholders) as paragraphs, its
/// code no longer told from prose (code blocks 0.43 on WCXB's reviewed Markdown). Its text
/// is kept whole, line breaks (`<br>`) as newlines; markup inside a code block is lost in
/// Markdown anyway. A `<pre>` holding a link (a manual page's cross-references) is left
/// as htmd writes it: a code block cannot hold one (the links of man7's `grep` page, F1
/// 0.69, were all lost). A `<pre>` inside another is read with it. Returns whether one changed.
fn coded_pres(doc: &dom_query::Document) -> bool {
    let pres: Vec<_> = doc
        .select("pre")
        .nodes()
        .iter()
        .copied()
        .filter(|p| !p.ancestors_it(None).any(|a| named(&a, &["pre"])))
        .collect();
    let mut changed = false;
    for pre in pres {
        let children = pre.children();
        if let [code] = children.as_slice()
            && named(code, &["code"])
            && code.children().iter().all(|c| c.is_text())
        {
            continue;
        }
        if pre
            .descendants_it()
            .any(|d| named(&d, &["a"]) && d.has_attr("href"))
        {
            continue;
        }
        let mut text = String::new();
        for d in pre.descendants_it() {
            if d.is_text() {
                text.push_str(&d.text());
            } else if named(&d, &["br"]) {
                text.push('\n');
            }
        }
        let code = doc.tree.new_element("code");
        code.set_text(text);
        pre.remove_children();
        pre.append_child(&code);
        changed = true;
    }
    changed
}

/// Whether `n` is an element named one of `names` (its name read once); `page::tree`
/// gives it to the page's readers.
pub(crate) fn named(n: &dom_query::NodeRef<'_>, names: &[&str]) -> bool {
    n.qual_name_ref()
        .is_some_and(|q| names.contains(&&*q.local))
}

/// A table's cells.
const CELLS: &[&str] = &["td", "th"];

/// Elements by which a table says it holds data, not a layout (Readability's
/// `_markDataTables`).
const DATA_TABLE_MARKS: &[&str] = &["th", "thead", "caption", "tfoot", "col", "colgroup"];

/// Whether `s` holds something that looks like a character reference (`&amp;`, `&#233;`):
/// a bare `&` ("Q&A") needs no HTML rendering.
fn has_entity(s: &str) -> bool {
    s.match_indices('&').any(|(i, _)| {
        let rest = &s.as_bytes()[i + 1..];
        let name_len = rest
            .iter()
            .take(32)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
            .count();
        name_len > 0 && rest.get(name_len) == Some(&b';')
    })
}

/// Collapses every run of whitespace to one space and trims; escape sequences and control
/// characters go (docs/protocol.md `terminal.exec`: every plain text paw makes of a feed or page passes here).
pub fn collapse(s: &str) -> String {
    let s = paw_proto::untrusted::clean(s);
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Cuts `text` to `max` characters, appending `…` when it was longer.
pub fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((i, _)) => {
            let mut s = text[..i].trim_end().to_string();
            s.push('…');
            s
        }
    }
}

/// A plain-text summary of HTML, cut to [`SUMMARY_CHARS`].
///
/// Only the start of a long body is rendered (the summary needs 200 characters, not the
/// whole article); if that start holds too little text, the whole body is.
pub fn summary(html: &str) -> String {
    const PREFIX: usize = 4096;
    if html.len() > PREFIX {
        let mut cut = PREFIX;
        while !html.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = html_to_text(&html[..cut]);
        // More than the summary needs, and the cut cannot have dropped a trailing word
        // that would be within the first 200 characters.
        if text.chars().count() > SUMMARY_CHARS + 40 {
            return truncate_chars(&text, SUMMARY_CHARS);
        }
    }
    truncate_chars(&html_to_text(html), SUMMARY_CHARS)
}

fn sanitizer() -> ammonia::Builder<'static> {
    let mut b = ammonia::Builder::default();
    // ammonia's defaults already drop script/style/iframe/form, event handlers and
    // javascript: URLs; links get rel="noopener noreferrer".
    b.url_schemes(HashSet::from(["http", "https", "mailto"]));
    // Inline SVG goes with its text (icon titles, sprite symbol names): not the article's.
    // An iframe's content is raw text no browser shows (an ad's script, written there).
    b.add_clean_content_tags(["svg", "iframe"]);
    // A code block's language, as the extractor named it ([`code_language`]): htmd writes
    // it after the fence.
    b.add_allowed_classes("pre", LANGUAGE_CLASSES.iter().map(String::as_str));
    b
}

/// Languages a code block may be marked with, each with the names highlighters give it
/// (Prism's and highlight.js's `language-py`, Sphinx's `highlight-python3`, GitHub's
/// `highlight-source-python`). A fixed list: what the page writes is never copied.
const CODE_LANGUAGES: &[(&str, &[&str])] = &[
    ("python", &["py", "python3", "py3", "pycon", "ipython"]),
    ("javascript", &["js", "node", "nodejs", "mjs"]),
    ("typescript", &["ts"]),
    ("jsx", &[]),
    ("tsx", &[]),
    ("rust", &["rs"]),
    ("go", &["golang"]),
    ("java", &[]),
    ("kotlin", &["kt"]),
    ("scala", &[]),
    ("swift", &[]),
    ("c", &["h"]),
    ("cpp", &["c++", "cxx", "hpp"]),
    ("csharp", &["cs", "c#"]),
    ("ruby", &["rb"]),
    ("php", &[]),
    ("perl", &["pl"]),
    ("lua", &[]),
    ("r", &[]),
    ("haskell", &["hs"]),
    ("elixir", &["ex", "exs"]),
    (
        "bash",
        &[
            "sh",
            "shell",
            "zsh",
            "shell-session",
            "console",
            "shellsession",
        ],
    ),
    ("powershell", &["ps1", "pwsh"]),
    ("sql", &["postgresql", "psql", "mysql", "sqlite"]),
    ("json", &["jsonc", "json5"]),
    ("yaml", &["yml"]),
    ("toml", &[]),
    ("ini", &["cfg", "conf"]),
    ("xml", &["svg", "xhtml"]),
    ("html", &["markup"]),
    ("css", &["scss", "sass", "less"]),
    ("diff", &["patch"]),
    ("dockerfile", &["docker"]),
    ("makefile", &["make"]),
    ("nginx", &[]),
    ("graphql", &["gql"]),
];

/// The longest class word or `data-lang` value [`code_language`] reads (bytes).
const CODE_LANGUAGE_MAX_BYTES: usize = 40;

/// `language-<name>` for each of [`CODE_LANGUAGES`]: the classes the sanitiser keeps on
/// a `<pre>`.
static LANGUAGE_CLASSES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    CODE_LANGUAGES
        .iter()
        .map(|(name, _)| format!("language-{name}"))
        .collect()
});

/// The class naming a code block's language, from one class word or `data-lang` value a
/// page gives its block or the box around it (`language-py`, `lang-rust`,
/// `highlight-python3`, `highlight-source-js`, `brush:bash`; a bare `python` only when
/// `bare`, for the block's own class and a `data-lang`: a box's `shell` or `r` is a
/// style): one of [`LANGUAGE_CLASSES`], or `None` for a word that names no language on
/// the list.
pub(crate) fn code_language(word: &str, bare: bool) -> Option<&'static str> {
    // Longer than any name on the list with its longest prefix: not read (a page's
    // `data-lang` may be megabytes).
    if word.len() > CODE_LANGUAGE_MAX_BYTES {
        return None;
    }
    let w = word.trim().to_ascii_lowercase();
    let prefixed = [
        "language-",
        "lang-",
        "highlight-source-",
        "highlight-",
        "brush:",
    ]
    .iter()
    .find_map(|p| w.strip_prefix(p));
    let name = match prefixed {
        Some(name) => name.trim(),
        None if bare => w.as_str(),
        None => return None,
    };
    let i = CODE_LANGUAGES
        .iter()
        .position(|(n, aliases)| *n == name || aliases.contains(&name))?;
    LANGUAGE_CLASSES.get(i).map(String::as_str)
}

thread_local! {
    /// One sanitiser per thread: building ammonia's allowlists (a dozen hash sets) cost
    /// as much as sanitising a short article.
    static SANITIZER: RefCell<ammonia::Builder<'static>> = RefCell::new(sanitizer());
}

/// Sanitises HTML with an allowlist; relative URLs become absolute against `base`.
pub fn sanitize(html: &str, base: Option<&url::Url>) -> String {
    // Too deep to build a tree of in linear time: its text, escaped, as one paragraph.
    if !crate::page::shape::buildable(html) {
        let text = collapse(&crate::page::shape::text_only(html));
        return format!("<p>{}</p>", ammonia::clean_text(&text));
    }
    // Markup keeps no control character either (`&#27;` decodes to a raw ESC).
    let html = SANITIZER.with_borrow_mut(|b| {
        b.url_relative(match base {
            Some(base) => ammonia::UrlRelative::RewriteWithBase(base.clone()),
            None => ammonia::UrlRelative::PassThrough,
        });
        b.clean(html).to_string()
    });
    match paw_proto::untrusted::clean(&html) {
        std::borrow::Cow::Borrowed(_) => html,
        std::borrow::Cow::Owned(c) => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_and_summaries() {
        assert_eq!(
            html_to_text("<p>Hello <b>world</b> &amp; more</p>\n\n<p>x</p>"),
            "Hello world & more x"
        );
        assert_eq!(html_to_text("a &lt;tag&gt; &#233;"), "a <tag> é");
        assert_eq!(html_to_text("  plain\n text "), "plain text");
        let long = "word ".repeat(100);
        let s = summary(&long);
        assert!(s.ends_with('…'));
        assert!(s.chars().count() <= SUMMARY_CHARS + 1);
        assert_eq!(truncate_chars("日本語", 2), "日本…");
        assert_eq!(truncate_chars("abc", 3), "abc");
    }

    #[test]
    fn a_data_tables_rows_and_columns_stay_in_markdown() {
        let rows = |cells: &[&str]| -> String {
            cells
                .iter()
                .map(|r| {
                    let cells: String = r.split(',').map(|c| format!("<td>{c}</td>")).collect();
                    format!("<tr>{cells}</tr>")
                })
                .collect()
        };
        // No header row, four rows of three cells: a data table by its size. A section's
        // heading inside a cell is strong text, not a Markdown heading.
        let recipe = format!(
            "<table><tr><td><h4>Ingredient</h4></td><td><h4>Each</h4></td><td><h4>For 4</h4>\
             </td></tr>{}</table>",
            rows(&["Onions,1,4", "Celery,80g,320g", "Carrots,4,16"])
        );
        let md = markdown(&recipe);
        assert!(
            md.contains("| **Ingredient** | **Each** | **For 4** |"),
            "{md}"
        );
        assert!(
            md.contains("| Celery         | 80g      | 320g      |"),
            "{md}"
        );
        assert!(!md.contains("####"), "{md}");
        // A specification's row names and an empty corner cell keep their columns.
        let spec = "<table><tr><th>Weight</th><td>7.9 oz</td></tr><tr><th>Drop</th><td>7mm</td>\
                    </tr><tr><th>Stack</th><td>39mm</td></tr></table>";
        let md = markdown(spec);
        assert!(md.contains("| Weight | 7.9 oz |"), "{md}");
        assert!(md.contains("| Drop   | 7mm    |"), "{md}");
        let corner = "<table><thead><tr><td></td><th>Ours</th><th>Theirs</th></tr></thead>\
                      <tbody><tr><td>Tracking</td><td>Yes</td><td>No</td></tr></tbody></table>";
        let md = markdown(corner);
        assert!(md.contains("| Tracking | Yes  | No     |"), "{md}");
        // A layout table (two cells of a page), a table nested in another: paragraphs.
        let layout = "<table><tr><td>The site's name.</td><td>Its menu.</td></tr><tr><td>The \
                      page's text on the left.</td><td>Links on the right.</td></tr></table>";
        assert!(!markdown(layout).contains('|'), "{}", markdown(layout));
        let nested = format!(
            "<table><tr><td><table>{}</table></td></tr></table>",
            rows(&["a,b,c", "d,e,f", "g,h,i", "j,k,l"])
        );
        assert!(!markdown(&nested).contains("| a"), "{}", markdown(&nested));
    }

    #[test]
    fn a_link_around_a_cards_heading_becomes_the_headings_link() {
        let heading = "<a href='https://example.com/p/2'><h3>Day Pack</h3></a>";
        assert_eq!(markdown(heading), "### [Day Pack](https://example.com/p/2)");
        let card = "<a href='https://example.com/p/1'><h3>Trail Pack</h3><p>A pack for a day \
                    in the hills.</p></a>";
        let md = markdown(card);
        assert!(
            md.contains("### [Trail Pack](https://example.com/p/1)"),
            "{md}"
        );
        assert!(md.contains("A pack for a day in the hills."), "{md}");
        assert!(!md.contains("[###"), "{md}");
        // A link with no heading, and an ordinary link, are left as they are.
        let md = markdown("<p>See <a href='https://example.com/x'>the guide</a>.</p>");
        assert_eq!(md, "See [the guide](https://example.com/x).");
    }

    #[test]
    fn a_preformatted_block_is_a_fenced_code_block_whatever_its_markup() {
        // A highlighter's spans, a manual's emphasised placeholder, a line break.
        let highlighted = "<p>Run:</p><pre><span></span><span>import</span> <span>logging</span>\n\
                           logging.warning(<span>'*Watch* out!'</span>)</pre><p>Then read.</p>";
        assert_eq!(
            markdown(highlighted),
            "Run:\n\n```\nimport logging\nlogging.warning('*Watch* out!')\n```\n\nThen read."
        );
        let manual = "<pre>SELECT <em><code>expression</code></em><br>FROM t</pre>";
        assert_eq!(markdown(manual), "```\nSELECT expression\nFROM t\n```");
        // Already `<pre><code>`: as htmd writes it.
        let plain = "<pre><code>x = 1\ny = 2</code></pre>";
        assert_eq!(markdown(plain), "```\nx = 1\ny = 2\n```");
        // A manual's block with cross-references keeps its links.
        let manual = "<pre>See <a href='https://example.com/grep.1'>grep(1)</a>.</pre>";
        assert!(
            markdown(manual).contains("[grep(1)](https://example.com/grep.1)"),
            "{}",
            markdown(manual)
        );
    }

    #[test]
    fn sanitising_removes_active_content() {
        let base = url::Url::parse("https://example.com/a/b.html").expect("url");
        let dirty = r#"<p onclick="x()">hi<script>alert(1)</script><a href="javascript:alert(1)">j</a><a href="/rel">r</a><img src="i.png"><iframe src="https://e.vil"></iframe><style>p{}</style><form><input></form></p>"#;
        let clean = sanitize(dirty, Some(&base));
        for bad in [
            "script",
            "onclick",
            "javascript:",
            "iframe",
            "style",
            "form",
            "input",
        ] {
            assert!(!clean.contains(bad), "{bad} survived: {clean}");
        }
        assert!(clean.contains("https://example.com/rel"), "{clean}");
        assert!(clean.contains("https://example.com/a/i.png"), "{clean}");
        // An iframe's raw content (an ad's script written there) goes with it.
        let framed = sanitize(
            "<p>text</p><iframe><script>document.write('ad')</script></iframe>",
            Some(&base),
        );
        assert!(!framed.contains("document.write"), "{framed}");
    }
}
