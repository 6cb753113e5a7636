//! MCP over a Unix domain socket: a transport written the way an application would write one,
//! against the public [`Transport`], [`Inbox`] and [`Outbox`] traits of `mcp-runtime`, and
//! served with [`Server::serve`], one connection per accepted socket.
//!
//! The framing is stdio's: one JSON-RPC message per line, in UTF-8. A line longer than the
//! limit is skipped without being buffered, and reported to the runtime, which answers it with
//! an error and goes on; so is a line that is not UTF-8 (-32700, `null` id: never repaired).
//! Running out of file descriptors pauses accepting (see [`serve_unix`]), never stops it.
//!
//! ```no_run
//! use mcp_runtime::prelude::*;
//! use tokio::net::UnixListener;
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let server = unix_socket::server().build()?;
//! let listener = UnixListener::bind("/tmp/words.sock")?;
//! unix_socket::serve_unix(&server, listener).await?; // until the listener is unusable
//! # Ok(())
//! # }
//! ```
#![cfg(unix)]

use std::io;
use std::time::{Duration, Instant};

use mcp_runtime::prelude::*;
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{UnixListener, UnixStream};

/// The longest line a connection accepts unless told otherwise: 4 MiB.
pub const DEFAULT_MAX_LINE: usize = 4 << 20;

/// One accepted (or connected) Unix socket as an MCP transport.
#[derive(Debug)]
pub struct UnixSocket {
    stream: UnixStream,
    max_line: usize,
}

impl UnixSocket {
    /// The transport of `stream`, with lines of up to [`DEFAULT_MAX_LINE`] bytes.
    pub fn new(stream: UnixStream) -> Self {
        Self {
            stream,
            max_line: DEFAULT_MAX_LINE,
        }
    }

    /// Sets the longest line accepted, in bytes (without the newline).
    #[must_use]
    pub fn max_line(mut self, bytes: usize) -> Self {
        self.max_line = bytes;
        self
    }
}

impl Transport for UnixSocket {
    type Rx = LineReader;
    type Tx = LineWriter;

    fn split(self) -> (LineReader, LineWriter) {
        let (read, write) = self.stream.into_split();
        (
            LineReader {
                reader: BufReader::new(read),
                max_line: self.max_line,
            },
            LineWriter { writer: write },
        )
    }
}

/// The receiving half: newline-delimited messages.
#[derive(Debug)]
pub struct LineReader {
    reader: BufReader<OwnedReadHalf>,
    max_line: usize,
}

impl LineReader {
    /// The next line without its terminator (`\n` or `\r\n`), `Err(())` when it was longer
    /// than the limit, `Ok(None)` at the end of the stream.
    async fn line(&mut self) -> io::Result<Option<Result<Vec<u8>, ()>>> {
        let mut line = Vec::new();
        let mut too_long = false;
        let mut seen_any = false;
        loop {
            let buf = self.reader.fill_buf().await?;
            if buf.is_empty() {
                // End of stream: a last line without a newline still counts.
                return Ok(seen_any.then_some(if too_long { Err(()) } else { Ok(line) }));
            }
            seen_any = true;
            let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            if !too_long && line.len() + chunk.len() > self.max_line {
                too_long = true;
                line = Vec::new();
            }
            if !too_long {
                line.extend_from_slice(chunk);
            }
            self.reader.consume(used);
            if done {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some(if too_long { Err(()) } else { Ok(line) }));
            }
        }
    }
}

impl Inbox for LineReader {
    async fn receive(&mut self) -> Option<io::Result<Inbound>> {
        loop {
            match self.line().await {
                Err(e) => return Some(Err(e)),
                Ok(None) => return None,
                Ok(Some(Err(()))) => {
                    return Some(Ok(Inbound::TooLarge {
                        limit: self.max_line,
                    }));
                }
                // Blank lines between messages are skipped.
                Ok(Some(Ok(line))) if line.iter().all(u8::is_ascii_whitespace) => {}
                // Not UTF-8: refused (-32700, null id), never repaired.
                Ok(Some(Ok(line))) => return Some(Ok(Inbound::from_bytes(line))),
            }
        }
    }
}

/// The sending half: each message as one line.
#[derive(Debug)]
pub struct LineWriter {
    writer: OwnedWriteHalf,
}

impl Outbox for LineWriter {
    async fn send(&mut self, mut message: Vec<u8>) -> io::Result<()> {
        message.push(b'\n');
        self.writer.write_all(&message).await
    }

    async fn close(&mut self) -> io::Result<()> {
        self.writer.shutdown().await
    }
}

/// The pause after an accept error that is not about one connection (out of file descriptors:
/// `EMFILE`, `ENFILE`; out of memory): the connections being served close meanwhile.
pub const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Accepts connections on `listener` and serves each on a task of its own. An accept error
/// about one connection (aborted, reset) is skipped; any other but a broken listener (out of
/// file descriptors) pauses accepting for [`ACCEPT_BACKOFF`] and is reported on stderr at most
/// every ten seconds. Returns only when the listener itself is unusable.
pub async fn serve_unix(server: &Server, listener: UnixListener) -> io::Result<()> {
    let mut logged: Option<Instant> = None;
    serve_unix_with(server, listener, move |err| {
        if logged.is_none_or(|at| at.elapsed() >= Duration::from_secs(10)) {
            eprintln!("unix-socket: accepting a connection failed ({err}); retrying");
            logged = Some(Instant::now());
        }
    })
    .await
}

/// [`serve_unix`], with every accept error that pauses accepting handed to `on_error` first
/// (to log it your way, or count it).
///
/// ```no_run
/// # async fn demo() -> std::io::Result<()> {
/// let server = unix_socket::server().build().unwrap();
/// let listener = tokio::net::UnixListener::bind("/tmp/words.sock")?;
/// unix_socket::serve_unix_with(&server, listener, |err| eprintln!("accept: {err}")).await
/// # }
/// ```
pub async fn serve_unix_with(
    server: &Server,
    listener: UnixListener,
    mut on_error: impl FnMut(&io::Error),
) -> io::Result<()> {
    use io::ErrorKind::{ConnectionAborted, ConnectionReset, Interrupted, InvalidInput};
    /// `EBADF`, the same number on Linux and the BSDs.
    const EBADF: i32 = 9;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) if matches!(e.kind(), ConnectionAborted | ConnectionReset | Interrupted) => {
                continue;
            }
            Err(e) if e.kind() == InvalidInput || e.raw_os_error() == Some(EBADF) => return Err(e),
            Err(e) => {
                on_error(&e);
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let server = server.clone();
        tokio::spawn(async move {
            if let Err(err) = server.serve(UnixSocket::new(stream)).await {
                eprintln!("unix-socket: a connection ended with an error: {err}");
            }
        });
    }
}

/// Counts the words of a text.
#[tool(read_only)]
async fn count_words(
    /// The text
    text: String,
) -> String {
    text.split_whitespace().count().to_string()
}

/// The example server: one tool.
pub fn server() -> mcp_runtime::ServerBuilder {
    Server::from_registry(server_info!())
}
