//! The search index of `rss search` (docs/commands.md `rss search`): every subscription's
//! cached items, with the full text of the articles `rss read` extracted, and the saved
//! items, in a tantivy index under `.agents/workspace/rss/index/`, ranked by BM25, words
//! cut by script ([`super::words`]). An item is indexed again when it changes (a
//! signature of what was indexed tells) and deleted when it leaves its feed, unless saved.
//! The choice of engine, and its measured cost, are in docs/benchmarks.md (`rss search`).
//!
//! One writer, on its own thread ([`Engine`]'s writer loop), owns tantivy's `IndexWriter`:
//! calls never wait on it. Searches read the last commit through an `IndexReader`. What a
//! search answered was committed (fsynced by tantivy, `meta.json` replaced atomically), so
//! a SIGKILL at any instant loses nothing already answered; what was added but not yet
//! committed is found missing at the next start, when every cached feed is checked and
//! its missing items indexed again. An index that does not open is moved aside and built
//! again from the caches; one of another version is deleted and built again.
//!
//! The index holds each item's words (with their counts, no positions), and stores its
//! id, feed, title, link, date and summary for the answer, and its signature; no page text
//! is stored. It is
//! kept under `tools.rss.search_index_max_mb`: past it, the oldest quarter of the unsaved items (by
//! date) is deleted and the segments merged.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tantivy::collector::TopDocs;
use tantivy::query::{
    BooleanQuery, BoostQuery, EmptyQuery, Occur, Query, RangeQuery, TermQuery, TermSetQuery,
};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing,
    TextOptions, Value,
};
use tantivy::tokenizer::{LowerCaser, RemoveLongFilter, TextAnalyzer};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

/// The analyser's name in the index (a new name when words are cut another way: an
/// index of other words is built again).
const ANALYZER: &str = "paw_words_2";
/// The writer's memory before it flushes a segment.
const WRITER_BYTES: usize = 24 << 20;
/// Added documents are committed this long after the first of them, or sooner past
/// [`COMMIT_DOCS`].
const COMMIT_AFTER: Duration = Duration::from_millis(500);
const COMMIT_DOCS: usize = 20_000;
/// The most characters of an item's text indexed.
pub const MAX_TEXT_CHARS: usize = 100_000;
/// The longest query, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// The most distinct words of a query looked for.
const MAX_QUERY_WORDS: usize = 64;

/// The index's fields.
#[derive(Clone, Copy)]
struct Fields {
    id: Field,
    feed: Field,
    title: Field,
    body: Field,
    link: Field,
    summary: Field,
    published: Field,
    date: Field,
    sig: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let words = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    let f = Fields {
        id: b.add_u64_field("id", INDEXED | STORED | FAST),
        feed: b.add_text_field("feed", STRING | STORED),
        title: b.add_text_field("title", words.clone() | STORED),
        body: b.add_text_field("body", words),
        link: b.add_text_field("link", STORED),
        summary: b.add_text_field("summary", STORED),
        published: b.add_text_field("published", STORED),
        date: b.add_i64_field("date", INDEXED | FAST | STORED),
        sig: b.add_u64_field("sig", FAST),
    };
    (b.build(), f)
}

/// Words ([`super::words`]) of at most 40 bytes, lower case.
fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(super::words::Words::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .build()
}

/// One item to index.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub id: u64,
    pub feed_url: String,
    pub title: String,
    pub text: String,
    pub link: Option<String>,
    pub summary: Option<String>,
    pub published: Option<String>,
    /// Its date (ms), or when it was indexed when it has none.
    pub date_ms: i64,
    /// A hash of what was indexed ([`signature`]): an item whose title, text or article
    /// changed is indexed again.
    pub sig: u64,
}

/// What the writer thread is asked.
enum Msg {
    Add(Vec<Doc>),
    Delete(Vec<u64>),
    /// Commit now and answer when done (tests, shutdown).
    Commit(std::sync::mpsc::SyncSender<()>),
}

/// One search's filters.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    /// Only items of these feed URLs (`None`: every feed).
    pub feeds: Option<Vec<String>>,
    /// Only items dated at or after this (ms).
    pub since_ms: Option<i64>,
}

/// One search hit.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Hit {
    #[serde(skip)]
    pub feed_url: String,
    pub score: f32,
    #[serde(flatten)]
    pub item: super::news::Shown,
}

