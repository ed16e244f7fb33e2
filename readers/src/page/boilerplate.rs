//! Multilingual boilerplate vocabulary for article extraction: the phrases that mark a
//! short block as a site's own text — paywall and membership appeals, newsletter
//! sign-ups, "follow us", copyright and reprint notices, affiliate and advertising
//! disclaimers, forum and documentation chrome, share prompts, cookie notices — the
//! headings of a site's recommendations ("You may also like"), the words of a skip link
//! ("Skip to main content") and of a reading-time label ("5 min read") in en, de, fr, es,
//! it, pt, pl, nl, zh, ja and ru.
//!
//! Source: paw's own list, one table per category, written from the fixed wording sites
//! use for these notices in each language (legal formulas such as "all rights reserved",
//! "alle Rechte vorbehalten", "版权所有" are fixed by convention; the appeals are the verbs
//! and nouns they are built on). Each entry is matched case-insensitively as a substring
//! of a short block's text, so a stem ("abonn", "suscri") covers its inflections. The
//! language-independent rules (link density, position, class names) come first in
//! `extract.rs`; this list only decides short blocks that survived them. Adding a word
//! that appears in ordinary prose ("cookie" alone, "share" alone) would drop article
//! text: phrases are preferred — a newsletter's name counts only beside a call to sign
//! up — and the lists are measured on the web corpus (`tests/fixtures/web-corpus`,
//! `cargo bench -p paw-tests --bench web`) and on WCXB's development split
//! (docs/benchmarks.md).

/// Blocks up to this many characters (no whitespace) are tested against the vocabulary:
/// a notice is short; an article paragraph that mentions a newsletter is not dropped.
pub const MAX_BLOCK_CHARS: usize = 160;

/// Paywall, membership and donation appeals.
const APPEALS: &[&str] = &[
    // en
    "please subscribe",
    "subscribe now",
    "subscribe to our",
    "subscribe for",
    "subscribers only",
    "become a member",
    "become a supporter",
    "support our work",
    "support us",
    "cancel anytime",
    "cancel at any time",
    "readers like you",
    "to view the full story",
    "to continue reading",
    "already a subscriber",
    "unlock this article",
    "unlock this story",
    // de
    "abonnieren",
    "abonnentinnen",
    "abonnenten",
    "jetzt abo",
    "werden sie mitglied",
    "unterstützen sie",
    "jederzeit kündbar",
    "freiwilligen beitrag",
    // fr
    "abonnez-vous",
    "réservé aux abonnés",
    "devenez membre",
    "soutenez",
    "faites un don",
    "sans engagement",
    "pour lire la suite",
    // es
    "suscríbete",
    "suscribirse",
    "hazte socio",
    "hazte miembro",
    "colabora con nosotros",
    "tu apoyo",
    "apoya el periodismo",
    "para seguir leyendo",
    // it
    "abbonati",
    "diventa socio",
    "sostieni",
    "per continuare a leggere",
    // pt
    "assine",
    "torne-se membro",
    "torne-se sócio",
    "apoie",
    "para continuar a ler",
    // pl
    "wykup subskrypcję",
    "zostań członkiem",
    "zostań patronem",
    "wesprzyj",
    "wspieraj",
    // nl
    "word lid",
    "steun ons",
    "steun onafhankelijke",
    "word abonnee",
    "jouw bijdrage",
    // zh
    "订阅后",
    "成为会员",
    "支持独立",
    "付费阅读",
    // ja
    "有料会員",
    "会員登録",
    "続きを読むには",
    // ru
    "оформите подписку",
    "станьте участником",
    "поддержите редакцию",
    "поддержите нас",
];

