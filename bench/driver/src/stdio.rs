//! The stdio client: the server spawned with pipes, `window` calls in flight (pipelined), every
//! reply checked. One thread: it writes as many calls as the window allows, then reads every
//! reply already buffered before writing again.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, ChildStdout};
use std::time::{Duration, Instant};

use crate::Sample;
use crate::servers::{self, Server};
use crate::workload::{self, Era};

struct Pipe {
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    line: String,
    next_id: u64,
    era: Era,
}

impl Pipe {
    fn send(&mut self, text: &str) -> Result<(), String> {
        self.input
            .write_all(text.as_bytes())
            .and_then(|()| self.input.write_all(b"\n"))
            .map_err(|e| format!("write to the server: {e}"))
    }

    fn read_line(&mut self) -> Result<&str, String> {
        self.line.clear();
        match self.output.read_line(&mut self.line) {
            Ok(0) => Err("the server closed stdout".to_owned()),
            Ok(_) => Ok(self.line.trim_end()),
            Err(e) => Err(format!("read from the server: {e}")),
        }
    }

    /// Calls for `duration` with `window` in flight; returns the calls answered and their
    /// latencies in nanoseconds.
    fn calls(&mut self, window: usize, duration: Duration) -> Result<Vec<u64>, String> {
        let deadline = Instant::now() + duration;
        let era = self.era;
        let mut sent_at: HashMap<u64, Instant> = HashMap::with_capacity(window * 2);
        let mut latencies = Vec::new();
        let mut buf = Vec::with_capacity(window * 128);
        loop {
            let now = Instant::now();
            if now < deadline && sent_at.len() < window {
                buf.clear();
                while sent_at.len() < window {
                    let id = self.next_id;
                    self.next_id += 1;
                    workload::call_in(self.era, &mut buf, id);
                    buf.push(b'\n');
                    sent_at.insert(id, now);
                }
                self.input
                    .write_all(&buf)
                    .map_err(|e| format!("write to the server: {e}"))?;
            }
            if sent_at.is_empty() {
                return Ok(latencies);
            }
            loop {
                let text = self.read_line()?;
                let id = workload::reply_id(text)?;
                let Some(at) = sent_at.remove(&id) else {
                    return Err(format!("a reply to no call in flight: {text}"));
                };
                workload::check_call_in(era, text, id)?;
                latencies.push(at.elapsed().as_nanos() as u64);
                if self.output.buffer().is_empty() {
                    break;
                }
            }
        }
    }
}

/// The handshake, the warm-up, then `secs` of calls with `window` in flight.
fn measure(
    pipe: &mut Pipe,
    pid: u32,
    window: usize,
    secs: f64,
    spawned: Instant,
) -> Result<Sample, String> {
    let ticks = servers::clock_ticks();
    let startup = match pipe.era {
        Era::Handshake => {
            pipe.send(&workload::initialize())?;
            workload::check_initialize(pipe.read_line()?)?;
            let startup = spawned.elapsed();
            pipe.send(workload::INITIALIZED)?;
            pipe.send(workload::LIST)?;
            workload::check_list(pipe.read_line()?)?;
            startup
        }
        // No handshake: the first request is the client's first `tools/list`.
        Era::Stateless => {
            pipe.send(&workload::list_stateless_first())?;
            workload::check_list_stateless(pipe.read_line()?)?;
            spawned.elapsed()
        }
    };
    pipe.calls(window, Duration::from_millis(300))?;
    let cpu = servers::cpu_seconds(pid, ticks);
    let client_cpu = servers::cpu_seconds(std::process::id(), ticks);
    let started = Instant::now();
    let latencies = pipe.calls(window, Duration::from_secs_f64(secs))?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = servers::cpu_seconds(pid, ticks) - cpu;
    let client_cpu = servers::cpu_seconds(std::process::id(), ticks) - client_cpu;
    Ok(Sample {
        calls: latencies.len() as u64,
        wall,
        cpu,
        client_cpu,
        latencies,
        peak_rss_kib: servers::status_kib(pid, "VmHWM"),
        startup: startup.as_secs_f64(),
    })
}

/// One measured run: spawn, handshake, warm up, then `secs` of calls with `window` in flight.
pub fn run(
    server: &Server,
    window: usize,
    secs: f64,
    log: &Path,
    era: Era,
) -> Result<Sample, String> {
    let spawned = Instant::now();
    let mut child = server.spawn_stdio(log)?;
    let pid = child.id();
    let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("no pipes".to_owned());
    };
    let mut pipe = Pipe {
        input,
        output: BufReader::with_capacity(256 * 1024, output),
        line: String::new(),
        next_id: workload::FIRST_CALL,
        era,
    };
    let outcome = measure(&mut pipe, pid, window, secs, spawned);
    drop(pipe);
    servers::finish(child, Duration::from_secs(2));
    outcome.map_err(|e| format!("{} over stdio: {e}", server.key))
}

/// Appends one message with a given id to a buffer.
type Writer = fn(&mut Vec<u8>, u64);

/// Writes the callgrind input: `initialize`, `notifications/initialized`, then `calls` calls
/// of `add` with a `tools/list` every `calls / lists` calls; `stateless`: no handshake, every
/// request with the 2026-07-28 `_meta`.
pub fn write_input(
    out: &mut impl Write,
    calls: u64,
    lists: u64,
    stateless: bool,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    if !stateless {
        buf.extend_from_slice(workload::initialize().as_bytes());
        buf.push(b'\n');
        buf.extend_from_slice(workload::INITIALIZED.as_bytes());
        buf.push(b'\n');
    }
    let (call, list): (Writer, Writer) = if stateless {
        (workload::call_add_stateless, workload::list_stateless)
    } else {
        (workload::call_add, workload::list)
    };
    let every = calls.checked_div(lists).unwrap_or(u64::MAX).max(1);
    let mut id = workload::FIRST_CALL;
    for i in 0..calls {
        call(&mut buf, id);
        buf.push(b'\n');
        id += 1;
        if lists > 0 && (i + 1).is_multiple_of(every) {
            list(&mut buf, id);
            buf.push(b'\n');
            id += 1;
        }
    }
    out.write_all(&buf)
}