/// An open index: the reader every search uses and the channel to the writer thread
/// (which ends when the engine is dropped).
pub struct Engine {
    reader: IndexReader,
    f: Fields,
    dir: PathBuf,
    tx: std::sync::mpsc::SyncSender<Msg>,
    /// Ids sent to the writer and not committed yet, with their signatures (so they are
    /// not sent twice).
    pending: Arc<Mutex<HashMap<u64, u64>>>,
    /// Ids the cap never deletes (the saved items), shared with the writer thread.
    kept: Arc<Mutex<HashSet<u64>>>,
    /// The writer thread, joined when the engine goes (its writer's lock released).
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Closing the channel ends the thread after what it was sent.
        let (closed, _) = std::sync::mpsc::sync_channel(0);
        drop(std::mem::replace(&mut self.tx, closed));
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

/// The writer thread's side: tantivy's writer and what it needs of the index.
struct Writer {
    writer: IndexWriter,
    index: Index,
    reader: IndexReader,
    f: Fields,
    dir: PathBuf,
    pending: Arc<Mutex<HashMap<u64, u64>>>,
    cap_bytes: u64,
    /// Ids the cap never deletes (the saved items).
    kept: Arc<Mutex<HashSet<u64>>>,
}

impl Engine {
    /// Opens the index in `dir` (created when missing; moved aside and created again when
    /// it does not open) and starts its writer thread. Blocking.
    pub fn open(dir: &Path, cap_bytes: u64) -> Result<(Arc<Self>, Option<String>), String> {
        let (schema, f) = schema();
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut warning = None;
        let index = match open_index(dir, schema.clone()) {
            Ok(i) => i,
            Err(e) => {
                let aside = crate::store::move_aside_corrupt(dir).map_err(|m| {
                    format!("the search index did not open ({e}) and could not be moved aside: {m}")
                })?;
                let line = format!(
                    "the search index did not open ({e}); moved it to {} and building it again from the cached feeds",
                    aside.display()
                );
                tracing::error!("{line}");
                warning = Some(line);
                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
                open_index(dir, schema).map_err(|e| e.to_string())?
            }
        };
        let writer: IndexWriter = index
            .writer_with_num_threads(1, WRITER_BYTES)
            .map_err(|e| format!("cannot open the search index's writer: {e}"))?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e: tantivy::TantivyError| e.to_string())?;
        let (tx, rx) = std::sync::mpsc::sync_channel(16);
        let pending: Arc<Mutex<HashMap<u64, u64>>> = Arc::default();
        let kept: Arc<Mutex<HashSet<u64>>> = Arc::default();
        let w = Writer {
            writer,
            index,
            reader: reader.clone(),
            f,
            dir: dir.to_path_buf(),
            pending: pending.clone(),
            cap_bytes,
            kept: kept.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("paw-rss-index".into())
            .spawn(move || w.run(rx))
            .map_err(|e| e.to_string())?;
        let engine = Arc::new(Self {
            reader,
            f,
            dir: dir.to_path_buf(),
            tx,
            pending,
            kept,
            thread: Mutex::new(Some(thread)),
        });
        Ok((engine, warning))
    }

    /// Whether item `id` is indexed or on its way.
    pub fn has(&self, id: u64) -> bool {
        !self.missing(&[id])[0]
    }

    /// Of `ids`, those neither indexed nor on their way.
    pub fn missing(&self, ids: &[u64]) -> Vec<bool> {
        let found = self.indexed(ids);
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        ids.iter()
            .map(|id| !pending.contains_key(id) && !found.contains_key(id))
            .collect()
    }

    /// Of `items` (id, signature), those not indexed, nor on their way, with that
    /// signature: new or changed.
    pub fn stale(&self, items: &[(u64, u64)]) -> Vec<bool> {
        let ids: Vec<u64> = items.iter().map(|&(id, _)| id).collect();
        let found = self.indexed(&ids);
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        items
            .iter()
            .map(|&(id, sig)| pending.get(&id).or_else(|| found.get(&id)) != Some(&sig))
            .collect()
    }

    /// The signatures of those of `ids` in the last commit (one query for all).
    fn indexed(&self, ids: &[u64]) -> HashMap<u64, u64> {
        let terms = ids.iter().map(|&id| Term::from_field_u64(self.f.id, id));
        self.fast_pairs(&TermSetQuery::new(terms), "sig")
    }

