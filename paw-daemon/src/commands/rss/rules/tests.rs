//! Unit tests of `paw_daemon::commands::rss::rules`.

use super::*;

fn item(title: &str, author: Option<&str>, content: Option<&str>) -> Item {
    Item {
        title: Some(title.into()),
        link: Some(format!("https://example.com/{}", title.replace(' ', "-"))),
        guid: title.into(),
        author: author.map(str::to_string),
        published_at: None,
        summary: None,
        summary_source: None,
        content_html: content.map(str::to_string),
        content_raw: None,
        content_base: None,
        categories: Vec::new(),
        enclosures: Vec::new(),
        published_ms: None,
    }
}

fn rule(id: u32, action: Action, field: Part, pattern: &str, feed: Option<&str>) -> Rule {
    Rule {
        id,
        action,
        field,
        pattern: pattern.into(),
        feed: feed.map(str::to_string),
    }
}

fn titles(items: &[Item]) -> Vec<&str> {
    items.iter().filter_map(|i| i.title.as_deref()).collect()
}

#[test]
fn block_drops_keep_keeps_only_and_a_feed_rule_stays_in_its_feed() {
    let items = vec![
        item("Sponsored: buy now", None, None),
        item("Rust 2.0 released", Some("Ann"), None),
        item("Weather", None, Some("<p>Rust on the bridge</p>")),
        item("Cats", Some("Spammer Bob"), None),
    ];
    let c = Compiled::of(&[
        rule(1, Action::Block, Part::Title, "^sponsored", None),
        rule(2, Action::Block, Part::Author, "spammer", Some("hn")),
    ]);
    let (kept, dropped) = c.apply("hn", items.clone());
    assert_eq!(
        (titles(&kept), dropped),
        (vec!["Rust 2.0 released", "Weather"], 2)
    );
    let (kept, _) = c.apply("other", items.clone());
    assert_eq!(titles(&kept), ["Rust 2.0 released", "Weather", "Cats"]);
    assert_eq!(c.verdict("hn", &items[0]), (false, Some(1)));

    let keep = Compiled::of(&[rule(3, Action::Keep, Part::Any, r"\brust\b", Some("HN"))]);
    let (kept, _) = keep.apply("hn", items.clone());
    assert_eq!(
        titles(&kept),
        ["Rust 2.0 released", "Weather"],
        "title or content"
    );
    assert_eq!(
        keep.apply("other", items).0.len(),
        4,
        "another feed is untouched"
    );
}

#[test]
fn patterns_are_capped_and_matching_stays_linear() {
    assert!(compile("").is_err());
    assert!(compile(&"a".repeat(MAX_PATTERN_CHARS + 1)).is_err());
    assert!(compile("(unclosed").is_err());
    // A pattern whose automaton is too large for the cap is refused, not built.
    assert!(compile(r"\w{200}\w{200}\w{200}").is_err());
    // Backtracking's nightmare is an ordinary automaton here, and only the head of a
    // field is read: the `!` 5 MB in is never seen.
    let c = Compiled::of(&[rule(1, Action::Block, Part::Content, "(a+)+!", None)]);
    let evil = format!("{}!", "a".repeat(5_000_000));
    let (kept, _) = c.apply("f", vec![item("x", None, Some(&evil))]);
    assert_eq!(kept.len(), 1, "the head of the field has no match");
    let near = format!("{}!", "a".repeat(1_000));
    assert!(
        c.apply("f", vec![item("x", None, Some(&near))])
            .0
            .is_empty()
    );
    assert!(head(&"é".repeat(MAX_HAYSTACK_BYTES)).len() <= MAX_HAYSTACK_BYTES);
}
