//! stdio: one JSON message per line on stdin and stdout; logs go to stderr.
//!
//! Reading and writing happen on two dedicated threads with bounded queues: each outbound
//! message is written with one `write` call and flushed; an inbound line longer than the limit
//! is skipped (its bytes are never buffered) and reported as an error, and serving goes on.

use std::io::{self, BufRead, Write};

use tokio::sync::mpsc;

use super::{Inbound, Inbox, Outbound, Outbox, Transport};

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
pub struct StdinRx {
    rx: mpsc::Receiver<Batch>,
    pending: std::collections::VecDeque<io::Result<Inbound>>,
}

/// Writing half of [`Stdio`].
#[derive(Debug)]
pub struct StdoutTx {
    /// The writer thread's queue, started on the first `send`.
    queue: Option<mpsc::Sender<Outbound>>,
    writer: Option<tokio::task::JoinHandle<()>>,
}

/// Writes queued messages to stdout until the queue closes: whatever is queued goes out in one
/// write, each message whole and newline-terminated, then flushed.
pub(crate) fn write_loop(mut queue: mpsc::Receiver<Outbound>) {
    let stdout = io::stdout();
    let mut lock = stdout.lock();
    let mut buf: Vec<u8> = Vec::new();
    while let Some(first) = queue.blocking_recv() {
        buf.clear();
        for msg in std::iter::once(first).chain(std::iter::from_fn(|| queue.try_recv().ok())) {
            // Stream control signals are for transports with response streams.
            if let Outbound::Message(msg) = msg {
                buf.extend_from_slice(&msg);
                buf.push(b'\n');
            }
            if buf.len() >= 64 * 1024 {
                break;
            }
        }
        if buf.is_empty() {
            continue;
        }
        if lock.write_all(&buf).and_then(|()| lock.flush()).is_err() {
            break;
        }
    }
}

impl Transport for Stdio {
    type Rx = StdinRx;
    type Tx = StdoutTx;

    fn split(self) -> (StdinRx, StdoutTx) {
        let (in_tx, in_rx) = mpsc::channel(16);
        let max = self.max_line;
        std::thread::Builder::new()
            .name("mcp-stdin".into())
            .spawn(move || read_lines(io::stdin().lock(), max, &in_tx))
            .ok();
        let rx = StdinRx {
            rx: in_rx,
            pending: std::collections::VecDeque::new(),
        };
        (
            rx,
            StdoutTx {
                queue: None,
                writer: None,
            },
        )
    }
}

/// Most messages handed over in one batch.
const BATCH: usize = 256;

pub(crate) type Batch = Vec<io::Result<Inbound>>;

/// Reads newline-delimited messages with a hard limit on the bytes held for one line.
///
/// Messages are handed over in batches: everything already read is sent before a read that may
/// block, so a burst of pipelined requests costs one wake-up, not one per line.
pub(crate) fn read_lines<R: BufRead>(input: R, max: usize, tx: &mpsc::Sender<Batch>) {
    read_batches(input, max, |batch| tx.blocking_send(batch).is_ok());
}

/// [`read_lines`] handing each batch to `deliver`, which returns `false` to stop reading.
pub(crate) fn read_batches<R: BufRead>(
    mut input: R,
    max: usize,
    mut deliver: impl FnMut(Batch) -> bool,
) {
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
    let mut batch: Batch = Vec::new();
    let mut buffered = false;
    loop {
        if !buffered && !batch.is_empty() && !deliver(std::mem::take(&mut batch)) {
            return;
        }
        let chunk = match input.fill_buf() {
            Ok([]) => break,
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                batch.push(Err(e));
                deliver(batch);
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
        buffered = used < chunk.len();
        input.consume(used);
        if done.is_some() {
            if skipping {
                skipping = false;
                batch.push(Ok(Inbound::TooLarge { limit: max }));
            } else if let Some(msg) = message(std::mem::take(&mut line)) {
                batch.push(Ok(msg));
            }
            if batch.len() >= BATCH {
                buffered = false;
            }
        }
    }
    // EOF: a last line without a newline still counts.
    if skipping {
        batch.push(Ok(Inbound::TooLarge { limit: max }));
    } else if let Some(msg) = message(line) {
        batch.push(Ok(msg));
    }
    if !batch.is_empty() {
        deliver(batch);
    }
}

/// One line as a message; blank lines are skipped, and a line that is not UTF-8 is reported as
/// such (JSON text must be UTF-8: nothing is substituted).
fn message(bytes: Vec<u8>) -> Option<Inbound> {
    let text = match Inbound::from_bytes(bytes) {
        Inbound::Message(text) => text,
        other => return Some(other),
    };
    let trimmed = text.trim_end_matches('\r');
    if trimmed.trim().is_empty() {
        return None;
    }
    Some(Inbound::Message(if trimmed.len() == text.len() {
        text
    } else {
        trimmed.to_owned()
    }))
}

impl Inbox for StdinRx {
    async fn receive(&mut self) -> Option<io::Result<Inbound>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            self.pending = self.rx.recv().await?.into();
        }
    }
}

impl Outbox for StdoutTx {
    async fn send(&mut self, message: Vec<u8>) -> io::Result<()> {
        if self.queue.is_none() && self.writer.is_none() {
            let (tx, rx) = mpsc::channel(1024);
            self.queue = Some(tx);
            self.writer = Some(tokio::task::spawn_blocking(move || write_loop(rx)));
        }
        let Some(queue) = &self.queue else {
            return Err(io::ErrorKind::BrokenPipe.into());
        };
        queue
            .send(Outbound::Message(message))
            .await
            .map_err(|_| io::ErrorKind::BrokenPipe.into())
    }

    async fn close(&mut self) -> io::Result<()> {
        self.queue = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.await;
        }
        Ok(())
    }

    async fn drain(mut self, queue: mpsc::Receiver<Outbound>) {
        let _ = self.close().await;
        let _ = tokio::task::spawn_blocking(move || write_loop(queue)).await;
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
        while let Ok(batch) = rx.try_recv() {
            for item in batch {
                out.push(match item.unwrap() {
                    Inbound::Message(m) => m,
                    Inbound::TooLarge { limit } => format!("TOO LARGE {limit}"),
                    Inbound::InvalidUtf8 { offset } => format!("NOT UTF-8 AT {offset}"),
                });
            }
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

    #[test]
    fn a_line_that_is_not_utf8_is_reported_not_repaired_and_reading_goes_on() {
        // A lone surrogate half (CESU-8) inside a string id, then a stray 0xff, then a good line.
        let input = b"{\"id\":\"\xed\xa0\x80\"}\n\xff\n{\"ok\":\"\xc3\xa9\"}\n";
        assert_eq!(
            collect(input, 100),
            ["NOT UTF-8 AT 7", "NOT UTF-8 AT 0", "{\"ok\":\"\u{e9}\"}"]
        );
    }
}
