//! Medians of the runs and the side-by-side tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::startup::{Start, Transport};
use crate::{Sample, Scenario};

/// Every run of every server, by scenario.
#[derive(Default)]
pub struct Results {
    runs: BTreeMap<(String, String), Vec<Sample>>,
    failures: Vec<String>,
    warnings: Vec<String>,
    sessions: BTreeMap<String, (f64, usize)>,
    starts: BTreeMap<(String, &'static str), Vec<Start>>,
    instructions: BTreeMap<String, u64>,
}

fn key(server: &str, scenario: Scenario) -> (String, String) {
    (server.to_owned(), format!("{scenario:?}"))
}

impl Results {
    pub fn add(&mut self, server: &str, scenario: Scenario, sample: Sample) {
        self.runs
            .entry(key(server, scenario))
            .or_default()
            .push(sample);
    }

    pub fn fail(&mut self, server: &str, scenario: Scenario, error: String) {
        self.failures
            .push(format!("{server}, {}: {error}", scenario.label()));
    }

    pub fn warn(&mut self, server: &str, warning: String) {
        self.warnings.push(format!("{server}: {warning}"));
    }

    pub fn sessions(&mut self, server: &str, kib: f64, count: usize) {
        self.sessions.insert(server.to_owned(), (kib, count));
    }

    pub fn start(&mut self, server: &str, transport: Transport, start: Start) {
        self.starts
            .entry((server.to_owned(), transport.label()))
            .or_default()
            .push(start);
    }

    pub fn instructions(&mut self, server: &str, count: u64) {
        self.instructions.insert(server.to_owned(), count);
    }

    /// The median of one number over the separate starts of a server on a transport.
    fn start_median(
        &self,
        server: &str,
        transport: Transport,
        of: impl Fn(&Start) -> f64,
    ) -> Option<f64> {
        let starts = self.starts.get(&(server.to_owned(), transport.label()))?;
        let mut values: Vec<f64> = starts.iter().map(of).collect();
        median(&mut values)
    }

    /// How many separate starts a server had on a transport.
    fn start_count(&self, server: &str, transport: Transport) -> usize {
        self.starts
            .get(&(server.to_owned(), transport.label()))
            .map_or(0, Vec::len)
    }

    /// The median over the runs of `metric`, if the server ran the scenario.
    fn median(&self, server: &str, scenario: Scenario, metric: Metric) -> Option<f64> {
        let runs = self.runs.get(&key(server, scenario))?;
        let mut values: Vec<f64> = runs.iter().map(|s| metric.of(s)).collect();
        median(&mut values)
    }

    /// The median of `metric` over every run of a transport's scenarios.
    fn median_of(&self, server: &str, scenarios: &[Scenario], metric: Metric) -> Option<f64> {
        let mut values: Vec<f64> = scenarios
            .iter()
            .filter_map(|s| self.runs.get(&key(server, *s)))
            .flatten()
            .map(|s| metric.of(s))
            .collect();
        median(&mut values)
    }
}

fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// One number of a run.
#[derive(Debug, Clone, Copy)]
enum Metric {
    Throughput,
    CpuPerCall,
    P50,
    P99,
    PeakRss,
    Startup,
}

impl Metric {
    fn of(self, s: &Sample) -> f64 {
        match self {
            Metric::Throughput => s.calls as f64 / s.wall,
            Metric::CpuPerCall => s.cpu * 1e6 / s.calls.max(1) as f64,
            Metric::P50 => percentile(&s.latencies, 0.50) / 1e3,
            Metric::P99 => percentile(&s.latencies, 0.99) / 1e3,
            Metric::PeakRss => s.peak_rss_kib as f64,
            Metric::Startup => s.startup * 1e3,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Metric::Throughput => "req/s",
            Metric::CpuPerCall => "server CPU µs/call",
            Metric::P50 => "p50 µs",
            Metric::P99 => "p99 µs",
            Metric::PeakRss => "peak RSS KiB",
            Metric::Startup => "startup ms (spawn → initialize reply)",
        }
    }
}

fn percentile(latencies: &[u64], q: f64) -> f64 {
    if latencies.is_empty() {
        return f64::NAN;
    }
    let mut v = latencies.to_vec();
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    let (_, x, _) = v.select_nth_unstable(i);
    *x as f64
}

/// A run in one line, for progress output.
pub fn one_line(s: &Sample) -> String {
    format!(
        "{:.0} req/s, {:.1} µs CPU/call (client {:.1}), p50 {:.0} µs, p99 {:.0} µs, peak RSS {} KiB, startup {:.1} ms ({} calls)",
        Metric::Throughput.of(s),
        Metric::CpuPerCall.of(s),
        s.client_cpu * 1e6 / s.calls.max(1) as f64,
        Metric::P50.of(s),
        Metric::P99.of(s),
        s.peak_rss_kib,
        Metric::Startup.of(s),
        s.calls
    )
}

fn number(v: Option<f64>) -> String {
    match v {
        None => "–".to_owned(),
        Some(v) if v.is_nan() => "–".to_owned(),
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) if v >= 10.0 => format!("{v:.1}"),
        Some(v) => format!("{v:.2}"),
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 && a.is_finite() && b.is_finite() => {
            format!("{:.2}×", a / b)
        }
        _ => "–".to_owned(),
    }
}

