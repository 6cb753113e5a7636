//! `bench layers`: what middleware costs ours. The same `bench-server` binary runs with no
//! layer, with one pass-through layer (`BENCH_LAYERS=pass`), with the metrics layer alone
//! (`metrics`, kept in process), with the OpenTelemetry tracing layer alone (`otel`) and with
//! both as a production server turns them on (`observe`: `Server::run` with the OTLP export,
//! the metrics recorded into OpenTelemetry too). Traces go over OTLP/HTTP to a sink in this
//! process, sampled by `parentbased_traceidratio` at 1 % and, for `observe`, by `always_on`
//! too. Over stdio (64 in flight) and HTTP (16 connections), the variants interleaved, and the
//! table shows medians of server CPU per call and each variant's ratio to no layer.
//!
//! The sink answers every OTLP export with `200 OK` and counts the bytes it was sent: a run
//! with tracing whose export never arrived is reported as failed, not measured.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::servers::Server;
use crate::workload::Era;
use crate::{Sample, Scenario};

/// The sampler of a variant that exports traces: `OTEL_TRACES_SAMPLER` and
/// `OTEL_TRACES_SAMPLER_ARG`.
type Sampler = Option<(&'static str, &'static str)>;

/// The variants, in table order: name, `BENCH_LAYERS` value and the sampler when traces are
/// exported.
const VARIANTS: [(&str, &str, Sampler); 6] = [
    ("no layer", "none", None),
    ("one pass-through layer", "pass", None),
    ("metrics", "metrics", None),
    ("tracing (1 % of traces)", "otel", Some(RATIO)),
    ("tracing (1 % of traces) + metrics", "observe", Some(RATIO)),
    ("tracing (every span) + metrics", "observe", Some(EVERY)),
];

/// 1 % of the traces that start here; a request carrying a sampled `traceparent` is traced.
const RATIO: (&str, &str) = ("parentbased_traceidratio", "0.01");
/// Every trace.
const EVERY: (&str, &str) = ("always_on", "1");

/// An OTLP/HTTP receiver that discards what it is sent, counting the bytes.
struct Sink {
    endpoint: String,
    bytes: Arc<AtomicU64>,
}

impl Sink {
    fn start() -> Result<Self, String> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("sink: {e}"))?;
        let addr = listener.local_addr().map_err(|e| format!("sink: {e}"))?;
        let bytes = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&bytes);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let counted = Arc::clone(&counted);
                std::thread::spawn(move || {
                    let _ = serve(stream, &counted);
                });
            }
        });
        Ok(Self {
            endpoint: format!("http://{addr}"),
            bytes,
        })
    }
}

/// Answers HTTP/1.1 requests on one connection until it closes.
fn serve(stream: std::net::TcpStream, bytes: &AtomicU64) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    loop {
        let mut length = 0usize;
        let mut line = String::new();
        let mut first = true;
        loop {
            line.clear();
            if reader.read_line(&mut line)? == 0 {
                return Ok(());
            }
            let header = line.trim_end();
            if header.is_empty() && !first {
                break;
            }
            first = false;
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        // Bodies are small (a batch of spans); read at most 64 MiB of one.
        let mut body = vec![0; length.min(64 << 20)];
        reader.read_exact(&mut body)?;
        bytes.fetch_add(body.len() as u64, Ordering::Relaxed);
        writer.write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n",
        )?;
    }
}

/// Server CPU per call, µs.
fn cpu_per_call(s: &Sample) -> f64 {
    s.cpu * 1e6 / s.calls.max(1) as f64
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| v[v.len() / 2])
}

/// Runs ours in every variant over stdio and HTTP, `reps` times interleaved, and prints the
/// table.
pub fn run(ours: &Server, secs: f64, reps: usize, logs: &Path) {
    let started = Instant::now();
    let sink = match Sink::start() {
        Ok(sink) => sink,
        Err(e) => crate::fail(&e),
    };
    let scenarios = [Scenario::Stdio(64), Scenario::Http(16)];
    let mut cpu: std::collections::HashMap<(usize, usize), Vec<f64>> = Default::default();
    let mut rps: std::collections::HashMap<(usize, usize), Vec<f64>> = Default::default();
    for rep in 0..reps {
        for (si, scenario) in scenarios.iter().enumerate() {
            for (vi, (name, layers, sampled)) in VARIANTS.iter().enumerate() {
                let mut server = ours.clone();
                let observe = sampled.is_some();
                server.env = vec![("BENCH_LAYERS".to_owned(), (*layers).to_owned())];
                if let Some((sampler, ratio)) = sampled {
                    server.env.extend([
                        (
                            "OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(),
                            sink.endpoint.clone(),
                        ),
                        ("OTEL_TRACES_SAMPLER".to_owned(), (*sampler).to_owned()),
                        ("OTEL_TRACES_SAMPLER_ARG".to_owned(), (*ratio).to_owned()),
                        ("OTEL_SERVICE_NAME".to_owned(), "bench-server".to_owned()),
                    ]);
                }
                eprint!(
                    "[{:>4.0}s] run {}/{reps} {} {name}: ",
                    started.elapsed().as_secs_f64(),
                    rep + 1,
                    scenario.label(),
                );
                let before = sink.bytes.load(Ordering::Relaxed);
                let log = logs.join(format!("ours-layers-{vi}-{layers}.log"));
                match scenario.run_in(&server, secs, &log, Era::Handshake) {
                    Ok(sample) => {
                        let sent = sink.bytes.load(Ordering::Relaxed) - before;
                        if observe && sent == 0 {
                            eprintln!("FAILED: no span reached the OTLP sink");
                            continue;
                        }
                        eprintln!("{} (OTLP: {sent} bytes)", crate::report::one_line(&sample));
                        cpu.entry((si, vi)).or_default().push(cpu_per_call(&sample));
                        rps.entry((si, vi))
                            .or_default()
                            .push(sample.calls as f64 / sample.wall);
                    }
                    Err(e) => eprintln!("FAILED: {e}"),
                }
                for w in crate::servers::warnings(&log) {
                    eprintln!("  warning: {w}");
                }
            }
        }
    }
    let get = |m: &std::collections::HashMap<(usize, usize), Vec<f64>>, si, vi| {
        m.get(&(si, vi)).cloned().and_then(median)
    };
    let fmt =
        |v: Option<f64>, digits: usize| v.map_or("–".to_owned(), |v| format!("{v:.digits$}"));
    let mut out = format!(
        "Ours' server CPU per call (µs) by layers: medians of {reps} interleaved runs of {secs} s\n\n"
    );
    out.push_str("| scenario | layers | µs/call | / no layer | req/s |\n|---|---|--:|--:|--:|\n");
    for (si, scenario) in scenarios.iter().enumerate() {
        let base = get(&cpu, si, 0);
        for (vi, (name, _, _)) in VARIANTS.iter().enumerate() {
            let v = get(&cpu, si, vi);
            let ratio = v.zip(base).map(|(v, b)| v / b);
            out.push_str(&format!(
                "| {} | {name} | {} | {}× | {} |\n",
                scenario.label(),
                fmt(v, 2),
                fmt(ratio, 2),
                fmt(get(&rps, si, vi), 0),
            ));
        }
    }
    println!("{out}");
    let _ = std::fs::write(logs.join("layers.md"), &out);
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
}
