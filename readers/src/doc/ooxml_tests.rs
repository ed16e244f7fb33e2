//! The Office readers on documents built here part by part: DOCX styles, numbering, merged
//! cells, notes, links, text boxes, equations; PPTX order, tables, charts and notes; XLSX
//! blocks and merges; and the caps that keep hostile spans and nesting bounded.

use super::Mode;
use super::model::{Document, Kind, render};
use super::ooxml::{self, MAX_TABLE_COLS};
use super::tests::zip_of;
use super::{docx, pptx, xlsx};

const NS: &str = "xmlns:w=\"w\" xmlns:r=\"r\" xmlns:m=\"m\" xmlns:mc=\"mc\" xmlns:wp=\"wp\" xmlns:a=\"a\" xmlns:pic=\"pic\"";

fn docx_with(body: &str, extra: &[(&str, &str)]) -> Document {
    let doc = format!("<w:document {NS}><w:body>{body}</w:body></w:document>");
    let mut parts = vec![("word/document.xml", doc.as_str())];
    parts.extend_from_slice(extra);
    docx::read(&zip_of(&parts)).expect("docx")
}

fn p(style: &str, text: &str) -> String {
    format!("<w:p><w:pPr><w:pStyle w:val=\"{style}\"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>")
}

fn run(text: &str) -> String {
    format!("<w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r>")
}

const STYLES: &str = "<w:styles>\
    <w:style w:type=\"paragraph\" w:styleId=\"berschrift1\"><w:name w:val=\"heading 1\"/><w:pPr><w:numPr><w:numId w:val=\"7\"/></w:numPr><w:outlineLvl w:val=\"0\"/></w:pPr></w:style>\
    <w:style w:type=\"paragraph\" w:styleId=\"berschrift2\"><w:name w:val=\"heading 2\"/><w:basedOn w:val=\"berschrift1\"/><w:pPr><w:numPr><w:ilvl w:val=\"1\"/><w:numId w:val=\"7\"/></w:numPr></w:pPr></w:style>\
    <w:style w:type=\"paragraph\" w:styleId=\"Chapter\"><w:name w:val=\"My Chapter\"/><w:basedOn w:val=\"berschrift2\"/></w:style>\
    <w:style w:type=\"paragraph\" w:styleId=\"Loop1\"><w:name w:val=\"Loop one\"/><w:basedOn w:val=\"Loop2\"/></w:style>\
    <w:style w:type=\"paragraph\" w:styleId=\"Loop2\"><w:name w:val=\"Loop two\"/><w:basedOn w:val=\"Loop1\"/></w:style>\
    <w:style w:type=\"paragraph\" w:styleId=\"Titel\"><w:name w:val=\"Title\"/></w:style>\
    <w:style w:type=\"paragraph\" w:styleId=\"Quelltext\"><w:name w:val=\"Source Code\"/></w:style>\
    </w:styles>";

const NUMBERING: &str = "<w:numbering>\
    <w:abstractNum w:abstractNumId=\"1\"><w:lvl w:ilvl=\"0\"><w:start w:val=\"1\"/><w:numFmt w:val=\"decimal\"/><w:lvlText w:val=\"%1.\"/></w:lvl>\
    <w:lvl w:ilvl=\"1\"><w:start w:val=\"1\"/><w:numFmt w:val=\"decimal\"/><w:lvlText w:val=\"%1.%2\"/></w:lvl></w:abstractNum>\
    <w:abstractNum w:abstractNumId=\"2\"><w:lvl w:ilvl=\"0\"><w:numFmt w:val=\"bullet\"/><w:lvlText w:val=\"•\"/></w:lvl>\
    <w:lvl w:ilvl=\"1\"><w:numFmt w:val=\"lowerLetter\"/><w:lvlText w:val=\"%2)\"/></w:lvl></w:abstractNum>\
    <w:num w:numId=\"7\"><w:abstractNumId w:val=\"1\"/></w:num>\
    <w:num w:numId=\"3\"><w:abstractNumId w:val=\"2\"/></w:num>\
    </w:numbering>";

fn li(num: &str, lvl: u8, text: &str) -> String {
    format!(
        "<w:p><w:pPr><w:numPr><w:ilvl w:val=\"{lvl}\"/><w:numId w:val=\"{num}\"/></w:numPr></w:pPr>{}</w:p>",
        run(text)
    )
}

