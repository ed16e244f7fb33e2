// Readability.js (with jsdom) over a list of pages, for the extraction benchmark
// (tests/benches/extract.rs). Reads a JSON list of {id, path, gz, url} on stdin and prints
// {seconds, pages, results: [{id, title, text}]}; only parsing and extraction are timed.
// Needs `npm install --prefix target/js @mozilla/readability jsdom`.
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const { Readability } = require('@mozilla/readability');
const { JSDOM, VirtualConsole } = require('jsdom');

const list = JSON.parse(fs.readFileSync(0, 'utf8'));
const pages = list.map((p) => {
  let b = fs.readFileSync(p.path);
  if (p.gz) b = zlib.gunzipSync(b);
  return [p, b.toString('utf8')];
});
const quiet = new VirtualConsole();
const start = process.hrtime.bigint();
const results = [];
for (const [p, html] of pages) {
  let title = '';
  let text = '';
  try {
    const dom = new JSDOM(html, { url: p.url, virtualConsole: quiet });
    const a = new Readability(dom.window.document).parse();
    if (a) {
      title = a.title || '';
      text = a.textContent || '';
    }
    dom.window.close();
  } catch (e) {
    // A page Readability.js cannot handle scores as empty.
  }
  results.push({ id: p.id, title, text });
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(JSON.stringify({ seconds, pages: results.length, results }));