    /// The ids of feed `url`'s items in the last commit.
    pub fn feed_ids(&self, url: &str) -> Vec<u64> {
        let term = Term::from_field_text(self.f.feed, url);
        let q = TermQuery::new(term, IndexRecordOption::Basic);
        self.fast_pairs(&q, "sig").into_keys().collect()
    }

    /// (id, `field`) of every live item `q` matches, read from the fast fields.
    fn fast_pairs(&self, q: &dyn Query, field: &str) -> HashMap<u64, u64> {
        let searcher = self.reader.searcher();
        let Ok(docs) = searcher.search(q, &tantivy::collector::DocSetCollector) else {
            return HashMap::new();
        };
        let mut out = HashMap::with_capacity(docs.len());
        let mut cols = HashMap::new();
        for addr in docs {
            let seg = addr.segment_ord;
            let (ids, vals) = cols.entry(seg).or_insert_with(|| {
                let ff = searcher.segment_reader(seg).fast_fields();
                (ff.u64("id").ok(), ff.u64(field).ok())
            });
            if let (Some(ids), Some(vals)) = (ids.as_ref(), vals.as_ref())
                && let Some(id) = ids.first(addr.doc_id)
            {
                out.insert(id, vals.first(addr.doc_id).unwrap_or(0));
            }
        }
        out
    }

    /// Hands documents to the writer (blocking while its queue is full).
    pub fn add(&self, docs: Vec<Doc>) {
        if docs.is_empty() {
            return;
        }
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(docs.iter().map(|d| (d.id, d.sig)));
        let _ = self.tx.send(Msg::Add(docs));
    }

    /// The ids the cap must never delete (the saved items), replacing those given before.
    pub fn keep(&self, ids: HashSet<u64>) {
        *self.kept.lock().unwrap_or_else(|e| e.into_inner()) = ids;
    }

    /// Deletes items (a feed's removed items, items no longer saved).
    pub fn delete(&self, ids: Vec<u64>) {
        if !ids.is_empty() {
            let _ = self.tx.send(Msg::Delete(ids));
        }
    }

    /// Commits what was added and waits for it (blocking).
    pub fn commit(&self) {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        if self.tx.send(Msg::Commit(tx)).is_ok() {
            let _ = rx.recv();
        }
    }

    /// Items in the last commit.
    pub fn docs(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// Bytes of the index's files on disk.
    pub fn bytes(&self) -> u64 {
        dir_bytes(&self.dir)
    }

    /// The best `limit` items for `query` (BM25 over titles, weighted double, and text),
    /// and how many matched. Blocking.
    pub fn search(
        &self,
        query: &str,
        filter: &Filter,
        limit: usize,
    ) -> Result<(Vec<Hit>, usize), String> {
        let f = self.f;
        // The agent's words cut as the items' are, each looked for in titles (counted
        // double) and texts, any of them matching (BM25 ranks those with more of them
        // first). No query syntax is offered, so nothing in a query can reach a stored
        // field, and a word cut into several (a phrase) needs no positions.
        let mut words = Vec::new();
        let mut analyzer = analyzer();
        let mut stream = analyzer.token_stream(query);
        while stream.advance() {
            let w = stream.token().text.clone();
            if !words.contains(&w) && words.len() < MAX_QUERY_WORDS {
                words.push(w);
            }
        }
        let mut any: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(words.len() * 2);
        for w in &words {
            for (field, boost) in [(f.title, 2.0), (f.body, 1.0)] {
                let term = TermQuery::new(
                    Term::from_field_text(field, w),
                    IndexRecordOption::WithFreqs,
                );
                any.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(term), boost)),
                ));
            }
        }
        let q: Box<dyn Query> = if any.is_empty() {
            Box::new(EmptyQuery)
        } else {
            Box::new(BooleanQuery::new(any))
        };
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, q)];
        if let Some(feeds) = &filter.feeds {
            let terms = feeds.iter().map(|u| Term::from_field_text(f.feed, u));
            clauses.push((Occur::Must, Box::new(TermSetQuery::new(terms))));
        }
        if let Some(since) = filter.since_ms {
            clauses.push((
                Occur::Must,
                Box::new(RangeQuery::new(
                    std::ops::Bound::Included(Term::from_field_i64(f.date, since)),
                    std::ops::Bound::Unbounded,
                )),
            ));
        }
        let q = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let (top, count) = searcher
            .search(
                &q,
                &(TopDocs::with_limit(limit.max(1)), tantivy::collector::Count),
            )
            .map_err(|e| e.to_string())?;
        let text = |doc: &TantivyDocument, field: Field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let mut hits = Vec::with_capacity(top.len());
        for (score, addr) in top {
            let doc: TantivyDocument = searcher.doc(addr).map_err(|e| e.to_string())?;
            let id = doc.get_first(f.id).and_then(|v| v.as_u64()).unwrap_or(0);
            hits.push(Hit {
                feed_url: text(&doc, f.feed).unwrap_or_default(),
                score,
                item: super::news::Shown {
                    id: super::seen::id_text(id),
                    title: text(&doc, f.title),
                    published_at: text(&doc, f.published),
                    link: text(&doc, f.link),
                    summary: text(&doc, f.summary),
                },
            });
        }
        Ok((hits, count))
    }
}

