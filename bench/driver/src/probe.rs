//! The build-time probe: a generated server crate with 50 documented tools of 3 or 4 typed
//! parameters each, written for mcp-runtime and for rmcp; with the dependencies built, the clean
//! build of the crate and its rebuild after one tool body is edited (dev profile, `cargo build`),
//! as wall clock and as CPU seconds; the probes are built in turn in each repetition.
//!
//! Two like-for-like pairs: stdio only (`probe-ours-stdio`, mcp-runtime without default
//! features, against `probe-rmcp`, rmcp with `transport-io`), and stdio + Streamable HTTP from
//! the command line (`probe-ours`, mcp-runtime's default features, against `probe-rmcp-http`,
//! rmcp with its Streamable HTTP server in axum). The earlier row, `probe-ours` against
//! `probe-rmcp`, is printed too. Every probe resolves its dependencies from the bench
//! workspace's lock, offline; a package outside it stops the run.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const TOOLS: usize = 50;
/// The tool whose body the rebuild edits.
const EDITED: usize = 25;

/// The parameters of tool `i`: three always, a fourth on every other tool.
fn params(i: usize) -> Vec<(&'static str, &'static str, &'static str)> {
    let mut p = vec![
        ("name", "String", "Who or what the call is about"),
        ("count", "u32", "How many items to produce"),
        ("ratio", "f64", "A ratio between 0 and 1"),
    ];
    if i.is_multiple_of(2) {
        p.push(("loud", "Option<bool>", "Whether to shout the answer"));
    }
    p
}

fn body(i: usize, edit: usize) -> String {
    let fourth = if i.is_multiple_of(2) { " {loud:?}" } else { "" };
    format!("format!(\"tool {i}/{edit}: {{name}} {{count}} {{ratio}}{fourth}\")")
}

/// The 50 tools on mcp-runtime, served by `main`.
fn ours_with(edit: usize, title: &str, main: &str) -> String {
    let mut s =
        format!("//! Probe: 50 tools on mcp-runtime, {title}.\n\nuse mcp_runtime::prelude::*;\n");
    for i in 0..TOOLS {
        let _ = writeln!(
            s,
            "\n/// Tool number {i}: formats its arguments into one line.\n#[tool]\nasync fn tool_{i}("
        );
        for (name, ty, doc) in params(i) {
            let _ = writeln!(s, "    /// {doc}\n    {name}: {ty},");
        }
        let e = if i == EDITED { edit } else { 0 };
        let _ = writeln!(s, ") -> String {{\n    {}\n}}", body(i, e));
    }
    s.push_str(main);
    s
}

/// The probe's `main` on mcp-runtime: the server from the registry, served by `serve`.
fn ours_main(serve: &str) -> String {
    format!(
        "\n#[tokio::main]\nasync fn main() {{\n    if let Err(e) = Server::from_registry(server_info!()).{serve}().await {{\n        eprintln!(\"{{e}}\");\n    }}\n}}\n"
    )
}

/// On mcp-runtime's default features: its command line serves stdio or Streamable HTTP.
fn ours(edit: usize) -> String {
    ours_with(
        edit,
        "default features (stdio and Streamable HTTP from the command line)",
        &ours_main("run"),
    )
}

/// On mcp-runtime without default features (`macros` only), serving stdio as
/// `examples/stdio-only` does.
fn ours_stdio(edit: usize) -> String {
    ours_with(edit, "stdio only", &ours_main("serve_stdio"))
}

