//! `mcp-bench`: CPU per `tools/call` over stdio, the framework against a minimal JSON-RPC server.
//!
//! ```text
//! cargo run --release -p mcp-bench -- [CALLS] [WINDOW]
//! ```
//!
//! Each server is spawned, initialised, then sent `CALLS` requests with at most `WINDOW` in
//! flight. The server's own CPU time (user + system, from `/proc/<pid>/stat`) is read once all
//! replies are in, so the ratio compares like with like on the same machine in the same run.
//! Times are noisy on shared machines: read the ratio, not the absolute numbers.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

struct Measurement {
    wall_s: f64,
    cpu_s: f64,
    peak_rss_kib: u64,
}

fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

fn cpu_seconds(pid: u32, ticks: f64) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may contain spaces) start after the last ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    let stime: f64 = fields.get(12).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    (utime + stime) / ticks
}

fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn run(bin: &Path, calls: usize, window: usize, ticks: f64) -> Measurement {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut line = String::new();

    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"mcp-bench","version":"0"}}}}}}"#
    )
    .expect("write initialize");
    stdout.read_line(&mut line).expect("read initialize reply");
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("write initialized");
    let cpu_before = cpu_seconds(pid, ticks);

    let started = Instant::now();
    let (mut sent, mut received) = (0usize, 0usize);
    let mut batch = String::new();
    while received < calls {
        batch.clear();
        while sent < calls && sent - received < window {
            sent += 1;
            batch.push_str(&format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{sent},\"method\":\"tools/call\",\"params\":{{\"name\":\"add\",\"arguments\":{{\"a\":{sent},\"b\":2}}}}}}\n"
            ));
        }
        if !batch.is_empty() {
            stdin.write_all(batch.as_bytes()).expect("write calls");
            stdin.flush().expect("flush");
        }
        line.clear();
        if stdout.read_line(&mut line).expect("read reply") == 0 {
            panic!("{} closed stdout after {received} replies", bin.display());
        }
        assert!(line.contains("\"result\""), "unexpected reply: {line}");
        received += 1;
    }
    let wall_s = started.elapsed().as_secs_f64();
    let cpu_s = cpu_seconds(pid, ticks) - cpu_before;
    let peak = peak_rss_kib(pid);
    drop(stdin);
    let _ = child.wait();
    Measurement {
        wall_s,
        cpu_s,
        peak_rss_kib: peak,
    }
}

fn sibling(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    exe.with_file_name(name)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let calls: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let window: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(32);
    let ticks = clock_ticks();
    let minimal = sibling("bench-minimal");
    let framework = sibling("bench-server");
    for bin in [&minimal, &framework] {
        assert!(
            bin.exists(),
            "{} is missing: build with `cargo build --release -p mcp-bench`",
            bin.display()
        );
    }
    println!("{calls} tools/call over stdio, {window} in flight");
    // Warm-up run of each, then the measured ones interleaved.
    let _ = run(&minimal, calls / 10, window, ticks);
    let _ = run(&framework, calls / 10, window, ticks);
    let base = run(&minimal, calls, window, ticks);
    let ours = run(&framework, calls, window, ticks);
    for (name, m) in [("minimal JSON-RPC", &base), ("mcp-runtime", &ours)] {
        println!(
            "{name:>18}: {:>8.0} calls/s wall, {:>6.2} µs CPU/call, peak RSS {} KiB",
            calls as f64 / m.wall_s,
            m.cpu_s * 1e6 / calls as f64,
            m.peak_rss_kib
        );
    }
    println!(
        "ratio (mcp-runtime / minimal): CPU per call {:.2}x, wall {:.2}x",
        ours.cpu_s / base.cpu_s.max(1e-9),
        ours.wall_s / base.wall_s.max(1e-9)
    );
}
