//! Building whole JSON-RPC messages in one buffer, ready for one write.

use mcp_core::{ErrorObject, RequestId};
use serde::Serialize;

const PREFIX: &[u8] = br#"{"jsonrpc":"2.0","#;

fn push_id(buf: &mut Vec<u8>, id: Option<&RequestId>) {
    buf.extend_from_slice(br#""id":"#);
    match id {
        Some(id) => {
            let _ = serde_json::to_writer(&mut *buf, id);
        }
        None => buf.extend_from_slice(b"null"),
    }
}

/// A success response whose result is already serialised.
pub(crate) fn response_raw(id: &RequestId, result_json: &[u8]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(result_json.len() + 48);
    buf.extend_from_slice(PREFIX);
    push_id(&mut buf, Some(id));
    buf.extend_from_slice(br#","result":"#);
    buf.extend_from_slice(result_json);
    buf.push(b'}');
    buf
}

/// A success response, serialising `result` straight into the buffer.
pub(crate) fn response<T: Serialize + ?Sized>(id: &RequestId, result: &T) -> Vec<u8> {
    let mut buf = Vec::with_capacity(256);
    buf.extend_from_slice(PREFIX);
    push_id(&mut buf, Some(id));
    buf.extend_from_slice(br#","result":"#);
    if serde_json::to_writer(&mut buf, result).is_err() {
        return error(
            Some(id),
            &ErrorObject::internal("failed to serialise the result"),
        );
    }
    buf.push(b'}');
    buf
}

/// An error response (`id` null when the request's id could not be read).
pub(crate) fn error(id: Option<&RequestId>, err: &ErrorObject) -> Vec<u8> {
    let mut buf = Vec::with_capacity(128);
    buf.extend_from_slice(PREFIX);
    push_id(&mut buf, id);
    buf.extend_from_slice(br#","error":"#);
    let _ = serde_json::to_writer(&mut buf, err);
    buf.push(b'}');
    buf
}

/// A notification.
pub(crate) fn notification<T: Serialize + ?Sized>(method: &str, params: &T) -> Vec<u8> {
    let mut buf = Vec::with_capacity(128);
    buf.extend_from_slice(PREFIX);
    buf.extend_from_slice(br#""method":"#);
    let _ = serde_json::to_writer(&mut buf, method);
    buf.extend_from_slice(br#","params":"#);
    let _ = serde_json::to_writer(&mut buf, params);
    buf.push(b'}');
    buf
}

/// A request from the server to the client.
#[allow(dead_code)]
pub(crate) fn request<T: Serialize + ?Sized>(id: &RequestId, method: &str, params: &T) -> Vec<u8> {
    let mut buf = Vec::with_capacity(128);
    buf.extend_from_slice(PREFIX);
    push_id(&mut buf, Some(id));
    buf.extend_from_slice(br#","method":"#);
    let _ = serde_json::to_writer(&mut buf, method);
    buf.extend_from_slice(br#","params":"#);
    let _ = serde_json::to_writer(&mut buf, params);
    buf.push(b'}');
    buf
}
