//! Recorded transcripts: messages to send and the messages expected back, replayed against a
//! server in-process.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::diff::line_diff;
use crate::Server;

/// A recorded exchange with a server, one JSON object a line:
///
/// - `{"send": MESSAGE}`: sends MESSAGE (a request, a notification or an answer) as it is
///   written, its members in their order;
/// - `{"expect": MESSAGE}`: the next message the server sends must equal MESSAGE;
///   `"ignore": ["/result/serverInfo/version", …]` (JSON Pointers) leaves out values that
///   change from run to run, in both the expected and the received message.
///
/// Blank lines and lines starting with `#` are skipped. Messages the server sends after the
/// last `expect` are not checked. Each `expect` waits ten seconds at most.
///
/// ```rust,standalone_crate
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::testing::Transcript;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// #[mcp_runtime::main(flavor = "current_thread")]
/// async fn main() {
///     let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
///     // The handshake (the server's own version and capabilities left out), then a call.
///     let transcript = Transcript::parse(r#"
/// {"send": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}}
/// {"expect": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25"}}, "ignore": ["/result/capabilities", "/result/serverInfo", "/result/instructions"]}
/// {"send": {"jsonrpc": "2.0", "method": "notifications/initialized"}}
/// {"send": {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}}
/// {"expect": {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "5"}]}}}
/// "#).unwrap();
///     transcript.replay(&server).await.unwrap();
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Transcript {
    steps: Vec<Step>,
}

#[derive(Debug, Clone)]
enum Step {
    /// The message's text as the line has it (members in their order).
    Send(String),
    Expect {
        line: usize,
        message: Value,
        ignore: Vec<String>,
    },
}

/// The text of the `send` member of the entry `raw`, as written: a message is sent as the line
/// has it, its members in their order (a `Value` would sort them).
fn send_text(raw: &str, line: usize) -> Result<String, TranscriptError> {
    let members: std::collections::HashMap<String, Box<serde_json::value::RawValue>> =
        serde_json::from_str(raw).map_err(|source| TranscriptError::Json { line, source })?;
    members
        .get("send")
        .map(|m| m.get().to_owned())
        .ok_or(TranscriptError::Entry { line })
}

impl Transcript {
    /// Reads a transcript from its text.
    ///
    /// ```
    /// use mcp_runtime::testing::{Transcript, TranscriptError};
    ///
    /// let err = Transcript::parse("# one step\n{\"sent\": {}}").unwrap_err();
    /// assert!(matches!(err, TranscriptError::Entry { line: 2 }));
    /// ```
    pub fn parse(text: &str) -> Result<Self, TranscriptError> {
        let mut steps = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let raw = raw.trim();
            if raw.is_empty() || raw.starts_with('#') {
                continue;
            }
            let entry: Value = serde_json::from_str(raw)
                .map_err(|source| TranscriptError::Json { line, source })?;
            let Value::Object(mut entry) = entry else {
                return Err(TranscriptError::Entry { line });
            };
            let ignore = match entry.remove("ignore") {
                None => Vec::new(),
                Some(Value::Array(items)) => items
                    .into_iter()
                    .map(|p| match p {
                        Value::String(p) => Ok(p),
                        _ => Err(TranscriptError::Entry { line }),
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => return Err(TranscriptError::Entry { line }),
            };
            let step = match (entry.remove("send"), entry.remove("expect")) {
                (Some(_), None) if ignore.is_empty() => Step::Send(send_text(raw, line)?),
                (None, Some(message)) => Step::Expect {
                    line,
                    message,
                    ignore,
                },
                _ => return Err(TranscriptError::Entry { line }),
            };
            if !entry.is_empty() {
                return Err(TranscriptError::Entry { line });
            }
            steps.push(step);
        }
        Ok(Self { steps })
    }

    /// Reads a transcript file.
    ///
    /// ```
    /// use mcp_runtime::testing::{Transcript, TranscriptError};
    ///
    /// let err = Transcript::from_file("no/such/transcript.jsonl").unwrap_err();
    /// assert!(matches!(err, TranscriptError::Io { .. }));
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, TranscriptError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| TranscriptError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(&text)
    }

