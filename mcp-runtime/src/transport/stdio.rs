//! stdio: one JSON message per line on stdin and stdout; logs go to stderr.
//!
//! Reading and writing happen on two dedicated threads with bounded queues: each outbound
//! message is written with one `write` call and flushed; an inbound line longer than the limit
//! is skipped (its bytes are never buffered) and reported as an error, and serving goes on.

use std::io::{self, BufRead, Write};

use tokio::sync::mpsc;

use super::{Inbound, Inbox, Outbox, Transport};

/// The process's stdin and stdout as a transport.
///
/// ```no_run
/// use mcp_runtime::prelude::*;
/// use mcp_runtime::transport::stdio::Stdio;
///
/// # async fn demo() -> Result<(), mcp_runtime::Error> {
/// let server = Server::from_registry(server_info!()).build()?;
/// server.serve(Stdio::new(4 * 1024 * 1024)).await
/// # }
/// ```
#[derive(Debug)]
pub struct Stdio {
    max_line: usize,
}

impl Stdio {
    /// stdio with a line-length limit in bytes.
    pub fn new(max_line: usize) -> Self {
        Self { max_line }
    }
}

/// Reading half of [`Stdio`].
#[derive(Debug)]
pub struct StdinRx(mpsc::Receiver<io::Result<Inbound>>);

/// Writing half of [`Stdio`].
#[derive(Debug)]
pub struct StdoutTx(
    Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
    Option<std::thread::JoinHandle<()>>,
);

impl Transport for Stdio {
    type Rx = StdinRx;
    type Tx = StdoutTx;

    fn split(self) -> (StdinRx, StdoutTx) {
        let (in_tx, in_rx) = mpsc::channel(64);
        let max = self.max_line;
        std::thread::Builder::new()
            .name("mcp-stdin".into())
            .spawn(move || read_lines(io::stdin().lock(), max, &in_tx))
            .ok();
        let (out_tx, out_rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(1024);
        let writer = std::thread::Builder::new()
            .name("mcp-stdout".into())
            .spawn(move || {
                let stdout = io::stdout();
                let mut lock = stdout.lock();
                while let Ok(mut msg) = out_rx.recv() {
                    msg.push(b'\n');
                    if lock.write_all(&msg).and_then(|()| lock.flush()).is_err() {
                        break;
                    }
                }
            })
            .ok();
        (StdinRx(in_rx), StdoutTx(Some(out_tx), writer))
    }
}

/// Reads newline-delimited messages with a hard limit on the bytes held for one line.
pub(crate) fn read_lines<R: BufRead>(
    mut input: R,
    max: usize,
    tx: &mpsc::Sender<io::Result<Inbound>>,
) {
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok([]) => break,
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.blocking_send(Err(e));
                return;
            }
        };
        let (part, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !skipping {
            if line.len() + part.len() > max {
                skipping = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            let msg = if skipping {
                skipping = false;
                Some(Inbound::TooLarge { limit: max })
            } else {
                let bytes = std::mem::take(&mut line);
                let text = match String::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                };
                let trimmed = text.trim_end_matches('\r');
                (!trimmed.trim().is_empty()).then(|| Inbound::Message(trimmed.to_owned()))
            };
            if let Some(msg) = msg
                && tx.blocking_send(Ok(msg)).is_err()
            {
                return;
            }
        }
    }
    // EOF: a last line without a newline still counts.
    if !skipping && !line.is_empty() {
        let text = String::from_utf8_lossy(&line).into_owned();
        if !text.trim().is_empty() {
            let _ = tx.blocking_send(Ok(Inbound::Message(text)));
        }
    } else if skipping {
        let _ = tx.blocking_send(Ok(Inbound::TooLarge { limit: max }));
    }
}

impl Inbox for StdinRx {
    async fn receive(&mut self) -> Option<io::Result<Inbound>> {
        self.0.recv().await
    }
}

impl Outbox for StdoutTx {
    async fn send(&mut self, message: Vec<u8>) -> io::Result<()> {
        let Some(tx) = &self.0 else {
            return Err(io::ErrorKind::BrokenPipe.into());
        };
        let tx = tx.clone();
        match tx.try_send(message) {
            Ok(()) => Ok(()),
            Err(std::sync::mpsc::TrySendError::Full(message)) => {
                tokio::task::spawn_blocking(move || tx.send(message))
                    .await
                    .map_err(io::Error::other)?
                    .map_err(|_| io::ErrorKind::BrokenPipe.into())
            }
            Err(std::sync::mpsc::TrySendError::Disconnected(_)) => {
                Err(io::ErrorKind::BrokenPipe.into())
            }
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        self.0 = None;
        if let Some(writer) = self.1.take() {
            let _ = tokio::task::spawn_blocking(move || writer.join()).await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8], max: usize) -> Vec<String> {
        let (tx, mut rx) = mpsc::channel(64);
        read_lines(io::BufReader::with_capacity(8, input), max, &tx);
        drop(tx);
        let mut out = Vec::new();
        while let Ok(item) = rx.try_recv() {
            out.push(match item.unwrap() {
                Inbound::Message(m) => m,
                Inbound::TooLarge { limit } => format!("TOO LARGE {limit}"),
            });
        }
        out
    }

    #[test]
    fn splits_lines_and_skips_blank() {
        assert_eq!(
            collect(b"{\"a\":1}\n\n{\"b\":2}\r\n{\"c\":3}", 100),
            ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]
        );
    }

    #[test]
    fn oversized_line_is_reported_and_reading_goes_on() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\n{\"ok\":true}\n");
        assert_eq!(collect(&input, 20), ["TOO LARGE 20", "{\"ok\":true}"]);
    }
}