/// Newsletter sign-ups and e-mail digests.
const NEWSLETTERS: &[&str] = &[
    "sign up for our",
    "sign up to our",
    "delivered to your inbox",
    "in your inbox",
    "unsubscribe",
    // de
    "ins postfach",
    "in ihr postfach",
    "abmeldung ist jederzeit",
    // fr
    "boîte mail",
    "boîte de réception",
    "désinscrire",
    "désabonner",
    // es
    "en tu correo",
    "darte de baja",
    // it
    "casella di posta",
    "annullare l'iscrizione",
    "iscriviti",
    // pt
    "caixa de correio",
    "subscreva",
    "cancelar a subscrição",
    // pl
    "na twoją skrzynkę",
    "zrezygnować z subskrypcji",
    "zapisz się",
    // nl
    "in je mailbox",
    "in uw mailbox",
    "afmelden",
    // zh
    "发送到您的邮箱",
    "退订",
    // ja
    "メールでお届け",
    "配信停止",
    // ru
    "в вашем почтовом ящике",
    "отписаться",
];

/// "Follow us" and social accounts.
const FOLLOW: &[&str] = &[
    "follow us",
    "stay connected",
    "find us on",
    // de
    "folgen sie uns",
    "folge uns",
    // fr
    "suivez-nous",
    "retrouvez-nous",
    // es
    "síguenos",
    "siguenos",
    // it
    "seguici",
    // pt
    "siga-nos",
    "segue-nos",
    // pl
    "obserwuj nas",
    "znajdziesz nas",
    // nl
    "volg ons",
    // zh
    "关注我们",
    "扫码关注",
    // ja
    "フォローして",
    "でも最新情報",
    // ru
    "подписывайтесь на",
    "мы также есть",
];

/// Copyright, reprint and reuse notices.
const RIGHTS: &[&str] = &[
    "©",
    "copyright ©",
    "copyright (c)",
    "all rights reserved",
    "may be reproduced",
    "without our written permission",
    // de
    "alle rechte vorbehalten",
    "nachdruck nur",
    "nachdruck und vervielfältigung",
    // fr
    "tous droits réservés",
    "reproduction interdite",
    "toute reproduction",
    // es
    "todos los derechos reservados",
    "prohibida la reproducción",
    "prohibida su reproducción",
    // it
    "tutti i diritti riservati",
    "vietata la riproduzione",
    // pt
    "todos os direitos reservados",
    "proibida a reprodução",
    // pl
    "wszelkie prawa zastrzeżone",
    "kopiowanie i rozpowszechnianie",
    // nl
    "alle rechten voorbehouden",
    // zh
    "版权所有",
    "禁止转载",
    "不得转载",
    // ja
    "無断転載",
    // ru
    "все права защищены",
    "использование материалов допускается",
];

/// Affiliate and advertising disclaimers.
const DISCLOSURES: &[&str] = &[
    "earn a commission",
    "affiliate link",
    "sponsored content",
    // de
    "eine provision",
    // fr
    "liens d'affiliation",
    "percevoir une commission",
    // es
    "enlaces de afiliados",
    "recibir una comisión",
    // it
    "link di affiliazione",
    // pt
    "ligações de afiliados",
    "links de afiliados",
    "receber uma comissão",
    // pl
    "linki afiliacyjne",
    "prowizję",
    // nl
    "affiliatelinks",
    "ontvangen wij mogelijk",
    // zh
    "推广链接",
    "获得佣金",
    // ja
    "アフィリエイト",
    // ru
    "партнёрские ссылки",
    "партнерские ссылки",
    "на правах рекламы",
];

/// Forum and documentation chrome: login prompts, "was this page helpful?".
const CHROME: &[&str] = &[
    "logged in to reply",
    "log in to reply",
    "was this page helpful",
    "edit this page",
    // de
    "angemeldet sein, um",
    "war diese seite hilfreich",
    // fr
    "connecté pour répondre",
    "cette page vous a-t-elle été utile",
    // es
    "iniciar sesión para responder",
    "te ha resultado útil",
    // it
    "effettuare l'accesso per rispondere",
    "questa pagina ti è stata utile",
    // pt
    "sessão iniciada para responder",
    "esta página foi útil",
    // pl
    "zalogowany, aby odpowiedzieć",
    "czy ta strona była pomocna",
    // nl
    "ingelogd zijn om te reageren",
    "was deze pagina nuttig",
    // zh
    "登录后才能回复",
    "此页面对您有帮助吗",
    // ja
    "ログインしてください",
    "このページは役に立ちましたか",
    // ru
    "войдите, чтобы ответить",
    "была ли эта страница полезна",
];

