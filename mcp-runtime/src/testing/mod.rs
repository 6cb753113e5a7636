//! Helpers for a server's own tests (feature `testing`): a typed in-process client
//! ([`connect`]), a snapshot of the lists ([`assert_lists_snapshot`], [`Snapshot`]) and
//! recorded transcripts ([`Transcript`], [`assert_transcript`]).
//!
//! Put the feature in your `[dev-dependencies]` only:
//!
//! ```toml
//! [dev-dependencies]
//! mcp-runtime = { version = "0.1", features = ["testing"] }
//! ```
//!
//! ```rust,standalone_crate
//! use mcp_runtime::prelude::*;
//! use mcp_runtime::schemars::JsonSchema;
//! use mcp_runtime::serde::{Deserialize, Serialize};
//! use mcp_runtime::testing::{self, CallError};
//!
//! /// A sum.
//! #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
//! #[serde(crate = "mcp_runtime::serde")]
//! #[schemars(crate = "mcp_runtime::schemars")]
//! struct Sum {
//!     /// The total.
//!     total: i64,
//! }
//!
//! /// Adds two numbers.
//! #[tool]
//! async fn add(a: i64, b: i64) -> Json<Sum> {
//!     Json(Sum { total: a + b })
//! }
//!
//! #[mcp_runtime::main(flavor = "current_thread")]
//! async fn main() {
//!     let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
//!     let session = testing::connect(&server).await.unwrap();
//!     let sum: Sum = session.call("add", serde_json::json!({"a": 2, "b": 3})).await.unwrap();
//!     assert_eq!(sum, Sum { total: 5 });
//!     let err = session.call::<Sum>("add", serde_json::json!({"a": 2})).await.unwrap_err();
//!     assert!(matches!(err, CallError::Tool { .. }));
//!     assert_eq!(
//!         err.to_string(),
//!         "tool 'add' failed: invalid arguments for tool 'add': missing required property 'b'"
//!     );
//! }
//! ```
//!
//! Snapshot files are written, instead of compared, when the environment variable
//! `MCP_UPDATE_SNAPSHOTS` is `1` ([`UPDATE_VARIABLE`]): `MCP_UPDATE_SNAPSHOTS=1 cargo test`,
//! then review the change and commit it.

mod diff;
mod snapshot;
mod transcript;

use mcp_client::{Client, ClientError};
use mcp_core::{CallToolResult, ProtocolVersion};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use snapshot::{Snapshot, SnapshotError, UPDATE_VARIABLE, assert_lists_snapshot};
pub use transcript::{Transcript, TranscriptError, assert_transcript};

use crate::Server;

/// Connects the real client ([`Client`]) to `server` in-process at the newest handshake
/// revision (2025-11-25); see [`connect_at`] for another one.
///
/// See [the module](self) for an example.
pub async fn connect(server: &Server) -> Result<Session, ClientError> {
    connect_at(server, ProtocolVersion::LATEST_HANDSHAKE).await
}

/// Connects the real client to `server` in-process at revision `version`: a handshake
/// revision, or 2026-07-28 for the stateless era.
///
/// ```rust,standalone_crate
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::protocol::ProtocolVersion;
///
/// /// Greets someone.
/// #[tool]
/// async fn greet(name: String) -> String {
///     format!("hello, {name}")
/// }
///
/// #[mcp_runtime::main(flavor = "current_thread")]
/// async fn main() {
///     let server = Server::builder(server_info!()).tool(greet::TOOL).build().unwrap();
///     let session = mcp_runtime::testing::connect_at(&server, ProtocolVersion::LATEST).await.unwrap();
///     assert_eq!(session.client().protocol_version(), ProtocolVersion::LATEST);
///     let text = session.call_text("greet", serde_json::json!({"name": "Ann"})).await.unwrap();
///     assert_eq!(text, "hello, Ann");
/// }
/// ```
pub async fn connect_at(server: &Server, version: ProtocolVersion) -> Result<Session, ClientError> {
    let client = server
        .connect_client(Client::builder().protocol_version(version))
        .await?;
    Ok(Session { client })
}