/// The 50 tools on rmcp, served by `main` (which brings its own `use` lines).
fn rmcp_with(edit: usize, title: &str, main: &str) -> String {
    let mut s = format!(
        "//! Probe: 50 tools on rmcp, {title}.\n\nuse rmcp::handler::server::wrapper::Parameters;\nuse rmcp::{{ServiceExt, tool, tool_handler, tool_router}};\nuse schemars::JsonSchema;\nuse serde::Deserialize;\n",
    );
    for i in 0..TOOLS {
        let _ = writeln!(
            s,
            "\n/// The arguments of tool {i}.\n#[derive(Debug, Deserialize, JsonSchema)]\nstruct Tool{i}Args {{"
        );
        for (name, ty, doc) in params(i) {
            let _ = writeln!(s, "    /// {doc}\n    {name}: {ty},");
        }
        s.push_str("}\n");
    }
    s.push_str("\n#[derive(Debug, Clone)]\nstruct Probe;\n\n#[tool_router]\nimpl Probe {\n");
    for i in 0..TOOLS {
        let names: Vec<&str> = params(i).iter().map(|p| p.0).collect();
        let e = if i == EDITED { edit } else { 0 };
        let _ = writeln!(
            s,
            "    /// Tool number {i}: formats its arguments into one line.\n    #[tool]\n    async fn tool_{i}(&self, Parameters(Tool{i}Args {{ {} }}): Parameters<Tool{i}Args>) -> String {{\n        {}\n    }}\n",
            names.join(", "),
            body(i, e)
        );
    }
    s.push_str("}\n\n#[tool_handler]\nimpl rmcp::ServerHandler for Probe {}\n");
    s.push_str(main);
    s
}

/// On rmcp with stdio only (`server`, `macros`, `transport-io`).
fn rmcp(edit: usize) -> String {
    rmcp_with(
        edit,
        "stdio only",
        "\n#[tokio::main]\nasync fn main() {\n    if let Ok(s) = Probe.serve(rmcp::transport::stdio()).await {\n        let _ = s.waiting().await;\n    }\n}\n",
    )
}

/// On rmcp serving stdio or Streamable HTTP (its `StreamableHttpService` with sessions, in
/// axum, `TCP_NODELAY` on) chosen by the first argument, as `bench/rmcp` does.
fn rmcp_http(edit: usize) -> String {
    rmcp_with(
        edit,
        "stdio and Streamable HTTP from the command line",
        r#"
async fn stdio() -> Result<(), Box<dyn std::error::Error>> {
    let service = Probe.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}

async fn http(addr: &str) -> Result<(), Box<dyn std::error::Error>> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    let service = StreamableHttpService::new(
        || Ok(Probe),
        std::sync::Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("serving MCP over Streamable HTTP at http://{}/mcp", listener.local_addr()?);
    use axum::serve::ListenerExt as _;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await?;
    Ok(())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None | Some("stdio") => stdio().await,
        Some("http") => http(args.get(1).map_or("127.0.0.1:8000", String::as_str)).await,
        Some(other) => Err(format!("usage: probe [stdio | http ADDR] (got `{other}`)").into()),
    };
    if let Err(err) = result {
        eprintln!("probe: {err}");
        std::process::exit(2);
    }
}
"#,
    )
}

struct Probe {
    name: &'static str,
    dir: PathBuf,
    source: fn(usize) -> String,
}

fn manifest(name: &str, deps: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\n{deps}"
    )
}

fn setup(root: &Path) -> Result<Vec<Probe>, String> {
    let base = root.join("target/probe");
    let runtime = root
        .join("../mcp-runtime")
        .canonicalize()
        .map_err(|e| format!("mcp-runtime: {e}"))?;
    let common = "serde = { version = \"1\", features = [\"derive\"] }\nschemars = \"1.2\"\ntokio = { version = \"1.40\", features = [\"rt-multi-thread\", \"macros\"] }\n";
    let probes = [
        (
            "probe-ours",
            format!(
                "mcp-runtime = {{ path = {:?} }}\n{common}",
                runtime.display().to_string()
            ),
            ours as fn(usize) -> String,
        ),
        (
            "probe-rmcp",
            format!(
                "rmcp = {{ version = \"=3.11.0\", default-features = false, features = [\"server\", \"macros\", \"transport-io\"] }}\n{common}"
            ),
            rmcp,
        ),
        // The like-for-like pairs: ours with stdio only (against `probe-rmcp`), and rmcp with
        // stdio and Streamable HTTP (against `probe-ours`, whose default features serve both).
        (
            "probe-ours-stdio",
            format!(
                "mcp-runtime = {{ path = {:?}, default-features = false, features = [\"macros\"] }}\n{common}",
                runtime.display().to_string()
            ),
            ours_stdio,
        ),
        (
            "probe-rmcp-http",
            "rmcp = { version = \"=3.11.0\", default-features = false, features = [\"server\", \"macros\", \"transport-io\", \"transport-streamable-http-server\"] }\naxum = { version = \"0.8\", default-features = false, features = [\"http1\", \"tokio\"] }\nserde = { version = \"1\", features = [\"derive\"] }\nschemars = \"1.2\"\ntokio = { version = \"1.40\", features = [\"rt-multi-thread\", \"macros\", \"net\"] }\n"
                .to_owned(),
            rmcp_http,
        ),
    ];
    // `MCP_PROBE_BASE=<dir of another checkout's mcp-runtime>` adds a probe on that
    // runtime, so that a change and its base are timed in the same interleaved run.
    let mut probes = probes.to_vec();
    if let Some(base) = std::env::var_os("MCP_PROBE_BASE") {
        let base = Path::new(&base)
            .canonicalize()
            .map_err(|e| format!("MCP_PROBE_BASE: {e}"))?;
        probes.insert(
            1,
            (
                "probe-base",
                format!(
                    "mcp-runtime = {{ path = {:?} }}\n{common}",
                    base.display().to_string()
                ),
                ours,
            ),
        );
    }
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (name, deps, source) in probes {
        let dir = base.join(name);
        std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("Cargo.toml"), manifest(name, &deps)).map_err(|e| e.to_string())?;
        // The bench workspace's lock: the same versions as the servers of the benchmark.
        std::fs::write(dir.join("Cargo.lock"), &lock).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("src/main.rs"), source(0)).map_err(|e| e.to_string())?;
        out.push(Probe { name, dir, source });
    }
    Ok(out)
}

