//! Web pages (docs/commands.md, `rss read --fulltext`): the article of a page
//! ([`extract`], Readability through dom_smoothie weighed against the page's largest
//! block and its repeated cards ([`cards`])), measured before any tree is built
//! ([`shape`]), with paw's own cleaning of the tree ([`tree`], [`boilerplate`]) and the
//! parts a streaming page reveals put in place first ([`streamed`]).

pub mod boilerplate;
pub mod cards;
pub mod extract;
pub mod kind;
pub mod shape;
pub mod streamed;
pub mod tree;
