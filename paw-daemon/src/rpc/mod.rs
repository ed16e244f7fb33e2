//! The JSON-RPC method table: registers each method of docs/protocol.md with its handler. Only dispatch.

mod handlers;

use std::sync::Arc;

use jsonrpsee::RpcModule;
use paw_proto::methods;

use crate::daemon::Daemon;

/// The daemon's methods, ready to be fed request lines by the server.
pub fn module(daemon: Arc<Daemon>) -> RpcModule<Daemon> {
    let mut m = RpcModule::from_arc(daemon);
    let registered = (|| {
        m.register_async_method(methods::TERMINAL_EXEC, handlers::exec)?;
        m.register_async_method(methods::TERMINAL_CANCEL, handlers::cancel)?;
        m.register_async_method(methods::TERMINAL_COMMANDS, handlers::commands)?;
        m.register_async_method(methods::SESSION_OPEN, handlers::session_open)?;
        m.register_async_method(methods::SESSION_CLOSE, handlers::session_close)?;
        m.register_async_method(methods::SESSION_LIST, handlers::session_list)?;
        m.register_async_method(methods::DAEMON_STATUS, handlers::status)?;
        m.register_async_method(methods::AUDIT_GET, handlers::audit_get)?;
        m.register_async_method(methods::AUDIT_QUERY, handlers::audit_query)?;
        m.register_subscription(
            methods::SESSION_SUBSCRIBE,
            methods::SESSION_EVENT,
            methods::SESSION_UNSUBSCRIBE,
            handlers::subscribe,
        )?;
        Ok::<_, jsonrpsee::core::RegisterMethodError>(())
    })();
    // The names are constants checked by the unit test below; a clash is a programming error.
    if let Err(e) = registered {
        panic!("method table is inconsistent: {e}");
    }
    m
}

#[cfg(test)]
mod tests;
