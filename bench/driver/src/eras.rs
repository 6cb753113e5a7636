//! `bench eras`: what the stateless era (2026-07-28) costs against the handshake era, for the
//! floor and for ours, over stdio (64 in flight) and HTTP (16 connections). Each run is a fresh
//! server driven in one era; the runs of both eras and both servers are interleaved, and the
//! table shows medians: server CPU per call in each era and its stateless / handshake ratio. The
//! claim it tests: ours' ratio is at most the floor's (the framework adds no per-request cost of
//! its own beyond what the longer messages cost any server).

use std::path::Path;
use std::time::Instant;

use crate::servers::Server;
use crate::workload::Era;
use crate::{Sample, Scenario};

/// Server CPU per call, µs.
fn cpu_per_call(s: &Sample) -> f64 {
    s.cpu * 1e6 / s.calls.max(1) as f64
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| v[v.len() / 2])
}

/// Runs every server in both eras, `reps` times, and prints the table.
pub fn run(servers: &[Server], secs: f64, reps: usize, logs: &Path) {
    let started = Instant::now();
    let scenarios = [Scenario::Stdio(64), Scenario::Http(16)];
    let eras = [Era::Handshake, Era::Stateless];
    // (scenario, server, era) → CPU µs per call, req/s of every run.
    let mut cpu: std::collections::HashMap<(usize, &str, usize), Vec<f64>> = Default::default();
    let mut rps: std::collections::HashMap<(usize, &str, usize), Vec<f64>> = Default::default();
    for rep in 0..reps {
        for (si, scenario) in scenarios.iter().enumerate() {
            for s in servers {
                for (ei, era) in eras.iter().enumerate() {
                    eprint!(
                        "[{:>4.0}s] run {}/{reps} {} {} {}: ",
                        started.elapsed().as_secs_f64(),
                        rep + 1,
                        s.key,
                        scenario.label(),
                        era.label()
                    );
                    let log = logs.join(format!("{}-eras.log", s.key));
                    match scenario.run_in(s, secs, &log, *era) {
                        Ok(sample) => {
                            eprintln!("{}", crate::report::one_line(&sample));
                            cpu.entry((si, s.key, ei))
                                .or_default()
                                .push(cpu_per_call(&sample));
                            rps.entry((si, s.key, ei))
                                .or_default()
                                .push(sample.calls as f64 / sample.wall);
                        }
                        Err(e) => eprintln!("FAILED: {e}"),
                    }
                    for w in crate::servers::warnings(&log) {
                        eprintln!("  warning from {}: {w}", s.key);
                    }
                }
            }
        }
    }
    let get = |m: &std::collections::HashMap<(usize, &str, usize), Vec<f64>>, si, key, ei| {
        m.get(&(si, key, ei)).cloned().and_then(median)
    };
    let fmt =
        |v: Option<f64>, digits: usize| v.map_or("–".to_owned(), |v| format!("{v:.digits$}"));
    let mut out = String::new();
    out.push_str(&format!(
        "Server CPU per call (µs) by era: medians of {reps} runs of {secs} s\n\n"
    ));
    out.push_str("| scenario | server | handshake µs/call | stateless µs/call | stateless / handshake | handshake req/s | stateless req/s |\n");
    out.push_str("|---|---|--:|--:|--:|--:|--:|\n");
    for (si, scenario) in scenarios.iter().enumerate() {
        for s in servers {
            let (h, l) = (get(&cpu, si, s.key, 0), get(&cpu, si, s.key, 1));
            let ratio = h.zip(l).map(|(h, l)| l / h);
            out.push_str(&format!(
                "| {} | {} | {} | {} | {}× | {} | {} |\n",
                scenario.label(),
                s.key,
                fmt(h, 2),
                fmt(l, 2),
                fmt(ratio, 2),
                fmt(get(&rps, si, s.key, 0), 0),
                fmt(get(&rps, si, s.key, 1), 0),
            ));
        }
        let ratio = |key| {
            get(&cpu, si, key, 0)
                .zip(get(&cpu, si, key, 1))
                .map(|(h, l)| l / h)
        };
        if let (Some(ours), Some(floor)) = (ratio("ours"), ratio("floor")) {
            let stateless = get(&cpu, si, "ours", 1).zip(get(&cpu, si, "floor", 1));
            out.push_str(&format!(
                "| {} | ours' ratio / floor's | | | {:.2}× | ours / floor, stateless CPU per call: {} | |\n",
                scenario.label(),
                ours / floor,
                fmt(stateless.map(|(o, f)| o / f), 2),
            ));
        }
    }
    println!("{out}");
    let _ = std::fs::write(logs.join("eras.md"), &out);
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
}
