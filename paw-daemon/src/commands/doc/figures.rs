//! `doc extract --images files` (docs/commands.md "doc extract"): where a document's
//! pictures go and their writing. The pictures' folder sits beside the output and is named
//! for it (`notes/report.md` → `notes/report_files/`); each file's name is one the worker
//! made and the daemon checked (`p<page>-<n>.<ext>`, never a name from the document), and
//! each is written atomically as an artifact.

use paw_jobs::doc::ImageFile;
use serde::Serialize;

use crate::command::{CmdError, Ctx};

/// The pictures' folder of the output `out`: as the output links it (relative to the
/// output's folder), and as a path under `.agents/`.
pub fn folder(out: &str) -> (String, String) {
    let out = out.trim();
    let (parent, file) = match out.rsplit_once('/') {
        Some((p, f)) => (Some(p), f),
        None => (None, out),
    };
    let stem = match file.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => file,
    };
    let link = format!("{stem}_files");
    let rel = match parent {
        Some(p) => format!("{p}/{link}"),
        None => link.clone(),
    };
    (link, rel)
}

/// One picture written, as the result lists it.
#[derive(Debug, Serialize)]
pub struct Picture {
    /// Where it was written (as artifacts are shown).
    pub path: String,
    /// The page, slide or chapter it is first drawn on.
    pub page: usize,
    /// Its description, if the document gives one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub alt: String,
    /// Its media type.
    pub media_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
}

/// Writes each picture into `folder` (under `.agents/`), atomically; returns them as the
/// result lists them, and their artifacts.
pub async fn write(
    ctx: &Ctx,
    folder: &str,
    images: Vec<(ImageFile, Vec<u8>)>,
    input: &str,
) -> Result<(Vec<Picture>, Vec<paw_proto::Artifact>), CmdError> {
    let mut pictures = Vec::with_capacity(images.len());
    let mut artifacts = Vec::with_capacity(images.len());
    for (f, bytes) in images {
        debug_assert!(paw_jobs::doc::is_image_name(&f.name));
        let what = if f.alt.is_empty() {
            format!("a picture of {input} (page {})", f.page)
        } else {
            format!("a picture of {input} (page {}): {}", f.page, f.alt)
        };
        // The media type is the name's: the worker's word is not taken for it.
        let media_type = media_type(&f.name);
        let art = crate::command::out::write_bytes(
            ctx,
            &format!("{folder}/{}", f.name),
            bytes,
            media_type,
            &what,
        )
        .await?;
        pictures.push(Picture {
            path: art.path.clone(),
            page: f.page,
            alt: f.alt,
            media_type: media_type.to_string(),
            width: f.width,
            height: f.height,
        });
        artifacts.push(art);
    }
    Ok((pictures, artifacts))
}

/// The media type a picture's file name (its extension) says.
fn media_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map_or("", |(_, e)| e) {
        "png" => "image/png",
        "jpg" => "image/jpeg",
        "gif" => "image/gif",
        "bmp" => "image/bmp",
        "tif" => "image/tiff",
        "webp" => "image/webp",
        "emf" => "image/emf",
        "wmf" => "image/wmf",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::folder;

    #[test]
    fn the_pictures_folder_is_named_for_the_output_beside_it() {
        assert_eq!(
            folder("notes/report.md"),
            ("report_files".into(), "notes/report_files".into())
        );
        assert_eq!(folder("out.md"), ("out_files".into(), "out_files".into()));
        assert_eq!(
            folder("a/b/my paper.v2.md"),
            ("my paper.v2_files".into(), "a/b/my paper.v2_files".into())
        );
        assert_eq!(
            folder("notes/README"),
            ("README_files".into(), "notes/README_files".into())
        );
        assert_eq!(folder(".md"), (".md_files".into(), ".md_files".into()));
    }
}
