//! PPTX: slides in presentation order, each read as shapes in reading order (top to bottom,
//! left to right; groups as units), with text frames as paragraphs or list items, table
//! shapes as tables, charts as their cached data, pictures as figures and speaker notes.

use std::collections::HashMap;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::model::{Block, Cell, Document, Link, Page, Table};
use super::ooxml::{
    MAX_SLIDES, MAX_TABLE_COLS, Rel, TableBudget, Zip, attr, chart, core_metadata, main_part_as,
    num_attr, on, push_ref, rels, xml_err,
};
use super::{DocError, Format};

/// Group nesting that orders shapes; deeper groups are ordered as their 32nd ancestor.
const MAX_GROUP_DEPTH: usize = 32;
/// EMU per point.
const EMU_PER_PT: f32 = 12_700.0;

/// Reads a PPTX: the presentation part found through the package's relationships, its
/// slides through its own.
pub(super) fn read(bytes: &[u8]) -> Result<Document, DocError> {
    let mut zip = Zip::new(bytes)?;
    let mut warnings = Vec::new();
    let pres = &main_part_as(
        &mut zip,
        Format::Pptx,
        "ppt/presentation.xml",
        &mut warnings,
    )?;
    let slide_prefix = match pres.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/slides/slide"),
        None => "slides/slide".to_string(),
    };
    let (order, size) = match zip.read_optional(pres, &mut warnings)? {
        Some(x) => presentation(&x),
        None => (Vec::new(), None),
    };
    let pres_rels = rels(&mut zip, pres, &mut warnings)?;
    let mut slides: Vec<String> = order
        .iter()
        .filter_map(|id| pres_rels.get(id))
        .filter(|r| !r.external && r.kind == "slide")
        .map(|r| r.target.clone())
        .collect();
    if slides.is_empty() {
        // No slide list (or none that resolves): the slide parts by their number.
        let mut numbered: Vec<(u32, String)> = zip
            .names()
            .into_iter()
            .filter_map(|n| {
                let num = n
                    .strip_prefix(slide_prefix.as_str())?
                    .strip_suffix(".xml")?
                    .parse()
                    .ok()?;
                Some((num, n))
            })
            .collect();
        numbered.sort();
        slides = numbered.into_iter().map(|(_, n)| n).collect();
    }
    if slides.len() > MAX_SLIDES {
        return Err(DocError::Parse(format!(
            "{} slides: more than the limit of {MAX_SLIDES}",
            slides.len()
        )));
    }
    let mut doc = Document::new(Format::Pptx);
    doc.metadata = core_metadata(&mut zip, &mut warnings)?;
    let mut budget = TableBudget::new();
    let mut layouts: HashMap<String, Vec<Shape>> = HashMap::new();
    for (i, part) in slides.iter().enumerate() {
        let n = i + 1;
        let mut page = Page::new(n, Some(format!("Slide {n}")));
        if let Some((w, h)) = size {
            page.width = Some(w);
            page.height = Some(h);
        }
        let Some(xml) = zip.read_optional(part, &mut warnings)? else {
            warnings.push(format!("slide {n}: {part} is missing"));
            doc.pages.push(page);
            continue;
        };
        let srels = rels(&mut zip, part, &mut warnings)?;
        let mut shapes = shapes_of(&xml, part, &srels)?;
        if let Some(layout) = srels
            .values()
            .find(|r| r.kind == "slideLayout" && !r.external)
        {
            if !layouts.contains_key(&layout.target) {
                let found = match zip.read_optional(&layout.target, &mut warnings)? {
                    Some(x) => shapes_of(&x, &layout.target, &HashMap::new()).unwrap_or_default(),
                    None => Vec::new(),
                };
                layouts.insert(layout.target.clone(), found);
            }
            if let Some(l) = layouts.get(&layout.target) {
                place_from_layout(&mut shapes, l);
            }
        }
        order_shapes(&mut shapes);
        let mut title: Option<String> = None;
        for s in shapes {
            slide_blocks(
                s,
                &mut title,
                &mut page,
                &srels,
                &mut zip,
                &mut budget,
                &mut warnings,
            )?;
        }
        // The title heads the slide's blocks (the label stays `Slide N`: Markdown marks a
        // slide with a comment, so the title is read once, as a heading).
        if let Some(t) = title {
            page.blocks.insert(0, Block::heading(1, t));
        }
        if let Some(notes) = srels
            .values()
            .find(|r| r.kind == "notesSlide" && !r.external)
            && let Some(x) = zip.read_optional(&notes.target, &mut warnings)?
        {
            let text = notes_text(&x, &notes.target);
            if !text.is_empty() {
                page.blocks.push(Block::para(format!("Notes: {text}")));
            }
        }
        doc.pages.push(page);
    }
    doc.warnings = warnings;
    doc.tidy();
    Ok(doc)
}

