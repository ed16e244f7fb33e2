//! Unit tests of `paw_readers::feed::opml`.

use super::*;

fn urls_and_folders(feeds: &[OpmlFeed]) -> Vec<(&str, Vec<&str>)> {
    feeds
        .iter()
        .map(|f| {
            (
                f.url.as_str(),
                f.folders.iter().map(String::as_str).collect(),
            )
        })
        .collect()
}

#[test]
fn folders_are_kept_outermost_first() {
    let text = r#"<?xml version="1.0"?>
<opml version="2.0"><head><title>t</title></head><body>
  <outline text="Loose" xmlUrl="http://a.example/feed"/>
  <outline text="Tech" title="Tech">
    <outline text="Rust">
      <outline text="This Week" xmlUrl="http://b.example/feed"/>
    </outline>
    <outline text="HN" xmlUrl="http://c.example/feed"/>
  </outline>
  <outline text="News"><outline text="BBC" xmlUrl="http://d.example/feed"/></outline>
</body></opml>"#;
    let feeds = feeds_of(text, 100).expect("parses");
    assert_eq!(
        urls_and_folders(&feeds),
        vec![
            ("http://a.example/feed", vec![]),
            ("http://b.example/feed", vec!["Tech", "Rust"]),
            ("http://c.example/feed", vec!["Tech"]),
            ("http://d.example/feed", vec!["News"]),
        ]
    );
    assert_eq!(feeds[1].title, "This Week");
}

#[test]
fn a_deep_file_keeps_few_short_folders_per_feed() {
    let name = "f".repeat(10_000);
    // Deep enough to pass the caps; the worker reads deeper files on its 64 MiB job thread.
    let depth = 20;
    let mut text = String::from("<opml version=\"2.0\"><body>");
    for _ in 0..depth {
        text.push_str(&format!("<outline text=\"{name}\">"));
    }
    for i in 0..50 {
        text.push_str(&format!(
            "<outline text=\"x\" xmlUrl=\"http://e.example/{i}\"/>"
        ));
    }
    for _ in 0..depth {
        text.push_str("</outline>");
    }
    text.push_str("</body></opml>");
    let feeds = feeds_of(&text, 10_000).expect("parses");
    assert_eq!(feeds.len(), 50);
    for f in &feeds {
        assert_eq!(f.folders.len(), MAX_OPML_FOLDERS);
        assert!(
            f.folders
                .iter()
                .all(|n| n.chars().count() == MAX_OPML_FOLDER_CHARS)
        );
    }
}