#[test]
fn docx_headings_come_from_styles_with_their_numbers() {
    let body = [
        p("Titel", "Report"),
        p("berschrift1", "Introduction"),
        p("berschrift2", "Scope"),
        p("Chapter", "Methods"),
        p("berschrift1", "Results"),
        p("Loop1", "A style cycle ends"),
        "<w:p><w:pPr><w:outlineLvl w:val=\"2\"/></w:pPr><w:r><w:t>Direct outline</w:t></w:r></w:p>"
            .into(),
    ]
    .concat();
    let d = docx_with(
        &body,
        &[
            ("word/styles.xml", STYLES),
            ("word/numbering.xml", NUMBERING),
        ],
    );
    assert_eq!(
        render(&d, Mode::Md),
        "# Report\n\n## 1. Introduction\n\n### 1.1 Scope\n\n### 1.2 Methods\n\n## 2. Results\n\nA style cycle ends\n\n#### Direct outline\n"
    );
}

#[test]
fn docx_lists_nest_and_take_their_kind_per_level() {
    let body = [
        li("3", 0, "fruit"),
        li("3", 1, "apple"),
        li("3", 1, "pear"),
        li("3", 0, "vegetables"),
        li("0", 0, "numId 0 is no list"),
    ]
    .concat();
    let d = docx_with(&body, &[("word/numbering.xml", NUMBERING)]);
    assert_eq!(
        render(&d, Mode::Md),
        "- fruit\n   1. apple\n   2. pear\n- vegetables\n\nnumId 0 is no list\n"
    );
    let items = d.pages[0].blocks[0].items.as_ref().expect("list");
    assert_eq!(
        items
            .iter()
            .map(|i| (i.level, i.ordered))
            .collect::<Vec<_>>(),
        vec![(0, false), (1, true), (1, true), (0, false)]
    );
}

fn tc(props: &str, text: &str) -> String {
    format!(
        "<w:tc><w:tcPr>{props}</w:tcPr><w:p>{}</w:p></w:tc>",
        run(text)
    )
}

#[test]
fn docx_merged_cells_become_spans_and_nested_tables_text() {
    let nested = format!(
        "<w:tc><w:p>{}</w:p><w:tbl><w:tr>{}{}</w:tr></w:tbl></w:tc>",
        run("outer"),
        tc("", "in1"),
        tc("", "in2")
    );
    let body = format!(
        "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>\
         <w:tr><w:trPr><w:tblHeader/></w:trPr>{}{}</w:tr>\
         <w:tr>{}{}{}</w:tr>\
         <w:tr>{}{}{}</w:tr>\
         <w:tr>{}{}</w:tr></w:tbl>",
        tc("<w:gridSpan w:val=\"2\"/>", "Wide"),
        tc("", "C"),
        tc("<w:vMerge w:val=\"restart\"/>", "Tall"),
        tc("", "b1"),
        tc("", "c1"),
        tc("<w:vMerge/>", ""),
        tc("", "b2"),
        tc("", "c2"),
        tc("<w:gridSpan w:val=\"2\"/>", "x"),
        nested,
    );
    let d = docx_with(&body, &[]);
    let t = d.pages[0].blocks[0].table.as_ref().expect("table");
    assert_eq!((t.rows, t.cols), (4, 3));
    let wide = &t.cells[0];
    assert_eq!((wide.r, wide.c, wide.colspan, wide.header), (0, 0, 2, true));
    let tall = t.cells.iter().find(|c| c.text == "Tall").expect("tall");
    assert_eq!((tall.r, tall.c, tall.rowspan), (1, 0, 2));
    assert!(!tall.header);
    let last = t
        .cells
        .iter()
        .find(|c| c.r == 3 && c.c == 2)
        .expect("nested");
    assert_eq!(last.text, "outer in1 in2");
    assert!(t.note.as_deref().unwrap_or("").contains("nested"), "{t:?}");
    assert_eq!(
        t.grid(),
        vec![
            vec!["Wide", "Wide", "C"],
            vec!["Tall", "b1", "c1"],
            vec!["Tall", "b2", "c2"],
            vec!["x", "x", "outer in1 in2"],
        ]
    );
}

