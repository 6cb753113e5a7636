//! `bench hop`: the gateway hop of issue 29. `tools/call echo` against the floor server
//! directly, through `bench-relay` (the floor of a hop: bytes copied both ways over stdio, no
//! parsing) and through `mcp-proxy` (our gateway: Streamable HTTP in front, the floor mounted
//! over stdio with `ServerBuilder::mount`), all in one run, `reps` rounds interleaved, medians.
//!
//! Rows: p50 at one in flight and what the hop adds to the direct p50 of the same front
//! transport; throughput at 16 in flight and its ratio to direct; the CPU of the front process
//! alone (user + system from `/proc/PID/stat`: the gateway's, not the floor's behind it) per
//! call at one and at 16 in flight, and its ratio to the relay's.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::servers::Server;
use crate::{Sample, Scenario};

/// The `HOP_CHILD` of the relay and the mount of the proxy: the floor over stdio.
fn floor_stdio(bin: &Path) -> Vec<String> {
    vec![
        bin.join("bench-minimal").display().to_string(),
        "stdio".to_owned(),
    ]
}

/// `mcp-proxy`: `BENCH_MCP_PROXY`, else next to the driver (built into the same target
/// directory from the main workspace: `cargo build --release -p mcp-proxy`).
fn proxy_binary(bin: &Path) -> PathBuf {
    std::env::var_os("BENCH_MCP_PROXY")
        .map(PathBuf::from)
        .unwrap_or_else(|| bin.join("mcp-proxy"))
}

/// The two gateways as servers of the comparison, keys `relay` (stdio only) and `proxy` (HTTP
/// only). The proxy's configuration file (`results/hop-proxy.json`: one mount, the floor) is
/// written here.
pub fn gateways(bin: &Path, root: &Path) -> Vec<Server> {
    let relay = bin.join("bench-relay");
    let proxy = proxy_binary(bin);
    let config = root.join("results/hop-proxy.json");
    let mount = serde_json::json!({"mount": [{"command": floor_stdio(bin)}]});
    let written = std::fs::create_dir_all(root.join("results"))
        .and_then(|()| std::fs::write(&config, mount.to_string()));
    let missing = |path: &Path, how: &str| {
        (!path.exists()).then(|| format!("{} is not built ({how})", path.display()))
    };
    vec![
        Server {
            key: "relay",
            title: "bench-relay (stdio → stdio)",
            command: vec![relay.clone()],
            missing: missing(
                &relay,
                "cargo build --release --manifest-path bench/Cargo.toml",
            ),
            wrap: Vec::new(),
            stdio_arg: "stdio",
            env: vec![("HOP_CHILD".to_owned(), floor_stdio(bin).join(" "))],
        },
        Server {
            key: "proxy",
            title: "mcp-proxy (HTTP → stdio)",
            command: vec![proxy.clone(), "--config".into(), config],
            missing: match written {
                Err(e) => Some(format!("cannot write the proxy's configuration: {e}")),
                Ok(()) => missing(
                    &proxy,
                    "bench/hop.sh, or cargo build --release -p mcp-proxy in the main workspace \
                     with the same CARGO_TARGET_DIR",
                ),
            },
            wrap: Vec::new(),
            stdio_arg: "stdio",
            env: Vec::new(),
        },
    ]
}

/// One row: a name, the server, whether it is spoken to over HTTP, and the row it is compared
/// with (direct: itself).
struct Route<'a> {
    name: &'static str,
    server: &'a Server,
    http: bool,
    direct: usize,
}

impl Route<'_> {
    fn scenario(&self, in_flight: usize) -> Scenario {
        if self.http {
            Scenario::Http(in_flight)
        } else {
            Scenario::Stdio(in_flight)
        }
    }
}

/// Numbers of one route, one value a round.
#[derive(Default)]
struct Seen {
    p50_1: Vec<f64>,
    cpu_1: Vec<f64>,
    rps_16: Vec<f64>,
    cpu_16: Vec<f64>,
}

fn median(v: &[f64]) -> Option<f64> {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    (!v.is_empty()).then(|| v[v.len() / 2])
}

