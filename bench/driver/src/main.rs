//! `bench`: the load driver of the benchmark. It starts every server of the comparison (the
//! floor, ours, rmcp, the TypeScript and Python SDKs), drives each over stdio and Streamable
//! HTTP as a real client would (every reply checked), and prints the side-by-side table with
//! the ratios to the floor and to rmcp. See BENCHMARKS.md at the root of the repository.
//!
//! ```text
//! bench all [--secs S] [--reps N] [--only floor,ours,...] [--sessions N] [--starts N]
//! bench startup [--starts N] [--only floor,ours,...]  start-up alone (interleaved starts)
//! bench stdio SERVER [--window W] [--secs S] [--wrap "valgrind --tool=callgrind"]
//! bench http SERVER [--connections C] [--secs S | --calls N] [--wrap "..."]
//! bench sessions SERVER [--sessions N] [--wrap "valgrind --tool=dhat"]
//! bench input [--calls N] [--lists M] [--stateless] > FILE   the fixed callgrind input (stdio)
//! bench eras [--only floor,ours] [--secs S] [--reps N]        stateless / handshake CPU per call
//! bench layers [--secs S] [--reps N]     ours' CPU per call: no layer, one, metrics, tracing, both
//! bench hop [--secs S] [--reps N]        the gateway hop: floor direct, via bench-relay, via mcp-proxy
//!
//! `stdio` and `http` take `--stateless`: the client speaks 2026-07-28 (no handshake, `_meta`
//! on every request; over HTTP the `Mcp-Method` / `Mcp-Name` headers and no session).
//! bench compile [--reps N]                        the 50-tool build-time probe
//! ```

mod eras;
mod hop;
mod http;
mod layers;
mod probe;
mod report;
mod servers;
mod startup;
mod stdio;
mod workload;

use std::path::{Path, PathBuf};
use std::time::Instant;

use servers::Server;
use workload::Era;

/// What one measured run saw.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Calls answered (and checked) in the measured interval.
    pub calls: u64,
    /// Length of the measured interval, seconds.
    pub wall: f64,
    /// Server CPU (user + system) in the interval, seconds.
    pub cpu: f64,
    /// The driver's own CPU in the interval, seconds (it shares the machine with the server).
    pub client_cpu: f64,
    /// Latency of every call, nanoseconds.
    pub latencies: Vec<u64>,
    /// Peak resident set of the server at the end, KiB.
    pub peak_rss_kib: u64,
    /// Spawn to the `initialize` reply, seconds.
    pub startup: f64,
}

/// A scenario: a transport and how many calls are in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// stdio, this many calls in flight.
    Stdio(usize),
    /// HTTP, this many connections.
    Http(usize),
}

impl Scenario {
    fn run(self, server: &Server, secs: f64, log: &Path) -> Result<Sample, String> {
        self.run_in(server, secs, log, Era::Handshake)
    }

    fn run_in(self, server: &Server, secs: f64, log: &Path, era: Era) -> Result<Sample, String> {
        match self {
            Scenario::Stdio(w) => stdio::run(server, w, secs, log, era),
            Scenario::Http(c) => http::run(server, c, secs, log, era),
        }
    }

    fn label(self) -> String {
        match self {
            Scenario::Stdio(w) => format!("stdio, {w} in flight"),
            Scenario::Http(1) => "HTTP, 1 connection".to_owned(),
            Scenario::Http(c) => format!("HTTP, {c} connections"),
        }
    }
}

struct Args {
    rest: Vec<String>,
}

impl Args {
    fn flag(&mut self, name: &str) -> Option<String> {
        let i = self.rest.iter().position(|a| a == name)?;
        self.rest.remove(i);
        (i < self.rest.len()).then(|| self.rest.remove(i))
    }

    fn num<T: std::str::FromStr>(&mut self, name: &str, default: T) -> T {
        self.flag(name)
            .map(|v| {
                v.parse()
                    .unwrap_or_else(|_| fail(&format!("{name}: not a number: {v}")))
            })
            .unwrap_or(default)
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("bench: {msg}");
    std::process::exit(2)
}

/// The bench directory (this crate's parent).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn servers(only: Option<&str>) -> Vec<Server> {
    let bin = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let all = servers::all(&bin, &root());
    match only {
        None => all
            .into_iter()
            .filter(|s| !matches!(s.key, "floor-rt" | "relay" | "proxy"))
            .collect(),
        Some(keys) => all
            .into_iter()
            .filter(|s| keys.split(',').any(|k| k == s.key))
            .collect(),
    }
}

