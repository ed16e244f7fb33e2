//! The IRC credentials' dotenv parser: never panics; keys are names, values single lines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::commands::irc::core::creds::parse_dotenv;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (k, v) in parse_dotenv(text) {
        assert!(!k.is_empty());
        assert!(
            k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{k:?}"
        );
        assert!(!v.contains(['\n', '\r']), "{v:?}");
    }
});
