//! What the client sends and what its links hand back.

use std::sync::Arc;
use std::time::Duration;

use mcp_core::jsonrpc::RequestId;
use mcp_core::{
    LoggingLevel, LoggingMessageNotificationParams, ProgressNotificationParams, ProtocolVersion,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ClientError, TransportError};
use crate::handler::ClientHandler;

/// How many inbound messages wait for the client's reader at most.
pub(crate) const INBOUND_QUEUE: usize = 256;

/// One message on its way out, with what an HTTP link puts in headers.
#[derive(Debug)]
pub(crate) struct Outgoing {
    /// The JSON text.
    pub(crate) bytes: Vec<u8>,
    /// The request's id (requests only): an HTTP link answers for it when the POST fails.
    pub(crate) id: Option<RequestId>,
    /// The method (requests and notifications): `Mcp-Method`.
    pub(crate) method: Option<String>,
    /// The revision for `MCP-Protocol-Version` (none before a handshake completes).
    pub(crate) version: Option<ProtocolVersion>,
    /// `Mcp-Name` and `Mcp-Param-*` headers, already encoded (stateless era only).
    pub(crate) headers: Vec<(String, String)>,
    /// How much of the answer an HTTP link reads at most, when less than the client's
    /// message bound (what is left of a list's bound).
    pub(crate) max_bytes: Option<usize>,
}

/// What a link hands to the client's reader.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// One JSON text from the server.
    Message(String),
    /// Request `id` failed without a JSON-RPC answer carrying its id.
    Failed(RequestId, ClientError),
    /// The connection ended.
    Closed(TransportError),
    /// The server sent a message larger than this bound over a message transport: the
    /// connection is ended, since what it answered cannot be known.
    TooLarge(usize),
}

/// A successful response as received: the whole message text, its `result` read when asked
/// for, once, straight into the type wanted (no [`Value`] in between).
#[derive(Debug)]
pub(crate) struct Answer(pub(crate) String);

impl Answer {
    /// The bytes of the message as received.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// The message as received.
    pub(crate) fn text(&self) -> &str {
        &self.0
    }

    /// The `result`, read as `T`.
    pub(crate) fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        #[derive(serde::Deserialize)]
        struct Envelope<T> {
            result: T,
        }
        serde_json::from_str::<Envelope<T>>(&self.0).map(|e| e.result)
    }

    /// The `result` as a [`Value`] (answers read member by member) of the request `what`.
    pub(crate) fn value(&self, what: &str) -> Result<Value, ClientError> {
        self.decode().map_err(|e| ClientError::decode(what, e))
    }
}

/// A progress callback.
pub(crate) type ProgressFn = Arc<dyn Fn(ProgressNotificationParams) + Send + Sync>;

/// A log message callback.
pub(crate) type LogFn = Arc<dyn Fn(LoggingMessageNotificationParams) + Send + Sync>;

/// Per-request options.
#[derive(Default, Clone)]
pub(crate) struct Options {
    pub(crate) progress: Option<ProgressFn>,
    pub(crate) timeout: Option<Duration>,
    /// `Mcp-Name` and `Mcp-Param-*` (HTTP, stateless era).
    pub(crate) headers: Vec<(String, String)>,
    /// Answers the questions of this request (see `Engine::handler_for`).
    pub(crate) handler: Option<Arc<dyn ClientHandler>>,
    /// Reads at most this much of the answer over HTTP (see [`Outgoing::max_bytes`]).
    pub(crate) max_bytes: Option<usize>,
    /// This request's log level (stateless era), over the client's own.
    pub(crate) log_level: Option<LoggingLevel>,
    /// Takes the log messages of this request (see `Engine::notified`).
    pub(crate) log: Option<LogFn>,
}
