//! Typed replies: a request's id with its result or its [`ErrorObject`], serialised only at the
//! transport's edge, so that a transport reads the outcome (an HTTP status, say) from the value
//! and never from bytes.

use mcp_core::jsonrpc::{EnvelopeError, write_error, write_response};
use mcp_core::{ErrorObject, RequestId};

/// A successful result (declared with the layers, which carry it in their `Outcome`).
pub(crate) use crate::middleware::Payload;

/// The answer to one request.
#[derive(Debug)]
pub(crate) struct Reply {
    /// `None` when the request's id could not be read (it is written as `null`).
    pub(crate) id: Option<RequestId>,
    pub(crate) outcome: Result<Payload, ErrorObject>,
}

/// The answer to one message: a reply, or the replies of a batch.
#[derive(Debug)]
pub(crate) enum Answer {
    One(Reply),
    Batch(Vec<Reply>),
}

impl Reply {
    /// The reply of request `id`.
    pub(crate) fn new(id: RequestId, outcome: Result<Payload, ErrorObject>) -> Self {
        Self {
            id: Some(id),
            outcome,
        }
    }

    /// An error.
    pub(crate) fn error(id: Option<RequestId>, error: ErrorObject) -> Self {
        Self {
            id,
            outcome: Err(error),
        }
    }

    /// The error of a message that could not be read as a JSON-RPC message.
    pub(crate) fn envelope(err: &EnvelopeError) -> Self {
        Self::error(err.id().cloned(), err.to_error_object())
    }

    /// The error code, when the reply is an error.
    #[cfg(any(feature = "http", test))]
    pub(crate) fn error_code(&self) -> Option<i32> {
        self.outcome.as_ref().err().map(|e| e.code)
    }

    /// The scopes a request was refused for (feature `auth`: the error of
    /// `Caller::authorize`), if it was.
    #[cfg(feature = "http")]
    pub(crate) fn refused_scopes(&self) -> Option<&str> {
        #[cfg(feature = "auth")]
        if let Err(err) = &self.outcome {
            return crate::caller::refused_scopes(err);
        }
        None
    }

    /// Writes the whole message into `buf`.
    pub(crate) fn write(&self, buf: &mut Vec<u8>) {
        let text = match (&self.outcome, &self.id) {
            (
                Ok(
                    Payload::Framed(message)
                    | Payload::ToolError(message)
                    | Payload::Interim(message),
                ),
                _,
            ) => {
                return buf.extend_from_slice(message);
            }
            (Ok(Payload::Shared(page)), Some(id)) => return write_response(buf, id, page),
            (Ok(Payload::Empty), Some(id)) => return write_response(buf, id, "{}"),
            (Err(err), id) => return write_error(buf, id.as_ref(), err),
            // A success always answers a request whose id was read.
            (Ok(_), None) => ErrorObject::internal("reply without an id"),
        };
        write_error(buf, None, &text);
    }

    /// The whole message, in one buffer (a framed result is not copied).
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        match self.outcome {
            Ok(
                Payload::Framed(message) | Payload::ToolError(message) | Payload::Interim(message),
            ) => message,
            _ => self.to_bytes(),
        }
    }

    /// The whole message, in a new buffer.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let hint = match &self.outcome {
            Ok(Payload::Framed(m) | Payload::ToolError(m) | Payload::Interim(m)) => m.len(),
            Ok(Payload::Shared(p)) => p.len() + 48,
            _ => 128,
        };
        let mut buf = Vec::with_capacity(hint);
        self.write(&mut buf);
        buf
    }
}

impl Answer {
    /// The whole message: one reply, or a JSON array of them.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        match self {
            Answer::One(reply) => reply.into_bytes(),
            Answer::Batch(replies) => {
                let mut buf = Vec::with_capacity(replies.len() * 96 + 2);
                buf.push(b'[');
                for (i, r) in replies.iter().enumerate() {
                    if i > 0 {
                        buf.push(b',');
                    }
                    r.write(&mut buf);
                }
                buf.push(b']');
                buf
            }
        }
    }
}

/// The error of a request whose id is already in flight.
pub(crate) fn duplicate(id: RequestId) -> Reply {
    let err = ErrorObject::invalid_request("a request with this id is already in flight");
    Reply::error(Some(id), err)
}

/// The error of a message that is not UTF-8.
pub(crate) fn invalid_utf8(offset: usize) -> Reply {
    let err = ErrorObject::new(
        mcp_core::jsonrpc::error_codes::PARSE_ERROR,
        format!("Parse error: the message is not valid UTF-8 (byte {offset})"),
    );
    Reply::error(None, err)
}

/// The error of a message too large to read.
pub(crate) fn oversized(limit: usize) -> Reply {
    let err = ErrorObject::invalid_request(format!("message exceeds the limit of {limit} bytes"));
    Reply::error(None, err)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn replies_serialise_at_the_edge() {
        let id = RequestId::Number(7);
        let ok = Reply::new(
            id.clone(),
            Payload::framed(&id, &serde_json::json!({"a": 1})),
        );
        assert_eq!(ok.error_code(), None);
        assert_eq!(
            ok.into_bytes(),
            br#"{"jsonrpc":"2.0","id":7,"result":{"a":1}}"#
        );
        let err = Reply::error(
            Some(RequestId::String("a\"b".into())),
            ErrorObject::method_not_found("x"),
        );
        assert_eq!(err.error_code(), Some(-32601));
        let page = Reply::new(
            RequestId::Number(1),
            Ok(Payload::Shared(Arc::from(r#"{"tools":[]}"#))),
        );
        let batch = Answer::Batch(vec![page, err]).into_bytes();
        assert_eq!(
            String::from_utf8(batch).unwrap(),
            r#"[{"jsonrpc":"2.0","id":1,"result":{"tools":[]}},{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32601,"message":"Method not found: x"}}]"#
        );
        assert_eq!(
            Reply::error(None, ErrorObject::parse_error()).into_bytes(),
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
    }
}