/// A newsletter's name in each language: in a notice only beside a call to sign up
/// ([`SIGN_UPS`]). Alone it is a word of ordinary prose: an article about newsletters, a
/// writer's page about their own ("The State of AI is my monthly newsletter"), lost its
/// short paragraphs and headings to it (WCXB's development split, docs/benchmarks.md).
const NEWSLETTER_NOUNS: &[&str] = &[
    "newsletter",
    "boletín",
    "nieuwsbrief",
    "新闻简报",
    "ニュースレター",
    "рассылк",
];

/// The calls that make a newsletter's name a sign-up box ([`NEWSLETTER_NOUNS`]): the verbs
/// and the address asked for, as stems.
const SIGN_UPS: &[&str] = &[
    "sign up",
    "signup",
    "subscribe to",
    "subscribe for",
    "subscribe now",
    "subscribe here",
    "join our",
    "join us",
    "get our",
    "receive our",
    "email address",
    "e-mail address",
    "your email",
    "your e-mail",
    // de
    "abonn",
    "anmeld",
    "melden sie sich",
    "registrier",
    "e-mail-adresse",
    "ihre e-mail",
    // fr
    "inscri",
    "recevez",
    "recevoir",
    "votre e-mail",
    "votre adresse",
    // es
    "suscr",
    "recib",
    "tu correo",
    "apúntate",
    "regístrate",
    // it
    "iscriv",
    "abbona",
    "ricev",
    "la tua email",
    // pt
    "subscrev",
    "assin",
    "receb",
    "inscrev",
    "seu e-mail",
    "o seu email",
    // pl
    "zapisz",
    "subskryb",
    "otrzymuj",
    "adres e-mail",
    // nl
    "aanmeld",
    "meld je aan",
    "meld u aan",
    "inschrijv",
    "abonneer",
    "ontvang",
    "je e-mail",
    "uw e-mail",
    // zh
    "订阅",
    "注册",
    "邮箱",
    // ja
    "登録",
    "購読",
    "メールアドレス",
    // ru
    "подпи",
    "получайте",
    "почт",
];

/// Share prompts and cookie notices.
const PROMPTS: &[&str] = &[
    "share this",
    "this site uses cookies",
    "this website uses cookies",
    "we use cookies",
    // de
    "artikel teilen",
    "nutzt cookies",
    "verwendet cookies",
    "verwenden cookies",
    // fr
    "partager cet article",
    "utilise des cookies",
    "utilise des traceurs",
    // es
    "compartir este artículo",
    "utilizamos cookies",
    // it
    "condividi questo articolo",
    "utilizziamo cookie",
    "utilizza cookie",
    // pt
    "partilhar este artigo",
    "compartilhar este artigo",
    "usa cookies",
    // pl
    "udostępnij",
    "plików cookie",
    // nl
    "deel dit artikel",
    "maakt gebruik van cookies",
    // zh
    "分享本文",
    "使用cookie",
    // ja
    "この記事をシェア",
    "クッキーを利用",
    // ru
    "поделиться статьей",
    "поделиться статьёй",
    "файлы cookie",
];

/// Labels that are boilerplate when they are the whole block (as words they are ordinary
/// prose: "Anzeige erstatten" is to report a crime).
const LABELS: &[&str] = &[
    "advertisement",
    "ad",
    "sponsored",
    "anzeige",
    "werbung",
    "publicité",
    "publicidad",
    "pubblicità",
    "publicidade",
    "reklama",
    "advertentie",
    "广告",
    "広告",
    "реклама",
];

/// Every category, for [`is_boilerplate`].
const ALL: &[&[&str]] = &[
    APPEALS,
    NEWSLETTERS,
    FOLLOW,
    RIGHTS,
    DISCLOSURES,
    CHROME,
    PROMPTS,
];