/// The slide list's relationship ids in order, and the slide size in points.
fn presentation(xml: &str) -> (Vec<String>, Option<(f32, f32)>) {
    let mut ids = Vec::new();
    let mut size = None;
    let mut r = Reader::from_str(xml);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "p:sldId" => {
                    if let Some(id) = attr(&e, "r:id") {
                        ids.push(id);
                    }
                }
                "p:sldSz" => {
                    if let (Some(cx), Some(cy)) =
                        (num_attr::<f32>(&e, "cx"), num_attr::<f32>(&e, "cy"))
                    {
                        size = Some((cx / EMU_PER_PT, cy / EMU_PER_PT));
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    (ids, size)
}

/// One paragraph of a text frame.
#[derive(Debug, Default, Clone)]
struct PPara {
    text: String,
    level: u8,
    /// `Some(ordered)` for an explicit bullet, `Some(None)`… see `bullet_none`.
    bullet: Option<bool>,
    bullet_none: bool,
    links: Vec<Link>,
}

#[derive(Debug, Default, Clone)]
struct PCell {
    text: String,
    colspan: usize,
    rowspan: usize,
    covered: bool,
}

#[derive(Debug, Default, Clone)]
struct Grid {
    rows: Vec<Vec<PCell>>,
}

/// What a shape holds.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Role {
    Title,
    Body,
    Furniture,
    Other,
}

/// One shape (or picture, table, chart) of a slide, in document order.
#[derive(Debug, Default, Clone)]
struct Shape {
    /// Positions of the enclosing groups, outermost first, then the shape's own.
    key: Vec<(i64, i64)>,
    pos: Option<(i64, i64)>,
    ph_type: Option<String>,
    ph_idx: Option<String>,
    is_ph: bool,
    descr: String,
    picture: bool,
    /// A picture's image part (`a:blip r:embed`), resolved through the slide's
    /// relationships.
    image: Option<String>,
    paras: Vec<PPara>,
    table: Option<Grid>,
    chart: Option<String>,
    seq: usize,
}

impl Shape {
    fn role(&self) -> Role {
        match self.ph_type.as_deref() {
            Some("title" | "ctrTitle") => Role::Title,
            Some("dt" | "ftr" | "sldNum" | "hdr") => Role::Furniture,
            Some("body" | "obj") => Role::Body,
            None if self.is_ph => Role::Body,
            _ => Role::Other,
        }
    }
}

/// The element kinds that make a shape.
fn is_shape(name: &str) -> bool {
    matches!(name, "p:sp" | "p:pic" | "p:graphicFrame" | "p:cxnSp")
}

/// Reads the shapes of a slide (or layout, or notes page) in document order.
fn shapes_of(xml: &str, part: &str, rels: &HashMap<String, Rel>) -> Result<Vec<Shape>, DocError> {
    let mut r = Reader::from_str(xml);
    let mut out: Vec<Shape> = Vec::new();
    // Open groups' positions (None until read), and the open shape.
    let mut groups: Vec<Option<(i64, i64)>> = Vec::new();
    let mut shape: Option<Shape> = None;
    let mut para: Option<PPara> = None;
    let mut cell: Option<PCell> = None;
    let mut in_xfrm = false;
    let mut in_t = false;
    let mut run: Option<(usize, Option<String>)> = None;
    let mut depth = 0usize;
    let mut skip: Option<usize> = None;
    // Text outside any shape (hand-made or damaged slides) is still read.
    let mut loose = Shape::default();
    loop {
        let ev = r.read_event().map_err(|e| xml_err(part, e))?;
        let (e, empty) = match ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(e) => {
                let name = e.name();
                let name = name.as_ref();
                if let Some(d) = skip {
                    if depth == d {
                        skip = None;
                    }
                    depth = depth.saturating_sub(1);
                    continue;
                }
                depth = depth.saturating_sub(1);
                end_element(
                    name,
                    &mut groups,
                    &mut shape,
                    &mut para,
                    &mut cell,
                    &mut run,
                    &mut in_xfrm,
                    &mut in_t,
                    &mut out,
                    &mut loose,
                );
                continue;
            }
            Event::Text(t) if in_t && skip.is_none() => {
                if let Some(p) = para.as_mut() {
                    p.text.push_str(&t);
                }
                continue;
            }
            Event::GeneralRef(g) if in_t && skip.is_none() => {
                if let Some(p) = para.as_mut() {
                    push_ref(&mut p.text, &g);
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        if !empty {
            depth += 1;
        }
        if skip.is_some() {
            continue;
        }
        let name = e.name();
        let name = name.as_ref();
        start_element(
            name,
            &e,
            empty,
            rels,
            &mut groups,
            &mut shape,
            &mut para,
            &mut cell,
            &mut run,
            &mut in_xfrm,
            &mut in_t,
            &mut skip,
            depth,
            out.len(),
        );
        if empty {
            end_element(
                name,
                &mut groups,
                &mut shape,
                &mut para,
                &mut cell,
                &mut run,
                &mut in_xfrm,
                &mut in_t,
                &mut out,
                &mut loose,
            );
        }
    }
    if !loose.paras.is_empty() {
        loose.seq = out.len();
        out.push(loose);
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn start_element(
    name: &str,
    e: &BytesStart<'_>,
    empty: bool,
    rels: &HashMap<String, Rel>,
    groups: &mut Vec<Option<(i64, i64)>>,
    shape: &mut Option<Shape>,
    para: &mut Option<PPara>,
    cell: &mut Option<PCell>,
    run: &mut Option<(usize, Option<String>)>,
    in_xfrm: &mut bool,
    in_t: &mut bool,
    skip: &mut Option<usize>,
    depth: usize,
    seq: usize,
) {
    match name {
        "mc:Fallback" if !empty => *skip = Some(depth),
        "p:grpSp" if !empty && shape.is_none() => groups.push(None),
        n if is_shape(n) && !empty && shape.is_none() => {
            let mut key: Vec<(i64, i64)> = groups
                .iter()
                .take(MAX_GROUP_DEPTH)
                .map(|g| sort_key(g.unwrap_or((0, 0))))
                .collect();
            key.truncate(MAX_GROUP_DEPTH);
            *shape = Some(Shape {
                key,
                picture: n == "p:pic",
                seq,
                ..Shape::default()
            });
        }
        "a:xfrm" | "p:xfrm" => *in_xfrm = true,
        "a:off" if *in_xfrm => {
            let pos = (num_attr(e, "x").unwrap_or(0), num_attr(e, "y").unwrap_or(0));
            match shape.as_mut() {
                Some(s) if s.pos.is_none() && s.table.is_none() => s.pos = Some(pos),
                None => {
                    if let Some(g) = groups.last_mut()
                        && g.is_none()
                    {
                        *g = Some(pos);
                    }
                }
                _ => {}
            }
        }
        "p:ph" => {
            if let Some(s) = shape.as_mut() {
                s.is_ph = true;
                s.ph_type = attr(e, "type");
                s.ph_idx = attr(e, "idx");
            }
        }
        "p:cNvPr" => {
            if let Some(s) = shape.as_mut() {
                s.descr = attr(e, "descr")
                    .filter(|d| !d.trim().is_empty())
                    .or_else(|| attr(e, "title"))
                    .unwrap_or_default();
            }
        }
        "c:chart" => {
            if let Some(s) = shape.as_mut() {
                s.chart = attr(e, "r:id");
            }
        }
        "a:blip" => {
            if let Some(s) = shape.as_mut()
                && s.picture
                && s.image.is_none()
            {
                s.image = attr(e, "r:embed")
                    .and_then(|id| rels.get(&id))
                    .filter(|r| !r.external && r.kind == "image")
                    .map(|r| r.target.clone());
            }
        }
        "a:tbl" => {
            if let Some(s) = shape.as_mut()
                && s.table.is_none()
            {
                s.table = Some(Grid::default());
            }
        }
        "a:tr" => {
            if let Some(g) = shape.as_mut().and_then(|s| s.table.as_mut()) {
                g.rows.push(Vec::new());
            }
        }
        "a:tc" => {
            let covered = attr(e, "hMerge").is_some_and(|_| on(e, "hMerge"))
                || attr(e, "vMerge").is_some_and(|_| on(e, "vMerge"));
            *cell = Some(PCell {
                text: String::new(),
                colspan: num_attr::<usize>(e, "gridSpan")
                    .unwrap_or(1)
                    .clamp(1, MAX_TABLE_COLS),
                rowspan: num_attr::<usize>(e, "rowSpan").unwrap_or(1).max(1),
                covered,
            });
        }
        "a:p" => *para = Some(PPara::default()),
        "a:pPr" => {
            if let Some(p) = para.as_mut() {
                p.level = num_attr::<u8>(e, "lvl").unwrap_or(0).min(8);
            }
        }
        "a:buChar" | "a:buAutoNum" | "a:buBlip" => {
            if let Some(p) = para.as_mut() {
                p.bullet = Some(name == "a:buAutoNum");
            }
        }
        "a:buNone" => {
            if let Some(p) = para.as_mut() {
                p.bullet_none = true;
            }
        }
        "a:r" | "a:fld" => {
            if let Some(p) = para.as_ref() {
                *run = Some((p.text.len(), None));
            }
        }
        "a:hlinkClick" => {
            let href = attr(e, "r:id")
                .and_then(|id| rels.get(&id))
                .map(|r| r.target.clone());
            if let (Some(r), Some(h)) = (run.as_mut(), href)
                && r.1.is_none()
            {
                r.1 = Some(h);
            }
        }
        "a:t" if !empty => *in_t = true,
        "a:br" => {
            if let Some(p) = para.as_mut() {
                p.text.push('\n');
            }
        }
        _ => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn end_element(
    name: &str,
    groups: &mut Vec<Option<(i64, i64)>>,
    shape: &mut Option<Shape>,
    para: &mut Option<PPara>,
    cell: &mut Option<PCell>,
    run: &mut Option<(usize, Option<String>)>,
    in_xfrm: &mut bool,
    in_t: &mut bool,
    out: &mut Vec<Shape>,
    loose: &mut Shape,
) {
    match name {
        "a:t" => *in_t = false,
        "a:xfrm" | "p:xfrm" => *in_xfrm = false,
        "a:r" | "a:fld" => {
            if let (Some((at, Some(href))), Some(p)) = (run.take(), para.as_mut())
                && let Some(t) = p.text.get(at..)
            {
                let t = t.trim();
                if !t.is_empty() {
                    p.links.push(Link {
                        text: t.to_string(),
                        href,
                    });
                }
            }
        }
        "a:p" => {
            let Some(mut p) = para.take() else { return };
            p.text = p.text.trim().to_string();
            if p.text.is_empty() {
                return;
            }
            if let Some(c) = cell.as_mut() {
                if !c.text.is_empty() {
                    c.text.push(' ');
                }
                c.text.push_str(&p.text.replace('\n', " "));
            } else if let Some(s) = shape.as_mut() {
                s.paras.push(p);
            } else {
                loose.paras.push(p);
            }
        }
        "a:tc" => {
            if let Some(c) = cell.take()
                && let Some(row) = shape
                    .as_mut()
                    .and_then(|s| s.table.as_mut())
                    .and_then(|g| g.rows.last_mut())
                && row.len() < MAX_TABLE_COLS
            {
                row.push(c);
            }
        }
        "p:grpSp" if shape.is_none() => {
            groups.pop();
        }
        n if is_shape(n) => {
            if let Some(s) = shape.take() {
                out.push(s);
            }
        }
        _ => {}
    }
}

/// A placeholder's kind for matching against the layout (`obj` and no type are bodies).
fn ph_kind(t: Option<&str>) -> &str {
    match t {
        None | Some("obj") => "body",
        Some("ctrTitle") => "title",
        Some(t) => t,
    }
}

/// Placeholders that do not say where they are sit where their layout puts them (matched
/// by index, else by kind; looked up in maps so a hostile layout costs linear time).
fn place_from_layout(shapes: &mut [Shape], layout: &[Shape]) {
    let mut by_idx: HashMap<&str, (i64, i64)> = HashMap::new();
    let mut by_kind: HashMap<&str, (i64, i64)> = HashMap::new();
    for l in layout.iter().filter(|l| l.is_ph) {
        let Some(pos) = l.pos else { continue };
        if let Some(i) = l.ph_idx.as_deref() {
            by_idx.entry(i).or_insert(pos);
        }
        by_kind.entry(ph_kind(l.ph_type.as_deref())).or_insert(pos);
    }
    for s in shapes.iter_mut().filter(|s| s.is_ph && s.pos.is_none()) {
        let idx = s.ph_idx.as_deref().and_then(|i| by_idx.get(i));
        s.pos = idx
            .or_else(|| by_kind.get(ph_kind(s.ph_type.as_deref())))
            .copied();
    }
}

/// Sorts shapes top to bottom, then left to right (within their groups); a shape with no
/// known position stays after the one before it.
fn order_shapes(shapes: &mut [Shape]) {
    let mut last = (0, 0);
    for s in shapes.iter_mut() {
        let pos = match (s.pos, s.role()) {
            (Some(p), _) => p,
            (None, Role::Title) => (i64::MIN, i64::MIN),
            (None, _) => last,
        };
        last = pos;
        s.key.push(sort_key(pos));
    }
    shapes.sort_by(|a, b| a.key.cmp(&b.key).then(a.seq.cmp(&b.seq)));
}

/// Where a shape at `(x, y)` sorts: top to bottom decides, with the top coarsened to
/// 4 pt (50,800 EMU) so that shapes whose tops differ by a hair still read left to right.
fn sort_key((x, y): (i64, i64)) -> (i64, i64) {
    (y / 50_800, x)
}

/// Turns one shape into blocks of `page` (the first title becomes the slide's title).
#[allow(clippy::too_many_arguments)]
fn slide_blocks(
    s: Shape,
    title: &mut Option<String>,
    page: &mut Page,
    rels: &HashMap<String, Rel>,
    zip: &mut Zip<'_>,
    budget: &mut TableBudget,
    warnings: &mut Vec<String>,
) -> Result<(), DocError> {
    let role = s.role();
    if let Some(id) = &s.chart {
        if let Some(rel) = rels.get(id).filter(|r| !r.external)
            && let Some(x) = zip.read_optional(&rel.target, warnings)?
        {
            match chart(&x, &rel.target) {
                Ok(c) => {
                    page.blocks
                        .push(Block::figure(c.title.or(c.kind).unwrap_or_default()));
                    if let Some(t) = c.table.and_then(|t| budget.admit(t, warnings)) {
                        page.blocks.push(Block::table(t));
                    }
                }
                Err(e) => warnings.push(format!("{e}: chart left out")),
            }
        }
        return Ok(());
    }
    if let Some(g) = s.table {
        if let Some(t) = grid_table(g, budget, warnings) {
            page.blocks.push(Block::table(t));
        }
        return Ok(());
    }
    if s.picture {
        page.blocks.push(Block::picture(s.descr.trim(), s.image));
        return Ok(());
    }
    if role == Role::Title && title.is_none() {
        let t: Vec<String> = s.paras.iter().map(|p| p.text.replace('\n', " ")).collect();
        let t = t.join(" ");
        if !t.trim().is_empty() {
            *title = Some(t);
            return Ok(());
        }
    }
    for p in s.paras {
        let bullet = match (p.bullet, p.bullet_none, &role) {
            (Some(ordered), _, _) => Some(ordered),
            (None, true, _) => None,
            (None, false, Role::Body) => Some(false),
            _ => None,
        };
        let block = match (&role, bullet) {
            (Role::Furniture, _) => Block::furniture(p.text),
            (Role::Title, _) => Block::heading(2, p.text.replace('\n', " ")),
            (_, Some(ordered)) => Block::item(p.level, ordered, p.text.replace('\n', " ")),
            (_, None) => Block::para(p.text),
        };
        page.blocks.push(block.with_links(p.links));
    }
    Ok(())
}

/// A table shape on a grid: each `a:tc` takes the next column; cells that a merge covers
/// (`hMerge`, `vMerge`) are left out.
fn grid_table(g: Grid, budget: &mut TableBudget, warnings: &mut Vec<String>) -> Option<Table> {
    let rows = g.rows.len();
    let mut cells = Vec::new();
    for (r, row) in g.rows.into_iter().enumerate() {
        for (c, pc) in row.into_iter().enumerate() {
            if pc.covered {
                continue;
            }
            cells.push(Cell {
                r,
                c,
                rowspan: pc.rowspan.min(rows - r),
                colspan: pc.colspan,
                text: pc.text,
                header: r == 0,
            });
        }
    }
    budget.finish(cells, rows, None, warnings)
}

/// The speaker notes: the notes page's body placeholder text.
fn notes_text(xml: &str, part: &str) -> String {
    let Ok(shapes) = shapes_of(xml, part, &HashMap::new()) else {
        return String::new();
    };
    shapes
        .into_iter()
        .filter(|s| s.ph_type.as_deref() == Some("body"))
        .flat_map(|s| s.paras)
        .map(|p| p.text.replace('\n', " "))
        .collect::<Vec<_>>()
        .join(" ")
}
