//! The words `rss search` indexes and looks for (docs/commands.md `rss search`, "Words"):
//! text is cut into runs of one script, and each run into words its own way —
//!
//! - Hangul, hiragana and katakana: overlapping pairs of characters (a run of one stays
//!   one), so a Korean word with its particle attached (`서울에서`) is found by the word
//!   (`서울`) and a katakana word by itself; jieba has no dictionary for them (it gives
//!   them one character at a time) and a morphological analyser's dictionaries are not
//!   built offline (docs/benchmarks.md `rss search`);
//! - Chinese characters and Japanese kanji: jieba's dictionary words (`tantivy-jieba`)
//!   and the same overlapping pairs. jieba alone cuts a run of kanji differently in a
//!   sentence and in a query (`東京都` is `東`, `京都` in a sentence; `東京` alone is
//!   `東京`), and the pairs meet there; its words rank Chinese by whole words;
//! - any other letters and digits (Latin, Cyrillic, Greek, Arabic, ...): the run, as
//!   the query is cut (a query's non-alphanumeric characters are spaces).
//!
//! The same analyser cuts the documents and the queries, so both sides agree.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// A character's kind of run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Run {
    Han,
    Hangul,
    Hiragana,
    Katakana,
    Word,
    Gap,
}

fn run_of(c: char) -> Run {
    match c as u32 {
        // CJK ideographs (the blocks jieba treats as Chinese) and 々, kanji's repeat mark.
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F | 0x3005 => {
            Run::Han
        }
        0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xD7B0..=0xD7FF => {
            Run::Hangul
        }
        0x3041..=0x309F => Run::Hiragana,
        // Katakana with its long-vowel mark (ー), the phonetic extensions and half-width
        // forms; the middle dot (・) separates words.
        0x30A0..=0x30FA | 0x30FC..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Run::Katakana,
        _ if c.is_alphanumeric() => Run::Word,
        _ => Run::Gap,
    }
}

/// The tokenizer (lower-casing and the length cap are filters after it).
#[derive(Clone, Default)]
pub struct Words {
    jieba: tantivy_jieba::JiebaTokenizer,
}

/// The words of one text, made at once (the text is capped before it is indexed).
pub struct WordStream {
    tokens: Vec<Token>,
    next: usize,
}

impl Tokenizer for Words {
    type TokenStream<'a> = WordStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream {
        let mut tokens = Vec::new();
        let mut push = |from: usize, to: usize, text: &str| {
            tokens.push(Token {
                offset_from: from,
                offset_to: to,
                position: tokens.len(),
                text: text.to_string(),
                position_length: 1,
            });
        };
        let mut chars = text.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            let kind = run_of(c);
            let mut end = start + c.len_utf8();
            while let Some(&(at, d)) = chars.peek() {
                if run_of(d) != kind {
                    break;
                }
                end = at + d.len_utf8();
                chars.next();
            }
            let run = &text[start..end];
            match kind {
                Run::Gap => {}
                Run::Word => push(start, end, run),
                Run::Han | Run::Hangul | Run::Hiragana | Run::Katakana => {
                    if kind == Run::Han {
                        let mut s = self.jieba.token_stream(run);
                        while s.advance() {
                            let t = s.token();
                            push(start + t.offset_from, start + t.offset_to, &t.text);
                        }
                    }
                    let at: Vec<usize> = run
                        .char_indices()
                        .map(|(i, _)| start + i)
                        .chain([end])
                        .collect();
                    if at.len() == 2 && kind != Run::Han {
                        push(start, end, run);
                    }
                    for w in at.windows(3) {
                        push(w[0], w[2], &text[w[0]..w[2]]);
                    }
                }
            }
        }
        WordStream { tokens, next: 0 }
    }
}

impl TokenStream for WordStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

#[cfg(test)]
mod tests;
