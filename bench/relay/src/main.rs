//! `bench-relay`: the floor of the gateway hop (issue 29). It spawns the server named by
//! `HOP_CHILD` (a program and its arguments, split on whitespace) and copies bytes between
//! them: its stdin to the child's stdin, the child's stdout to its stdout, each write flushed,
//! nothing parsed. What any gateway must at least do to forward a call costs this much.
//!
//! ```text
//! HOP_CHILD="/path/bench-minimal stdio" bench-relay stdio
//! ```
//!
//! Only `stdio` is served (there is no HTTP relay). Exits when either side closes: 0 when the
//! client closed its stdin, 1 on an error, 2 on bad usage.

use std::io::{Read, Write};
use std::process::{Command, ExitCode, Stdio};

/// Bytes read at most per copy.
const CHUNK: usize = 64 * 1024;

/// Copies `from` to `to` until `from` ends, flushing after each read.
fn pump(mut from: impl Read, mut to: impl Write) -> std::io::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        to.write_all(&buf[..n])?;
        to.flush()?;
    }
}

fn main() -> ExitCode {
    let transport = std::env::args().nth(1).unwrap_or_default();
    if transport != "stdio" {
        eprintln!("usage: HOP_CHILD=\"PROGRAM ARGS...\" bench-relay stdio");
        return ExitCode::from(2);
    }
    let child = std::env::var("HOP_CHILD").unwrap_or_default();
    let mut words = child.split_whitespace();
    let Some(program) = words.next() else {
        eprintln!("bench-relay: HOP_CHILD is empty");
        return ExitCode::from(2);
    };
    let mut child = match Command::new(program)
        .args(words)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("bench-relay: cannot start {program:?}: {e}");
            return ExitCode::from(1);
        }
    };
    let (Some(to_child), Some(from_child)) = (child.stdin.take(), child.stdout.take()) else {
        eprintln!("bench-relay: the child's pipes are missing");
        return ExitCode::from(1);
    };
    // Replies: the child's stdout to ours, on a thread of their own.
    let replies = std::thread::spawn(move || pump(from_child, std::io::stdout()));
    // Requests: our stdin to the child's; when the client closes, the child's stdin closes too.
    let sent = pump(std::io::stdin(), to_child);
    let _ = child.wait();
    let replied = replies
        .join()
        .unwrap_or_else(|_| Err(std::io::Error::other("the reply thread panicked")));
    match sent.and(replied) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench-relay: {e}");
            ExitCode::from(1)
        }
    }
}
