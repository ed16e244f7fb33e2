//! Unit tests of `paw_daemon::commands::rss::export`.

use super::*;

fn sub(name: &str, category: Option<&str>) -> Subscription {
    Subscription {
        name: name.into(),
        url: format!("http://{name}.example/feed"),
        title: None,
        category: category.map(str::to_string),
        created_at_ms: 1,
        updated_at_ms: 1,
    }
}

#[test]
fn categories_are_written_as_nested_folders() {
    let subs = [
        sub("a", None),
        sub("b", Some("Tech/Rust")),
        sub("c", Some("Tech")),
        sub("d", Some("Tech/Rust")),
    ];
    let doc = opml::OPML::from_str(&write(&subs).expect("writes")).expect("reads back");
    let top: Vec<&str> = doc.body.outlines.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(top, ["a", "Tech"]);
    let tech = &doc.body.outlines[1];
    assert!(tech.xml_url.is_none());
    let inside: Vec<&str> = tech.outlines.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(inside, ["Rust", "c"]);
    let rust: Vec<Option<&str>> = tech.outlines[0]
        .outlines
        .iter()
        .map(|o| o.xml_url.as_deref())
        .collect();
    assert_eq!(
        rust,
        [Some("http://b.example/feed"), Some("http://d.example/feed")]
    );
}
