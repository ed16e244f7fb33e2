//! Unit tests of `paw_daemon::commands::irc::core::machine`.

use super::*;
use std::collections::HashMap;

fn creds(extra: &[(&str, &str)]) -> Creds {
    let mut m: HashMap<String, String> = [
        ("IRC_SERVER", "irc.example"),
        ("IRC_CHANNEL", "#paw"),
        ("IRC_NICK", "pawbot"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in extra {
        m.insert(k.to_string(), v.to_string());
    }
    Creds::from_map(&m).expect("creds")
}

/// Feeds server lines; returns every step, sends printed as their lines.
fn run(m: &mut Machine, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .flat_map(|l| {
            let msg: Message = l.parse().expect("a server line");
            m.on_message(&msg)
        })
        .map(|s| match s {
            Step::Send(c) => String::from(&c).trim_end().to_string(),
            Step::Fail { error, quit } => format!("FAIL {} quit={quit:?}", error.code),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn registration_nick_variants_join_kick_and_nick_change() {
    let c = creds(&[("IRC_CHANNEL_KEY", "k3y")]);
    let mut m = Machine::new(&c);
    let opening: Vec<String> = m
        .opening(&c)
        .iter()
        .map(|c| String::from(c).trim_end().to_string())
        .collect();
    let user = format!("USER pawbot 0 * :paw {}", env!("CARGO_PKG_VERSION"));
    assert_eq!(opening, ["NICK pawbot", user.as_str()]);
    let table: &[(&[&str], &[&str])] = &[
        (
            &[":srv 433 * pawbot :Nickname is already in use"],
            &["NICK pawbot_"],
        ),
        (
            &[":srv 001 pawbot_ :Welcome", ":srv 376 pawbot_ :End of MOTD"],
            &["Registered(\"pawbot_\")", "JOIN #paw k3y"],
        ),
        (&[":pawbot_!u@h JOIN #PAW"], &["Joined"]),
        (
            &[":op!u@h KICK #paw pawbot_ :bye"],
            &["Kicked", "JOIN #paw k3y"],
        ),
        (&[":pawbot_!u@h NICK pawbot"], &["Nick(\"pawbot\")"]),
        // Spoofed targets and our own echo are not kept.
        (
            &[
                ":eve!u@h PRIVMSG #other :hi",
                ":eve!u@h PRIVMSG someone :hi",
                ":pawbot!u@h PRIVMSG #paw :me",
                ":srv NOTICE #paw :from a server",
            ],
            &[],
        ),
    ];
    for (lines, want) in table {
        assert_eq!(run(&mut m, lines), *want, "{lines:?}");
    }
    let kept = run(
        &mut m,
        &[
            ":alice!u@h PRIVMSG #paw :hello",
            ":b\u{1b}[2Job!u@h PRIVMSG pawbot :psst",
            ":alice!u@h PRIVMSG #paw :\u{1}ACTION waves\u{1}",
            ":alice!u@h PRIVMSG pawbot :\u{1}VERSION\u{1}",
            ":alice!u@h NOTICE #paw :\u{1}PING 123\u{1}",
        ],
    );
    assert_eq!(
        kept,
        [
            "Inbound { channel: \"#paw\", from: \"alice\", text: \"hello\", private: false, action: false }",
            "Inbound { channel: \"bob\", from: \"bob\", text: \"psst\", private: true, action: false }",
            "Inbound { channel: \"#paw\", from: \"alice\", text: \"waves\", private: false, action: true }",
        ]
    );
}

/// (extra `.env` keys, server lines, the last step).
type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str], &'a str);

#[test]
fn failures_end_the_connection_with_their_code() {
    let table: &[Case<'_>] = &[
        (
            &[],
            &[
                ":srv 433 * pawbot :in use",
                ":srv 433 * pawbot_ :in use",
                ":srv 433 * pawbot__ :in use",
                ":srv 433 * pawbot1 :in use",
            ],
            "FAIL NickInUse quit=None",
        ),
        (
            &[],
            &[":srv 001 pawbot :hi", ":srv 475 pawbot #paw :key"],
            "FAIL BadChannelKey quit=Some(\"cannot join\")",
        ),
        (
            &[("IRC_SERVER_PASSWORD", "x")],
            &["ERROR :Closing link: [Access denied by configuration]"],
            "FAIL PassIncorrect quit=None",
        ),
        (
            &[],
            &[":srv 001 pawbot :hi", "ERROR :Closing link: (Ping timeout)"],
            "FAIL Disconnected quit=None",
        ),
        (
            &[("IRC_NICKSERV_PASSWORD", "pw"), ("IRC_SASL", "off")],
            &[
                ":srv 001 pawbot :hi",
                ":NickServ!s@services. NOTICE pawbot :Password incorrect.",
            ],
            "FAIL PassIncorrect quit=Some(\"login failed\")",
        ),
    ];
    for (extra, lines, want) in table {
        let c = creds(extra);
        let mut m = Machine::new(&c);
        let steps = run(&mut m, lines);
        assert_eq!(
            steps.last().map(String::as_str),
            Some(*want),
            "{lines:?}: {steps:?}"
        );
    }
}
