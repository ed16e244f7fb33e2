//! The IRC command's pure core: values in, values out, no socket, file, clock task or
//! command handler. [`machine`] is one connection's protocol as (state, server message) →
//! steps, with the account login of [`auth`]; [`creds`] parses the `.env` text;
//! [`text`] cleans, splits and checks what goes to and comes from the wire; [`state`] is
//! what a connection shows (states, last error, status, flood bucket, backoff). The
//! connection (`conn`), its transport and the log apply these; they never reach back.

pub mod auth;
pub mod creds;
pub mod machine;
pub mod state;
pub mod text;