impl Writer {
    /// The writer thread: adds, deletes and commits, then keeps the index under its cap.
    fn run(mut self, rx: std::sync::mpsc::Receiver<Msg>) {
        let mut since_commit = 0usize;
        let mut first_at: Option<std::time::Instant> = None;
        let mut added: Vec<u64> = Vec::new();
        loop {
            let wait = first_at.map(|t| COMMIT_AFTER.saturating_sub(t.elapsed()));
            let msg = match wait {
                Some(w) => match rx.recv_timeout(w) {
                    Ok(m) => Some(m),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => None,
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
                },
                None => match rx.recv() {
                    Ok(m) => Some(m),
                    Err(_) => return,
                },
            };
            let mut answer = None;
            match msg {
                Some(Msg::Add(docs)) => {
                    for d in docs {
                        self.writer
                            .delete_term(Term::from_field_u64(self.f.id, d.id));
                        added.push(d.id);
                        let doc = self.document(d);
                        if let Err(e) = self.writer.add_document(doc) {
                            tracing::error!(error = %e, "cannot index an item");
                        }
                        since_commit += 1;
                    }
                    first_at.get_or_insert_with(std::time::Instant::now);
                }
                Some(Msg::Delete(ids)) => {
                    for id in ids {
                        self.writer.delete_term(Term::from_field_u64(self.f.id, id));
                    }
                    first_at.get_or_insert_with(std::time::Instant::now);
                }
                Some(Msg::Commit(tx)) => answer = Some(tx),
                None => {}
            }
            let due = first_at.is_some_and(|t| t.elapsed() >= COMMIT_AFTER);
            if answer.is_some() || due || since_commit >= COMMIT_DOCS {
                if first_at.is_some() {
                    self.commit_now();
                }
                let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                for id in added.drain(..) {
                    p.remove(&id);
                }
                drop(p);
                (since_commit, first_at) = (0, None);
            }
            if let Some(tx) = answer {
                let _ = tx.send(());
            }
        }
    }

    fn commit_now(&mut self) {
        if let Err(e) = self.writer.commit() {
            tracing::error!(error = %e, "cannot commit the search index");
            return;
        }
        let _ = self.reader.reload();
        if self.cap_bytes > 0 && dir_bytes(&self.dir) > self.cap_bytes {
            self.shrink();
        }
    }

    /// Deletes the oldest quarter of the items by date (never a kept one: the saved items
    /// stay searchable), merges the segments and removes the files they leave.
    fn shrink(&mut self) {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let searcher = self.reader.searcher();
        let mut items: Vec<(i64, u64)> = Vec::with_capacity(searcher.num_docs() as usize);
        for seg in searcher.segment_readers() {
            let (Ok(dates), Ok(ids)) = (seg.fast_fields().i64("date"), seg.fast_fields().u64("id"))
            else {
                continue;
            };
            let alive = seg.alive_bitset();
            for doc in 0..seg.max_doc() {
                if alive.is_none_or(|a| a.is_alive(doc))
                    && let (Some(date), Some(id)) = (dates.first(doc), ids.first(doc))
                    && !kept.contains(&id)
                {
                    items.push((date, id));
                }
            }
        }
        if items.is_empty() {
            return;
        }
        let cut_at = items.len() / 4;
        items.select_nth_unstable(cut_at);
        let before = dir_bytes(&self.dir);
        for &(_, id) in &items[..=cut_at] {
            self.writer.delete_term(Term::from_field_u64(self.f.id, id));
        }
        if let Err(e) = self.writer.commit() {
            tracing::error!(error = %e, "cannot commit the search index");
            return;
        }
        if let Ok(ids) = self.index.searchable_segment_ids()
            && !ids.is_empty()
            && let Err(e) = self.writer.merge(&ids).wait()
        {
            tracing::error!(error = %e, "cannot merge the search index");
        }
        let _ = self.writer.garbage_collect_files().wait();
        let _ = self.reader.reload();
        tracing::info!(
            before,
            after = dir_bytes(&self.dir),
            "the search index was over its cap: the oldest quarter of its unsaved items deleted"
        );
    }

