//! A worker pool for the benches: the daemon's own `Pool`, running the test worker binary
//! as its workers, or another worker binary ([`Workers::start_exe`]: the extract bench
//! times `target/release/paw-worker` as `scripts/build` leaves it beside the test one).

use std::sync::Arc;

use paw_daemon::commands::doc::jobs as doc_jobs;
use paw_daemon::commands::rss::jobs as rss_jobs;
use paw_daemon::config::WorkerConfig;
use paw_daemon::worker::{Pool, WorkerError};
use paw_jobs::doc::{DocText, Mode, OcrJob};
use paw_jobs::feed::ArticleReply;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// A started pool and the runtime it runs on.
pub struct Workers {
    /// The runtime the pool's tasks run on; drive jobs with `rt.block_on`.
    pub rt: tokio::runtime::Runtime,
    /// The pool.
    pub pool: Arc<Pool>,
    /// The binary its workers run.
    pub exe: std::path::PathBuf,
    stop: CancellationToken,
}

impl Workers {
    /// `processes` warm workers with the default caps, ready when this returns.
    pub fn start(processes: usize) -> Self {
        Self::start_exe(processes, crate::worker_bin())
    }

    /// [`Workers::start`] with `exe` as the worker binary.
    pub fn start_exe(processes: usize, exe: std::path::PathBuf) -> Self {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let stop = CancellationToken::new();
        let cfg = WorkerConfig {
            processes,
            ..WorkerConfig::default()
        };
        let pool = Pool::new(exe.clone(), cfg, TaskTracker::new(), stop.clone());
        rt.block_on(async {
            pool.start();
            // A binary that cannot start would leave this waiting for ever: 10 s, then say so.
            let since = std::time::Instant::now();
            while pool.stats().alive < processes {
                assert!(
                    since.elapsed() < std::time::Duration::from_secs(10),
                    "{}: no worker started within 10 s",
                    exe.display()
                );
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
        });
        Workers {
            rt,
            pool,
            exe,
            stop,
        }
    }
}

impl Workers {
    /// One `doc` job as `doc extract` runs it (default OCR settings): the document's
    /// description and text.
    pub fn doc(&self, bytes: &[u8], mode: Mode) -> Result<(DocText, String), String> {
        self.doc_as(bytes, None, mode)
    }

    /// [`Workers::doc`] with the format given (a text format known by its file name).
    pub fn doc_as(
        &self,
        bytes: &[u8],
        format: Option<paw_jobs::doc::Format>,
        mode: Mode,
    ) -> Result<(DocText, String), String> {
        let job = paw_jobs::doc::Extract {
            format,
            mode,
            max_chars: 0,
            pages: None,
            ocr: OcrJob {
                lang: "eng".into(),
                ..OcrJob::default()
            },
            password: None,
            also_text: false,
            images: paw_jobs::doc::Images::Refs,
            images_dir: String::new(),
        };
        self.rt
            .block_on(doc_jobs::extract(
                &self.pool,
                bytes.to_vec(),
                job,
                Default::default(),
            ))
            .map(|x| (x.info, x.text))
            .map_err(|e| e.message)
    }

    /// One page's article extraction in a worker.
    pub fn extract(&self, page: &[u8], url: &url::Url) -> Result<ArticleReply, WorkerError> {
        self.rt
            .block_on(rss_jobs::article_of(&self.pool, page, None, url))
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.stop.cancel();
        self.pool.stop();
    }
}
