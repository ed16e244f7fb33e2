//! Pages streamed by React (Next.js, Remix, GitBook): the server sends each part that
//! waited on data at the end of the page, in a `<div hidden id="S:…">`, and a script call
//! (`$RC("B:0","S:0")`) moves it in place of its placeholder (`<template id="B:0">`),
//! replacing the fallback shown meanwhile ("Loading…"). A reader without scripts sees
//! every such part hidden and out of place; [`reveal`] does what those calls do, so that
//! the article, a documentation page's code blocks or a product's description are read
//! where the page shows them.
//!
//! Bounds on what a hostile page can make this cost: the calls are read from the page's
//! text in one pass, at most [`MAX_REVEALS`] of them; the tree is walked once for the ids;
//! each move climbs at most the depth the tree builder allows, and a fallback is looked
//! for among at most [`FALLBACK_MAX_SIBLINGS`] siblings.

use std::collections::HashMap;

use dom_query::{Document, NodeData, NodeId, NodeRef};

/// Calls carried out on one page at most.
pub const MAX_REVEALS: usize = 256;

/// Siblings after a placeholder searched for the end of its fallback (`<!--/$-->`).
pub const FALLBACK_MAX_SIBLINGS: usize = 256;

/// The longest id read in a call (React's are a letter, a colon and a short number).
const MAX_ID_BYTES: usize = 32;

/// One call: the placeholder to fill and the hidden part that fills it.
#[derive(Debug, PartialEq, Eq)]
struct Reveal<'a> {
    placeholder: &'a str,
    part: &'a str,
    /// A boundary (`$RC`, `$RR`): its fallback goes. A segment (`$RS`) has none.
    boundary: bool,
}

/// The calls in `html`, in order, at most [`MAX_REVEALS`]: `$RC("B:x","S:y")` and
/// `$RR("B:x","S:y",…)` fill boundary `B:x` with part `S:y`; `$RS("S:y","P:x")` fills
/// placeholder `P:x`.
fn calls(html: &str) -> Vec<Reveal<'_>> {
    let mut found = Vec::new();
    for at in memchr::memmem::find_iter(html.as_bytes(), b"$R") {
        if found.len() == MAX_REVEALS {
            break;
        }
        let rest = &html[at + 2..];
        let (boundary, args) = match rest.as_bytes().first() {
            Some(b'C' | b'R') => (true, &rest[1..]),
            Some(b'S') => (false, &rest[1..]),
            _ => continue,
        };
        let Some((first, args)) = quoted(args.strip_prefix('(')) else {
            continue;
        };
        let Some((second, _)) = quoted(args.strip_prefix(',')) else {
            continue;
        };
        found.push(if boundary {
            Reveal {
                placeholder: first,
                part: second,
                boundary,
            }
        } else {
            Reveal {
                placeholder: second,
                part: first,
                boundary,
            }
        });
    }
    found
}

/// A double-quoted id at the start of `s` (at most [`MAX_ID_BYTES`]), and what follows it.
fn quoted(s: Option<&str>) -> Option<(&str, &str)> {
    let s = s?.strip_prefix('"')?;
    let end = s.bytes().take(MAX_ID_BYTES + 1).position(|b| b == b'"')?;
    Some((&s[..end], &s[end + 1..]))
}

/// Carries out the page's reveal calls on its tree: each hidden part's content takes its
/// placeholder's place (a boundary's fallback removed), and the emptied part goes. A call
/// whose placeholder sits inside its own part is skipped (the move would make a loop).
/// Returns how many parts were revealed.
pub fn reveal(doc: &Document, html: &str) -> usize {
    let calls = calls(html);
    if calls.is_empty() {
        return 0;
    }
    // The elements a call may name, by id, in one walk.
    let mut ids: HashMap<String, NodeId> = HashMap::new();
    for n in doc.root().descendants_it() {
        let Some(id) = n.id_attr() else { continue };
        if id.len() <= MAX_ID_BYTES
            && matches!(str::as_bytes(&id), [b'B' | b'S' | b'P', b':', ..])
            && ids.len() < 4 * MAX_REVEALS
        {
            ids.entry(id.to_string()).or_insert(n.id);
        }
    }
    let mut revealed = 0;
    for call in calls {
        let (Some(&at), Some(&part)) = (ids.get(call.placeholder), ids.get(call.part)) else {
            continue;
        };
        let (at, part) = (NodeRef::new(at, &doc.tree), NodeRef::new(part, &doc.tree));
        // Both still in the page (an earlier call may have moved or removed them), and the
        // placeholder not inside the part.
        if at.parent().is_none()
            || part.parent().is_none()
            || at.ancestors_it(None).any(|a| a.id == part.id)
        {
            continue;
        }
        if call.boundary {
            drop_fallback(&at);
        }
        if let Some(first) = part.first_child() {
            at.insert_siblings_before(&first);
        }
        at.remove_from_parent();
        part.remove_from_parent();
        revealed += 1;
    }
    revealed
}

