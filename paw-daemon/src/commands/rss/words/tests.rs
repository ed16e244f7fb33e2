//! Unit tests of `paw_daemon::commands::rss::words`.

use super::*;

fn words(text: &str) -> Vec<String> {
    let mut w = Words::default();
    let mut s = w.token_stream(text);
    let mut out = Vec::new();
    while s.advance() {
        let t = s.token();
        assert_eq!(&text[t.offset_from..t.offset_to], t.text, "offsets");
        out.push(t.text.clone());
    }
    out
}

#[test]
fn each_script_is_cut_its_own_way() {
    // Latin, accented Latin and Cyrillic words whole (jieba alone gives é and every
    // Cyrillic letter apart); punctuation is no word.
    assert_eq!(
        words("Café Müller — Москва, node.js!"),
        ["Café", "Müller", "Москва", "node", "js"]
    );
    // Hangul in overlapping pairs: the word before its particle is one of them.
    assert_eq!(words("서울에서"), ["서울", "울에", "에서"]);
    assert_eq!(words("집 앞"), ["집", "앞"]);
    // Katakana and hiragana are runs of their own.
    assert_eq!(words("コーヒーを"), ["コー", "ーヒ", "ヒー", "を"]);
    // Chinese by jieba's dictionary.
    assert!(words("研究人员在北京大学发布了报告").contains(&"北京".to_string()));
    assert!(words("").is_empty());
    assert!(words(" \n—・。").is_empty());
}

#[test]
fn a_word_of_a_real_sentence_is_among_its_words() {
    // Found: the query's words of two characters or more are all among the sentence's
    // (a trailing kana of one, as in 長持ち, is a pair with what follows it there).
    let found = |sentence: &str, word: &str| {
        let all = words(sentence);
        let want: Vec<String> = words(word)
            .into_iter()
            .filter(|w| w.chars().count() > 1)
            .collect();
        assert!(!want.is_empty(), "{word}");
        assert!(
            want.iter().all(|w| all.contains(w)),
            "{word} ({want:?}) in {sentence} ({all:?})"
        );
    };
    let ko = "서울에서 열린 국제 회의에서 기후 변화에 대한 새로운 대책이 논의되었다.";
    for w in ["서울", "회의", "기후", "변화", "대책", "국제"] {
        found(ko, w);
    }
    let ko2 = "삼성전자는 오늘 새로운 스마트폰을 공개했다.";
    for w in ["삼성전자", "스마트폰", "공개"] {
        found(ko2, w);
    }
    let ja = "東京都は気候変動への新しい対策を発表しました。スマートフォンの電池も長持ちするようになりました。";
    for w in [
        "東京",
        "気候",
        "対策",
        "発表",
        "スマートフォン",
        "電池",
        "長持ち",
    ] {
        found(ja, w);
    }
}