/// Whether a short block's text (already lower case, whitespace collapsed) holds a
/// boilerplate phrase or is a boilerplate label.
pub fn is_boilerplate(lower: &str) -> bool {
    let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    LABELS.contains(&bare)
        || PHRASES.is_match(lower)
        || (NOUNS.is_match(lower) && SIGN_UP_MATCHER.is_match(lower))
}

static NOUNS: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| automaton(NEWSLETTER_NOUNS));
static SIGN_UP_MATCHER: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| automaton(SIGN_UPS));

/// An automaton finding any of `phrases`.
fn automaton<'a>(phrases: impl IntoIterator<Item = &'a &'a str>) -> aho_corasick::AhoCorasick {
    aho_corasick::AhoCorasick::new(phrases)
        .unwrap_or_else(|e| panic!("the phrases make an automaton: {e}"))
}

/// Every phrase of [`ALL`] in one automaton: a block is read once, not once per phrase
/// (an article of 6,000 short paragraphs was searched for each of hundreds of phrases:
/// 35 ms of a 1 MB page's 78 ms).
static PHRASES: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| automaton(ALL.iter().flat_map(|c| c.iter())));

/// What a link to a place on its own page (`href="#main-content"`) says to let a reader
/// of the page by keyboard or screen reader pass over its navigation ("Skip to main
/// content"): the opening words of its text (lower case), in the vocabulary's languages.
/// Matched on such links only, as the start of their text; WordPress's own skip link is
/// classed `screen-reader-text` and goes with those (`extract.rs`).
const SKIP_LINKS: &[&str] = &[
    "skip to",
    "skip navigation",
    "jump to content",
    "jump to main",
    // de
    "zum inhalt",
    "direkt zum inhalt",
    "zum hauptinhalt",
    // fr
    "aller au contenu",
    "passer au contenu",
    // es
    "saltar al contenido",
    "ir al contenido",
    // it
    "vai al contenuto",
    "salta al contenuto",
    // pt
    "pular para o conteúdo",
    "ir para o conteúdo",
    "saltar para o conteúdo",
    // pl
    "przejdź do treści",
    "przejdź do zawartości",
    // nl
    "naar de inhoud",
    "direct naar de inhoud",
    "ga naar de inhoud",
    // zh
    "跳到主要内容",
    "跳至内容",
    "跳转到主要内容",
    // ja
    "コンテンツへスキップ",
    "メインコンテンツへ",
    "本文へ",
    // ru
    "перейти к содержанию",
    "перейти к основному содержанию",
];

/// Whether a same-page link's text (already lower case, whitespace collapsed and trimmed)
/// is a skip link's ([`SKIP_LINKS`]).
pub fn skips(lower: &str) -> bool {
    SKIP_LINKS.iter().any(|s| lower.starts_with(s))
}

/// What a reading-time label says beside its number ("5 min read", "Lesezeit: 4 Min.",
/// "6 min de lecture"), its digits and punctuation taken out and its spaces collapsed, in
/// the vocabulary's languages.
const READING_TIMES: &[&str] = &[
    "min read",
    "mins read",
    "minute read",
    "minutes read",
    "min reading",
    "read time min",
    "reading time min",
    "read time minutes",
    "reading time minutes",
    // de
    "min lesezeit",
    "lesezeit min",
    "minuten lesezeit",
    "lesedauer min",
    // fr
    "min de lecture",
    "lecture min",
    "minutes de lecture",
    // es
    "min de lectura",
    "lectura min",
    "minutos de lectura",
    // it
    "min di lettura",
    "minuti di lettura",
    "lettura min",
    // pt
    "min de leitura",
    "minutos de leitura",
    "leitura min",
    // pl
    "min czytania",
    "minut czytania",
    // nl
    "min leestijd",
    "minuten leestijd",
    "leestijd min",
    // zh
    "分钟阅读",
    "阅读时间分钟",
    // ja
    "分で読めます",
    "読了時間分",
    // ru
    "мин чтения",
    "минут чтения",
    "время чтения мин",
];

