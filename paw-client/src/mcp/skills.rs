//! The commands' skill texts as MCP skills (the skills extension, `skills/list` and
//! `skills/get`): each text that starts with a frontmatter naming a valid skill becomes
//! `skill://<name>/SKILL.md`, one file whose bytes are the text as `terminal.commands`
//! gives it, served by `resources/read` with the digest the manifest promises.

use paw_proto::CommandInfo;
use rmcp::model::{Skill, SkillFrontmatter, SkillResource, SkillResources};

/// One command's skill as the extension serves it, with the bytes of its `SKILL.md`.
#[derive(Debug, Clone)]
pub struct Served {
    pub skill: Skill,
    pub text: String,
}

/// The URI of the skill named `name`.
pub fn uri(name: &str) -> String {
    format!("skill://{name}/SKILL.md")
}

/// The skills of `commands`, in their order. A text without a frontmatter, or whose name
/// the extension does not allow, is left out (it stays a `paw://skills/…` resource), so
/// one bad text cannot make `skills/list` fail as a whole; a second skill of the same
/// name is left out too.
pub fn from_commands(commands: &[CommandInfo]) -> Vec<Served> {
    let mut served: Vec<Served> = Vec::new();
    for c in commands {
        let Some(front) = frontmatter(&c.skill) else {
            continue;
        };
        let uri = uri(&front.name);
        if served.iter().any(|s| s.skill.uri == uri) {
            continue;
        }
        let file = SkillResource::from_bytes(uri.clone(), c.skill.as_bytes());
        let skill = Skill::new(uri, front, SkillResources::Files(vec![file]));
        if skill.validate().is_ok() {
            served.push(Served {
                skill,
                text: c.skill.clone(),
            });
        }
    }
    served
}

/// The `---` block at the top of a skill text: one `key: value` per line (the form the
/// skill texts under `docs/skills/` use); `None` without one, or without a name and a
/// description.
pub fn frontmatter(text: &str) -> Option<SkillFrontmatter> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n").or_else(|| {
        rest.strip_suffix("\n---")
            .map(str::len)
            .filter(|_| !rest.is_empty())
    })?;
    let mut name = None;
    let mut description = None;
    let mut extra = Vec::new();
    for line in rest[..end].lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || key.starts_with([' ', '#']) || line.starts_with([' ', '\t']) {
            continue;
        }
        match key {
            "name" => name = Some(value.to_string()),
            "description" => description = Some(value.to_string()),
            _ => extra.push((key.to_string(), value.to_string())),
        }
    }
    let mut front = SkillFrontmatter::new(name?, description?);
    for (k, v) in extra {
        front = front.with_field(k, v);
    }
    Some(front)
}

#[cfg(test)]
mod tests;
