//! What the client sends and what its links hand back.

use mcp_core::ProtocolVersion;
use mcp_core::jsonrpc::RequestId;

use super::error::ClientError;

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
}

/// What a link hands to the client's reader.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// One JSON text from the server.
    Message(String),
    /// Request `id` failed without a JSON-RPC answer carrying its id.
    Failed(RequestId, ClientError),
    /// The connection ended.
    Closed(String),
}
