//! `--in` in a listed read folder: inside it, symlinks followed, never out of it.

use std::os::unix::fs::symlink;

use super::*;

struct Place {
    _tmp: tempfile::TempDir,
    docs: PathBuf,
    agents: PathBuf,
    secret: PathBuf,
}

/// `docs/` (listed) with a file and links in and out, `.agents/` with a credential, and
/// a private file beside them.
fn place() -> Place {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().canonicalize().expect("canon");
    let docs = root.join("docs");
    let agents = root.join("home/.agents");
    std::fs::create_dir_all(docs.join("sub")).expect("mkdir");
    std::fs::create_dir_all(agents.join("skills/irc-cli/secrets")).expect("mkdir");
    std::fs::write(docs.join("sub/a.pdf"), b"%PDF-1.7").expect("write");
    let secret = root.join("private.txt");
    std::fs::write(&secret, b"secret").expect("write");
    std::fs::write(agents.join("skills/irc-cli/secrets/.env"), b"IRC_NICK=x").expect("write");
    symlink(&secret, docs.join("out.txt")).expect("link");
    symlink(&root, docs.join("up")).expect("link");
    symlink(docs.join("sub/a.pdf"), docs.join("in.pdf")).expect("link");
    Place {
        _tmp: tmp,
        docs,
        agents,
        secret,
    }
}

fn code(r: Result<PathBuf, CmdError>) -> ErrorCode {
    r.expect_err("refused").code
}

#[test]
fn a_file_inside_a_listed_folder_is_read_and_links_inside_it_are_followed() {
    let p = place();
    let dirs = vec![p.docs.display().to_string()];
    let a = p.docs.join("sub/a.pdf");
    let got = resolve(&dirs, None, &p.agents, &a.display().to_string()).expect("inside");
    assert_eq!(got, a);
    let link = p.docs.join("in.pdf").display().to_string();
    assert_eq!(resolve(&dirs, None, &p.agents, &link).expect("inside"), a);
    // `~/` against the user's home.
    let home = p.docs.parent().expect("root");
    let got = resolve(
        &["~/docs".into()],
        Some(home),
        &p.agents,
        "~/docs/sub/a.pdf",
    );
    assert_eq!(got.expect("inside"), a);
}

#[test]
fn symlinks_and_dotdot_out_of_the_folder_are_refused() {
    let p = place();
    let dirs = vec![p.docs.display().to_string()];
    let at = |rel: &str| p.docs.join(rel).display().to_string();
    assert_eq!(
        code(resolve(&dirs, None, &p.agents, &at("out.txt"))),
        ErrorCode::PathEscapesAgentsRoot
    );
    assert_eq!(
        code(resolve(&dirs, None, &p.agents, &at("up/private.txt"))),
        ErrorCode::PathEscapesAgentsRoot
    );
    assert_eq!(
        code(resolve(
            &dirs,
            None,
            &p.agents,
            &at("sub/../../private.txt")
        )),
        ErrorCode::PathEscapesAgentsRoot
    );
}

#[test]
fn paths_outside_every_listed_folder_are_refused() {
    let p = place();
    let secret = p.secret.display().to_string();
    // Nothing listed: an absolute path is refused as before.
    assert_eq!(
        code(resolve(&[], None, &p.agents, &secret)),
        ErrorCode::InvalidArgs
    );
    let dirs = vec![p.docs.display().to_string()];
    assert_eq!(
        code(resolve(&dirs, None, &p.agents, &secret)),
        ErrorCode::InvalidArgs
    );
    // A folder whose name only begins like the listed one.
    let sibling = format!("{}-other/x.pdf", p.docs.display());
    assert_eq!(
        code(resolve(&dirs, None, &p.agents, &sibling)),
        ErrorCode::InvalidArgs
    );
    // `~` with no home known.
    assert_eq!(
        code(resolve(
            &["~/docs".into()],
            None,
            &p.agents,
            "~/docs/sub/a.pdf"
        )),
        ErrorCode::InvalidArgs
    );
}

#[test]
fn a_listed_folder_that_holds_agents_still_hides_the_credentials() {
    let p = place();
    let root = p.docs.parent().expect("root").display().to_string();
    let env = p
        .agents
        .join("skills/irc-cli/secrets/.env")
        .display()
        .to_string();
    assert_eq!(
        code(resolve(&[root], None, &p.agents, &env)),
        ErrorCode::Forbidden
    );
}

#[test]
fn outside_means_absolute_or_home_relative() {
    assert!(is_outside("/a/b"));
    assert!(is_outside("~/a"));
    assert!(!is_outside("inbox/a.pdf"));
    assert!(!is_outside("~a"));
    assert!(!is_outside(".agents/inbox/a.pdf"));
}