/// The real client connected to a server in-process, with calls that read a tool's result as
/// a value ([`call`](Self::call)) or as text ([`call_text`](Self::call_text)); everything
/// else through [`client`](Self::client).
#[derive(Debug)]
pub struct Session {
    client: Client,
}

impl Session {
    /// The client, for every other request.
    ///
    /// ```rust,standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::protocol::ProtocolVersion;
    ///
    /// #[mcp_runtime::main(flavor = "current_thread")]
    /// async fn main() {
    ///     let server = Server::builder(server_info!()).build().unwrap();
    ///     let session = mcp_runtime::testing::connect(&server).await.unwrap();
    ///     assert_eq!(session.client().protocol_version(), ProtocolVersion::LATEST_HANDSHAKE);
    /// }
    /// ```
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The client, kept.
    ///
    /// ```rust,standalone_crate
    /// use mcp_runtime::prelude::*;
    ///
    /// #[mcp_runtime::main(flavor = "current_thread")]
    /// async fn main() {
    ///     let server = Server::builder(server_info!()).build().unwrap();
    ///     let client = mcp_runtime::testing::connect(&server).await.unwrap().into_client();
    ///     client.close().await;
    /// }
    /// ```
    pub fn into_client(self) -> Client {
        self.client
    }

    /// Calls tool `name` and reads its structured content as a `T`. An `isError` result is
    /// [`CallError::Tool`] (with its text); a result without structured content
    /// [`CallError::NotStructured`]; one that is no `T` [`CallError::Decode`].
    ///
    /// See [the module](self) for an example.
    pub async fn call<T: DeserializeOwned>(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<T, CallError> {
        let result = self.succeeded(name, arguments).await?;
        let Some(structured) = result.structured_content else {
            return Err(CallError::NotStructured {
                tool: name.to_owned(),
                text: text_of(&result.content),
            });
        };
        serde_json::from_str(structured.get()).map_err(|source| CallError::Decode {
            tool: name.to_owned(),
            source,
        })
    }

    /// Calls tool `name` and returns the text of its content (text blocks joined by newlines).
    /// An `isError` result is [`CallError::Tool`].
    ///
    /// See [`connect_at`] for an example.
    pub async fn call_text(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<String, CallError> {
        let result = self.succeeded(name, arguments).await?;
        Ok(text_of(&result.content))
    }

    async fn succeeded(
        &self,
        name: &str,
        arguments: impl Serialize,
    ) -> Result<CallToolResult, CallError> {
        let result = self.client.call_tool(name, arguments).await?;
        if result.is_error == Some(true) {
            return Err(CallError::Tool {
                tool: name.to_owned(),
                message: text_of(&result.content),
            });
        }
        Ok(result)
    }
}

fn text_of(content: &[mcp_core::ContentBlock]) -> String {
    let texts: Vec<&str> = content.iter().filter_map(|c| c.as_text()).collect();
    texts.join("\n")
}

/// Why [`Session::call`] or [`Session::call_text`] gave no value.
///
/// ```
/// use mcp_runtime::testing::CallError;
///
/// let err = CallError::Tool { tool: "add".into(), message: "there is no note 7".into() };
/// assert_eq!(err.to_string(), "tool 'add' failed: there is no note 7");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// The tool's result is an `isError` result (invalid arguments included, from
    /// 2025-11-25 on).
    #[error("tool '{tool}' failed: {message}")]
    Tool {
        /// The tool.
        tool: String,
        /// The result's text.
        message: String,
    },
    /// The result has no structured content to read.
    #[error("tool '{tool}' returned no structured content (its text: {text:?})")]
    NotStructured {
        /// The tool.
        tool: String,
        /// The result's text.
        text: String,
    },
    /// The structured content is not of the type asked for.
    #[error("the structured content of tool '{tool}' does not fit the type asked for")]
    Decode {
        /// The tool.
        tool: String,
        /// What `serde_json` reported.
        #[source]
        source: serde_json::Error,
    },
    /// The request failed (a JSON-RPC error such as invalid arguments before 2025-11-25, or
    /// the connection).
    #[error(transparent)]
    Client(#[from] ClientError),
}
