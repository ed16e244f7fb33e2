//! Feeds one request line to jsonrpsee's method table, with this connection's id and sink.
//!
//! This is the part of a jsonrpsee server that is not about HTTP or WebSocket: decode the
//! JSON-RPC envelope, find the method, call it with per-connection extensions, and turn
//! protocol failures into JSON-RPC errors (parse error, invalid request, method not found).

use jsonrpsee::ConnectionId;
use jsonrpsee::core::id_providers::RandomIntegerIdProvider;
use jsonrpsee::core::server::{
    BoundedSubscriptions, Extensions, MethodCallback, MethodResponse, MethodSink, Methods,
    SubscriptionState,
};
use jsonrpsee_types::error::{ErrorCode, ErrorObject, reject_too_many_subscriptions};
use jsonrpsee_types::{Id, InvalidRequest, Notification, Params, Request};
use serde_json::value::RawValue;
use tokio::sync::mpsc;

/// The largest response a method may produce.
const MAX_RESPONSE_BYTES: usize = 64 * 1024 * 1024;
/// The most requests one batch may hold.
const MAX_BATCH: usize = 1000;

/// What a handler needs to know about the connection a request came in on.
pub struct ConnInfo {
    /// The connection's id (sessions bound with `bind: true` remember it).
    pub conn_id: usize,
    /// The writer's queue: responses and subscription notifications.
    pub sink: mpsc::Sender<Box<RawValue>>,
    /// Subscription slots of this connection.
    pub subscriptions: BoundedSubscriptions,
}

fn error_json(id: Id<'_>, err: ErrorObject<'_>) -> Box<RawValue> {
    MethodResponse::error(id, err).into_parts().0
}

fn parse_error(detail: &str) -> Box<RawValue> {
    error_json(
        Id::Null,
        ErrorObject::owned(
            ErrorCode::ParseError.code(),
            format!("Parse error: {detail}"),
            None::<()>,
        ),
    )
}

/// The error answered for a line over the per-connection limit.
pub fn line_too_long(limit: usize) -> Box<RawValue> {
    error_json(
        Id::Null,
        ErrorObject::owned(
            paw_proto::RPC_LINE_TOO_LONG,
            format!("request line too long (> {limit} bytes)"),
            None::<()>,
        ),
    )
}

/// Handles one line: a request, a notification or a batch. `None` means no reply is due.
pub async fn handle_line(methods: &Methods, line: &[u8], conn: &ConnInfo) -> Option<Box<RawValue>> {
    let Ok(text) = std::str::from_utf8(line) else {
        return Some(parse_error("request is not valid UTF-8"));
    };
    let text = text.trim();
    if text.starts_with('[') {
        return batch(methods, text, conn).await;
    }
    single(methods, text, conn).await
}

async fn batch(methods: &Methods, text: &str, conn: &ConnInfo) -> Option<Box<RawValue>> {
    let items: Vec<&RawValue> = match serde_json::from_str(text) {
        Ok(items) => items,
        Err(e) => return Some(parse_error(&e.to_string())),
    };
    if items.is_empty() {
        return Some(error_json(Id::Null, ErrorCode::InvalidRequest.into()));
    }
    if items.len() > MAX_BATCH {
        return Some(error_json(
            Id::Null,
            ErrorObject::owned(
                ErrorCode::InvalidRequest.code(),
                format!("batch too large (> {MAX_BATCH} requests)"),
                None::<()>,
            ),
        ));
    }
    let replies =
        futures::future::join_all(items.iter().map(|i| single(methods, i.get(), conn))).await;
    let replies: Vec<Box<RawValue>> = replies.into_iter().flatten().collect();
    if replies.is_empty() {
        return None;
    }
    let mut out = String::from("[");
    for (i, r) in replies.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(r.get());
    }
    out.push(']');
    RawValue::from_string(out).ok()
}

async fn single(methods: &Methods, text: &str, conn: &ConnInfo) -> Option<Box<RawValue>> {
    if let Ok(req) = serde_json::from_str::<Request<'_>>(text) {
        return call(methods, req, conn).await;
    }
    if let Ok(n) = serde_json::from_str::<Notification<'_, Option<&RawValue>>>(text) {
        // A notification gets no reply, whatever its outcome.
        let req = Request::owned(
            n.method.into_owned(),
            n.params.map(|p| p.to_owned()),
            Id::Null,
        );
        let _ = call(methods, req, conn).await;
        return None;
    }
    if let Err(e) = serde_json::from_str::<&RawValue>(text) {
        return Some(parse_error(&e.to_string()));
    }
    let id = serde_json::from_str::<InvalidRequest<'_>>(text)
        .map(|r| r.id)
        .unwrap_or(Id::Null);
    Some(error_json(id, ErrorCode::InvalidRequest.into()))
}

async fn call(methods: &Methods, req: Request<'_>, conn: &ConnInfo) -> Option<Box<RawValue>> {
    let conn_id = ConnectionId(conn.conn_id);
    let Request {
        id, method, params, ..
    } = req;
    let params = Params::new(params.as_ref().map(|p| p.get()));
    let mut ext = Extensions::new();
    ext.insert(conn_id);
    let response = match methods.method(&method) {
        None => MethodResponse::error(id, ErrorObject::from(ErrorCode::MethodNotFound)),
        Some(MethodCallback::Sync(cb)) => cb(id, params, MAX_RESPONSE_BYTES, ext),
        Some(MethodCallback::Async(cb)) => {
            cb(
                id.into_owned(),
                params.into_owned(),
                conn_id,
                MAX_RESPONSE_BYTES,
                ext,
            )
            .await
        }
        Some(MethodCallback::Subscription(cb)) => {
            let Some(permit) = conn.subscriptions.acquire() else {
                return Some(error_json(id, reject_too_many_subscriptions(64)));
            };
            let state = SubscriptionState {
                conn_id,
                id_provider: &RandomIntegerIdProvider,
                subscription_permit: permit,
            };
            // The subscription answers through the sink itself (accept or reject), so the
            // returned copy of that answer is not sent again.
            let _ = cb(id, params, MethodSink::new(conn.sink.clone()), state, ext).await;
            return None;
        }
        Some(MethodCallback::Unsubscription(cb)) => {
            cb(id, params, conn_id, MAX_RESPONSE_BYTES, ext)
        }
    };
    let success = response.is_success();
    let (json, notify, _) = response.into_parts();
    if let Some(n) = notify {
        n.notify(success);
    }
    Some(json)
}
