//! Typed replies: a request's id with its result or its [`ErrorObject`], serialised only at the
//! transport's edge, so that a transport reads the outcome (an HTTP status, say) from the value
//! and never from bytes.

use std::sync::Arc;

use mcp_core::jsonrpc::{EnvelopeError, write_error, write_response};
use mcp_core::{ErrorObject, RequestId};
use serde::Serialize;

/// The answer to one request.
#[derive(Debug)]
pub(crate) struct Reply {
    /// `None` when the request's id could not be read (it is written as `null`).
    pub(crate) id: Option<RequestId>,
    pub(crate) outcome: Result<Payload, ErrorObject>,
}

/// A result, already serialised (typed results are serialised once, when the reply is made).
#[derive(Debug)]
pub(crate) enum Payload {
    /// A result of this request.
    Text(String),
    /// A prepared list page, shared with the catalog.
    Shared(Arc<str>),
}

impl Payload {
    /// A typed result, serialised now; one that cannot be serialised is an internal error.
    pub(crate) fn of<T: Serialize + ?Sized>(result: &T) -> Result<Self, ErrorObject> {
        serde_json::to_string(result)
            .map(Payload::Text)
            .map_err(|_| ErrorObject::internal("failed to serialise the result"))
    }

    /// `{}`: the empty result.
    pub(crate) fn empty() -> Self {
        Payload::Text("{}".to_owned())
    }

    fn as_str(&self) -> &str {
        match self {
            Payload::Text(s) => s,
            Payload::Shared(s) => s,
        }
    }
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
    pub(crate) fn error_code(&self) -> Option<i32> {
        self.outcome.as_ref().err().map(|e| e.code)
    }

    /// Writes the whole message into `buf`.
    pub(crate) fn write(&self, buf: &mut Vec<u8>) {
        match &self.outcome {
            Ok(payload) => match &self.id {
                Some(id) => write_response(buf, id, payload.as_str()),
                // A success always answers a request whose id was read.
                None => write_error(buf, None, &ErrorObject::internal("reply without an id")),
            },
            Err(err) => write_error(buf, self.id.as_ref(), err),
        }
    }

    /// The whole message, in one buffer.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.to_bytes()
    }

    /// The whole message, in a new buffer.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let hint = match &self.outcome {
            Ok(p) => p.as_str().len() + 48,
            Err(_) => 128,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_serialise_at_the_edge() {
        let ok = Reply::new(
            RequestId::Number(7),
            Payload::of(&serde_json::json!({"a": 1})),
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
