//! The command-line tokeniser: never panics; what it accepts survives quote → tokenize.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::exec::tokenize::{
    BANNED_TOKENS, MAX_COMMAND_CHARS, TokenizeError, quote, tokenize,
};

fuzz_target!(|data: &[u8]| {
    // `command` arrives as a JSON string: always UTF-8.
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(argv) = tokenize(line) else {
        return;
    };
    assert!(!argv.is_empty(), "an accepted line has a command word");
    let requoted: Vec<String> = argv.iter().map(|a| quote(a)).collect();
    let line = requoted.join(" ");
    // An escape can make an argument hold a shell operator (`$\(` gives `$(`); the check
    // is on the line as sent (SPEC §4.1), so its quoted form is refused, never run.
    if BANNED_TOKENS.iter().any(|t| line.contains(t)) {
        assert!(matches!(
            tokenize(&line),
            Err(TokenizeError::BannedToken(_))
        ));
        return;
    }
    // Quoting adds characters: past the cap the line is refused as too long, never cut.
    if line.chars().count() > MAX_COMMAND_CHARS {
        assert_eq!(tokenize(&line), Err(TokenizeError::TooLong));
        return;
    }
    let again = tokenize(&line).expect("a quoted argv tokenises");
    assert_eq!(again, argv);
});