#[test]
fn docx_a_one_cell_table_is_read_as_its_content() {
    let body = format!(
        "<w:tbl><w:tr><w:tc>{}{}<w:tbl><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl></w:tc></w:tr></w:tbl>",
        p("Normal", "Boxed note"),
        li("3", 0, "point"),
        tc("", "h1"),
        tc("", "h2"),
        tc("", "v1"),
        tc("", "v2"),
    );
    let d = docx_with(&body, &[("word/numbering.xml", NUMBERING)]);
    assert_eq!(
        render(&d, Mode::Md),
        "Boxed note\n\n- point\n\n| h1 | h2 |\n| --- | --- |\n| v1 | v2 |\n"
    );
}

#[test]
fn docx_hostile_spans_and_rows_stay_within_the_caps() {
    // One cell claiming a million columns, and rows past the per-document budget.
    let wide = format!(
        "<w:tbl><w:tr>{}{}</w:tr></w:tbl>",
        tc("<w:gridSpan w:val=\"1000000\"/>", "a"),
        tc("<w:gridSpan w:val=\"99999999999999999999\"/>", "b")
    );
    let d = docx_with(&wide, &[]);
    let t = d.pages[0].blocks[0].table.as_ref().expect("table");
    assert_eq!(t.cols, MAX_TABLE_COLS);
    assert!(t.cells.iter().all(|c| c.c + c.colspan <= t.cols));

    let row = format!("<w:tr>{}</w:tr>", tc("<w:gridSpan w:val=\"1000\"/>", "r"));
    let tall = format!("<w:tbl>{}</w:tbl>", row.repeat(3_000));
    let d = docx_with(&tall, &[]);
    let t = d.pages[0].blocks[0].table.as_ref().expect("table");
    assert!(t.rows * t.cols <= ooxml::MAX_TABLE_POSITIONS, "{}", t.rows);
    assert!(
        t.note.as_deref().unwrap_or("").contains("cut"),
        "{:?}",
        t.note
    );
    assert!(
        d.warnings.iter().any(|w| w.contains("table cut")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn docx_deeply_nested_tables_are_read_without_recursion() {
    let depth = 20_000;
    let body = format!(
        "{}<w:p><w:r><w:t>deep</w:t></w:r></w:p>{}",
        "<w:tbl><w:tr><w:tc>".repeat(depth),
        "</w:tc></w:tr></w:tbl>".repeat(depth)
    );
    let d = docx_with(&body, &[]);
    assert_eq!(render(&d, Mode::Text).trim(), "deep");
}

#[test]
fn docx_links_notes_boxes_math_and_revisions() {
    let rels = "<Relationships><Relationship Id=\"rId9\" Type=\"x/hyperlink\" Target=\"https://example.org/a?b=1&amp;c=2\" TargetMode=\"External\"/></Relationships>";
    let footnotes = "<w:footnotes><w:footnote w:type=\"separator\" w:id=\"-1\"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>\
        <w:footnote w:id=\"2\"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space=\"preserve\"> A source.</w:t></w:r></w:p></w:footnote></w:footnotes>";
    let body = [
        format!(
            "<w:p>{}<w:hyperlink r:id=\"rId9\">{}</w:hyperlink>{}<w:r><w:footnoteReference w:id=\"2\"/></w:r></w:p>",
            run("See "),
            run("the site"),
            run(".")
        ),
        format!(
            "<w:p>{}<w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText xml:space=\"preserve\"> HYPERLINK \"https://field.example/\" </w:instrText></w:r><w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>{}<w:r><w:fldChar w:fldCharType=\"end\"/></w:r></w:p>",
            run("Field "),
            run("link")
        ),
        format!(
            "<w:p>{}<w:r><mc:AlternateContent><mc:Choice Requires=\"wps\"><w:drawing><w:txbxContent><w:p>{}</w:p></w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent><w:p>{}</w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>",
            run("Anchor"),
            run("Boxed once"),
            run("Boxed once")
        ),
        "<w:p><w:r><w:t xml:space=\"preserve\">Area </w:t></w:r><m:oMath><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f><m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath></w:p>".to_string(),
        format!(
            "<w:p>{}<w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins>{}</w:ins><w:sdt><w:sdtContent>{}</w:sdtContent></w:sdt></w:p>",
            run("Kept "),
            run("added "),
            run("controlled")
        ),
    ]
    .concat();
    let d = docx_with(
        &body,
        &[
            ("word/_rels/document.xml.rels", rels),
            ("word/footnotes.xml", footnotes),
        ],
    );
    let md = render(&d, Mode::Md);
    assert_eq!(
        md,
        "See [the site](https://example.org/a?b=1&c=2).[^1]\n\nField [link](https://field.example/)\n\nBoxed once\n\nAnchor\n\nArea (a)/(b)x^(2)\n\nKept added controlled\n\n[^1]: A source.\n"
    );
    let note = d.pages[0].blocks.last().expect("note");
    assert_eq!(note.note.as_deref(), Some("1"));
}

#[test]
fn docx_code_figures_furniture_pages_and_metadata() {
    let mono = |t: &str| {
        format!(
            "<w:p><w:r><w:rPr><w:rFonts w:ascii=\"Courier New\" w:hAnsi=\"Courier New\"/></w:rPr><w:t xml:space=\"preserve\">{t}</w:t></w:r></w:p>"
        )
    };
    let body = [
        p("Quelltext", "fn main() {"),
        mono("    println!();"),
        mono("}"),
        "<w:p><w:r><w:drawing><wp:inline><wp:docPr id=\"1\" name=\"Picture 1\" descr=\"A duck\"/><a:graphic><a:graphicData><pic:pic><pic:nvPicPr><pic:cNvPr id=\"0\" name=\"duck.png\"/></pic:nvPicPr><pic:blipFill><a:blip r:embed=\"rId5\"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>".to_string(),
        format!("<w:p>{}<w:r><w:br w:type=\"page\"/></w:r></w:p>", run("End of one.")),
        format!("<w:p><w:r><w:lastRenderedPageBreak/></w:r>{}</w:p>", run("Page two.")),
    ]
    .concat();
    let core = "<cp:coreProperties xmlns:cp=\"cp\" xmlns:dc=\"dc\" xmlns:dcterms=\"dcterms\"><dc:title>Ducks</dc:title><dc:creator>Ann</dc:creator><dcterms:created>2026-01-02T03:04:05Z</dcterms:created></cp:coreProperties>";
    let header = format!("<w:hdr {NS}><w:p>{}</w:p></w:hdr>", run("Confidential"));
    let d = docx_with(
        &body,
        &[
            ("word/styles.xml", STYLES),
            ("docProps/core.xml", core),
            ("word/header1.xml", &header),
        ],
    );
    assert_eq!(d.pages.len(), 2, "{d:?}");
    assert_eq!(
        render(&d, Mode::Md),
        "```\nfn main() {\n    println!();\n}\n```\n\n![A duck]()\n\nEnd of one.\n\nPage two.\n"
    );
    assert_eq!(d.pages[0].blocks[0].kind, Kind::Furniture);
    assert_eq!(d.pages[0].blocks[0].text(), "Confidential");
    assert_eq!(d.metadata.title.as_deref(), Some("Ducks"));
    assert_eq!(d.metadata.author.as_deref(), Some("Ann"));
    assert_eq!(d.metadata.created.as_deref(), Some("2026-01-02T03:04:05Z"));
}

const PNS: &str = "xmlns:p=\"p\" xmlns:a=\"a\" xmlns:r=\"r\" xmlns:c=\"c\"";

fn sp(ph: &str, x: i64, y: i64, paras: &str) -> String {
    let xfrm = if x < 0 {
        String::new()
    } else {
        format!("<a:xfrm><a:off x=\"{x}\" y=\"{y}\"/><a:ext cx=\"100\" cy=\"100\"/></a:xfrm>")
    };
    format!(
        "<p:sp><p:nvSpPr><p:cNvPr id=\"2\" name=\"s\"/><p:cNvSpPr/><p:nvPr>{ph}</p:nvPr></p:nvSpPr><p:spPr>{xfrm}</p:spPr><p:txBody>{paras}</p:txBody></p:sp>"
    )
}

fn ap(ppr: &str, text: &str) -> String {
    format!("<a:p>{ppr}<a:r><a:t>{text}</a:t></a:r></a:p>")
}

fn pptx_doc(slides: &[(&str, &str)], extra: &[(&str, &str)]) -> Document {
    let ids: String = (0..slides.len())
        .rev()
        .map(|i| format!("<p:sldId id=\"{}\" r:id=\"rId{}\"/>", 256 + i, i + 1))
        .collect();
    let pres = format!(
        "<p:presentation {PNS}><p:sldIdLst>{ids}</p:sldIdLst><p:sldSz cx=\"9144000\" cy=\"6858000\"/></p:presentation>"
    );
    let rels: String = slides
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            format!(
                "<Relationship Id=\"rId{}\" Type=\"x/slide\" Target=\"slides/{name}\"/>",
                i + 1
            )
        })
        .collect();
    let rels = format!("<Relationships>{rels}</Relationships>");
    let names: Vec<String> = slides
        .iter()
        .map(|(n, _)| format!("ppt/slides/{n}"))
        .collect();
    let mut parts: Vec<(&str, &str)> = vec![
        ("ppt/presentation.xml", &pres),
        ("ppt/_rels/presentation.xml.rels", &rels),
    ];
    for (n, (_, body)) in names.iter().zip(slides) {
        parts.push((n, body));
    }
    parts.extend_from_slice(extra);
    pptx::read(&zip_of(&parts)).expect("pptx")
}

#[test]
fn pptx_reads_slides_in_list_order_and_shapes_in_reading_order() {
    let title = "<p:ph type=\"title\"/>";
    // Document order: body, text box (lower), picture; positions put the text box last.
    let group = format!(
        "<p:grpSp><p:nvGrpSpPr/><p:grpSpPr><a:xfrm><a:off x=\"0\" y=\"5000000\"/></a:xfrm></p:grpSpPr>{}{}</p:grpSp>",
        sp("", 500, 900, &ap("", "group second")),
        sp("", 100, 100, &ap("", "group first"))
    );
    let first = format!(
        "<p:sld {PNS}><p:cSld><p:spTree>{}{}{}{}<p:pic><p:nvPicPr><p:cNvPr id=\"9\" name=\"p\" descr=\"A chart of ducks\"/></p:nvPicPr><p:spPr><a:xfrm><a:off x=\"0\" y=\"3000000\"/></a:xfrm></p:spPr></p:pic></p:spTree></p:cSld></p:sld>",
        sp(
            "<p:ph idx=\"1\"/>",
            0,
            2_000_000,
            &[
                ap("", "bullet one"),
                ap("<a:pPr lvl=\"1\"/>", "bullet two"),
                ap("<a:pPr><a:buNone/></a:pPr>", "plain line"),
                ap(
                    "<a:pPr><a:buAutoNum type=\"arabicPeriod\"/></a:pPr>",
                    "step"
                ),
            ]
            .concat()
        ),
        group,
        sp("", 0, 4_000_000, &ap("", "A text box paragraph")),
        sp(title, -1, 0, &ap("", "Agenda")),
    );
    let second = format!(
        "<p:sld {PNS}><p:cSld><p:spTree>{}</p:spTree></p:cSld></p:sld>",
        sp(title, 0, 0, &ap("", "Listed first"))
    );
    // The list names slide2.xml before slide1.xml.
    let d = pptx_doc(&[("slide1.xml", &first), ("slide2.xml", &second)], &[]);
    assert_eq!(d.pages[0].width, Some(720.0));
    assert_eq!(d.pages[0].height, Some(540.0));
    assert_eq!(
        render(&d, Mode::Md),
        "<!-- Slide 1 -->\n\n# Listed first\n\n<!-- Slide 2 -->\n\n# Agenda\n\n- bullet one\n  - bullet two\n\nplain line\n\n1. step\n\n![A chart of ducks]()\n\nA text box paragraph\n\ngroup first\n\ngroup second\n"
    );
}

#[test]
fn pptx_tables_charts_and_notes() {
    let tc = |attrs: &str, t: &str| {
        format!("<a:tc {attrs}><a:txBody><a:p><a:r><a:t>{t}</a:t></a:r></a:p></a:txBody></a:tc>")
    };
    let tbl = format!(
        "<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id=\"4\" name=\"t\"/></p:nvGraphicFramePr><p:xfrm><a:off x=\"0\" y=\"100\"/></p:xfrm><a:graphic><a:graphicData><a:tbl><a:tblGrid><a:gridCol/><a:gridCol/><a:gridCol/></a:tblGrid>\
         <a:tr>{}{}{}</a:tr><a:tr>{}{}{}</a:tr><a:tr>{}{}{}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>",
        tc("", ""),
        tc("gridSpan=\"2\"", "Class"),
        tc("hMerge=\"1\"", ""),
        tc("rowSpan=\"2\"", "R1"),
        tc("", "a"),
        tc("", "b"),
        tc("vMerge=\"1\"", ""),
        tc("", "c"),
        tc("", "d"),
    );
    let chart_frame = "<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id=\"5\" name=\"c\"/></p:nvGraphicFramePr><p:xfrm><a:off x=\"0\" y=\"900\"/></p:xfrm><a:graphic><a:graphicData><c:chart r:id=\"rId2\"/></a:graphicData></a:graphic></p:graphicFrame>";
    let slide =
        format!("<p:sld {PNS}><p:cSld><p:spTree>{tbl}{chart_frame}</p:spTree></p:cSld></p:sld>");
    let srels = "<Relationships><Relationship Id=\"rId2\" Type=\"x/chart\" Target=\"../charts/chart1.xml\"/><Relationship Id=\"rId3\" Type=\"x/notesSlide\" Target=\"../notesSlides/notesSlide1.xml\"/></Relationships>";
    let pt = |i: usize, v: &str| format!("<c:pt idx=\"{i}\"><c:v>{v}</c:v></c:pt>");
    let ser = |name: &str, vals: [&str; 2]| {
        format!(
            "<c:ser><c:tx><c:strRef><c:strCache>{}</c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache>{}{}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache>{}{}</c:numCache></c:numRef></c:val></c:ser>",
            pt(0, name),
            pt(0, "2019"),
            pt(1, "2020"),
            pt(0, vals[0]),
            pt(1, vals[1])
        )
    };
    let chart = format!(
        "<c:chartSpace {PNS}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Ducks by year</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>{}{}</c:barChart><c:valAx><c:title><c:tx><c:rich><a:p><a:r><a:t>axis</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx></c:plotArea></c:chart></c:chartSpace>",
        ser("Fresh", ["120", "130"]),
        ser("Salt", ["80", "95"])
    );
    let notes = format!(
        "<p:notes {PNS}><p:cSld><p:spTree>{}{}</p:spTree></p:cSld></p:notes>",
        sp("<p:ph type=\"sldImg\"/>", 0, 0, ""),
        sp(
            "<p:ph type=\"body\" idx=\"1\"/>",
            0,
            10,
            &ap("", "Say hello.")
        )
    );
    let d = pptx_doc(
        &[("slide1.xml", &slide)],
        &[
            ("ppt/slides/_rels/slide1.xml.rels", srels),
            ("ppt/charts/chart1.xml", &chart),
            ("ppt/notesSlides/notesSlide1.xml", &notes),
        ],
    );
    assert_eq!(d.tables(), 2);
    let t = d.pages[0].blocks[0].table.as_ref().expect("table");
    assert_eq!((t.rows, t.cols), (3, 3));
    let class = t.cells.iter().find(|c| c.text == "Class").expect("class");
    assert_eq!((class.c, class.colspan), (1, 2));
    let r1 = t.cells.iter().find(|c| c.text == "R1").expect("r1");
    assert_eq!(r1.rowspan, 2);
    assert_eq!(
        render(&d, Mode::Md),
        "<!-- Slide 1 -->\n\n|  | Class | Class |\n| --- | --- | --- |\n| R1 | a | b |\n| R1 | c | d |\n\n![Ducks by year]()\n\n|  | Fresh | Salt |\n| --- | --- | --- |\n| 2019 | 120 | 80 |\n| 2020 | 130 | 95 |\n\nNotes: Say hello.\n"
    );
}

#[test]
fn pptx_without_a_slide_list_falls_back_to_part_numbers() {
    let s = |t: &str| format!("<p:sld {PNS}><a:p><a:r><a:t>{t}</a:t></a:r></a:p></p:sld>");
    let (s2, s10) = (s("two"), s("ten"));
    let bytes = zip_of(&[
        ("ppt/presentation.xml", "<p:presentation/>"),
        ("ppt/slides/slide10.xml", &s10),
        ("ppt/slides/slide2.xml", &s2),
    ]);
    let d = pptx::read(&bytes).expect("pptx");
    assert_eq!(
        render(&d, Mode::Text),
        "=== Slide 1 ===\n\ntwo\n\n=== Slide 2 ===\n\nten\n"
    );
}

pub(super) fn workbook(sheets: &[(&str, &str, &str)], extra: &[(&str, &str)]) -> Vec<u8> {
    let ns = "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
    let rt = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let list: String = sheets
        .iter()
        .enumerate()
        .map(|(i, (name, state, _))| {
            format!(
                "<sheet name=\"{name}\" sheetId=\"{}\" {state} r:id=\"rId{}\"/>",
                i + 1,
                i + 1
            )
        })
        .collect();
    let wb = format!("<workbook {ns}><sheets>{list}</sheets></workbook>");
    let rels: String = (0..sheets.len())
        .map(|i| {
            format!(
                "<Relationship Id=\"rId{}\" Type=\"{rt}/worksheet\" Target=\"worksheets/sheet{}.xml\"/>",
                i + 1,
                i + 1
            )
        })
        .collect();
    let rels = format!(
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">{rels}</Relationships>"
    );
    let root = format!(
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rt}/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
    );
    let names: Vec<String> = (0..sheets.len())
        .map(|i| format!("xl/worksheets/sheet{}.xml", i + 1))
        .collect();
    let bodies: Vec<String> = sheets
        .iter()
        .map(|(_, _, body)| {
            format!(
                "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">{body}</worksheet>"
            )
        })
        .collect();
    let mut parts: Vec<(&str, &str)> = vec![
        ("[Content_Types].xml", "<Types/>"),
        ("_rels/.rels", &root),
        ("xl/workbook.xml", &wb),
        ("xl/_rels/workbook.xml.rels", &rels),
    ];
    for (n, b) in names.iter().zip(&bodies) {
        parts.push((n, b));
    }
    parts.extend_from_slice(extra);
    zip_of(&parts)
}