    fn document(&self, d: Doc) -> TantivyDocument {
        let f = self.f;
        let mut doc = TantivyDocument::default();
        doc.add_u64(f.id, d.id);
        doc.add_text(f.feed, &d.feed_url);
        doc.add_text(f.title, &d.title);
        let text: String = d.text.chars().take(MAX_TEXT_CHARS).collect();
        doc.add_text(f.body, &text);
        if let Some(l) = &d.link {
            doc.add_text(f.link, l);
        }
        if let Some(s) = &d.summary {
            doc.add_text(f.summary, s);
        }
        if let Some(p) = &d.published {
            doc.add_text(f.published, p);
        }
        doc.add_i64(f.date, d.date_ms);
        doc.add_u64(f.sig, d.sig);
        doc
    }
}

/// Opens or creates the index in `dir`, its analyser registered.
fn open_index(dir: &Path, schema: Schema) -> Result<Index, String> {
    let mmap = || tantivy::directory::MmapDirectory::open(dir).map_err(|e| e.to_string());
    let index = if Index::exists(&mmap()?).map_err(|e| e.to_string())? {
        let index = Index::open(mmap()?).map_err(|e| e.to_string())?;
        // An index another version of paw made (another schema, or words cut another
        // way: the analyser's name is in the schema) is built again from the caches and
        // saved items: it holds nothing they do not.
        if index.schema() == schema {
            Some(index)
        } else {
            drop(index);
            tracing::info!(dir = %dir.display(), "the search index is another version's: building it again");
            std::fs::remove_dir_all(dir).map_err(|e| e.to_string())?;
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            None
        }
    } else {
        None
    };
    let index = match index {
        Some(i) => i,
        None => Index::create(mmap()?, schema, tantivy::IndexSettings::default())
            .map_err(|e| e.to_string())?,
    };
    index.tokenizers().register(ANALYZER, analyzer());
    Ok(index)
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// `rss`'s search index, opened in the background at start (a command state).
pub struct SearchIndex {
    dir: PathBuf,
    cap_bytes: u64,
    engine: tokio::sync::OnceCell<Result<Arc<Engine>, String>>,
    /// Feed URLs waiting to be indexed (each once), and the wake-up of the task that
    /// indexes them.
    queue: Mutex<(Vec<String>, HashSet<String>)>,
    wake: tokio::sync::Notify,
    /// What opening found wrong, for the next search to report.
    warning: Mutex<Option<String>>,
}

impl SearchIndex {
    /// The index in `dir`, kept under `cap_bytes`.
    pub fn new(dir: PathBuf, cap_bytes: u64) -> Self {
        Self {
            dir,
            cap_bytes,
            engine: tokio::sync::OnceCell::new(),
            queue: Mutex::new((Vec::new(), HashSet::new())),
            wake: tokio::sync::Notify::new(),
            warning: Mutex::new(None),
        }
    }

    /// The open index (opened on the blocking pool at first use).
    pub async fn engine(&self) -> Result<Arc<Engine>, String> {
        let (dir, cap) = (self.dir.clone(), self.cap_bytes);
        let r = self
            .engine
            .get_or_init(|| async move {
                tokio::task::spawn_blocking(move || Engine::open(&dir, cap))
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|r| r)
                    .map(|(engine, warning)| {
                        if let Some(w) = warning {
                            *self.warning.lock().unwrap_or_else(|e| e.into_inner()) = Some(w);
                        }
                        engine
                    })
            })
            .await;
        r.clone()
    }

    /// What opening found wrong, once.
    pub fn take_warning(&self) -> Option<String> {
        self.warning
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// Asks for `url`'s cached items to be indexed (those not indexed yet).
    pub fn note(&self, url: &str) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if q.1.insert(url.to_string()) {
            q.0.push(url.to_string());
        }
        drop(q);
        self.wake.notify_one();
    }

    /// Feeds waiting to be indexed.
    pub fn queued(&self) -> usize {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).0.len()
    }

    fn next_batch(&self) -> Vec<String> {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        let n = q.0.len().min(64);
        let batch: Vec<String> = q.0.drain(..n).collect();
        for u in &batch {
            q.1.remove(u);
        }
        batch
    }
}

