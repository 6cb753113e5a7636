//! A server launched as a child process, spoken to over its stdin and stdout (one JSON text per
//! line), as MCP hosts launch local servers.

use std::io;
use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use mcp_io::{Inbound, Inbox, Outbox, Transport};

/// The pipes of a spawned server.
#[derive(Debug)]
pub(crate) struct ChildTransport {
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// The longest line read (a longer one is reported, never buffered whole).
    max_line: usize,
}

/// Spawns `command` with piped stdin and stdout (stderr is inherited); the process is killed
/// when the returned [`Child`] is dropped. Lines longer than `max_line` bytes are reported
/// as [`Inbound::TooLarge`] without being kept.
pub(crate) fn spawn(mut command: Command, max_line: usize) -> io::Result<(Child, ChildTransport)> {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn()?;
    let stdin = child.stdin.take().ok_or(io::ErrorKind::BrokenPipe)?;
    let stdout = child.stdout.take().ok_or(io::ErrorKind::BrokenPipe)?;
    Ok((
        child,
        ChildTransport {
            stdin,
            stdout,
            max_line,
        },
    ))
}

impl Transport for ChildTransport {
    type Rx = LineReader;
    type Tx = LineWriter;
    fn split(self) -> (LineReader, LineWriter) {
        (
            LineReader {
                reader: BufReader::new(self.stdout),
                line: Vec::new(),
                max_line: self.max_line,
            },
            LineWriter(Some(self.stdin)),
        )
    }
}

/// Reads newline-delimited messages from the child's stdout.
#[derive(Debug)]
pub(crate) struct LineReader {
    reader: BufReader<ChildStdout>,
    line: Vec<u8>,
    max_line: usize,
}

impl Inbox for LineReader {
    async fn receive(&mut self) -> Option<io::Result<Inbound>> {
        loop {
            self.line.clear();
            let mut skipped = false;
            loop {
                let buf = match self.reader.fill_buf().await {
                    Ok(buf) => buf,
                    Err(e) => return Some(Err(e)),
                };
                if buf.is_empty() {
                    return None;
                }
                let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..i], Some(i + 1)),
                    None => (buf, None),
                };
                if !skipped {
                    if self.line.len() + chunk.len() > self.max_line {
                        skipped = true;
                        self.line = Vec::new();
                    } else {
                        self.line.extend_from_slice(chunk);
                    }
                }
                let used = done.unwrap_or(buf.len());
                self.reader.consume(used);
                if done.is_some() {
                    break;
                }
            }
            if skipped {
                return Some(Ok(Inbound::TooLarge {
                    limit: self.max_line,
                }));
            }
            if self.line.last() == Some(&b'\r') {
                self.line.pop();
            }
            if self.line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some(Ok(Inbound::from_bytes(std::mem::take(&mut self.line))));
        }
    }
}

/// Writes newline-delimited messages to the child's stdin.
#[derive(Debug)]
pub(crate) struct LineWriter(Option<ChildStdin>);

impl Outbox for LineWriter {
    async fn send(&mut self, mut message: Vec<u8>) -> io::Result<()> {
        let Some(stdin) = self.0.as_mut() else {
            return Err(io::ErrorKind::BrokenPipe.into());
        };
        message.push(b'\n');
        stdin.write_all(&message).await?;
        stdin.flush().await
    }

    async fn close(&mut self) -> io::Result<()> {
        if let Some(mut stdin) = self.0.take() {
            stdin.shutdown().await?;
        }
        Ok(())
    }
}
