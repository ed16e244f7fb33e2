//! Unit tests of `paw_client::console::ui`.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

#[test]
fn escape_sequences_in_shown_text_never_reach_the_terminal() {
    // A call's stdout or a feed's title is third-party text: an OSC 52 or a cursor
    // move in it would act on the person's terminal.
    let r = super::super::Reader {
        title: "call \u{1b}[2J".into(),
        lines: vec!["before\u{1b}]52;c;ZXZpbA==\u{7}after \u{1b}[31mred\u{9b}1m".into()],
        scroll: 0,
        link: None,
        copy: None,
    };
    let mut t = Terminal::new(TestBackend::new(60, 5)).expect("terminal");
    t.draw(|f| super::reader(f, f.area(), &r)).expect("draw");
    let cells: String = t
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(!cells.chars().any(char::is_control), "{cells:?}");
    assert!(cells.contains("before]52;c;ZXZpbA==after"), "{cells:?}");
}
