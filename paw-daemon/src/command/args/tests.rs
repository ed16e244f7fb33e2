//! Unit tests of `paw_daemon::command::args`.

use super::*;

/// test flags
#[derive(clap::Parser, Debug, PartialEq)]
#[command(name = "t sub")]
struct T {
    #[arg(long, value_name = "N")]
    name: Option<String>,
    #[arg(long, value_name = "N")]
    max: Option<i64>,
    #[arg(long)]
    peek: bool,
}

/// a group and a required flag
#[derive(clap::Parser, Debug)]
#[command(name = "t grp")]
#[command(group(clap::ArgGroup::new("which").required(true).args(["link", "guid"])))]
struct G {
    #[arg(long, value_name = "URL")]
    link: Option<String>,
    #[arg(long, value_name = "G")]
    guid: Option<String>,
    #[arg(long, value_name = "P")]
    out: String,
}

fn argv(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn values_switches_and_inline_values() {
    let t: T = parse(&argv("--name hn --peek --max=5")).expect("parse");
    assert_eq!(
        t,
        T {
            name: Some("hn".into()),
            max: Some(5),
            peek: true
        }
    );
    assert_eq!(clamp(t.max, 50, 0, 500), 5);
    assert_eq!(clamp(None, 50, 0, 500), 50);
    let t: T = parse(&argv("--max 9999")).expect("parse");
    assert_eq!(clamp(t.max, 50, 0, 500), 500);
    let t: T = parse(&argv("--max -3")).expect("parse");
    assert_eq!(clamp(t.max, 50, 0, 500), 0);
    let t: T = parse(&argv("--name=a=b")).expect("parse");
    assert_eq!(t.name.as_deref(), Some("a=b"));
    let t: T = parse(&argv("--name -x")).expect("parse");
    assert_eq!(t.name.as_deref(), Some("-x"));
}

#[test]
fn bad_input_names_the_token() {
    let table = [
        ("--bogus 1", "unknown flag: --bogus"),
        ("stray", "unexpected argument: stray"),
        ("--name", "missing value for --name"),
        ("--name --peek", "missing value for --name"),
        ("--peek=yes", "flag --peek takes no value"),
        ("--name a --name b", "flag --name given more than once"),
        ("--", "unexpected argument: --"),
        ("-x", "unexpected argument: -x"),
        ("--help", "unknown flag: --help"),
        ("--max x", "--max must be an integer"),
    ];
    for (line, msg) in table {
        let e = parse::<T>(&argv(line)).expect_err(line);
        assert_eq!(e.code, paw_proto::ErrorCode::InvalidArgs);
        assert_eq!(e.message, msg, "{line}");
    }
    assert_eq!(
        parse::<G>(&argv("--link l")).expect_err("no out").code,
        paw_proto::ErrorCode::OutRequired
    );
    for (line, msg) in [
        ("--out o", "missing required flag: one of --link, --guid"),
        (
            "--link l --guid g --out o",
            "give either --link or --guid, not both",
        ),
    ] {
        let e = parse::<G>(&argv(line)).expect_err(line);
        assert_eq!(e.message, msg, "{line}");
    }
}

#[test]
fn usage_is_rendered_from_the_declaration() {
    assert_eq!(
        usage_of(&T::command()),
        "t sub [--name N] [--max N] [--peek]"
    );
    assert_eq!(
        usage_of(&G::command()),
        "t grp (--link URL | --guid G) --out P"
    );
}
