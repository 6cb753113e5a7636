//! What travels from the server to a client: whole messages, and the one control signal a
//! handler can give its response stream.

use tokio::sync::mpsc;

/// One item of a connection's outbound queue, as a [`Transport`](crate::transport::Transport)
/// receives it in [`Outbox::drain`](crate::transport::Outbox::drain).
///
/// ```
/// use mcp_runtime::transport::Outbound;
///
/// let msg = Outbound::Message(br#"{"jsonrpc":"2.0","method":"notifications/message"}"#.to_vec());
/// assert!(matches!(msg, Outbound::Message(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outbound {
    /// A JSON-RPC message, serialised once; write it in one piece.
    Message(Vec<u8>),
    /// End the response stream carrying the current request now, without its reply (the
    /// client resumes it later). Transports without such streams ignore it.
    CloseStream,
}

/// Where the messages of one request (or one connection) are queued.
pub(crate) type Sink = mpsc::Sender<Outbound>;

/// Whether `MCP_LOG_MESSAGES` asks for the raw message log on stderr: read once per process.
pub(crate) fn raw_log_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var_os("MCP_LOG_MESSAGES").is_some_and(|v| !v.is_empty() && v != "0")
    })
}

/// Logs a message the server starts itself (a notification, a request to the client) when the
/// raw message log is on: every such message is built by `wire` or the hub, which call this.
pub(crate) fn log_started(msg: &[u8]) {
    if raw_log_enabled() {
        eprintln!("<-- {}", String::from_utf8_lossy(msg));
    }
}
