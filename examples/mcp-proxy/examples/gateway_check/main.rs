//! The gateway in front of a real server: what `tests/gateway-interop/run.sh` runs, once per
//! backend (the official TypeScript everything server, a FastMCP server).
//!
//! `gateway_check (everything|fastmcp) MCP-PROXY LOG -- COMMAND [ARGS...]` puts two gateways in
//! front of the spawned COMMAND, for each revision the backend speaks: the `mcp-proxy` binary
//! (Streamable HTTP, no prefix) and `ServerBuilder::mount` in this process (in memory, prefix
//! `up`). Each is driven by our client in 2025-11-25 and 2026-07-28: the capabilities (exactly
//! the backend's, projected on what a gateway forwards), completion (exact values), logging at
//! the level set (below it nothing), a subscription and its update, a list change, progress,
//! and cancellation (the backend is sent `notifications/cancelled`: COMMAND's stdin is copied
//! to LOG). One line per check; exit 1 if one failed.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use mcp_runtime::client::{Client, Notifications, ServerNotification};
use mcp_runtime::protocol::{
    CompleteRequestParams, Implementation, LoggingLevel, ProtocolVersion, SubscriptionFilter,
};
use mcp_runtime::tokio::io::{AsyncBufReadExt, BufReader};
use mcp_runtime::tokio::process::{Child, Command};
use mcp_runtime::{Server, serde_json, tokio};
use serde_json::{Value, json};

mod checks;

const WAIT: Duration = Duration::from_secs(20);
const OLD: ProtocolVersion = ProtocolVersion::V2025_11_25;
const NEW: ProtocolVersion = ProtocolVersion::V2026_07_28;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Backend {
    Everything,
    FastMcp,
}

/// One gateway in front of one spawned backend.
struct Gateway {
    label: String,
    prefix: &'static str,
    backend: Backend,
    /// What the backend declares, read by a client of its own.
    declared: Value,
    target: Target,
    log: PathBuf,
}

enum Target {
    Proxy { url: String, _child: Box<Child> },
    Mount(Server),
}

impl Gateway {
    async fn client(&self, era: ProtocolVersion) -> Result<Client, String> {
        let builder = Client::builder().protocol_version(era).timeout(Some(WAIT));
        let c = match &self.target {
            Target::Proxy { url, .. } => builder.connect_http(url).await,
            Target::Mount(server) => server.connect_client(builder).await,
        };
        let c = c.map_err(|e| format!("connect: {e}"))?;
        if c.protocol_version() != era {
            return Err(format!("negotiated {}", c.protocol_version()));
        }
        Ok(c)
    }

    /// Our name of a backend tool or prompt.
    fn name(&self, name: &str) -> String {
        match self.prefix {
            "" => name.to_owned(),
            p => format!("{p}.{name}"),
        }
    }

    /// Our URI of a backend resource or template.
    fn uri(&self, uri: &str) -> String {
        match self.prefix {
            "" => uri.to_owned(),
            p => format!("{p}+{uri}"),
        }
    }

    /// How many `notifications/cancelled` the backend was sent so far.
    fn cancels_sent(&self) -> usize {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("\"notifications/cancelled\""))
            .count()
    }
}

/// The backend command with its stdin copied to `log`.
fn teed(log: &std::path::Path, command: &[String]) -> Vec<String> {
    let mut argv = vec![
        "sh".to_owned(),
        "-c".to_owned(),
        r#"tee -a "$0" | exec "$@""#.to_owned(),
        log.display().to_string(),
    ];
    argv.extend(command.iter().cloned());
    argv
}

fn command(argv: &[String]) -> Command {
    let mut c = Command::new(&argv[0]);
    c.args(&argv[1..]).stderr(Stdio::null()).kill_on_drop(true);
    c
}

/// What a gateway in front of a backend that declares `declared` should declare.
fn projected(declared: &Value) -> Value {
    let mut want = serde_json::Map::new();
    let has = |k: &str| declared.get(k).is_some();
    let flag = |list: &str, key: &str| declared[list][key] == json!(true);
    for list in ["tools", "prompts", "resources"] {
        if has(list) {
            let mut caps = serde_json::Map::new();
            if flag(list, "listChanged") {
                caps.insert("listChanged".into(), json!(true));
            }
            if list == "resources" && flag(list, "subscribe") {
                caps.insert("subscribe".into(), json!(true));
            }
            want.insert(list.into(), Value::Object(caps));
        }
    }
    if has("logging") {
        want.insert("logging".into(), json!({}));
    }
    if has("completions") && (has("prompts") || has("resources")) {
        want.insert("completions".into(), json!({}));
    }
    Value::Object(want)
}