/// Removes a boundary's fallback: the siblings after its placeholder up to the comment
/// that closes the boundary (`<!--/$-->`, boundaries nested in it counted), when that is
/// among the next [`FALLBACK_MAX_SIBLINGS`]; otherwise nothing.
fn drop_fallback(at: &NodeRef<'_>) {
    let mut fallback = Vec::new();
    let mut depth = 0usize;
    let mut next = at.next_sibling();
    while let Some(n) = next {
        if fallback.len() == FALLBACK_MAX_SIBLINGS {
            return;
        }
        let mark = n.query_or(None, |t| match &t.data {
            NodeData::Comment { contents } => Some(contents.trim().to_string()),
            _ => None,
        });
        match mark.as_deref() {
            Some("/$") if depth == 0 => {
                for f in fallback {
                    let f: NodeRef<'_> = f;
                    f.remove_from_parent();
                }
                return;
            }
            Some("/$") => depth -= 1,
            Some("$" | "$?" | "$!") => depth += 1,
            _ => {}
        }
        fallback.push(n);
        next = n.next_sibling();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calls_are_read_in_order_and_anything_else_is_not() {
        let html = r#"<script>$RC=function(b,c){};$RC("B:0","S:0")</script>
            <script>$RS("S:2","P:1");$RR("B:1","S:1",[]);$R("x");$RC("B:2", "S:9")</script>"#;
        assert_eq!(
            calls(html),
            [
                Reveal {
                    placeholder: "B:0",
                    part: "S:0",
                    boundary: true
                },
                Reveal {
                    placeholder: "P:1",
                    part: "S:2",
                    boundary: false
                },
                Reveal {
                    placeholder: "B:1",
                    part: "S:1",
                    boundary: true
                },
            ]
        );
        let long = format!(r#"$RC("B:{}","S:0")"#, "9".repeat(MAX_ID_BYTES));
        assert!(calls(&long).is_empty());
        let many = r#"$RC("B:0","S:0")"#.repeat(MAX_REVEALS + 10);
        assert_eq!(calls(&many).len(), MAX_REVEALS);
    }

    fn body_text(doc: &Document) -> String {
        crate::text::collapse(&doc.select("body").text())
    }

    #[test]
    fn a_streamed_part_takes_its_placeholders_place_and_its_fallback_goes() {
        let html = r#"<html><body><h1>Guide</h1><p>Install it:</p>
            <!--$?--><template id="B:0"></template><p>Loading…</p><!--/$-->
            <p>Then run it.</p><div hidden id="S:0"><pre>npm i tool</pre></div>
            <script>$RC("B:0","S:0")</script></body></html>"#;
        let doc = Document::from(html);
        assert_eq!(reveal(&doc, html), 1);
        let text = body_text(&doc);
        let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s}: {text}"));
        assert!(at("Install it:") < at("npm i tool") && at("npm i tool") < at("Then run"));
        assert!(!text.contains("Loading"), "{text}");
        assert_eq!(doc.select("[hidden]").length(), 0);
        assert_eq!(doc.select("template").length(), 0);
    }

    #[test]
    fn a_placeholder_inside_its_own_part_or_a_fallback_without_end_is_left() {
        // Moving the part's content before a placeholder inside it would make a loop.
        let html = r#"<body><div hidden id="S:0"><div><template id="B:0"></template></div>
            <p>Kept</p></div><script>$RC("B:0","S:0")</script></body>"#;
        let doc = Document::from(html);
        assert_eq!(reveal(&doc, html), 0);
        assert_eq!(doc.select("[hidden]").length(), 1);
        // No end of the fallback among the siblings looked at: it stays, the part comes.
        let fallback = "<span>wait</span>".repeat(FALLBACK_MAX_SIBLINGS + 1);
        let html = format!(
            r#"<body><div><template id="B:0"></template>{fallback}<!--/$--></div>
            <div hidden id="S:0"><p>Arrived</p></div><script>$RC("B:0","S:0")</script></body>"#
        );
        let doc = Document::from(html.as_str());
        assert_eq!(reveal(&doc, &html), 1);
        let text = body_text(&doc);
        assert!(text.starts_with("Arrivedwait"), "{text}");
    }
}