fn p50_us(s: &Sample) -> f64 {
    let mut v = s.latencies.clone();
    if v.is_empty() {
        return f64::NAN;
    }
    let i = v.len() / 2;
    let (_, x, _) = v.select_nth_unstable(i);
    *x as f64 / 1e3
}

fn cpu_us(s: &Sample) -> f64 {
    s.cpu * 1e6 / s.calls.max(1) as f64
}

fn show(v: Option<f64>, digits: usize) -> String {
    v.filter(|v| v.is_finite())
        .map_or("–".to_owned(), |v| format!("{v:.digits$}"))
}

/// Runs every route `reps` times interleaved and prints the table (also written to
/// `results/hop.md`).
pub fn run(floor: &Server, relay: &Server, proxy: &Server, secs: f64, reps: usize, logs: &Path) {
    let started = Instant::now();
    let routes = [
        Route {
            name: "direct: floor over stdio",
            server: floor,
            http: false,
            direct: 0,
        },
        Route {
            name: "bench-relay (stdio → floor stdio)",
            server: relay,
            http: false,
            direct: 0,
        },
        Route {
            name: "direct: floor over HTTP",
            server: floor,
            http: true,
            direct: 2,
        },
        Route {
            name: "mcp-proxy (HTTP → floor stdio)",
            server: proxy,
            http: true,
            direct: 2,
        },
    ];
    let mut seen: Vec<Seen> = routes.iter().map(|_| Seen::default()).collect();
    for rep in 0..reps {
        for in_flight in [1, 16] {
            for (i, route) in routes.iter().enumerate() {
                let scenario = route.scenario(in_flight);
                eprint!(
                    "[{:>4.0}s] run {}/{reps} {} {}: ",
                    started.elapsed().as_secs_f64(),
                    rep + 1,
                    route.name,
                    scenario.label()
                );
                let log = logs.join(format!("hop-{}.log", route.server.key));
                match scenario.run(route.server, secs, &log) {
                    Ok(sample) => {
                        eprintln!("{}", crate::report::one_line(&sample));
                        let s = &mut seen[i];
                        if in_flight == 1 {
                            s.p50_1.push(p50_us(&sample));
                            s.cpu_1.push(cpu_us(&sample));
                        } else {
                            s.rps_16.push(sample.calls as f64 / sample.wall);
                            s.cpu_16.push(cpu_us(&sample));
                        }
                    }
                    Err(e) => eprintln!("FAILED: {e}"),
                }
                for w in crate::servers::warnings(&log) {
                    eprintln!("  warning from {}: {w}", route.server.key);
                }
            }
        }
    }
    let relay_cpu = (median(&seen[1].cpu_1), median(&seen[1].cpu_16));
    let mut out = format!(
        "Gateway hop, `tools/call echo` to the floor: medians of {reps} interleaved runs of \
         {secs} s. CPU: the front process alone (/proc rusage), µs per call.\n\n"
    );
    out.push_str(
        "| route | p50 @1 (µs) | added p50 (µs) | req/s @16 | / direct | CPU/call @1 | / relay @1 | CPU/call @16 | / relay @16 |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for (i, route) in routes.iter().enumerate() {
        let s = &seen[i];
        let d = &seen[route.direct];
        let (p50, rps) = (median(&s.p50_1), median(&s.rps_16));
        let added = p50.zip(median(&d.p50_1)).map(|(a, b)| a - b);
        let ratio = rps.zip(median(&d.rps_16)).map(|(a, b)| a / b);
        let (cpu_1, cpu_16) = (median(&s.cpu_1), median(&s.cpu_16));
        let over = |v: Option<f64>, r: Option<f64>| v.zip(r).map(|(v, r)| v / r);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {}× | {} | {}× | {} | {}× |\n",
            route.name,
            show(p50, 1),
            show(added, 1),
            show(rps, 0),
            show(ratio, 2),
            show(cpu_1, 1),
            show(over(cpu_1, relay_cpu.0), 2),
            show(cpu_16, 1),
            show(over(cpu_16, relay_cpu.1), 2),
        ));
    }
    println!("{out}");
    let _ = std::fs::write(logs.join("hop.md"), &out);
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
}