/// Whether a short block's text (already lower case) is a reading-time label and nothing
/// else ([`READING_TIMES`]): a number, and the label's words.
pub fn reading_time(lower: &str) -> bool {
    if !lower.bytes().any(|b| b.is_ascii_digit()) {
        return false;
    }
    let words: String = lower
        .chars()
        .map(|c| if c.is_alphabetic() { c } else { ' ' })
        .collect();
    let words = words.split_whitespace().collect::<Vec<_>>();
    let bare = words.join(" ");
    READING_TIMES.contains(&bare.as_str()) || READING_TIMES.contains(&words.concat().as_str())
}

/// What a heading says to open a site's recommendations: its other articles or products
/// (any case), in the boilerplate vocabulary's languages.
const RECOMMENDS: &[&str] = &[
    // en
    "also viewed",
    "also bought",
    "also like",
    "also love",
    "also enjoy",
    "also be interested",
    "similar items",
    "similar products",
    "related products",
    "related articles",
    "related posts",
    "related stories",
    "related content",
    "recommended for you",
    "recommended products",
    "recently viewed",
    "more like this",
    "read next",
    "you might like",
    "you may like",
    "seller's other items",
    "more stories",
    "more articles",
    // Not "recommended posts": Invision's forums head a thread's own posts so. Not
    // "related items": eBay's item page reads its sponsored cards when it goes (both
    // measured on WCXB's development split, docs/benchmarks.md).
    "more from this author",
    "related topics",
    "related links",
    "related news",
    "related reads",
    "related reading",
    "related blog",
    "related post",
    "related insights",
    "related pages",
    "related categories",
    "related to this item",
    "similar threads",
    "related questions",
    "bought together",
    "similar posts",
    "popular articles",
    "popular posts",
    "popular topics",
    "trending topics",
    "trending stories",
    "latest posts",
    "latest articles",
    "latest stories",
    "recommended reading",
    "recommended communities",
    "sponsored content",
    // de
    "könnte sie auch interessieren",
    "ähnliche artikel",
    "ähnliche produkte",
    "weitere artikel",
    "mehr zum thema",
    // fr
    "à lire aussi",
    "vous aimerez aussi",
    "articles similaires",
    "produits similaires",
    "sur le même sujet",
    // es
    "también te puede interesar",
    "artículos relacionados",
    "productos relacionados",
    // it
    "potrebbe interessarti",
    "articoli correlati",
    "prodotti correlati",
    "leggi anche",
    // pt
    "leia também",
    "artigos relacionados",
    "produtos relacionados",
    "também pode gostar",
    // pl
    "zobacz też",
    "zobacz także",
    "podobne artykuły",
    "podobne produkty",
    // nl
    "gerelateerde artikelen",
    "lees ook",
    "misschien ook interessant",
    // zh
    "相关文章",
    "相关阅读",
    "相关推荐",
    "猜你喜欢",
    // ja
    "関連記事",
    "おすすめ記事",
    "こちらもおすすめ",
    // ru
    "читайте также",
    "похожие статьи",
    "похожие товары",
    "вам может понравиться",
];

static RECOMMENDS_MATCHER: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| automaton(RECOMMENDS));

/// Whether a heading's text (already lower case, whitespace collapsed) calls what follows
/// the site's recommendations: its other articles or products ([`RECOMMENDS`]).
pub fn recommends(lower: &str) -> bool {
    RECOMMENDS_MATCHER.is_match(lower)
}

