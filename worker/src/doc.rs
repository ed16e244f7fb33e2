//! The `doc` jobs' work: a document read and rendered, or its tables written as files.

use paw_jobs::JobFailure;
use paw_jobs::doc::{DocText, Extract, Tables, TablesReply};
use paw_readers::doc::ocr;
use paw_readers::doc::{Output, read_doc, read_extract, tables};

use crate::Run;

impl Run for Extract {
    fn run(self, input: Vec<u8>) -> Result<(DocText, Vec<u8>), JobFailure> {
        let Some((bytes, data)) = ocr::split_payload(&input, &self.ocr) else {
            return Err(JobFailure::parse("a malformed job (language data)"));
        };
        let settings = ocr::Ocr {
            mode: self.ocr.mode,
            lang: &self.ocr.lang,
            data: &data,
            deferred: self.ocr.deferred,
        };
        let output = Output {
            password: self.password.as_deref(),
            also_text: self.also_text,
            images: self.images,
            images_dir: &self.images_dir,
        };
        read_extract(
            bytes,
            self.format,
            self.mode,
            self.max_chars,
            self.pages,
            Some(&settings),
            &output,
        )
        .map_err(JobFailure::from)
    }
}

impl Run for Tables {
    fn run(self, input: Vec<u8>) -> Result<(TablesReply, Vec<u8>), JobFailure> {
        let d = read_doc(&input, self.format, self.pages, None).map_err(JobFailure::from)?;
        let mut warnings = d.warnings.clone();
        let (tables, bytes) =
            tables::files(&d, self.to, &mut warnings).map_err(JobFailure::from)?;
        Ok((
            TablesReply {
                format: d.format,
                tables,
                warnings,
            },
            bytes,
        ))
    }
}