/// `cargo` in a probe's directory with the dev profile a user gets: settings of the calling
/// shell that change it (`CARGO_INCREMENTAL=0`, `CARGO_PROFILE_DEV_DEBUG=..` as `.ci/run` and
/// the engineers' shells set them) are removed, so the probes build incrementally with full
/// debug info, as `cargo build` does by default.
fn cargo(p: &Probe, target: &Path) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(&p.dir).env("CARGO_TARGET_DIR", target);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key == "CARGO_INCREMENTAL"
            || key == "CARGO_BUILD_INCREMENTAL"
            || key.starts_with("CARGO_PROFILE_DEV_")
        {
            cmd.env_remove(&*key);
        }
    }
    cmd
}

/// CPU seconds (user + system) of this process's waited-for children so far: cargo, and the
/// rustc and linker processes cargo waited for.
fn children_cpu(ticks: f64) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok());
    // `cutime` and `cstime`, fields 16 and 17 of stat(5).
    (field(13).unwrap_or(0.0) + field(14).unwrap_or(0.0)) / ticks
}

/// Wall-clock and CPU seconds of one build.
#[derive(Clone, Copy)]
struct Took {
    wall: f64,
    cpu: f64,
}

/// `cargo build` of a probe: wall-clock seconds and the CPU seconds of cargo and its children
/// (less moved by other work on a shared machine than the wall clock).
fn build(p: &Probe, target: &Path, ticks: f64) -> Result<Took, String> {
    let cpu = children_cpu(ticks);
    let started = Instant::now();
    let status = cargo(p, target)
        .args(["build", "--offline", "--quiet"])
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    if !status.success() {
        return Err(format!("{}: cargo build failed", p.name));
    }
    Ok(Took {
        wall: started.elapsed().as_secs_f64(),
        cpu: children_cpu(ticks) - cpu,
    })
}