/// What a heading says, whole, to open an article's readers' comments or the form to
/// write one (any case; digits, punctuation and marks left out: "12 Comments",
/// "Comments (3)", "Leave a Reply"), in the boilerplate vocabulary's languages. Not
/// "discussion": a paper's section is titled so.
const COMMENTS_TITLES: &[&str] = &[
    // en
    "comments",
    "comment",
    "reader comments",
    "readers comments",
    "leave a reply",
    "leave a comment",
    "post a comment",
    "add a comment",
    "add comment",
    "responses",
    "replies",
    "join the discussion",
    "join the conversation",
    // de
    "kommentare",
    "kommentar",
    "leserkommentare",
    "kommentar schreiben",
    "kommentar verfassen",
    "antworten",
    // fr
    "commentaires",
    "commentaire",
    "laisser un commentaire",
    "réactions",
    "réagissez",
    // es
    "comentarios",
    "comentario",
    "deja un comentario",
    "deja una respuesta",
    // it
    "commenti",
    "commento",
    "lascia un commento",
    // pt
    "comentários",
    "comentário",
    "deixe um comentário",
    "deixe uma resposta",
    // nl
    "reacties",
    "reactie",
    "laat een reactie achter",
    // pl
    "komentarze",
    "komentarz",
    "dodaj komentarz",
    // ru
    "комментарии",
    "комментарий",
    "оставить комментарий",
    "добавить комментарий",
    // zh
    "评论",
    "发表评论",
    "留言",
    // ja
    "コメント",
    "コメントを残す",
];

/// How a heading that counts them opens an article's comments, followed by the article's
/// title ("12 thoughts on “…”", "3 Responses to …"): only after a number.
const COMMENTS_COUNTED: &[&str] = &[
    // en
    "thoughts on ",
    "responses to ",
    "response to ",
    "comments on ",
    "comments to ",
    "comment on ",
    "replies to ",
    // de
    "kommentare zu ",
    "kommentar zu ",
    "antworten auf ",
    "gedanken zu ",
    // fr
    "commentaires sur ",
    "réponses à ",
    "réflexions sur ",
    // es
    "comentarios en ",
    "respuestas a ",
    // it
    "commenti su ",
    "risposte a ",
    // pt
    "comentários em ",
    "respostas para ",
    // nl
    "reacties op ",
];

