//! `paw-client mcp --http ADDR`: the bridge on MCP's streamable HTTP transport (rmcp's
//! server under axum), stateless as MCP 2026-07-28 has it.
//!
//! Hostile requests are the normal case: a web page in the user's browser can reach a
//! loopback port, and DNS rebinding can give it a name that resolves there. So the `Host`
//! header must name loopback (or an `[mcp] http_allowed_hosts` entry), a request carrying a
//! browser `Origin` not in `[mcp] http_allowed_origins` is refused (rmcp checks both), the
//! body is capped (`http_max_body_bytes`), and a bind that is not loopback needs the bearer
//! token of `[mcp] http_token`, which every request must then carry.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::Bridge;
use super::config::McpConfig;

/// The path the MCP endpoint is served on.
pub const PATH: &str = "/mcp";

/// Refuses a bind that would expose the bridge without a token.
pub(super) fn check_bind(addr: SocketAddr, config: &McpConfig) -> Result<(), String> {
    if !addr.ip().is_loopback() && config.http_token.is_empty() {
        return Err(format!(
            "refusing to serve MCP on {addr} without a token: set [mcp] http_token in the \
             config (or bind 127.0.0.1)"
        ));
    }
    Ok(())
}

/// The `Host` values accepted: loopback names with and without the port, then the
/// configured ones.
fn allowed_hosts(addr: SocketAddr, config: &McpConfig) -> Vec<String> {
    let port = addr.port();
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "[::1]", "::1"]
        .iter()
        .flat_map(|h| [h.to_string(), format!("{h}:{port}")])
        .collect();
    hosts.extend(config.http_allowed_hosts.iter().cloned());
    hosts
}

/// Serves until SIGINT/SIGTERM.
pub(super) async fn serve(bridge: Bridge, addr: SocketAddr) -> Result<(), String> {
    let config = bridge.config.clone();
    let ct = tokio_util::sync::CancellationToken::new();
    let http = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_allowed_hosts(allowed_hosts(addr, &config))
        .with_allowed_origins(config.http_allowed_origins.clone())
        .enforce_origin_validation()
        .with_max_request_body_bytes(config.http_max_body_bytes)
        .with_cancellation_token(ct.child_token());
    let service = StreamableHttpService::new(
        move || Ok(bridge.clone()),
        Arc::new(NeverSessionManager::default()),
        http,
    );
    let token: Arc<str> = Arc::from(config.http_token.as_str());
    let app = axum::Router::new()
        .nest_service(PATH, service)
        .layer(axum::middleware::from_fn_with_state(token, bearer));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    // The ready line tests and scripts wait for (the port is known when 0 was asked).
    eprintln!("paw-client mcp: serving http://{bound}{PATH}");
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            ct.cancel();
        })
        .await
        .map_err(|e| format!("MCP HTTP server stopped: {e}"))
}

/// Requires `Authorization: Bearer <token>` when a token is configured; compares in time
/// independent of where the first difference is.
async fn bearer(State(token): State<Arc<str>>, req: Request, next: Next) -> Response {
    if token.is_empty() {
        return next.run(req).await;
    }
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if constant_time_eq(given.as_bytes(), token.as_bytes()) {
        next.run(req).await
    } else {
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "a bearer token is required\n",
        )
            .into_response()
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => return ctrl_c.await,
            };
        tokio::select! {
            () = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}

#[cfg(test)]
mod tests;
