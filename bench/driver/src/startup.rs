//! Start-up, measured apart from the load runs and robust to a busy machine: many starts of
//! each server, interleaved (floor, ours, rmcp, ... then the same servers in reverse order),
//! each one spawn → `initialize` answered, with what the process used up to that reply: wall
//! time, CPU time (every thread's `schedstat`, in nanoseconds), minor page faults and resident
//! set (`/proc`). Medians are reported; on a loaded machine wall time moves with the load, the
//! page faults and the CPU time much less. Separately, the instructions of one start under
//! callgrind (stdio: `initialize`, then end of input), which do not depend on the load at all.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::http::{self, Conn};
use crate::servers::{self, Server};
use crate::workload;

/// What one start used, up to the `initialize` reply.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    /// Spawn to the reply parsed, seconds.
    pub wall: f64,
    /// CPU time of every thread of the server up to the reply, seconds.
    pub cpu: f64,
    /// Minor page faults of the server up to the reply.
    pub minflt: u64,
    /// Resident set at the reply (`VmHWM`), KiB.
    pub rss_kib: u64,
}

/// The transport a start uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Stdio,
    Http,
}

impl Transport {
    pub fn label(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "HTTP",
        }
    }
}

/// Minor page faults of a process so far (`/proc/<pid>/stat`, every thread).
pub fn minor_faults(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    rest.split_whitespace()
        .nth(7)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// CPU time of a process so far, in seconds, to the nanosecond: the sum of its threads'
/// `schedstat` run times (`/proc/<pid>/stat` counts in clock ticks, 10 ms here).
pub fn cpu_ns(pid: u32) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0.0;
    };
    let ns: u64 = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    ns as f64 / 1e9
}

fn snapshot(pid: u32, spawned: Instant) -> Start {
    let wall = spawned.elapsed().as_secs_f64();
    Start {
        wall,
        cpu: cpu_ns(pid),
        minflt: minor_faults(pid),
        rss_kib: servers::status_kib(pid, "VmHWM"),
    }
}

/// One start over stdio: spawn, `initialize`, its reply checked; then end of input.
pub fn stdio(server: &Server, log: &Path) -> Result<Start, String> {
    let mut request = workload::initialize().into_bytes();
    request.push(b'\n');
    let spawned = Instant::now();
    let mut child = server.spawn_stdio(log)?;
    let pid = child.id();
    let outcome = (|| {
        let (Some(mut input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("no pipes".to_owned());
        };
        input
            .write_all(&request)
            .map_err(|e| format!("write to the server: {e}"))?;
        let mut output = std::io::BufReader::new(output);
        let mut line = String::new();
        std::io::BufRead::read_line(&mut output, &mut line)
            .map_err(|e| format!("read from the server: {e}"))?;
        let start = snapshot(pid, spawned);
        workload::check_initialize(line.trim_end())?;
        Ok(start)
    })();
    servers::finish(child, Duration::from_secs(5));
    outcome.map_err(|e| format!("{} start over stdio: {e}", server.key))
}

/// One start over HTTP: spawn, connect as soon as the port accepts (polled every 100 µs),
/// `initialize` POSTed, its reply checked; then SIGTERM.
pub fn http(server: &Server, log: &Path) -> Result<Start, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let addr = servers::free_addr()?;
    let body = workload::initialize().into_bytes();
    let spawned = Instant::now();
    let child = server.spawn_http(&addr, log)?;
    let pid = child.id();
    let outcome = (|| {
        let until = spawned + Duration::from_secs(120);
        let tcp = loop {
            match std::net::TcpStream::connect(&addr) {
                Ok(tcp) => break tcp,
                Err(_) if Instant::now() < until => std::thread::sleep(Duration::from_micros(100)),
                Err(e) => return Err(format!("nothing listens on {addr}: {e}")),
            }
        };
        tcp.set_nonblocking(true).map_err(|e| e.to_string())?;
        rt.block_on(async {
            let tcp = tokio::net::TcpStream::from_std(tcp).map_err(|e| e.to_string())?;
            let mut conn = Conn::over(tcp, &addr).await?;
            let answer = conn.post(body, None, None).await?;
            let start = snapshot(pid, spawned);
            http::reply_to(&answer, 0, |m| workload::check_initialize(m).map(drop))?;
            Ok(start)
        })
    })();
    servers::stop(child);
    outcome.map_err(|e| format!("{} start over HTTP: {e}", server.key))
}

/// Instructions of one stdio start under callgrind (`initialize`, then end of input; the
/// process's whole life, its exit included), if valgrind is installed.
pub fn instructions(server: &Server, log: &Path) -> Result<u64, String> {
    let out = std::env::temp_dir().join(format!("bench-startup-{}.callgrind", server.key));
    let mut cmd = std::process::Command::new("valgrind");
    cmd.arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&server.command[0])
        .args(&server.command[1..])
        .arg(server.stdio_arg)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).map_err(|e| e.to_string())?);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start valgrind: {e}"))?;
    if let Some(mut input) = child.stdin.take() {
        let _ = writeln!(input, "{}", workload::initialize());
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()));
    let _ = std::fs::remove_file(&out);
    if !status.success() {
        return Err(format!(
            "{} under callgrind exited with {status}",
            server.key
        ));
    }
    text?
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| format!("no totals in {}", out.display()))
}

/// Whether valgrind can be run here.
pub fn have_valgrind() -> bool {
    std::process::Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Every start of every server: `starts` rounds, each starting every server once per transport,
/// the order reversed every other round. A server whose first start took over a quarter of a
/// second (an interpreter) is started at most `slow_starts` times.
pub fn interleaved(
    servers: &[&Server],
    starts: usize,
    slow_starts: usize,
    logs: &Path,
    mut record: impl FnMut(&str, Transport, Result<Start, String>),
) {
    let mut done = vec![0usize; servers.len()];
    let mut slow = vec![false; servers.len()];
    for round in 0..starts {
        let mut order: Vec<usize> = (0..servers.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for i in order {
            if slow[i] && done[i] >= slow_starts {
                continue;
            }
            let s = servers[i];
            let log = logs.join(format!("{}-startup.log", s.key));
            for transport in [Transport::Stdio, Transport::Http] {
                let start = match transport {
                    Transport::Stdio => stdio(s, &log),
                    Transport::Http => http(s, &log),
                };
                if let Ok(st) = &start
                    && round == 0
                    && st.wall > 0.25
                {
                    slow[i] = true;
                }
                record(s.key, transport, start);
            }
            done[i] += 1;
        }
    }
}
