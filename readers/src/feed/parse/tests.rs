//! Unit tests for feed parsing and normalisation.

use super::*;

fn parse(xml: &str) -> ParsedFeed {
    parse_feed(xml.as_bytes(), None, None).unwrap_or_else(|e| panic!("{e}: {xml}"))
}

#[test]
fn rss2_items_are_normalised() {
    let f = parse(
        r#"<?xml version="1.0"?><rss version="2.0"><channel><title>T &amp; Co</title>
        <item><title>One</title><link>https://e.com/1</link><guid>g1</guid>
        <pubDate>Wed, 18 Feb 2026 09:30:32 +0800</pubDate>
        <description>&lt;p&gt;Hello &lt;b&gt;there&lt;/b&gt;&lt;/p&gt;</description>
        <author>a@e.com (Ann)</author><category>news</category>
        <enclosure url="https://e.com/a.mp3" type="audio/mpeg" length="123"/></item>
        </channel></rss>"#,
    );
    assert_eq!(f.title.as_deref(), Some("T & Co"));
    let i = &crate::feed::render::full(&f.items[0]);
    assert_eq!(i.title.as_deref(), Some("One"));
    assert_eq!(i.link.as_deref(), Some("https://e.com/1"));
    assert_eq!(i.guid, "g1");
    assert_eq!(i.published_at.as_deref(), Some("2026-02-18T09:30:32+08:00"));
    assert_eq!(i.summary.as_deref(), Some("Hello there"));
    assert_eq!(i.categories, vec!["news".to_string()]);
    assert_eq!(i.enclosures[0].url, "https://e.com/a.mp3");
}

#[test]
fn rss_without_version_and_atom_03_parse() {
    let f = parse(
        "<rss><channel><title>x</title><item><title>a</title><link>http://e.com/a</link></item></channel></rss>",
    );
    assert_eq!(f.items.len(), 1);
    let f = parse(
        r#"<?xml version="1.0" encoding="utf-8"?><feed version="0.3" xmlns="http://purl.org/atom/ns#">
        <title>old</title><entry><title>e1</title><link rel="alternate" type="text/html" href="http://e.com/e1"/>
        <id>tag:e1</id><issued>2004-01-01T10:00:00Z</issued><modified>2004-01-02T10:00:00Z</modified></entry></feed>"#,
    );
    assert_eq!(f.items.len(), 1);
    assert_eq!(f.items[0].link.as_deref(), Some("http://e.com/e1"));
    assert_eq!(
        f.items[0].published_at.as_deref(),
        Some("2004-01-01T10:00:00Z")
    );
}

#[test]
fn guids_without_ids_are_stable_and_dates_pass_through_raw() {
    let xml = r#"<rss version="2.0"><channel><item><title>No id</title><link>http://e.com/x</link><pubDate>sometime last week</pubDate></item><item><title>Other</title></item></channel></rss>"#;
    let a = parse(xml);
    let b = parse(xml);
    assert_eq!(a.items[0].guid, b.items[0].guid);
    assert_ne!(a.items[0].guid, a.items[1].guid);
    assert!(a.items[0].guid.starts_with("paw:"));
    assert_eq!(
        a.items[0].published_at.as_deref(),
        Some("sometime last week")
    );
}

#[test]
fn utf16_and_declared_encodings() {
    let xml = "<?xml version=\"1.0\" encoding=\"utf-16\"?><rss version=\"2.0\"><channel><item><title>é</title></item></channel></rss>";
    let mut body = vec![0xff, 0xfe];
    for u in xml.encode_utf16() {
        body.extend_from_slice(&u.to_le_bytes());
    }
    let f = parse_feed(&body, None, None).expect("utf-16");
    assert_eq!(f.items[0].title.as_deref(), Some("é"));
    let koi = b"<?xml version=\"1.0\" encoding=\"koi8-r\"?><rss version=\"2.0\"><channel><item><title>\xf0\xd2\xc9</title></item></channel></rss>";
    let f = parse_feed(koi, None, None).expect("koi8-r");
    assert_eq!(f.items[0].title.as_deref(), Some("При"));
}

#[test]
fn json_feed_and_garbage() {
    let f = parse(
        r#"{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[{"id":"1","url":"https://e.com/1","title":"t","content_html":"<p>x</p>","date_published":"2026-01-02T03:04:05-05:00"}]}"#,
    );
    assert_eq!(
        f.items[0].published_at.as_deref(),
        Some("2026-01-02T03:04:05-05:00")
    );
    assert!(parse_feed(b"<html><body>not a feed</body></html>", None, None).is_err());
    assert!(parse_feed(b"", None, None).is_err());
    // Truncated input must come back as a value (items or an error), never a panic.
    let _ = parse_feed(b"<rss version='2.0'><channel><item>", None, None);
}

