//! What travels out on a connection: whole messages, and the one control signal a server's
//! handler can give its response stream; and the raw message log.

/// One item of a connection's outbound queue, as a [`Transport`](crate::Transport) receives it
/// in [`Outbox::drain`](crate::Outbox::drain).
///
/// ```
/// use mcp_runtime_io::Outbound;
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

/// The `tracing` target of the raw message log: every JSON message in (`--> {json}`) and out
/// (`<-- {json}`), exactly as read or written, one `TRACE` event each whose message is that line
/// (no module of the workspace has this path, so nothing else logs under it).
///
/// The command line of a `mcp-runtime` server turns it on with `MCP_LOG_MESSAGES=1` (its
/// subscriber then writes the lines bare on stderr); a program with a subscriber of its own
/// enables the target there:
///
/// `RUST_LOG=warn,mcp_runtime::messages=trace` with `tracing_subscriber`'s `EnvFilter`, for example.
///
/// ```
/// assert_eq!(mcp_runtime_io::WIRE_TARGET, "mcp_runtime::messages");
/// ```
pub const WIRE_TARGET: &str = "mcp_runtime::messages";

/// Whether the raw message log is on: asked once per connection (or endpoint) by its
/// transport, which skips formatting the messages when it is off.
///
/// ```
/// // No subscriber: off.
/// assert!(!mcp_runtime_io::raw_log_enabled());
/// ```
pub fn raw_log_enabled() -> bool {
    tracing::enabled!(target: WIRE_TARGET, tracing::Level::TRACE)
}

/// Logs a message read from the peer (`--> {text}`).
///
/// ```
/// mcp_runtime_io::log_in(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
/// ```
pub fn log_in(text: &str) {
    tracing::trace!(target: WIRE_TARGET, "--> {text}");
}

/// Logs a message written to the peer (`<-- {msg}`).
///
/// ```
/// mcp_runtime_io::log_out(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
/// ```
pub fn log_out(msg: &[u8]) {
    tracing::trace!(target: WIRE_TARGET, "<-- {}", String::from_utf8_lossy(msg));
}

/// Logs a message the server starts itself (a notification, a request to the client) when the
/// raw message log is on: every such message is built in one place of the server (its `wire`
/// module or its notification hub), which calls this.
///
/// ```
/// mcp_runtime_io::log_started(br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
/// ```
pub fn log_started(msg: &[u8]) {
    log_out(msg);
}
