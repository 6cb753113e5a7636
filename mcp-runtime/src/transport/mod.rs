//! Transports: the only I/O seam.
//!
//! A transport delivers whole inbound messages and accepts whole outbound messages; framing,
//! buffering and limits are its business, protocol is not. [`stdio`] and [`memory`] are built
//! in; anything that can move JSON texts (a socket, a pipe, a WebSocket) can implement
//! [`Transport`] and be served with [`Server::serve`](crate::Server::serve). The traits come
//! from `mcp-runtime-io`, which the client (feature `client`) shares.
//!
//! ```
//! use mcp_runtime::transport::{Transport, memory};
//!
//! let (server_side, _client_side) = memory::pair(16);
//! let (_rx, _tx) = server_side.split();
//! ```

pub mod memory;
pub mod stdio;

pub use mcp_io::{Inbound, Inbox, Outbound, Outbox, Transport, WIRE_TARGET};
