//! The servers under test, how to start them, and what `/proc` says about them.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One server of the comparison.
#[derive(Debug, Clone)]
pub struct Server {
    /// Short name, used on the command line (`--only ours,floor`).
    pub key: &'static str,
    /// Column title.
    pub title: &'static str,
    /// Program and leading arguments; `stdio` or `http ADDR` is appended.
    pub command: Vec<PathBuf>,
    /// Why it cannot run here, if it cannot.
    pub missing: Option<String>,
    /// A command the server runs under (`valgrind --tool=callgrind`, `perf stat`), if any.
    pub wrap: Vec<String>,
    /// The argument that selects stdio (`stdio`; the floor's reference variant: `stdio-tokio`).
    pub stdio_arg: &'static str,
    /// Environment variables set for the server (`bench layers`: which layers it installs).
    pub env: Vec<(String, String)>,
}

impl Server {
    fn command(&self) -> Command {
        let mut cmd = match self.wrap.split_first() {
            Some((program, args)) => {
                let mut cmd = Command::new(program);
                cmd.args(args).arg(&self.command[0]);
                cmd
            }
            None => Command::new(&self.command[0]),
        };
        cmd.args(&self.command[1..]);
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// Starts the server on stdio, its stderr going to `log`.
    pub fn spawn_stdio(&self, log: &Path) -> Result<Child, String> {
        self.command()
            .arg(self.stdio_arg)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log_file(log)?)
            .spawn()
            .map_err(|e| format!("{}: cannot start {:?}: {e}", self.key, self.command))
    }

    /// Starts the server on HTTP at `addr`, its stderr going to `log`.
    pub fn spawn_http(&self, addr: &str, log: &Path) -> Result<Child, String> {
        self.command()
            .args(["http", addr])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file(log)?)
            .spawn()
            .map_err(|e| format!("{}: cannot start {:?}: {e}", self.key, self.command))
    }
}

fn log_file(path: &Path) -> Result<std::fs::File, String> {
    std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))
}

/// Every server, in table order: the floor, ours, rmcp, the TypeScript and Python SDKs (then
/// the floor's variant and the gateways of `bench hop`, run only when asked for).
/// `bin` is the directory of the Rust binaries, `root` the bench directory.
pub fn all(bin: &Path, root: &Path) -> Vec<Server> {
    let rust = |key, title, name: &str| {
        let path = bin.join(name);
        let missing = (!path.exists()).then(|| {
            format!(
                "{} is not built (cargo build --release --manifest-path bench/Cargo.toml)",
                path.display()
            )
        });
        Server {
            key,
            title,
            command: vec![path],
            missing,
            wrap: Vec::new(),
            stdio_arg: "stdio",
            env: Vec::new(),
        }
    };
    let node = which("node");
    let ts_sdk = root.join("ts/node_modules/@modelcontextprotocol/sdk");
    let ts_missing = match (&node, ts_sdk.exists()) {
        (None, _) => Some("node is not installed".to_owned()),
        (_, false) => Some("bench/ts/node_modules is missing (run bench/run.sh)".to_owned()),
        _ => None,
    };
    let python = root.join("py/.venv/bin/python");
    let py_missing =
        (!python.exists()).then(|| "bench/py/.venv is missing (run bench/run.sh)".to_owned());
    let mut all = vec![
        rust("floor", "floor", "bench-minimal"),
        rust("ours", "ours", "bench-server"),
        rust("rmcp", "rmcp", "bench-rmcp"),
        Server {
            key: "ts",
            title: "TS SDK",
            command: vec![
                node.unwrap_or_else(|| PathBuf::from("node")),
                root.join("ts/server.mjs"),
            ],
            missing: ts_missing,
            wrap: Vec::new(),
            stdio_arg: "stdio",
            env: Vec::new(),
        },
        Server {
            key: "py",
            title: "Python SDK",
            command: vec![python, root.join("py/server.py")],
            missing: py_missing,
            wrap: Vec::new(),
            stdio_arg: "stdio",
            env: Vec::new(),
        },
        // Only when asked for (`--only floor-rt`): the floor's stdio loop with tokio's
        // multi-thread runtime started, what any tokio server carries (HTTP: the floor's).
        Server {
            stdio_arg: "stdio-tokio",
            ..rust("floor-rt", "floor + tokio runtime", "bench-minimal")
        },
    ];
    // Only when asked for (`bench hop`, `--only relay,proxy`): the gateways in front of the floor.
    all.extend(crate::hop::gateways(bin, root));
    all
}

fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Clock ticks per second of `/proc/<pid>/stat` times.
pub fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// CPU seconds (user + system, all threads) the process has used so far.
pub fn cpu_seconds(pid: u32, ticks: f64) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which may contain spaces) start after the last ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok());
    (field(11).unwrap_or(0.0) + field(12).unwrap_or(0.0)) / ticks
}

/// A `/proc/<pid>/status` value in KiB (`VmHWM`: peak resident set; `VmRSS`: current).
pub fn status_kib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Stops a server: SIGTERM (so that a wrapping profiler writes its data), then SIGKILL if it is
/// still there after a while.
pub fn stop(child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    finish(child, Duration::from_secs(20));
}

/// Waits up to `timeout` for a child to exit by itself, then kills it.
pub fn finish(mut child: Child, timeout: Duration) {
    let until = Instant::now() + timeout;
    while Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A free loopback port (bound, then released for the server to take).
pub fn free_addr() -> Result<String, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let addr = l.local_addr().map_err(|e| e.to_string())?;
    Ok(addr.to_string())
}

/// Lines of a server's log that say something went wrong for the measurement.
pub fn warnings(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("blocked its thread") || l.contains("panicked"))
        .map(str::to_owned)
        .collect()
}
