//! The block model every reader produces, and its two renderings.

/// One block of a document.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A heading, level 1..=6.
    Heading(u8, String),
    /// A paragraph.
    Para(String),
    /// A list item: nesting level (0 = top), ordered, text.
    Item(u8, bool, String),
    /// A table: rows of cells (the first row is the header in Markdown).
    Table(Vec<Vec<String>>),
    /// A section start (a slide, a sheet, a page): its title.
    Section(String),
}

/// Text or Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Plain text.
    Text,
    /// Markdown.
    Md,
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Renders blocks; paragraphs are separated by a blank line.
pub fn render(blocks: &[Block], mode: Mode) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut list: Vec<String> = Vec::new();
    let flush = |list: &mut Vec<String>, parts: &mut Vec<String>| {
        if !list.is_empty() {
            parts.push(list.join("\n"));
            list.clear();
        }
    };
    for b in blocks {
        if let Block::Item(level, ordered, text) = b {
            let indent = "  ".repeat(*level as usize);
            let mark = match (mode, ordered) {
                (Mode::Md, true) => "1.",
                (Mode::Md, false) => "-",
                (Mode::Text, _) => "-",
            };
            list.push(format!("{indent}{mark} {text}"));
            continue;
        }
        flush(&mut list, &mut parts);
        match (b, mode) {
            (Block::Heading(l, t), Mode::Md) => {
                parts.push(format!("{} {t}", "#".repeat((*l).clamp(1, 6) as usize)))
            }
            (Block::Heading(_, t), Mode::Text) | (Block::Para(t), _) => parts.push(t.clone()),
            (Block::Section(t), Mode::Md) => parts.push(format!("## {t}")),
            (Block::Section(t), Mode::Text) => parts.push(format!("=== {t} ===")),
            (Block::Table(rows), Mode::Md) if !rows.is_empty() => {
                let width = rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
                let row = |r: &Vec<String>| {
                    let mut cells: Vec<String> = r.iter().map(|c| md_cell(c)).collect();
                    cells.resize(width, String::new());
                    format!("| {} |", cells.join(" | "))
                };
                let mut lines = vec![row(&rows[0]), format!("|{}", " --- |".repeat(width))];
                lines.extend(rows[1..].iter().map(row));
                parts.push(lines.join("\n"));
            }
            (Block::Table(rows), Mode::Text) if !rows.is_empty() => parts.push(
                rows.iter()
                    .map(|r| r.join("\t"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            _ => {}
        }
    }
    flush(&mut list, &mut parts);
    parts.retain(|p| !p.trim().is_empty());
    let mut out = parts.join("\n\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Cuts `text` after `max` characters (at a character boundary) and appends a marker;
/// returns whether it cut.
pub fn truncate(text: &mut String, max: usize) -> bool {
    match text.char_indices().nth(max) {
        None => false,
        Some((i, _)) => {
            text.truncate(i);
            text.push_str("\n\n[...TRUNCATED...]\n");
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_and_text_keep_structure() {
        let b = vec![
            Block::Heading(1, "Title".into()),
            Block::Para("Intro.".into()),
            Block::Item(0, false, "one".into()),
            Block::Item(1, false, "one.a".into()),
            Block::Item(0, true, "two".into()),
            Block::Table(vec![vec!["a".into(), "b|c".into()], vec!["1".into()]]),
            Block::Section("Slide 2".into()),
        ];
        assert_eq!(
            render(&b, Mode::Md),
            "# Title\n\nIntro.\n\n- one\n  - one.a\n1. two\n\n| a | b\\|c |\n| --- | --- |\n| 1 |  |\n\n## Slide 2\n"
        );
        assert_eq!(
            render(&b, Mode::Text),
            "Title\n\nIntro.\n\n- one\n  - one.a\n- two\n\na\tb|c\n1\n\n=== Slide 2 ===\n"
        );
    }

    #[test]
    fn truncation_cuts_at_a_character_and_says_so() {
        let mut s = "日本語テキスト".to_string();
        assert!(truncate(&mut s, 3));
        assert!(s.starts_with("日本語\n"), "{s}");
        assert!(s.contains("[...TRUNCATED...]"));
        let mut t = "short".to_string();
        assert!(!truncate(&mut t, 10));
        assert_eq!(t, "short");
    }
}