async fn start(
    backend: Backend,
    proxy: &std::path::Path,
    log: &std::path::Path,
    argv: &[String],
    era: ProtocolVersion,
    via_proxy: bool,
) -> Result<Gateway, String> {
    let backend_argv = teed(log, argv);
    let direct = Client::builder()
        .protocol_version(era)
        .timeout(Some(WAIT))
        .connect_stdio(command(argv))
        .await
        .map_err(|e| format!("the backend does not start in {era}: {e}"))?;
    let declared = serde_json::to_value(direct.server_capabilities()).unwrap_or_default();
    direct.close().await;
    let (target, prefix) = if via_proxy {
        let mut c = Command::new(proxy);
        c.args([
            "--protocol-version",
            era.as_str(),
            "http",
            "127.0.0.1:0",
            "--",
        ])
        .args(&backend_argv)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
        let mut child = c.spawn().map_err(|e| format!("mcp-proxy: {e}"))?;
        let out = child.stdout.take().ok_or("no stdout")?;
        let mut lines = BufReader::new(out).lines();
        let line = tokio::time::timeout(WAIT, lines.next_line())
            .await
            .map_err(|_| "mcp-proxy did not announce its URL")?
            .map_err(|e| e.to_string())?
            .unwrap_or_default();
        let url = line
            .strip_prefix("listening on ")
            .ok_or(format!("mcp-proxy said {line:?}"))?
            .to_owned();
        (
            Target::Proxy {
                url,
                _child: Box::new(child),
            },
            "",
        )
    } else {
        let link = Client::builder()
            .protocol_version(era)
            .timeout(Some(WAIT))
            .connect_stdio(command(&backend_argv))
            .await
            .map_err(|e| format!("mount: {e}"))?;
        let info = Implementation::new("gateway-check", "1");
        let server = Server::builder(info)
            .mount("up", link)
            .build()
            .map_err(|e| e.to_string())?;
        tokio::time::timeout(WAIT, server.mounted())
            .await
            .map_err(|_| "the mount's first lists did not come")?;
        (Target::Mount(server), "up")
    };
    let via = if via_proxy { "mcp-proxy" } else { "mount" };
    Ok(Gateway {
        label: format!("{backend:?} {era} via {via}"),
        prefix,
        backend,
        declared,
        target,
        log: log.to_owned(),
    })
}

/// The next notification, within [`WAIT`].
async fn next(notes: &mut Notifications) -> Result<ServerNotification, String> {
    tokio::time::timeout(WAIT, notes.next())
        .await
        .map_err(|_| "no notification in time".to_owned())?
        .map_err(|e| e.to_string())
}

/// Skips to the acknowledgement of a `subscriptions/listen`.
async fn acknowledged(notes: &mut Notifications) -> Result<(), String> {
    loop {
        if let ServerNotification::Other { method, .. } = next(notes).await?
            && method == "notifications/subscriptions/acknowledged"
        {
            return Ok(());
        }
    }
}

fn params(v: Value) -> CompleteRequestParams {
    serde_json::from_value(v).unwrap_or_else(|e| panic!("completion params: {e}"))
}

fn level(l: LoggingLevel) -> Value {
    serde_json::to_value(l).unwrap_or_default()
}

fn text(r: &mcp_runtime::protocol::CallToolResult) -> String {
    r.content
        .first()
        .and_then(|c| c.as_text())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: gateway_check (everything|fastmcp) MCP-PROXY LOG -- COMMAND [ARGS...]";
    let (Some(kind), Some(proxy), Some(log), Some("--")) = (
        argv.first(),
        argv.get(1),
        argv.get(2),
        argv.get(3).map(String::as_str),
    ) else {
        eprintln!("{usage}");
        return std::process::ExitCode::from(2);
    };
    let (backend, eras) = match kind.as_str() {
        "everything" => (Backend::Everything, vec![OLD]),
        "fastmcp" => (Backend::FastMcp, vec![OLD, NEW]),
        _ => {
            eprintln!("{usage}");
            return std::process::ExitCode::from(2);
        }
    };
    let backend_argv = &argv[4..];
    let (proxy, log) = (PathBuf::from(proxy), PathBuf::from(log));
    let mut report = checks::Report::default();
    for era in eras {
        for via_proxy in [true, false] {
            let gateway = match start(backend, &proxy, &log, backend_argv, era, via_proxy).await {
                Ok(g) => g,
                Err(e) => {
                    report.record(&format!("{backend:?} {era} gateway"), Err(e));
                    continue;
                }
            };
            for client_era in [OLD, NEW] {
                checks::run(&gateway, client_era, &mut report).await;
            }
        }
    }
    println!(
        "gateway-check {kind}: {} passed, {} failed",
        report.passed, report.failed
    );
    if report.failed == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