    /// Replays the transcript against `server` on a connection of its own (see
    /// [`Server::connect_in_memory`]); fails at the first message that differs, with the lines
    /// that differ.
    ///
    /// See [`Transcript`] for an example.
    pub async fn replay(&self, server: &Server) -> Result<(), TranscriptError> {
        let mut client = server.connect_in_memory();
        for step in &self.steps {
            match step {
                Step::Send(message) => client.send_raw(message).await,
                Step::Expect {
                    line,
                    message,
                    ignore,
                } => {
                    let Some(mut got) = client.recv().await else {
                        return Err(TranscriptError::NoAnswer { line: *line });
                    };
                    let mut expected = message.clone();
                    for pointer in ignore {
                        remove(&mut expected, pointer);
                        remove(&mut got, pointer);
                    }
                    if got != expected {
                        return Err(TranscriptError::Mismatch {
                            line: *line,
                            diff: line_diff(&pretty(&expected), &pretty(&got)),
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// Replays the transcript file at `path` against `server` ([`Transcript::replay`]); panics with
/// the file's name and [`TranscriptError`]'s message.
///
/// ```rust,standalone_crate
/// use mcp_runtime::prelude::*;
///
/// #[mcp_runtime::main(flavor = "current_thread")]
/// async fn main() {
///     let server = Server::builder(server_info!()).build().unwrap();
///     let path = std::env::temp_dir().join(format!("ping-{}.jsonl", std::process::id()));
///     std::fs::write(&path, concat!(
///         r#"{"send": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}}"#, "\n",
///         r#"{"expect": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25"}}, "ignore": ["/result/capabilities", "/result/serverInfo", "/result/instructions"]}"#, "\n",
///     )).unwrap();
///     mcp_runtime::testing::assert_transcript(&server, &path).await;
///     std::fs::remove_file(&path).unwrap();
/// }
/// ```
pub async fn assert_transcript(server: &Server, path: impl AsRef<Path>) {
    let path = path.as_ref();
    let outcome = match Transcript::from_file(path) {
        Ok(transcript) => transcript.replay(server).await,
        Err(err) => Err(err),
    };
    if let Err(err) = outcome {
        panic!("transcript {}: {err}", path.display());
    }
}

/// Removes the value at a JSON Pointer, if there is one.
fn remove(value: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    match value.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(&last);
        }
        Some(Value::Array(items)) => {
            if let Ok(index) = last.parse::<usize>()
                && index < items.len()
            {
                items.remove(index);
            }
        }
        _ => {}
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Why a [`Transcript`] could not be read or did not replay.
///
/// ```
/// use mcp_runtime::testing::TranscriptError;
///
/// let err = TranscriptError::Mismatch { line: 4, diff: "- a\n+ b".into() };
/// assert_eq!(
///     err.to_string(),
///     "line 4: the server sent another message than expected (- expected, + received):\n- a\n+ b"
/// );
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TranscriptError {
    /// The file could not be read.
    #[error("the transcript {} could not be read", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system reported.
        #[source]
        source: std::io::Error,
    },
    /// A line is not JSON.
    #[error("line {line}: not JSON")]
    Json {
        /// The line (from 1).
        line: usize,
        /// What `serde_json` reported.
        #[source]
        source: serde_json::Error,
    },
    /// A line is JSON but no entry.
    #[error(
        "line {line}: an entry is {{\"send\": MESSAGE}} or {{\"expect\": MESSAGE}}, with \"ignore\": [JSON Pointers] after an expect"
    )]
    Entry {
        /// The line (from 1).
        line: usize,
    },
    /// The server sent another message than the one expected.
    #[error(
        "line {line}: the server sent another message than expected (- expected, + received):\n{diff}"
    )]
    Mismatch {
        /// The line of the `expect` (from 1).
        line: usize,
        /// The lines that differ, with a little context.
        diff: String,
    },
    /// The server sent nothing within ten seconds, or closed the connection.
    #[error("line {line}: the server sent nothing (within ten seconds)")]
    NoAnswer {
        /// The line of the `expect` (from 1).
        line: usize,
    },
}