/// Every feed of the corpus parses or fails cleanly (no panic escapes), and most parse.
#[test]
fn the_corpus_goes_through_without_a_crash() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/feeds");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("manifest");
    let (mut ok, mut failed, mut items) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(4) != Some(&"feed") {
            continue;
        }
        let body = std::fs::read(root.join(cols[0])).expect("fixture");
        match parse_feed(&body, None, None) {
            Ok(f) => {
                ok += 1;
                items += f.items.len();
            }
            Err(e) => {
                failed += 1;
                failures.push(format!("{}: {e}", cols[0]));
            }
        }
    }
    eprintln!("corpus: {ok} parsed ({items} items), {failed} failed");
    for f in failures.iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(ok > 1900, "{ok} parsed");
}

#[test]
fn a_late_encoding_declaration_does_not_crash_the_parser() {
    // Found by fuzzing: feed-rs switches the decoder at every <?xml encoding?>, and
    // quick-xml panics when that happens after the first bytes. The text is UTF-8 by then.
    let xml = "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<rss version=\"2.0\"><channel>\
               <title>T</title><?xml version=\"1.0\" encoding=\"windows-1252\"?>\
               <item><title>caf\u{e9}</title><link>https://e.com/1</link></item></channel></rss>";
    let feed =
        parse_feed(xml.as_bytes(), Some("application/xml; charset=utf-8"), None).expect("parses");
    assert_eq!(feed.items.len(), 1);
    assert_eq!(feed.items[0].title.as_deref(), Some("café"));
    // A stylesheet instruction is left alone.
    let xsl = "<?xml-stylesheet href=\"s.xsl\" encoding=\"x\"?><rss version=\"2.0\"><channel><title>T</title></channel></rss>";
    assert_eq!(repair(xsl), xsl);
}

#[test]
fn an_author_whose_address_touches_a_multibyte_character_is_read() {
    // feed-rs 3.0 slices one byte either side of the address and panicked on these; the
    // whole feed used to answer ParseError.
    let item = |author: &str, n: usize| {
        format!(
            "<item><title>t{n}</title><link>https://e.com/{n}</link><guid>g{n}</guid>\
             <author>{author}</author></item>"
        )
    };
    let cases = [
        ("a@b.cn（张三）", "张三"),
        ("张三＜a@b.cn＞", "张三"),
        ("作者：a@b.cn", "作者"),
        ("a@e.com (Ann)", "Ann"),
    ];
    for (n, (author, want)) in cases.iter().enumerate() {
        let xml = format!(
            "<rss version=\"2.0\"><channel><title>T</title>{}\
             <item><title>x</title><link>https://e.com/x</link><guid>x</guid>\
             <description>联系a@b.cn获取</description></item></channel></rss>",
            item(author, n)
        );
        let f = parse(&xml);
        assert_eq!(f.items.len(), 2, "{author}");
        assert_eq!(
            crate::feed::render::full(&f.items[0]).author.as_deref(),
            Some(*want),
            "{author}"
        );
    }
    // A feed that parses as it is is not touched: the address in the text keeps its
    // neighbours.
    let xml = "<rss version=\"2.0\"><channel><title>T</title><item><title>x</title>\
               <link>https://e.com/x</link><description>联系a@b.cn获取</description></item>\
               </channel></rss>";
    assert_eq!(
        crate::feed::render::full(&parse(xml).items[0])
            .summary
            .as_deref(),
        Some("联系a@b.cn获取")
    );
    assert_eq!(space_emails("no address here"), None);
    assert_eq!(
        space_emails("作者：mailto:a@b.cn（张三）").as_deref(),
        Some("作者： mailto:a@b.cn （张三）")
    );
}

#[test]
fn a_date_built_to_recurse_is_not_parsed() {
    // parse_date drops a leading weekday and tries again; a long run of "a," would recurse
    // once per comma (it also runs in the daemon, on cached items' raw dates).
    let hostile = "a,".repeat(500_000);
    assert_eq!(parse_date(&hostile), None);
    let mut long = "Tue, ".repeat(30);
    long.push_str("11 Jan 2011 01:30:00 GMT");
    assert_eq!(parse_date(&long), None, "over the length cap");
    assert!(parse_date("Tue, 11 Jan 2011 01:30:00 GMT").is_some());
}

#[test]
fn each_item_keeps_its_own_date_text_when_instants_coincide() {
    // The same instant written with two offsets (and once unparseable-looking twice):
    // each item renders its own source text, not the first one seen for that instant.
    let f = parse(
        "<rss version=\"2.0\"><channel><title>t</title>\
         <item><title>a</title><pubDate>Wed, 18 Feb 2026 09:30:32 +0800</pubDate></item>\
         <item><title>b</title><pubDate>Wed, 18 Feb 2026 01:30:32 GMT</pubDate></item>\
         <item><title>c</title><pubDate>Wed, 18 Feb 2026 09:30:32 +0800</pubDate></item>\
         </channel></rss>",
    );
    let dates: Vec<_> = f
        .items
        .iter()
        .map(|i| i.published_at.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        dates,
        [
            "2026-02-18T09:30:32+08:00",
            "2026-02-18T01:30:32Z",
            "2026-02-18T09:30:32+08:00"
        ]
    );
    let keys: Vec<_> = f.items.iter().map(|i| i.sort_key()).collect();
    assert!(
        keys.iter().all(|k| *k == keys[0] && k.is_some()),
        "{keys:?}"
    );
}