fn server(key: &str, wrap: Option<String>) -> Server {
    let mut s = servers(Some(key))
        .pop()
        .unwrap_or_else(|| fail(&format!("unknown server {key}")));
    s.wrap = wrap
        .map(|w| w.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    if let Some(why) = &s.missing {
        fail(why);
    }
    s
}

fn log_dir() -> PathBuf {
    let dir = root().join("results");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn main() {
    let mut args = Args {
        rest: std::env::args().skip(1).collect(),
    };
    let command = if args.rest.is_empty() {
        "all".to_owned()
    } else {
        args.rest.remove(0)
    };
    let secs: f64 = args.num("--secs", 2.0);
    match command.as_str() {
        "all" => {
            let reps = args.num("--reps", 3);
            let sessions = args.num("--sessions", 10_000);
            let starts = args.num("--starts", 31);
            let only = args.flag("--only");
            all(&servers(only.as_deref()), secs, reps, sessions, starts);
        }
        "startup" => {
            let starts = args.num("--starts", 31);
            let only = args.flag("--only");
            let servers = servers(only.as_deref());
            let ready = ready(&servers);
            let mut results = report::Results::default();
            starts_phase(&ready, starts, &mut results, Instant::now());
            let titles: Vec<(&str, &str)> = ready.iter().map(|s| (s.key, s.title)).collect();
            println!("{}", report::render_starts(&results, &titles));
        }
        "eras" => {
            let reps = args.num("--reps", 3);
            let only = args
                .flag("--only")
                .unwrap_or_else(|| "floor,ours".to_owned());
            eras::run(&servers(Some(&only)), secs, reps, &log_dir());
        }
        "layers" => {
            let reps = args.num("--reps", 3);
            layers::run(&server("ours", None), secs, reps, &log_dir());
        }
        "hop" => {
            let reps = args.num("--reps", 3);
            let (floor, relay, proxy) = (
                server("floor", None),
                server("relay", None),
                server("proxy", None),
            );
            hop::run(&floor, &relay, &proxy, secs, reps, &log_dir());
        }
        "stdio" | "http" => {
            let wrap = args.flag("--wrap");
            let era = if args.rest.iter().any(|a| a == "--stateless") {
                args.rest.retain(|a| a != "--stateless");
                Era::Stateless
            } else {
                Era::Handshake
            };
            let calls = args.flag("--calls").map(|c| {
                c.parse::<u64>()
                    .unwrap_or_else(|_| fail(&format!("--calls: not a number: {c}")))
            });
            let scenario = if command == "stdio" {
                Scenario::Stdio(args.num("--window", 64))
            } else {
                Scenario::Http(args.num("--connections", 16))
            };
            let key = args.rest.first().cloned().unwrap_or_else(|| "ours".into());
            let s = server(&key, wrap);
            let log = log_dir().join(format!("{key}.log"));
            let outcome = match (scenario, calls) {
                (Scenario::Http(c), Some(n)) => http::run_calls(&s, c, n, &log, era),
                (_, Some(_)) => fail("--calls is for http (stdio: bench input | server)"),
                _ => scenario.run_in(&s, secs, &log, era),
            };
            match outcome {
                Ok(sample) => println!("{}: {}", scenario.label(), report::one_line(&sample)),
                Err(e) => fail(&e),
            }
            for w in servers::warnings(&log) {
                eprintln!("warning: {w}");
            }
        }
        "sessions" => {
            let wrap = args.flag("--wrap");
            let count = args.num("--sessions", 10_000);
            let key = args.rest.first().cloned().unwrap_or_else(|| "ours".into());
            let log = log_dir().join(format!("{key}-sessions.log"));
            match http::idle_sessions(&server(&key, wrap), count, &log) {
                Ok((kib, n)) => println!("{key}: {n} idle sessions, {kib:.2} KiB each"),
                Err(e) => fail(&e),
            }
        }
        "input" => {
            let calls = args.num("--calls", 20_000);
            let lists = args.num("--lists", 2_000);
            let stateless = args.rest.iter().any(|a| a == "--stateless");
            let mut out = std::io::stdout().lock();
            if let Err(e) = stdio::write_input(&mut out, calls, lists, stateless) {
                fail(&e.to_string());
            }
        }
        "compile" => {
            let reps = args.num("--reps", 3);
            if let Err(e) = probe::run(&root(), reps) {
                fail(&e);
            }
        }
        other => fail(&format!(
            "unknown command {other}; expected all, startup, eras, layers, hop, stdio, http, sessions, input or compile"
        )),
    }
}

/// The servers that can run here (the others skipped with a note).
fn ready(servers: &[Server]) -> Vec<&Server> {
    servers
        .iter()
        .filter(|s| match &s.missing {
            Some(why) => {
                eprintln!("skipping {}: {why}", s.key);
                false
            }
            None => true,
        })
        .collect()
}

/// Start-up alone: `starts` interleaved starts of every server on both transports (an
/// interpreter's at most 5), then, with valgrind, the instructions of one stdio start of each
/// Rust server.
fn starts_phase(ready: &[&Server], starts: usize, results: &mut report::Results, t0: Instant) {
    let logs = log_dir();
    eprintln!(
        "[{:>4.0}s] start-up: {starts} interleaved starts of each server, stdio and HTTP",
        t0.elapsed().as_secs_f64()
    );
    startup::interleaved(
        ready,
        starts,
        5,
        &logs,
        |key, transport, start| match start {
            Ok(s) => results.start(key, transport, s),
            Err(e) => {
                eprintln!("  start FAILED: {e}");
                results.warn(key, e);
            }
        },
    );
    if !startup::have_valgrind() {
        eprintln!("  (no valgrind: start-up instructions not counted)");
        return;
    }
    for s in ready
        .iter()
        .filter(|s| matches!(s.key, "floor" | "ours" | "rmcp" | "floor-rt"))
    {
        let log = logs.join(format!("{}-callgrind.log", s.key));
        match startup::instructions(s, &log) {
            Ok(n) => {
                eprintln!(
                    "[{:>4.0}s] {} start-up under callgrind: {n} instructions",
                    t0.elapsed().as_secs_f64(),
                    s.key
                );
                results.instructions(s.key, n);
            }
            Err(e) => eprintln!("  callgrind FAILED: {e}"),
        }
    }
}

/// The whole comparison, every server in one run, `reps` runs of each scenario interleaved,
/// after `starts` separate interleaved starts of each.
fn all(servers: &[Server], secs: f64, reps: usize, sessions: usize, starts: usize) {
    let started = Instant::now();
    let logs = log_dir();
    let ready = ready(servers);
    let mut results = report::Results::default();
    if starts > 0 {
        starts_phase(&ready, starts, &mut results, started);
    }
    let main = [
        Scenario::Stdio(64),
        Scenario::Stdio(1),
        Scenario::Http(16),
        Scenario::Http(1),
    ];
    let scale = [Scenario::Http(64), Scenario::Http(256)];
    for rep in 0..reps {
        for scenario in main.iter().chain(&scale) {
            for s in &ready {
                if scale.contains(scenario) && !matches!(s.key, "ours" | "floor") {
                    continue;
                }
                let log = logs.join(format!("{}.log", s.key));
                eprint!(
                    "[{:>4.0}s] run {}/{reps} {} {}: ",
                    started.elapsed().as_secs_f64(),
                    rep + 1,
                    s.key,
                    scenario.label()
                );
                match scenario.run(s, secs, &log) {
                    Ok(sample) => {
                        eprintln!("{}", report::one_line(&sample));
                        results.add(s.key, *scenario, sample);
                    }
                    Err(e) => {
                        eprintln!("FAILED: {e}");
                        results.fail(s.key, *scenario, e);
                    }
                }
                for w in servers::warnings(&log) {
                    eprintln!("  warning from {}: {w}", s.key);
                    results.warn(s.key, w);
                }
            }
        }
    }
    if sessions > 0 {
        for s in ready
            .iter()
            .filter(|s| matches!(s.key, "ours" | "floor" | "rmcp"))
        {
            eprint!(
                "[{:>4.0}s] {} idle sessions on {}: ",
                started.elapsed().as_secs_f64(),
                sessions,
                s.key
            );
            let log = logs.join(format!("{}-sessions.log", s.key));
            match http::idle_sessions(s, sessions, &log) {
                Ok((kib, n)) => {
                    eprintln!("{n} open, {kib:.2} KiB each");
                    results.sessions(s.key, kib, n);
                }
                Err(e) => eprintln!("FAILED: {e}"),
            }
        }
    }
    let titles: Vec<(&str, &str)> = ready.iter().map(|s| (s.key, s.title)).collect();
    let table = report::render(&results, &titles, &main, &scale, reps, secs);
    println!("{table}");
    let _ = std::fs::write(logs.join("latest.md"), &table);
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
}