/// Whether a heading's text (already lower case) opens an article's readers' comments
/// ([`COMMENTS_TITLES`], [`COMMENTS_COUNTED`]).
pub fn opens_comments(lower: &str) -> bool {
    let words: String = lower
        .chars()
        .map(|c| if c.is_alphabetic() { c } else { ' ' })
        .collect();
    let bare = words.split_whitespace().collect::<Vec<_>>().join(" ");
    if COMMENTS_TITLES.contains(&bare.as_str()) {
        return true;
    }
    let counted = lower.trim_start();
    counted.starts_with(|c: char| c.is_ascii_digit()) && {
        let rest = counted.trim_start_matches(|c: char| c.is_ascii_digit() || c.is_whitespace());
        COMMENTS_COUNTED.iter().any(|p| rest.starts_with(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts `pred` holds for each of `yes` and for none of `no`, lower-cased.
    fn sorts(pred: fn(&str) -> bool, yes: &[&str], no: &[&str]) {
        for y in yes {
            assert!(pred(&y.to_lowercase()), "{y}");
        }
        for n in no {
            assert!(!pred(&n.to_lowercase()), "{n}");
        }
    }

    #[test]
    fn a_heading_of_readers_comments_is_told_from_one_that_mentions_them() {
        sorts(
            opens_comments,
            &[
                "Comments",
                "12 Comments",
                "Comments (3)",
                "Leave a Reply",
                "14 thoughts on “Why we moved”",
                "3 Responses to \"Election night\"",
                "Kommentare",
                "5 Kommentare zu „Der Umzug“",
                "Laisser un commentaire",
                "Комментарии",
                "评论",
            ],
            &[
                "Discussion",
                "Comments on the draft rule are due in May",
                "Thoughts on Zig",
                "Response to the consultation",
                "How to leave a comment that gets read",
                "No comments",
            ],
        );
    }

    #[test]
    fn a_newsletters_name_is_a_notice_only_beside_a_call_to_sign_up() {
        sorts(
            is_boilerplate,
            &[
                "Sign up for the newsletter",
                "Get our newsletter every Friday: enter your email address",
                "Recevez notre newsletter chaque matin",
                "Suscríbete a nuestro boletín",
                "Meld je aan voor de nieuwsbrief",
                "订阅我们的新闻简报",
                "ニュースレターに登録する",
                "Подпишитесь на нашу рассылку",
            ],
            &[
                "The Guardian US added 680,000 newsletter subscribers in a single year.",
                "Welcome to the State of AI Newsletter",
                "The State of AI is my monthly newsletter on research and startups.",
                "El boletín oficial publicó la ley el martes.",
            ],
        );
        for noun in NEWSLETTER_NOUNS {
            assert!(!is_boilerplate(&format!("x {noun} y")), "{noun}");
            for call in SIGN_UPS {
                assert!(is_boilerplate(&format!("{call} {noun}")), "{call} {noun}");
            }
        }
    }

    #[test]
    fn a_reading_time_alone_is_a_label_and_prose_about_minutes_is_not() {
        sorts(
            reading_time,
            &[
                "5 min read",
                "23 minute read",
                "Lesezeit: 4 Min.",
                "6 min de lecture",
                "Reading time: 7 minutes",
                "5分钟阅读",
                "7 мин чтения",
            ],
            &[
                "min read",
                "Bake for 25 min",
                "The 5 min read of the report left the board unconvinced",
                "10 min",
            ],
        );
    }

    #[test]
    fn skip_links_open_with_their_phrase_in_every_language() {
        sorts(
            skips,
            &[
                "skip to main content",
                "zum inhalt springen",
                "aller au contenu principal",
                "ir al contenido",
                "跳到主要内容",
                "перейти к содержанию",
            ],
            &["notes", "back to top", "the skip to chapter four"],
        );
    }

    #[test]
    fn notices_in_every_language_are_recognised_and_prose_is_not() {
        for notice in [
            "© 2025 Gazette. All rights reserved.",
            "Werden Sie Mitglied und unterstützen Sie unabhängigen Journalismus.",
            "Pour lire la suite de cet article, abonnez-vous.",
            "Síguenos en Instagram",
            "Tutti i diritti riservati.",
            "Subscreva a nossa newsletter",
            "Obserwuj nas na Facebooku",
            "Volg ons op Instagram",
            "版权所有 未经授权禁止转载",
            "記事・写真の無断転載を禁じます。",
            "Подписывайтесь на наш канал в Telegram",
        ] {
            assert!(is_boilerplate(&notice.to_lowercase()), "{notice}");
        }
        for prose in [
            "The council voted on Tuesday to fund the new library and the bridge repairs.",
            "Der Stadtrat hat am Dienstag die neuen Radwege beschlossen.",
            "Le conseil municipal a voté mardi de nouvelles pistes cyclables.",
            "Bake the cookies for twelve minutes until the edges are golden.",
            "Die Polizei hat Anzeige erstattet und ermittelt mit Nachdruck.",
            "Он решил поделиться опытом с соседями.",
            "Sign up for the workshop at the library desk.",
        ] {
            assert!(!is_boilerplate(&prose.to_lowercase()), "{prose}");
        }
        for heading in [
            "Customers who viewed this item also viewed",
            "You may also like",
            "Das könnte Sie auch interessieren",
            "À lire aussi",
            "関連記事",
            "Читайте также",
            "Related Topics",
            "Similar threads",
            "Popular Posts",
            "Trending stories",
            "Products related to this item",
            "More from this author",
            "Explore related questions",
            "Frequently bought together",
        ] {
            assert!(recommends(&heading.to_lowercase()), "{heading}");
        }
        // Invision's forums head a thread's own posts "Recommended Posts"; a shop's
        // "Related searches" and "Trending searches" are its category's text (Target's).
        for heading in [
            "Related",
            "Read more",
            "Specifications",
            "Ähnlich wie Gold",
            "Recommended Posts",
            "Related searches",
            "Trending searches",
        ] {
            assert!(!recommends(&heading.to_lowercase()), "{heading}");
        }
        // Every phrase is found, inside a longer line too.
        for p in ALL.iter().flat_map(|c| c.iter()) {
            assert!(is_boilerplate(&format!("x {p} y")), "{p}");
        }
        for p in RECOMMENDS {
            assert!(recommends(&format!("x {p} y")), "{p}");
        }
    }
}
