//! Building whole JSON-RPC messages in one buffer, ready for one write.
//!
//! Envelopes whose payload is already text (an error, a pre-serialised list page) come from
//! `mcp_core::jsonrpc`; typed payloads are serialised straight into the message buffer here, so
//! a reply costs one buffer and no intermediate string.

use mcp_core::jsonrpc::{write_error, write_response};
use mcp_core::{ErrorObject, RequestId};
use serde::Serialize;

/// A success response whose result is already serialised.
pub(crate) fn response_raw(id: &RequestId, result_json: &str) -> Vec<u8> {
    let mut buf = Vec::with_capacity(result_json.len() + 48);
    write_response(&mut buf, id, result_json);
    buf
}

/// An error response (`id` null when the request's id could not be read).
pub(crate) fn error(id: Option<&RequestId>, err: &ErrorObject) -> Vec<u8> {
    let mut buf = Vec::with_capacity(128);
    write_error(&mut buf, id, err);
    buf
}

/// `{"jsonrpc":"2.0"[,"id":…][,"method":…],"<field>":<payload>}` with the payload serialised in
/// place; `None` when it cannot be serialised.
fn envelope<T: Serialize + ?Sized>(
    id: Option<&RequestId>,
    method: Option<&str>,
    field: &str,
    payload: &T,
) -> Option<Vec<u8>> {
    let mut buf = Vec::with_capacity(256);
    buf.extend_from_slice(br#"{"jsonrpc":"2.0""#);
    if let Some(id) = id {
        buf.extend_from_slice(br#","id":"#);
        serde_json::to_writer(&mut buf, id).ok()?;
    }
    if let Some(method) = method {
        buf.extend_from_slice(br#","method":"#);
        serde_json::to_writer(&mut buf, method).ok()?;
    }
    buf.extend_from_slice(b",\"");
    buf.extend_from_slice(field.as_bytes());
    buf.extend_from_slice(b"\":");
    serde_json::to_writer(&mut buf, payload).ok()?;
    buf.push(b'}');
    Some(buf)
}

/// A success response, serialising `result` straight into the buffer.
pub(crate) fn response<T: Serialize + ?Sized>(id: &RequestId, result: &T) -> Vec<u8> {
    envelope(Some(id), None, "result", result).unwrap_or_else(|| {
        error(
            Some(id),
            &ErrorObject::internal("failed to serialise the result"),
        )
    })
}

/// A notification.
pub(crate) fn notification<T: Serialize + ?Sized>(method: &str, params: &T) -> Vec<u8> {
    envelope(None, Some(method), "params", params).unwrap_or_default()
}

/// A request from the server to the client.
pub(crate) fn request<T: Serialize + ?Sized>(id: &RequestId, method: &str, params: &T) -> Vec<u8> {
    envelope(Some(id), Some(method), "params", params).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes() {
        let id = RequestId::Number(7);
        assert_eq!(
            response(&id, &serde_json::json!({"a": 1})),
            br#"{"jsonrpc":"2.0","id":7,"result":{"a":1}}"#
        );
        assert_eq!(
            response_raw(&RequestId::String("x".into()), "{}"),
            br#"{"jsonrpc":"2.0","id":"x","result":{}}"#
        );
        assert_eq!(
            notification(
                "notifications/progress",
                &serde_json::json!({"progress": 1})
            ),
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#
        );
        assert_eq!(
            request(&id, "roots/list", &serde_json::json!({})),
            br#"{"jsonrpc":"2.0","id":7,"method":"roots/list","params":{}}"#
        );
        assert_eq!(
            error(None, &ErrorObject::parse_error()),
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
    }
}
