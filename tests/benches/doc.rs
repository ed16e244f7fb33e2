//! `doc extract` benchmark: throughput (MB/s, pages/s or cells/s, median of 5) and peak
//! heap of the readers plus Markdown rendering on a 200-page text PDF and a 50,000-cell
//! spreadsheet, both generated here (lopdf, and the zip writer for the XLSX parts).
//!
//! Each is also run through a worker process (`doc extract`'s real path: bytes over a pipe
//! to the sandboxed worker, text back), median of 5, on the same file in the same run.
//!
//! Run: `cargo bench -p paw-tests --bench doc`.

use std::io::Write;
use std::time::Instant;

use paw_daemon::commands::doc::model::{Mode, render};
use paw_daemon::commands::doc::{pdf, xlsx};
use paw_tests::alloc::{Counting, live, peak, reset_peak};
use paw_tests::workers::Workers;

#[global_allocator]
static ALLOC: Counting = Counting;

const PAGES: usize = 200;
const ROWS: usize = 5_000;
const COLS: usize = 10;

fn pdf_doc() -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(
        dictionary! {"Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica"},
    );
    let resources = doc.add_object(dictionary! {"Font" => dictionary! {"F1" => font}});
    let mut kids: Vec<Object> = Vec::new();
    for p in 0..PAGES {
        let mut ops = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 10.into()]),
            Operation::new("TL", vec![12.into()]),
            Operation::new("Td", vec![50.into(), 750.into()]),
        ];
        for l in 0..50 {
            ops.push(Operation::new(
                "Tj",
                vec![Object::string_literal(format!(
                    "Page {p} line {l}: the quick brown fox jumps over the lazy dog again."
                ))],
            ));
            ops.push(Operation::new("T*", vec![]));
        }
        ops.push(Operation::new("ET", vec![]));
        let content = Content { operations: ops }.encode().expect("encode");
        let c = doc.add_object(Stream::new(dictionary! {}, content));
        kids.push(
            doc.add_object(dictionary! {"Type" => "Page", "Parent" => pages_id, "Contents" => c})
                .into(),
        );
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => PAGES as i64, "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => pages_id});
    doc.trailer.set("Root", catalog);
    let mut buf = Vec::new();
    doc.save_to(&mut buf).expect("save");
    buf
}

fn xlsx_doc() -> Vec<u8> {
    let ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let mut rows = String::new();
    for r in 1..=ROWS {
        rows.push_str(&format!("<row r=\"{r}\">"));
        for c in 0..COLS {
            let col = (b'A' + c as u8) as char;
            if c % 2 == 0 {
                rows.push_str(&format!(
                    "<c r=\"{col}{r}\" t=\"inlineStr\"><is><t>item {r}-{c}</t></is></c>"
                ));
            } else {
                rows.push_str(&format!("<c r=\"{col}{r}\"><v>{}.25</v></c>", r * c));
            }
        }
        rows.push_str("</row>");
    }
    let parts = [
        (
            "_rels/.rels".to_string(),
            format!(
                "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rel}/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"
            ),
        ),
        (
            "xl/workbook.xml".to_string(),
            format!(
                "<workbook xmlns=\"{ns}\" xmlns:r=\"{rel}\"><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
            ),
        ),
        (
            "xl/_rels/workbook.xml.rels".to_string(),
            format!(
                "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"{rel}/worksheet\" Target=\"worksheets/sheet1.xml\"/></Relationships>"
            ),
        ),
        (
            "xl/worksheets/sheet1.xml".to_string(),
            format!("<worksheet xmlns=\"{ns}\"><sheetData>{rows}</sheetData></worksheet>"),
        ),
    ];
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in parts {
        w.start_file(name, opts).expect("start");
        w.write_all(body.as_bytes()).expect("write");
    }
    w.finish().expect("finish").into_inner()
}

/// Median seconds of 5 runs of `f`, and the peak heap of one run above what was live.
fn measure(mut f: impl FnMut() -> usize) -> (f64, usize, usize) {
    let mut secs = Vec::new();
    let mut chars = 0;
    for _ in 0..5 {
        let t = Instant::now();
        chars = std::hint::black_box(f());
        secs.push(t.elapsed().as_secs_f64());
    }
    secs.sort_by(f64::total_cmp);
    let base = live();
    reset_peak();
    std::hint::black_box(f());
    (secs[2], peak() - base, chars)
}

/// Median seconds of 5 `doc` jobs on `bytes` through a worker.
fn through_worker(w: &Workers, bytes: &[u8]) -> f64 {
    let mut secs: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let (info, _) =
                w.rt.block_on(w.pool.doc(bytes.to_vec(), None, Mode::Md, 0, None))
                    .expect("doc in a worker");
            assert!(info.chars > 0);
            t.elapsed().as_secs_f64()
        })
        .collect();
    secs.sort_by(f64::total_cmp);
    secs[2]
}

fn main() {
    let w = Workers::start(1);
    let pdf_bytes = pdf_doc();
    let (s, heap, chars) = measure(|| {
        let blocks = pdf::pdf(&pdf_bytes).expect("pdf");
        assert_eq!(blocks.pages.len(), PAGES);
        render(&blocks, Mode::Md).len()
    });
    let mb = pdf_bytes.len() as f64 / 1e6;
    println!(
        "PDF, {PAGES} pages, {:.2} MB, {chars} bytes of Markdown: median {:.0} ms = {:.2} MB/s, {:.0} pages/s; peak heap {:.1} MiB ({:.1}× the file)",
        mb,
        s * 1e3,
        mb / s,
        PAGES as f64 / s,
        heap as f64 / (1 << 20) as f64,
        heap as f64 / pdf_bytes.len() as f64
    );
    let sw = through_worker(&w, &pdf_bytes);
    println!(
        "  through a worker: median {:.0} ms = {:.2} MB/s, {:.0} pages/s ({:+.1} % against in process)",
        sw * 1e3,
        mb / sw,
        PAGES as f64 / sw,
        (sw / s - 1.0) * 100.0
    );

    let xlsx_bytes = xlsx_doc();
    let (s, heap, chars) = measure(|| {
        let blocks = xlsx::xlsx(&xlsx_bytes).expect("xlsx");
        assert_eq!(blocks.pages.len(), 1);
        render(&blocks, Mode::Md).len()
    });
    let mb = xlsx_bytes.len() as f64 / 1e6;
    let cells = ROWS * COLS;
    println!(
        "XLSX, {cells} cells, {:.2} MB zipped, {chars} bytes of Markdown: median {:.0} ms = {:.2} MB/s, {:.0} cells/s; peak heap {:.1} MiB ({:.1}× the file)",
        mb,
        s * 1e3,
        mb / s,
        cells as f64 / s,
        heap as f64 / (1 << 20) as f64,
        heap as f64 / xlsx_bytes.len() as f64
    );
    let sw = through_worker(&w, &xlsx_bytes);
    println!(
        "  through a worker: median {:.0} ms = {:.2} MB/s, {:.0} cells/s ({:+.1} % against in process)",
        sw * 1e3,
        mb / sw,
        cells as f64 / sw,
        (sw / s - 1.0) * 100.0
    );
}
