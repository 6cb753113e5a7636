//! Server-initiated messages (notifications, requests to the client) built in one buffer, ready
//! for one write, their params serialised straight into it. Replies are
//! [`Reply`](crate::dispatch::reply::Reply) values until a transport writes them.

use mcp_core::RequestId;
use serde::Serialize;

/// `{"jsonrpc":"2.0"[,"id":…][,"method":…],"<field>":<payload>}` with the payload serialised in
/// place; `None` when it cannot be serialised.
fn envelope<T: Serialize + ?Sized>(
    id: Option<&RequestId>,
    method: Option<&str>,
    field: &str,
    payload: &T,
) -> Option<Vec<u8>> {
    envelope_in(Vec::with_capacity(256), id, method, field, payload)
}

fn envelope_in<T: Serialize + ?Sized>(
    mut buf: Vec<u8>,
    id: Option<&RequestId>,
    method: Option<&str>,
    field: &str,
    payload: &T,
) -> Option<Vec<u8>> {
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

/// A success response, its result serialised straight into the buffer; `None` when it cannot be.
pub(crate) fn response<T: Serialize + ?Sized>(id: &RequestId, result: &T) -> Option<Vec<u8>> {
    envelope(Some(id), None, "result", result)
}

/// [`response`] with room for `extra` more bytes, for a caller that appends to it.
pub(crate) fn response_with_room<T: Serialize + ?Sized>(
    id: &RequestId,
    result: &T,
    extra: usize,
) -> Option<Vec<u8>> {
    envelope_in(
        Vec::with_capacity(256 + extra),
        Some(id),
        None,
        "result",
        result,
    )
}

/// A notification.
pub(crate) fn notification<T: Serialize + ?Sized>(method: &str, params: &T) -> Vec<u8> {
    let msg = envelope(None, Some(method), "params", params).unwrap_or_default();
    crate::outbound::log_started(&msg);
    msg
}

/// A request from the server to the client.
pub(crate) fn request<T: Serialize + ?Sized>(id: &RequestId, method: &str, params: &T) -> Vec<u8> {
    let msg = envelope(Some(id), Some(method), "params", params).unwrap_or_default();
    crate::outbound::log_started(&msg);
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes() {
        let id = RequestId::Number(7);
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
    }
}
