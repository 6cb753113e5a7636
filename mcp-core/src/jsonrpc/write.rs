//! The line writers: a response, an error, a notification or a request appended to a buffer
//! in one pass, without building a `Value`.

use super::{ErrorObject, RequestId};

fn write_id(buf: &mut Vec<u8>, id: Option<&RequestId>) {
    match id {
        Some(RequestId::Number(n)) => buf.extend_from_slice(n.to_string().as_bytes()),
        Some(RequestId::String(s)) => write_json_str(buf, s),
        None => buf.extend_from_slice(b"null"),
    }
}

fn write_json_str(buf: &mut Vec<u8>, s: &str) {
    // Writing a `str` into a `Vec` cannot fail.
    serde_json::to_writer(&mut *buf, s).unwrap_or_default();
}

/// Appends `{"jsonrpc":"2.0","id":…,"result":…}` to `buf`, with no trailing newline.
///
/// `result_json` must already be serialised JSON; it is copied verbatim.
///
/// ```
/// use mcp_runtime_core::jsonrpc::{write_response, RequestId};
///
/// let mut buf = Vec::new();
/// write_response(&mut buf, &RequestId::from("a"), "{}");
/// assert_eq!(buf, br#"{"jsonrpc":"2.0","id":"a","result":{}}"#);
/// ```
pub fn write_response(buf: &mut Vec<u8>, id: &RequestId, result_json: &str) {
    buf.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    write_id(buf, Some(id));
    buf.extend_from_slice(br#","result":"#);
    buf.extend_from_slice(result_json.as_bytes());
    buf.push(b'}');
}

/// Appends an error response; the id is `null` when `id` is `None`.
///
/// ```
/// use mcp_runtime_core::jsonrpc::{write_error, ErrorObject};
///
/// let mut buf = Vec::new();
/// write_error(&mut buf, None, &ErrorObject::parse_error());
/// assert_eq!(
///     buf,
///     br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
/// );
/// ```
pub fn write_error(buf: &mut Vec<u8>, id: Option<&RequestId>, err: &ErrorObject) {
    buf.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    write_id(buf, id);
    buf.extend_from_slice(br#","error":"#);
    // Serialising an `ErrorObject` (string keys, JSON values) into a `Vec` cannot fail.
    serde_json::to_writer(&mut *buf, err).unwrap_or_default();
    buf.push(b'}');
}

/// Appends `{"jsonrpc":"2.0","method":…,"params":…}`; `params_json` is copied verbatim.
///
/// ```
/// use mcp_runtime_core::jsonrpc::write_notification;
///
/// let mut buf = Vec::new();
/// write_notification(&mut buf, "notifications/tools/list_changed", "{}");
/// assert_eq!(
///     buf,
///     br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}"#
/// );
/// ```
pub fn write_notification(buf: &mut Vec<u8>, method: &str, params_json: &str) {
    buf.extend_from_slice(br#"{"jsonrpc":"2.0","method":"#);
    write_json_str(buf, method);
    buf.extend_from_slice(br#","params":"#);
    buf.extend_from_slice(params_json.as_bytes());
    buf.push(b'}');
}

/// Appends `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`; `params_json` is copied verbatim.
///
/// ```
/// use mcp_runtime_core::jsonrpc::{write_request, RequestId};
///
/// let mut buf = Vec::new();
/// write_request(&mut buf, &RequestId::Number(1), "roots/list", "{}");
/// assert_eq!(buf, br#"{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}"#);
/// ```
pub fn write_request(buf: &mut Vec<u8>, id: &RequestId, method: &str, params_json: &str) {
    buf.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    write_id(buf, Some(id));
    buf.extend_from_slice(br#","method":"#);
    write_json_str(buf, method);
    buf.extend_from_slice(br#","params":"#);
    buf.extend_from_slice(params_json.as_bytes());
    buf.push(b'}');
}
