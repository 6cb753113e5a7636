//! What travels from the server to a client (`Outbound`, from `mcp-runtime-io`), where a
//! request's messages are queued, and the raw message log's helpers.

use tokio::sync::mpsc;

pub(crate) use mcp_io::{Outbound, log_in, log_out, log_started, raw_log_enabled};

/// Where the messages of one request (or one connection) are queued.
pub(crate) type Sink = mpsc::Sender<Outbound>;
