//! Unit tests of `paw_client::mcp::skills`.

use super::*;

fn command(name: &str, skill: &str) -> CommandInfo {
    CommandInfo {
        name: name.into(),
        summary: "s".into(),
        usage: name.into(),
        subcommands: Vec::new(),
        capabilities: Default::default(),
        limits: Default::default(),
        skill: skill.into(),
        schemas: Default::default(),
    }
}

const HELLO: &str =
    "---\nname: hello-world\ndescription: Say hello.\ncommand: hello\n---\n\n# hello\n";

#[test]
fn a_skill_text_with_a_frontmatter_is_a_skill_of_one_file() {
    let served = from_commands(&[command("hello", HELLO)]);
    assert_eq!(served.len(), 1);
    let s = &served[0].skill;
    assert_eq!(s.uri, "skill://hello-world/SKILL.md");
    assert_eq!(s.name(), "hello-world");
    assert_eq!(s.frontmatter.description, "Say hello.");
    assert_eq!(s.frontmatter.extra["command"], "hello");
    let SkillResources::Files(files) = &s.resources else {
        panic!("a manifest");
    };
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].uri, s.uri);
    files[0]
        .verify(served[0].text.as_bytes())
        .expect("the bytes served are the bytes described");
}

#[test]
fn texts_the_extension_cannot_carry_are_left_out() {
    let served = from_commands(&[
        command("plain", "# no frontmatter\n"),
        command("upper", "---\nname: Hello\ndescription: d\n---\n"),
        command("nodesc", "---\nname: nodesc\n---\n"),
        command("unclosed", "---\nname: unclosed\ndescription: d\n"),
        command("hello", HELLO),
        command("again", HELLO),
        command("empty", ""),
    ]);
    let names: Vec<&str> = served.iter().map(|s| s.skill.name()).collect();
    assert_eq!(names, ["hello-world"]);
}

#[test]
fn the_repository_skill_texts_are_all_served() {
    for text in [
        include_str!("../../../../docs/skills/hello-world/SKILL.md"),
        include_str!("../../../../docs/skills/rss/SKILL.md"),
        include_str!("../../../../docs/skills/irc/SKILL.md"),
        include_str!("../../../../docs/skills/doc/SKILL.md"),
    ] {
        let served = from_commands(&[command("x", text)]);
        assert_eq!(served.len(), 1, "{}", &text[..text.len().min(200)]);
    }
}