/// The head of a side-by-side table: a column per server, then the ratios of ours to the floor
/// and to rmcp.
fn side_by_side_head(out: &mut String, servers: &[(&str, &str)]) {
    out.push('|');
    for (_, title) in servers {
        let _ = write!(out, " | {title}");
    }
    out.push_str(" | ours / floor | ours / rmcp |\n|---|");
    out.push_str(&"--:|".repeat(servers.len() + 2));
    out.push('\n');
}

/// One row of a side-by-side table: `value` of each server, then ours against the floor and
/// against rmcp.
fn side_by_side_row(
    out: &mut String,
    servers: &[(&str, &str)],
    label: &str,
    value: &dyn Fn(&str) -> Option<f64>,
) {
    let _ = write!(out, "| {label}");
    for (key, _) in servers {
        let _ = write!(out, " | {}", number(value(key)));
    }
    let ours = value("ours");
    let _ = writeln!(
        out,
        " | {} | {} |",
        ratio(ours, value("floor")),
        ratio(ours, value("rmcp"))
    );
}

/// The tables, in Markdown.
pub fn render(
    r: &Results,
    servers: &[(&str, &str)],
    main: &[Scenario],
    scale: &[Scenario],
    reps: usize,
    secs: f64,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Medians of {reps} runs of {secs} s per scenario (the `echo` tool, every reply checked).\n"
    );
    side_by_side_head(&mut out, servers);
    let mut row = |label: String, value: &dyn Fn(&str) -> Option<f64>| {
        side_by_side_row(&mut out, servers, &label, value);
    };
    for &scenario in main {
        let metrics: &[Metric] = match scenario {
            Scenario::Stdio(1) | Scenario::Http(1) => {
                &[Metric::P50, Metric::P99, Metric::CpuPerCall]
            }
            _ => &[
                Metric::Throughput,
                Metric::CpuPerCall,
                Metric::P50,
                Metric::P99,
            ],
        };
        for &m in metrics {
            row(format!("{}: {}", scenario.label(), m.label()), &|k| {
                r.median(k, scenario, m)
            });
        }
    }
    let stdio: Vec<Scenario> = main
        .iter()
        .copied()
        .filter(|s| matches!(s, Scenario::Stdio(_)))
        .collect();
    let http: Vec<Scenario> = main
        .iter()
        .chain(scale)
        .copied()
        .filter(|s| matches!(s, Scenario::Http(_)))
        .collect();
    for (name, scenarios, transport) in [
        ("stdio", &stdio, Transport::Stdio),
        ("HTTP", &http, Transport::Http),
    ] {
        row(format!("{name}: {}", Metric::PeakRss.label()), &|k| {
            r.median_of(k, scenarios, Metric::PeakRss)
        });
        // Start-up from the separate interleaved starts when there were any.
        row(format!("{name}: {}", Metric::Startup.label()), &|k| {
            r.start_median(k, transport, |s| s.wall * 1e3)
                .or_else(|| r.median_of(k, scenarios, Metric::Startup))
        });
    }

    let _ = writeln!(
        out,
        "\nHTTP throughput by connection count (ours against the floor; no collapse):\n"
    );
    let _ = writeln!(
        out,
        "| connections | floor req/s | ours req/s | ours / floor | floor CPU µs/call | ours CPU µs/call | ours / floor | floor p50 µs | ours p50 µs | floor p99 µs | ours p99 µs |"
    );
    let _ = writeln!(out, "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    let mut by_count: Vec<Scenario> = http.clone();
    by_count.sort_by_key(|s| match s {
        Scenario::Http(c) | Scenario::Stdio(c) => *c,
    });
    by_count.dedup();
    for s in by_count {
        let Scenario::Http(c) = s else { continue };
        let m = |k: &str, m: Metric| r.median(k, s, m);
        let _ = writeln!(
            out,
            "| {c} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            number(m("floor", Metric::Throughput)),
            number(m("ours", Metric::Throughput)),
            ratio(
                m("ours", Metric::Throughput),
                m("floor", Metric::Throughput)
            ),
            number(m("floor", Metric::CpuPerCall)),
            number(m("ours", Metric::CpuPerCall)),
            ratio(
                m("ours", Metric::CpuPerCall),
                m("floor", Metric::CpuPerCall)
            ),
            number(m("floor", Metric::P50)),
            number(m("ours", Metric::P50)),
            number(m("floor", Metric::P99)),
            number(m("ours", Metric::P99)),
        );
    }

    if !r.starts.is_empty() {
        out.push_str(&render_starts(r, servers));
    }
    if !r.sessions.is_empty() {
        let _ = writeln!(
            out,
            "\nIdle HTTP sessions (`initialize` + `initialized`, then idle; resident set growth / sessions):\n"
        );
        let _ = writeln!(out, "| server | sessions open | KiB per idle session |");
        let _ = writeln!(out, "|---|--:|--:|");
        for (server, (kib, n)) in &r.sessions {
            let _ = writeln!(out, "| {server} | {n} | {kib:.2} |");
        }
    }
    if !r.failures.is_empty() {
        let _ = writeln!(out, "\nFailed runs:\n");
        for f in &r.failures {
            let _ = writeln!(out, "- {f}");
        }
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(out, "\nServer warnings:\n");
        for w in &r.warnings {
            let _ = writeln!(out, "- {w}");
        }
    }
    out
}