/// The indexing task: opens the index, queues every subscription (what a crash left
/// unindexed is found missing), then indexes the queued feeds' missing items — rendered
/// to text by a worker in the background lane (their HTML is untrusted) — until the
/// daemon stops.
async fn index_loop(services: Arc<crate::command::Services>) {
    let idx = super::search_index(&services);
    let engine = match idx.engine().await {
        Ok(e) => e,
        Err(e) => {
            tracing::error!(error = %e, "the search index is not available");
            return;
        }
    };
    let subs = super::rss_store(&services)
        .lock()
        .await
        .state()
        .subs
        .clone();
    for s in &subs {
        idx.note(&s.url);
    }
    let caller = crate::worker::Caller::background("rss index");
    if let Err(e) = crate::worker::as_caller(caller, index_saved(&services, &engine)).await {
        tracing::warn!(error = %e, "cannot index the saved items");
    }
    let mut failures: u32 = 0;
    loop {
        let batch = idx.next_batch();
        if batch.is_empty() {
            tokio::select! {
                _ = idx.wake.notified() => continue,
                _ = services.shutdown.cancelled() => break,
            }
        }
        // Only subscriptions are indexed (an `rss fetch --url` caches any feed).
        let subscribed: HashSet<String> = super::rss_store(&services)
            .lock()
            .await
            .state()
            .subs
            .iter()
            .map(|s| s.url.clone())
            .collect();
        let urls: Vec<String> = batch
            .into_iter()
            .filter(|u| subscribed.contains(u))
            .collect();
        // Rendering waits in the workers' background lane: no call waits behind it.
        let caller = crate::worker::Caller::background("rss index");
        let indexed = crate::worker::as_caller(caller, index_feeds(&services, &engine, &urls));
        match indexed.await {
            Ok(()) => failures = 0,
            Err(e) => {
                // A worker that failed (busy, out of its budget, restarted) loses no feed:
                // the batch is queued again after a pause that grows with each failure
                // in a row (1 s to 32 s), so a broken item cannot keep a core busy.
                failures = failures.saturating_add(1);
                let pause = Duration::from_secs(1u64 << failures.min(6).saturating_sub(1));
                tracing::warn!(error = %e, retry_in_s = pause.as_secs(), "cannot index feeds' items");
                tokio::select! {
                    _ = tokio::time::sleep(pause) => {}
                    _ = services.shutdown.cancelled() => break,
                }
                for u in &urls {
                    idx.note(u);
                }
            }
        }
    }
    let e = engine.clone();
    let _ = tokio::task::spawn_blocking(move || e.commit()).await;
}

/// The most items rendered to text in one worker job.
const RENDER_ITEMS: usize = 256;

/// What is indexed of an item, hashed: its title, summary, content, link and date, and
/// the size of its article's full-text record (0 when none), so a changed item or a new
/// article is indexed again. Stable within a build of paw (another build may index
/// everything once more).
pub fn signature(item: &paw_jobs::feed::Item, record_len: u64) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    (
        &item.title,
        &item.summary,
        &item.content_html,
        &item.link,
        &item.published_at,
        record_len,
    )
        .hash(&mut h);
    h.finish()
}

/// An item on its way into the index.
struct Candidate {
    feed_url: String,
    item: paw_jobs::feed::Item,
    id: u64,
    sig: u64,
    /// Its article's full-text record, when there is one.
    record: Option<PathBuf>,
}

/// An item's article record and its size (a stat, no read).
fn record_of(dir: &Path, item: &paw_jobs::feed::Item) -> (Option<PathBuf>, u64) {
    let Some(link) = item.link.as_deref() else {
        return (None, 0);
    };
    let path = super::store::url_file(dir, link);
    match std::fs::metadata(&path) {
        Ok(m) if m.is_file() => (Some(path), m.len()),
        _ => (None, 0),
    }
}

