//! Unit tests of `paw_daemon::commands::rss::read`.

#[test]
fn pages_reassemble_to_the_whole_text() {
    let text: String = (0..1000).map(|i| format!("wörd{i} ")).collect();
    let mut at = 0;
    let mut whole = String::new();
    loop {
        let (p, total, next) = super::page(&text, at, 777);
        assert_eq!(total, text.chars().count());
        whole.push_str(&p);
        match next {
            Some(n) => at = n,
            None => break,
        }
    }
    assert_eq!(whole, text);
    assert_eq!(super::page("abc", 10, 5), (String::new(), 3, None));
}