/// The start-up table: medians over the interleaved starts, up to the `initialize` reply.
pub fn render_starts(r: &Results, servers: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let counts: Vec<String> = servers
        .iter()
        .map(|(k, _)| {
            format!(
                "{k} {}/{}",
                r.start_count(k, Transport::Stdio),
                r.start_count(k, Transport::Http)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "\nStart-up, spawn → `initialize` reply: medians over separate starts, interleaved \
         (starts stdio/HTTP: {}); CPU, page faults and resident set of the server up to the reply:\n",
        counts.join(", ")
    );
    side_by_side_head(&mut out, servers);
    let mut row = |label: String, value: &dyn Fn(&str) -> Option<f64>| {
        side_by_side_row(&mut out, servers, &label, value);
    };
    type Of = fn(&Start) -> f64;
    let numbers: [(&str, Of); 4] = [
        ("wall ms", |s| s.wall * 1e3),
        ("CPU ms", |s| s.cpu * 1e3),
        ("minor page faults", |s| s.minflt as f64),
        ("resident set KiB", |s| s.rss_kib as f64),
    ];
    for transport in [Transport::Stdio, Transport::Http] {
        for (label, of) in numbers {
            row(format!("{}: {label}", transport.label()), &|k| {
                r.start_median(k, transport, of)
            });
        }
    }
    if !r.instructions.is_empty() {
        row(
            "stdio: instructions, start to exit (callgrind, thousands)".to_owned(),
            &|k| r.instructions.get(k).map(|&n| n as f64 / 1e3),
        );
    }
    out
}