fn clean(p: &Probe, target: &Path) -> Result<(), String> {
    let status = cargo(p, target)
        .args(["clean", "--offline", "--quiet", "-p", p.name])
        .status()
        .map_err(|e| format!("cargo clean: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{}: cargo clean failed", p.name))
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Medians of wall-clock and CPU seconds, taken apart.
fn medians(v: &[Took]) -> Took {
    Took {
        wall: median(v.iter().map(|t| t.wall).collect()),
        cpu: median(v.iter().map(|t| t.cpu).collect()),
    }
}

/// Prints the probe's table: clean build and rebuild, medians of `reps`, wall clock and CPU.
pub fn run(root: &Path, reps: usize) -> Result<(), String> {
    let probes = setup(root)?;
    let target = root.join("target/probe-target");
    let ticks = crate::servers::clock_ticks();
    let bench =
        locked(&std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| e.to_string())?);
    for p in &probes {
        eprintln!("{}: building the dependencies (not measured)", p.name);
        build(p, &target, ticks)?;
        check_pinned(p, &bench)?;
    }
    // Interleaved: each repetition builds every probe in turn, so that a change of load on the
    // machine during the run falls on both alike and the ratio stays meaningful.
    let mut times = vec![(Vec::new(), Vec::new()); probes.len()];
    for rep in 0..reps.max(1) {
        for (p, (cleans, rebuilds)) in probes.iter().zip(&mut times) {
            clean(p, &target)?;
            let c = build(p, &target, ticks)?;
            std::fs::write(p.dir.join("src/main.rs"), (p.source)(rep + 1))
                .map_err(|e| e.to_string())?;
            let r = build(p, &target, ticks)?;
            eprintln!(
                "{}: clean build {:.1} s ({:.1} s CPU), rebuild after one edit {:.1} s ({:.1} s CPU)",
                p.name, c.wall, c.cpu, r.wall, r.cpu
            );
            cleans.push(c);
            rebuilds.push(r);
        }
    }
    let rows: Vec<_> = probes
        .iter()
        .zip(times)
        .map(|(p, (cleans, rebuilds))| (p.name, medians(&cleans), medians(&rebuilds)))
        .collect();
    println!(
        "50 tools, 3-4 typed parameters each, dependencies built; dev profile; medians of {reps}:\n"
    );
    println!(
        "| | clean build s | rebuild after editing one tool s | clean build CPU s | rebuild CPU s |"
    );
    println!("|---|--:|--:|--:|--:|");
    for (name, c, r) in &rows {
        println!(
            "| {name} | {:.2} | {:.2} | {:.2} | {:.2} |",
            c.wall, r.wall, c.cpu, r.cpu
        );
    }
    let ratio = |label: &str, (a, b): (&(&str, Took, Took), &(&str, Took, Took))| {
        println!(
            "| {label} | {:.2}× | {:.2}× | {:.2}× | {:.2}× |",
            a.1.wall / b.1.wall,
            a.2.wall / b.2.wall,
            a.1.cpu / b.1.cpu,
            a.2.cpu / b.2.cpu
        );
    };
    let row = |name: &str| rows.iter().find(|r| r.0 == name);
    let pairs = [
        // The row of the earlier rounds, kept for comparison: not like for like (ours serves
        // stdio and HTTP, this rmcp stdio only).
        (
            "ours default features / rmcp stdio only (earlier row)",
            "probe-ours",
            "probe-rmcp",
        ),
        ("stdio only: ours / rmcp", "probe-ours-stdio", "probe-rmcp"),
        ("stdio + HTTP: ours / rmcp", "probe-ours", "probe-rmcp-http"),
        ("base / rmcp stdio only", "probe-base", "probe-rmcp"),
        ("stdio + HTTP: base / rmcp", "probe-base", "probe-rmcp-http"),
        ("ours / base", "probe-ours", "probe-base"),
    ];
    for (label, a, b) in pairs {
        if let (Some(a), Some(b)) = (row(a), row(b)) {
            ratio(label, (a, b));
        }
    }
    Ok(())
}

/// The `(name, version)` of every package of a `Cargo.lock`.
fn locked(lock: &str) -> HashSet<(String, String)> {
    let mut out = HashSet::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(v) = line.strip_prefix("name = ") {
            name = Some(v.trim_matches('"').to_owned());
        } else if let Some(v) = line.strip_prefix("version = ")
            && let Some(n) = name.take()
        {
            out.insert((n, v.trim_matches('"').to_owned()));
        }
    }
    out
}

/// Checks that every registry package a probe resolved is in the bench workspace's lock at the
/// same version: the probes build what the benchmark's servers run, offline, nothing newer.
fn check_pinned(p: &Probe, bench: &HashSet<(String, String)>) -> Result<(), String> {
    let lock = std::fs::read_to_string(p.dir.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let mut extra: Vec<String> = locked(&lock)
        .difference(bench)
        .filter(|(n, _)| !n.starts_with("probe-") && !n.starts_with("mcp-runtime"))
        .map(|(n, v)| format!("{n} {v}"))
        .collect();
    if extra.is_empty() {
        Ok(())
    } else {
        extra.sort();
        Err(format!(
            "{}: resolved outside bench/Cargo.lock: {}",
            p.name,
            extra.join(", ")
        ))
    }
}