/// The ids of the saved items (they stay in the index when their feed drops them, and its
/// cap never deletes them: the engine is told them too).
async fn saved_ids(services: &crate::command::Services, engine: &Engine) -> HashSet<u64> {
    let ids: HashSet<u64> = super::saved_items(services)
        .lock()
        .await
        .items()
        .iter()
        .filter_map(|s| super::seen::parse_id(&s.id))
        .collect();
    engine.keep(ids.clone());
    ids
}

/// Tells an open index the saved items (after `rss star`), so its cap keeps them.
pub async fn note_saved(services: &crate::command::Services) {
    if let Ok(engine) = super::search_index(services).engine().await {
        saved_ids(services, &engine).await;
    }
}

/// Indexes the cached items of `urls` that are new or changed since they were indexed,
/// and deletes from the index those of their items that left the feed (unless saved, or
/// carried by another subscribed feed): their ids and signatures checked in one pass,
/// their text rendered by workers [`RENDER_ITEMS`] at a time, across feeds.
async fn index_feeds(
    services: &Arc<crate::command::Services>,
    engine: &Arc<Engine>,
    urls: &[String],
) -> Result<(), String> {
    let mut feeds = Vec::with_capacity(urls.len());
    for url in urls {
        if let Some(f) = super::rss_store(services).cached(url).await {
            feeds.push((url.clone(), f));
        }
    }
    let saved = saved_ids(services, engine).await;
    // Every subscribed feed's items by their keys (kept while the background refresh is
    // on): an article that left one feed but is in another stays.
    let others: Vec<super::seen::Keys> = super::feed_keys::feed_keys(services)
        .map
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .cloned()
        .collect();
    let records = super::fulltext_jobs(services).dir().to_path_buf();
    let e = engine.clone();
    let todo = tokio::task::spawn_blocking(move || {
        let mut seen = HashSet::new();
        let mut todo = Vec::new();
        let mut gone = Vec::new();
        for (url, feed) in &feeds {
            let keys = feed.keys();
            let ids: Vec<u64> = keys.iter().map(|k| super::seen::item_id(k)).collect();
            let found: Vec<(Option<PathBuf>, u64)> =
                feed.items.iter().map(|i| record_of(&records, i)).collect();
            let sigs: Vec<(u64, u64)> = ids
                .iter()
                .zip(&feed.items)
                .zip(&found)
                .map(|((&id, item), (_, len))| (id, signature(item, *len)))
                .collect();
            let stale = e.stale(&sigs);
            for (at, ((id, sig), s)) in sigs.into_iter().zip(stale).enumerate() {
                if s && seen.insert(id) {
                    todo.push(Candidate {
                        feed_url: url.clone(),
                        item: feed.items[at].clone(),
                        id,
                        sig,
                        record: found[at].0.clone(),
                    });
                }
            }
            let current: HashSet<u64> = ids.into_iter().collect();
            gone.extend(
                e.feed_ids(url)
                    .into_iter()
                    .filter(|id| !current.contains(id) && !saved.contains(id)),
            );
        }
        if !gone.is_empty() {
            // Another feed of the batch or of the subscriptions may carry the article.
            let batch: Vec<super::seen::Keys> = feeds.iter().map(|(_, f)| f.keys()).collect();
            let carried: HashSet<u64> = others
                .iter()
                .chain(&batch)
                .flat_map(|k| k.iter().map(|k| super::seen::item_id(k)))
                .collect();
            gone.retain(|id| !carried.contains(id));
            e.delete(gone);
        }
        todo
    })
    .await
    .map_err(|e| e.to_string())?;
    index_items(services, engine, todo).await
}

