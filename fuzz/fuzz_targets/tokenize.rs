//! The command-line tokeniser: never panics; what it accepts survives quote → tokenize; the
//! audit's secret masking, which splits by the same rules, never panics and never leaves
//! a secret flag's value in the line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paw_daemon::exec::mask::{is_secret_flag, mask_secret_command};
use paw_daemon::exec::tokenize::{
    BANNED_TOKENS, MAX_COMMAND_CHARS, TokenizeError, quote, read, tokenize,
};

fuzz_target!(|data: &[u8]| {
    // `command` arrives as a JSON string: always UTF-8.
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let read_line = read(line);
    let mut masked = line.to_string();
    mask_secret_command(&mut masked, &read_line.tokens);
    let Ok(argv) = tokenize(line) else {
        return;
    };
    assert!(!argv.is_empty(), "an accepted line has a command word");
    let values: Vec<String> = read_line.tokens.iter().map(|t| t.value.clone()).collect();
    assert_eq!(values, argv, "the spans' tokens are tokenize's");
    // Masked: the line splits as before (masking replaces whole tokens), and every secret
    // flag's value is `***` in the masked line's argv.
    match tokenize(&masked) {
        Err(TokenizeError::TooLong) => {}
        Err(e) => panic!("the masked line no longer tokenises: {e} ({masked:?})"),
        Ok(after) => {
            assert_eq!(after.len(), argv.len(), "{masked:?}");
            let mut i = 0;
            while i < argv.len() {
                let t = &argv[i];
                if is_secret_flag(t) {
                    if let Some((name, _)) = t.split_once('=') {
                        assert_eq!(after[i], format!("{name}=***"));
                    } else if argv.get(i + 1).is_some_and(|v| !v.starts_with("--")) {
                        assert_eq!(after[i + 1], "***");
                        i += 1;
                    }
                }
                i += 1;
            }
        }
    }
    let requoted: Vec<String> = argv.iter().map(|a| quote(a)).collect();
    let line = requoted.join(" ");
    // An escape can make an argument hold a shell operator (`$\(` gives `$(`); the check
    // is on the line as sent (docs/commands.md "The command line"), so its quoted form is refused, never run.
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
