//! `hello` through the socket, byte for byte (docs/commands.md).

use paw_tests::Daemon;
use serde_json::json;

/// The banner as docs/commands.md prints it, typed out here independently of the daemon's copy.
const BANNER: &str = concat!(
    "HELLO\n",
    "\n",
    "H   H  EEEEE  L      L       OOO\n",
    "H   H  E      L      L      O   O\n",
    "HHHHH  EEEE   L      L      O   O\n",
    "H   H  E      L      L      O   O\n",
    "H   H  EEEEE  LLLLL  LLLLL   OOO\n",
    "\n",
    "lemonhall\n",
);

#[test]
fn hello_prints_the_exact_banner_and_result() {
    let d = Daemon::start();
    let o = d.exec("hello");
    assert_eq!(BANNER.len(), 186);
    assert_eq!(o["stdout"], BANNER);
    assert_eq!(o["exit_code"], 0);
    assert_eq!(o["stderr"], "");
    assert_eq!(o["error_code"], json!(null));
    assert_eq!(o["error_message"], json!(null));
    assert_eq!(o["session_id"], "default");
    assert_eq!(o["argv"], json!(["hello"]));
    assert_eq!(o["artifacts"], json!([]));
    assert_eq!(o["truncated"], json!({"stdout": false, "stderr": false}));
    assert_eq!(
        o["result"],
        json!({"ok": true, "command": "hello", "signature": "lemonhall", "stdin_used": false, "argv": "hello"})
    );
    let run_id = o["run_id"].as_str().expect("run_id");
    let (stamp, tag) = run_id.split_at(20);
    assert_eq!(stamp.len(), 20, "{run_id}");
    assert!(stamp[..8].chars().all(|c| c.is_ascii_digit()), "{run_id}");
    assert_eq!(&stamp[8..9], "_");
    assert!(stamp[9..15].chars().all(|c| c.is_ascii_digit()), "{run_id}");
    assert_eq!(&stamp[15..16], "_");
    assert!(
        stamp[16..19].chars().all(|c| c.is_ascii_digit()),
        "{run_id}"
    );
    assert_eq!(&stamp[19..20], "_");
    assert_eq!(tag.len(), 10);
    assert!(
        tag.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')),
        "{run_id}"
    );
}

#[test]
fn hello_ignores_extra_argv_and_stdin_but_reports_them() {
    let d = Daemon::start();
    let o = d
        .conn()
        .exec(json!({"command": "HeLLo extra \"two words\"", "stdin": "ignored text"}));
    assert_eq!(o["exit_code"], 0);
    assert_eq!(o["stdout"], BANNER);
    assert_eq!(o["result"]["stdin_used"], true);
    assert_eq!(o["result"]["argv"], "HeLLo extra two words");
    assert_eq!(o["argv"], json!(["HeLLo", "extra", "two words"]));
}
