//! stdio: one JSON message per line on stdin and stdout; logs go to stderr.
//!
//! Reading and writing happen on two dedicated threads with bounded queues: each outbound
//! message is written with one `write` call and flushed; an inbound line longer than the limit
//! is skipped (its bytes are never buffered) and reported as an error, and serving goes on.

use std::io::{self, BufRead, Write};

use tokio::sync::mpsc;

use super::{Inbound, Inbox, Outbound, Outbox, Transport};
use crate::sync::lock;

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

/// An output shared by two threads: the one that reads stdin writes the answers of each batch it
/// read itself, after whatever is queued (so a reply never overtakes a notification its handler
/// queued first), and a writer thread writes messages queued while the reader waits (replies of
/// handlers that run in tasks, notifications). Each write goes out whole, under one lock, in
/// queue order.
pub(crate) struct SharedOut<W> {
    inner: std::sync::Mutex<Shared<W>>,
}

struct Shared<W> {
    queue: mpsc::Receiver<Outbound>,
    out: W,
    buf: Vec<u8>,
    /// The output failed: nothing more is written, the queue is closed.
    broken: bool,
}

impl<W: Write> Shared<W> {
    /// Moves every queued message into `buf`.
    fn take_queued(&mut self) {
        while let Ok(msg) = self.queue.try_recv() {
            // Stream control signals are for transports with response streams.
            if let Outbound::Message(msg) = msg {
                self.buf.extend_from_slice(&msg);
                self.buf.push(b'\n');
            }
        }
    }

    /// Writes `buf`, then `extra`, and flushes; on failure closes the queue (senders learn that
    /// the output is gone) and drops what is queued.
    fn write(&mut self, extra: &[u8]) {
        if self.broken {
            self.buf.clear();
            return;
        }
        let written = if self.buf.is_empty() {
            self.out.write_all(extra)
        } else {
            self.buf.extend_from_slice(extra);
            self.out.write_all(&self.buf)
        };
        self.buf.clear();
        if self.buf.capacity() > 64 * 1024 {
            self.buf = Vec::new();
        }
        if written.and_then(|()| self.out.flush()).is_err() {
            self.broken = true;
            self.queue.close();
            while self.queue.try_recv().is_ok() {}
        }
    }
}

/// Wakes the writer thread parked in [`SharedOut::write_loop`].
struct Unpark(std::thread::Thread);

impl std::task::Wake for Unpark {
    fn wake(self: std::sync::Arc<Self>) {
        self.0.unpark();
    }
}

impl<W: Write> SharedOut<W> {
    /// An output writing to `out` what comes through `queue`.
    pub(crate) fn new(queue: mpsc::Receiver<Outbound>, out: W) -> Self {
        Self {
            inner: std::sync::Mutex::new(Shared {
                queue,
                out,
                buf: Vec::new(),
                broken: false,
            }),
        }
    }

    /// Writes whatever is queued, then `answers` (whole newline-terminated messages), in one
    /// write.
    pub(crate) fn write_after_queued(&self, answers: &[u8]) {
        let mut shared = lock(&self.inner);
        shared.take_queued();
        if !shared.buf.is_empty() || !answers.is_empty() {
            shared.write(answers);
        }
    }

    /// Waits, as a task on the runtime, for the first message queued (moved into the buffer the
    /// next write starts with): `Ready(true)` then, `Ready(false)` when the queue closed with
    /// nothing in it. The writer thread is started only once something is queued.
    pub(crate) fn poll_first(&self, cx: &mut std::task::Context<'_>) -> std::task::Poll<bool> {
        let mut shared = lock(&self.inner);
        shared.queue.poll_recv(cx).map(|first| match first {
            Some(first) => {
                if let Outbound::Message(msg) = first {
                    shared.buf.extend_from_slice(&msg);
                    shared.buf.push(b'\n');
                }
                true
            }
            None => false,
        })
    }

