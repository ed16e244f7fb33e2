//! Reading OPML with the `opml` crate, safely (the worker side of `rss import`): the
//! shape is checked with a streaming reader before the crate sees the text.

use paw_jobs::feed::{MAX_OPML_FOLDER_CHARS, MAX_OPML_FOLDERS, OpmlFeed};

/// The deepest outline nesting read; deeper files are refused before the `opml` crate
/// (whose serde reader recurses per level) sees them.
const MAX_DEPTH: usize = 256;

/// Counts elements and nesting with a streaming reader (no recursion, no tree).
fn check_shape(text: &str, max_outlines: usize) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_str(text);
    let (mut depth, mut outlines) = (0usize, 0usize);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e)) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!("OPML nested deeper than {MAX_DEPTH} levels"));
                }
                outlines += usize::from(e.local_name().into_inner() == "outline");
            }
            Ok(quick_xml::events::Event::Empty(e)) => {
                outlines += usize::from(e.local_name().into_inner() == "outline");
            }
            Ok(quick_xml::events::Event::End(_)) => depth = depth.saturating_sub(1),
            Ok(quick_xml::events::Event::Eof) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(format!("not an OPML file: {e}")),
        }
        if outlines > max_outlines {
            return Err(format!(
                "the OPML file has more than {max_outlines} outlines; split it"
            ));
        }
    }
}

/// Every feed outline of an OPML document, depth first, with the folders it sits in (an
/// outline without `xmlUrl` that holds others). Runs in a worker: the text is untrusted.
pub fn feeds_of(text: &str, max_outlines: usize) -> Result<Vec<OpmlFeed>, String> {
    check_shape(text, max_outlines)?;
    let doc = opml::OPML::from_str(text).map_err(|e| format!("not an OPML file: {e}"))?;
    let mut out = Vec::new();
    // An explicit stack: nesting depth is the file's to choose. Each level keeps the folder
    // it is the inside of (`None` for the body and for a feed outline's children).
    let mut stack: Vec<(std::slice::Iter<'_, opml::Outline>, Option<String>)> =
        vec![(doc.body.outlines.iter(), None)];
    while let Some((level, _)) = stack.last_mut() {
        let Some(o) = level.next() else {
            stack.pop();
            continue;
        };
        let title = o
            .title
            .clone()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| o.text.clone());
        let url = o.xml_url.as_deref().filter(|u| !u.trim().is_empty());
        if let Some(url) = url {
            let folders = stack
                .iter()
                .filter_map(|(_, f)| f.clone())
                .take(MAX_OPML_FOLDERS)
                .collect();
            out.push(OpmlFeed {
                title: title.trim().to_string(),
                url: url.trim().to_string(),
                folders,
            });
        }
        let folder = (url.is_none() && !o.outlines.is_empty())
            .then(|| {
                title
                    .trim()
                    .chars()
                    .take(MAX_OPML_FOLDER_CHARS)
                    .collect::<String>()
            })
            .filter(|t| !t.is_empty());
        stack.push((o.outlines.iter(), folder));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