pub(super) fn c(r: &str, v: &str) -> String {
    if v.parse::<f64>().is_ok() {
        format!("<c r=\"{r}\"><v>{v}</v></c>")
    } else {
        format!("<c r=\"{r}\" t=\"inlineStr\"><is><t>{v}</t></is></c>")
    }
}

#[test]
fn xlsx_sheets_split_into_titles_and_tables_with_merges() {
    // A1 title; rows 3-5 a table with a merged header over A3:B3; column D empty; a second
    // table at E3:F4; a merged title over a table with no blank row (rows 7-10).
    let rows = [
        format!("<row r=\"1\">{}</row>", c("A1", "Duck survey")),
        format!(
            "<row r=\"3\">{}{}{}</row>",
            c("A3", "Counts"),
            c("C3", "Note"),
            c("E3", "Site")
        ),
        format!(
            "<row r=\"4\">{}{}{}{}{}</row>",
            c("A4", "2019"),
            c("B4", "120"),
            c("C4", "ok"),
            c("E4", "Lake"),
            c("F4", "3")
        ),
        format!(
            "<row r=\"5\">{}{}{}</row>",
            c("A5", "2020"),
            c("B5", "130"),
            c("C5", "ok")
        ),
        format!("<row r=\"7\">{}</row>", c("A7", "Totals")),
        format!("<row r=\"8\">{}{}</row>", c("A8", "Kind"), c("B8", "Sum")),
        format!("<row r=\"9\">{}{}</row>", c("A9", "Fresh"), c("B9", "250")),
    ]
    .concat();
    let sheet = format!(
        "<sheetData>{rows}</sheetData><mergeCells count=\"2\"><mergeCell ref=\"A3:B3\"/><mergeCell ref=\"A7:B7\"/></mergeCells>"
    );
    let bytes = workbook(
        &[
            ("Survey", "", &sheet),
            (
                "Old",
                "state=\"hidden\"",
                &format!(
                    "<sheetData><row r=\"1\">{}</row></sheetData>",
                    c("A1", "kept")
                ),
            ),
        ],
        &[],
    );
    let d = xlsx::read(&bytes).expect("xlsx");
    assert_eq!(
        render(&d, Mode::Md),
        "## Sheet: Survey\n\nDuck survey\n\n| Counts | Counts | Note |\n| --- | --- | --- |\n| 2019 | 120 | ok |\n| 2020 | 130 | ok |\n\n| Site |  |\n| --- | --- |\n| Lake | 3 |\n\nTotals\n\n| Kind | Sum |\n| --- | --- |\n| Fresh | 250 |\n\n## Sheet: Old (hidden)\n\nkept\n"
    );
    let t = d.pages[0].blocks[1].table.as_ref().expect("table");
    assert_eq!(
        (t.cells[0].text.as_str(), t.cells[0].colspan),
        ("Counts", 2)
    );
    assert!(
        d.warnings.iter().any(|w| w.contains("hidden")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn a_chart_point_far_out_costs_rows_under_the_cap_not_memory() {
    let far = "<c:chartSpace xmlns:c=\"c\"><c:chart><c:plotArea><c:lineChart><c:ser><c:val><c:numRef><c:numCache>\
        <c:pt idx=\"0\"><c:v>1</c:v></c:pt><c:pt idx=\"9999\"><c:v>2</c:v></c:pt><c:pt idx=\"18446744073709551615\"><c:v>3</c:v></c:pt>\
        </c:numCache></c:numRef></c:val></c:ser></c:lineChart></c:plotArea></c:chart></c:chartSpace>";
    let frame = "<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id=\"5\" name=\"c\"/></p:nvGraphicFramePr><a:graphic><a:graphicData><c:chart r:id=\"rId2\"/></a:graphicData></a:graphic></p:graphicFrame>";
    let slide = format!("<p:sld {PNS}><p:cSld><p:spTree>{frame}</p:spTree></p:cSld></p:sld>");
    let srels = "<Relationships><Relationship Id=\"rId2\" Type=\"x/chart\" Target=\"../charts/chart1.xml\"/></Relationships>";
    let d = pptx_doc(
        &[("slide1.xml", &slide)],
        &[
            ("ppt/slides/_rels/slide1.xml.rels", srels),
            ("ppt/charts/chart1.xml", far),
        ],
    );
    assert_eq!(d.pages[0].blocks[0].text(), "Line chart");
    let t = d.pages[0].blocks[1].table.as_ref().expect("table");
    assert_eq!((t.rows, t.cols), (10_001, 2));
    assert_eq!(t.cells.len(), 4, "{:?}", t.cells);
}

#[test]
fn xlsx_charts_follow_their_sheet_as_figure_and_data() {
    let sheet = format!(
        "<sheetData><row r=\"1\">{}{}</row><row r=\"2\">{}{}</row></sheetData><drawing r:id=\"rId1\" xmlns:r=\"r\"/>",
        c("A1", "Year"),
        c("B1", "Ducks"),
        c("A2", "2019"),
        c("B2", "120")
    );
    let srels = "<Relationships><Relationship Id=\"rId1\" Type=\"x/drawing\" Target=\"../drawings/drawing1.xml\"/></Relationships>";
    let drawing = "<xdr:wsDr xmlns:xdr=\"xdr\" xmlns:c=\"c\" xmlns:r=\"r\"><xdr:twoCellAnchor><xdr:graphicFrame><a:graphic xmlns:a=\"a\"><a:graphicData><c:chart r:id=\"rId7\"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor></xdr:wsDr>";
    let drels = "<Relationships><Relationship Id=\"rId7\" Type=\"x/chart\" Target=\"../charts/chart1.xml\"/></Relationships>";
    let chart = "<c:chartSpace xmlns:c=\"c\"><c:chart><c:plotArea><c:pieChart><c:ser><c:tx><c:v>Ducks</c:v></c:tx><c:cat><c:strRef><c:strCache><c:pt idx=\"0\"><c:v>2019</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx=\"0\"><c:v>120</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:pieChart></c:plotArea></c:chart></c:chartSpace>";
    let bytes = workbook(
        &[("Data", "", &sheet)],
        &[
            ("xl/worksheets/_rels/sheet1.xml.rels", srels),
            ("xl/drawings/drawing1.xml", drawing),
            ("xl/drawings/_rels/drawing1.xml.rels", drels),
            ("xl/charts/chart1.xml", chart),
        ],
    );
    let d = xlsx::read(&bytes).expect("xlsx");
    assert_eq!(
        render(&d, Mode::Md),
        "## Sheet: Data\n\n| Year | Ducks |\n| --- | --- |\n| 2019 | 120 |\n\n![Pie chart]()\n\n|  | Ducks |\n| --- | --- |\n| 2019 | 120 |\n"
    );
}