    /// The writer thread: writes queued messages as they come, each burst in one write, until
    /// the queue is closed and empty.
    pub(crate) fn write_loop(&self) {
        let waker = std::task::Waker::from(std::sync::Arc::new(Unpark(std::thread::current())));
        let mut cx = std::task::Context::from_waker(&waker);
        loop {
            {
                let mut shared = lock(&self.inner);
                match shared.queue.poll_recv(&mut cx) {
                    std::task::Poll::Ready(Some(first)) => {
                        if let Outbound::Message(msg) = first {
                            shared.buf.extend_from_slice(&msg);
                            shared.buf.push(b'\n');
                        }
                        shared.take_queued();
                        if !shared.buf.is_empty() {
                            shared.write(&[]);
                        }
                        continue;
                    }
                    std::task::Poll::Ready(None) => {
                        if !shared.buf.is_empty() {
                            shared.write(&[]);
                        }
                        return;
                    }
                    // What `poll_first` took before this thread started.
                    std::task::Poll::Pending if !shared.buf.is_empty() => {
                        shared.write(&[]);
                        continue;
                    }
                    std::task::Poll::Pending => {}
                }
            }
            std::thread::park();
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
        let (part, done) = match newline(chunk) {
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

/// The index of the first `\n` in `bytes`, looked for eight bytes at a time (a line of JSON is
/// mostly long).
fn newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; 8]);
    let mut words = bytes.chunks_exact(8);
    for (n, word) in (&mut words).enumerate() {
        let mut eight = [0; 8];
        eight.copy_from_slice(word);
        // Zero where a byte is `\n`; the lowest byte flagged below is the first zero (a false
        // flag can only come after a true one, from its borrow).
        let x = u64::from_le_bytes(eight) ^ NEWLINES;
        let flagged = x.wrapping_sub(ONES) & !x & HIGH;
        if flagged != 0 {
            return Some(n * 8 + (flagged.trailing_zeros() / 8) as usize);
        }
    }
    let done = bytes.len() - words.remainder().len();
    words
        .remainder()
        .iter()
        .position(|b| *b == b'\n')
        .map(|i| done + i)
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
            self.writer = Some(crate::background::spawn_blocking(move || write_loop(rx)));
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
        let _ = crate::background::spawn_blocking(move || write_loop(queue)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_newline_is_found_wherever_it_is() {
        let bytes: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37) | 0x40).collect();
        assert_eq!(newline(&bytes), None);
        assert_eq!(newline(b""), None);
        for at in 0..bytes.len() {
            for second in [None, Some(at + 1), Some(bytes.len() - 1)] {
                let mut b = bytes.clone();
                // Bytes next to `\n` in value (`\t`, `\x0b`, `\x8a`) are not it.
                b[(at + 3) % bytes.len()] = 0x8a;
                b[(at + 5) % bytes.len()] = b'\x0b';
                b[(at + 7) % bytes.len()] = b'\t';
                if let Some(s) = second.filter(|s| *s < b.len()) {
                    b[s] = b'\n';
                }
                b[at] = b'\n';
                let expected = b.iter().position(|c| *c == b'\n');
                assert_eq!(newline(&b), expected, "{at} {second:?}");
                assert_eq!(newline(&b[1..]), b[1..].iter().position(|c| *c == b'\n'));
            }
        }
    }

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
                    other => format!("UNKNOWN {other:?}"),
                });
            }
        }
        out
    }

    impl<W> SharedOut<W> {
        fn into_out(self) -> W {
            self.inner.into_inner().unwrap().out
        }
    }

    #[test]
    fn answers_go_out_after_what_was_queued_before_them() {
        let (tx, rx) = mpsc::channel(8);
        let out = SharedOut::new(rx, Vec::new());
        tx.try_send(Outbound::Message(b"note 1".to_vec())).unwrap();
        tx.try_send(Outbound::CloseStream).unwrap();
        tx.try_send(Outbound::Message(b"note 2".to_vec())).unwrap();
        out.write_after_queued(b"reply 1\nreply 2\n");
        out.write_after_queued(b"");
        tx.try_send(Outbound::Message(b"note 3".to_vec())).unwrap();
        out.write_after_queued(b"reply 3\n");
        assert_eq!(
            String::from_utf8(out.into_out()).unwrap(),
            "note 1\nnote 2\nreply 1\nreply 2\nnote 3\nreply 3\n"
        );
    }

    #[test]
    fn the_writer_thread_writes_what_is_queued_until_the_queue_closes() {
        let (tx, rx) = mpsc::channel(2);
        let out = std::sync::Arc::new(SharedOut::new(rx, Vec::new()));
        let writer = {
            let out = std::sync::Arc::clone(&out);
            std::thread::spawn(move || out.write_loop())
        };
        for i in 0..100 {
            // A bounded queue of 2: the writer has to drain it for this to go on.
            tx.blocking_send(Outbound::Message(format!("m{i}").into_bytes()))
                .unwrap();
            if i % 10 == 0 {
                out.write_after_queued(format!("a{i}\n").as_bytes());
            }
        }
        drop(tx);
        writer.join().unwrap();
        let text = String::from_utf8(std::sync::Arc::into_inner(out).unwrap().into_out()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let queued: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with('m'))
            .collect();
        let expected: Vec<String> = (0..100).map(|i| format!("m{i}")).collect();
        assert_eq!(queued, expected);
        // Each answer comes after the message queued just before it.
        for i in (0..100).step_by(10) {
            let a = lines.iter().position(|l| *l == format!("a{i}")).unwrap();
            let m = lines.iter().position(|l| *l == format!("m{i}")).unwrap();
            assert!(m < a, "a{i} before m{i}: {text}");
        }
    }

    #[test]
    fn the_writer_thread_starts_with_what_the_first_wait_took() {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        let (tx, rx) = mpsc::channel(8);
        let out = std::sync::Arc::new(SharedOut::new(rx, Vec::new()));
        assert!(out.poll_first(&mut cx).is_pending());
        tx.try_send(Outbound::Message(b"note 1".to_vec())).unwrap();
        assert_eq!(out.poll_first(&mut cx), std::task::Poll::Ready(true));
        // Answers written meanwhile go out after it.
        out.write_after_queued(b"reply 1\n");
        tx.try_send(Outbound::Message(b"note 2".to_vec())).unwrap();
        assert_eq!(out.poll_first(&mut cx), std::task::Poll::Ready(true));
        // The writer thread started late writes what the wait took, then what comes.
        let writer = {
            let out = std::sync::Arc::clone(&out);
            std::thread::spawn(move || out.write_loop())
        };
        tx.blocking_send(Outbound::Message(b"note 3".to_vec()))
            .unwrap();
        drop(tx);
        writer.join().unwrap();
        let text = String::from_utf8(std::sync::Arc::into_inner(out).unwrap().into_out()).unwrap();
        assert_eq!(text, "note 1\nreply 1\nnote 2\nnote 3\n");
        // A queue closed with nothing in it: no writer thread is needed.
        let (tx, rx) = mpsc::channel::<Outbound>(1);
        drop(tx);
        let out = SharedOut::new(rx, Vec::new());
        assert_eq!(out.poll_first(&mut cx), std::task::Poll::Ready(false));
        assert!(out.into_out().is_empty());
    }

    #[test]
    fn a_failed_output_closes_the_queue() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let (tx, rx) = mpsc::channel(8);
        let out = SharedOut::new(rx, Broken);
        tx.try_send(Outbound::Message(b"x".to_vec())).unwrap();
        out.write_after_queued(b"y\n");
        assert!(tx.try_send(Outbound::Message(b"z".to_vec())).is_err());
        out.write_after_queued(b"w\n");
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