/// Indexes the saved items missing from the index (an index built again from the caches
/// after a crash or an upgrade would not hold those their feeds dropped).
async fn index_saved(
    services: &Arc<crate::command::Services>,
    engine: &Arc<Engine>,
) -> Result<(), String> {
    saved_ids(services, engine).await;
    let items: Vec<super::saved::SavedItem> =
        super::saved_items(services).lock().await.items().clone();
    let records = super::fulltext_jobs(services).dir().to_path_buf();
    let e = engine.clone();
    let todo = tokio::task::spawn_blocking(move || {
        let ids: Vec<u64> = items
            .iter()
            .map(|s| super::seen::parse_id(&s.id).unwrap_or(0))
            .collect();
        let missing = e.missing(&ids);
        items
            .into_iter()
            .zip(ids)
            .zip(missing)
            .filter(|((_, id), m)| *m && *id != 0)
            .map(|((s, id), _)| {
                let (record, len) = record_of(&records, &s.item);
                Candidate {
                    sig: signature(&s.item, len),
                    feed_url: s.feed_url,
                    item: s.item,
                    id,
                    record,
                }
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| e.to_string())?;
    index_items(services, engine, todo).await
}

/// Renders `todo`'s items to text in workers (their HTML is untrusted), adds their
/// articles' full text, and hands them to the writer.
async fn index_items(
    services: &Arc<crate::command::Services>,
    engine: &Arc<Engine>,
    todo: Vec<Candidate>,
) -> Result<(), String> {
    let now = crate::clock::now_ms() as i64;
    for chunk in todo.chunks(RENDER_ITEMS) {
        if services.shutdown.is_cancelled() {
            break;
        }
        let items: Vec<paw_jobs::feed::Item> = chunk.iter().map(|c| c.item.clone()).collect();
        let (rendered, texts) =
            super::jobs::render(&services.workers, items, paw_jobs::feed::Form::FullText)
                .await
                .map_err(|e| e.message)?;
        let records: Vec<Option<PathBuf>> = chunk.iter().map(|c| c.record.clone()).collect();
        let articles = tokio::task::spawn_blocking(move || {
            records
                .iter()
                .map(|r| {
                    r.as_deref()
                        .and_then(|p| super::fulltext::article_text(p, MAX_TEXT_CHARS))
                })
                .collect::<Vec<_>>()
        })
        .await
        .map_err(|e| e.to_string())?;
        let docs: Vec<Doc> = chunk
            .iter()
            .zip(rendered)
            .zip(texts.into_iter().chain(std::iter::repeat(None)))
            .zip(articles)
            .map(|(((c, item), text), article)| {
                let mut text = text.or_else(|| item.summary.clone()).unwrap_or_default();
                if let Some(a) = article {
                    text.push('\n');
                    text.push_str(&a);
                }
                Doc {
                    id: c.id,
                    feed_url: c.feed_url.clone(),
                    title: item.title.clone().unwrap_or_default(),
                    text,
                    link: item.link.clone(),
                    summary: item.summary.clone(),
                    published: item.published_at.clone(),
                    date_ms: c.item.sort_key().unwrap_or(now),
                    sig: c.sig,
                }
            })
            .collect();
        let e = engine.clone();
        tokio::task::spawn_blocking(move || e.add(docs))
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Takes `ids` out of the index unless saved or carried by a subscribed feed (a feed
/// removed, items unsaved): the feeds the background refresh keeps keys of, but `except`
/// (the feed being removed), and the caches of `check`.
pub async fn forget(
    services: &Arc<crate::command::Services>,
    ids: Vec<u64>,
    check: &[String],
    except: Option<&str>,
) {
    let Ok(engine) = super::search_index(services).engine().await else {
        return;
    };
    let saved = saved_ids(services, &engine).await;
    let mut carried: HashSet<u64> = super::feed_keys::feed_keys(services)
        .map
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .filter(|(u, _)| except != Some(String::as_str(u)))
        .flat_map(|(_, k)| k.iter().map(|k| super::seen::item_id(k)))
        .collect();
    for url in check {
        if let Some(f) = super::rss_store(services).cached(url).await {
            carried.extend(f.keys().iter().map(|k| super::seen::item_id(k)));
        }
    }
    let gone: Vec<u64> = ids
        .into_iter()
        .filter(|id| !saved.contains(id) && !carried.contains(id))
        .collect();
    let _ = tokio::task::spawn_blocking(move || engine.delete(gone)).await;
}

impl crate::command::CommandState for SearchIndex {
    fn start(&self, services: &Arc<crate::command::Services>) {
        let s = services.clone();
        services.tasks.spawn(index_loop(s));
    }

    fn flush(&self) -> futures::future::BoxFuture<'_, ()> {
        Box::pin(async move {
            if let Some(Ok(e)) = self.engine.get() {
                let e = e.clone();
                let _ = tokio::task::spawn_blocking(move || e.commit()).await;
            }
        })
    }
}

/// Every feed URL whose items a filter by `feeds` keeps, by URL, for [`Filter::feeds`].
pub fn urls_of(subs: &[super::store::Subscription]) -> HashMap<String, (String, Option<String>)> {
    subs.iter()
        .map(|s| (s.url.clone(), (s.name.clone(), s.category.clone())))
        .collect()
}

#[cfg(test)]
mod tests;
