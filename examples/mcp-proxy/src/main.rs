//! `mcp-proxy`: serve a stdio MCP server over Streamable HTTP, the gateway most asked for.
//!
//! The spawned server's tools, resources and prompts are mounted on an HTTP server
//! (`ServerBuilder::mount`): HTTP clients of either era list and call them, with progress,
//! cancellation, list changes, completion, resource subscriptions and their updates, log
//! messages at the level each session set, and the spawned server's questions (elicitation,
//! sampling, roots) relayed to them; the proxy declares what the spawned server declares of
//! these, and nothing else. The line `listening on http://ADDR/mcp` goes to stdout once the spawned
//! server's lists are in. The proxy ends on SIGTERM or SIGINT; the spawned server ends with it.
//!
//! `mcp-proxy --help` (or `-h`) prints, and exits 0:
#![doc = concat!("```text\n", include_str!("usage.txt"), "```")]

use std::process::ExitCode;
use std::time::Duration;

use mcp_runtime::cli::Telemetry;
use mcp_runtime::client::{Client, ErrorChain};
use mcp_runtime::protocol::{ClientCapabilities, Implementation, ProtocolVersion};
use mcp_runtime::{Server, serde_json};

/// What `--help` prints.
const HELP: &str = include_str!("usage.txt");

const USAGE: &str = "usage: mcp-proxy [--prefix NAME] [--protocol-version REV] \
[--timeout SECONDS] http ADDR -- COMMAND [ARGS...]";

#[derive(Debug)]
struct Args {
    prefix: String,
    version: Option<ProtocolVersion>,
    timeout: Duration,
    addr: String,
    command: Vec<String>,
}

/// The command line; `None` when it asks for the help.
fn parse(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let (mut prefix, mut version, mut timeout) = (String::new(), None, Duration::from_secs(300));
    loop {
        match argv.next().as_deref() {
            Some("-h" | "--help") => return Ok(None),
            Some("--prefix") => prefix = argv.next().ok_or("--prefix needs a name")?,
            Some("--protocol-version") => {
                let v = argv.next().ok_or("--protocol-version needs a revision")?;
                version =
                    Some(ProtocolVersion::parse(&v).ok_or(format!("unknown revision {v:?}"))?);
            }
            Some("--timeout") => {
                let s = argv.next().ok_or("--timeout needs seconds")?;
                let secs: u64 = s.parse().map_err(|_| format!("bad --timeout {s:?}"))?;
                timeout = Duration::from_secs(secs.max(1));
            }
            Some("http") => break,
            Some(other) => return Err(format!("unknown argument {other:?}")),
            None => return Err("missing `http ADDR -- COMMAND`".into()),
        }
    }
    let addr = argv.next().ok_or("http needs an address")?;
    if argv.next().as_deref() != Some("--") {
        return Err("expected `--` and the command after the address".into());
    }
    let command: Vec<String> = argv.collect();
    if command.is_empty() {
        return Err("missing the command to spawn".into());
    }
    Ok(Some(Args {
        prefix,
        version,
        timeout,
        addr,
        command,
    }))
}

/// Everything the proxy can relay: the spawned server may ask for it, our clients answer.
fn relayed_capabilities() -> ClientCapabilities {
    serde_json::from_value(serde_json::json!({
        "elicitation": {"form": {}, "url": {}},
        "sampling": {},
        "roots": {"listChanged": false}
    }))
    .unwrap_or_default()
}

async fn run(args: Args) -> Result<(), String> {
    let mut command = mcp_runtime::tokio::process::Command::new(&args.command[0]);
    command.args(&args.command[1..]);
    // The conventions' CLIENT spans on forwarded calls, their context in `_meta`: a client's
    // trace goes on through the proxy into the spawned server.
    let mut client = Client::builder()
        .otel()
        .info(Implementation::new("mcp-proxy", env!("CARGO_PKG_VERSION")))
        .capabilities(relayed_capabilities())
        .timeout(Some(args.timeout));
    if let Some(v) = args.version {
        client = client.protocol_version(v);
    }
    let client = client
        .connect_stdio(command)
        .await
        .map_err(|e| format!("could not start {:?}: {}", args.command[0], ErrorChain(&e)))?;
    let info = client
        .server_info()
        .unwrap_or_else(|| Implementation::new("mcp-proxy", env!("CARGO_PKG_VERSION")));
    let mut builder = Server::builder(info).otel();
    if let Some(text) = client.instructions() {
        builder = builder.instructions(text);
    }
    let server = builder
        .mount(args.prefix, client)
        .build()
        .map_err(|e| e.to_string())?;
    server.mounted().await;
    let listener = mcp_runtime::tokio::net::TcpListener::bind(&args.addr)
        .await
        .map_err(|e| format!("could not listen on {}: {e}", args.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("listening on http://{addr}/mcp");
    server
        .serve_http_on(listener)
        .await
        .map_err(|e| e.to_string())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(why) => {
            eprintln!("mcp-proxy: {why}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // `OTEL_EXPORTER_OTLP_ENDPOINT` (and the other `OTEL_*` variables, as `Server::run` reads
    // them): spans and metrics exported over OTLP/HTTP, flushed when the proxy ends.
    let telemetry = match Telemetry::from_env("mcp-proxy") {
        Ok(telemetry) => telemetry,
        Err(e) => {
            eprintln!("mcp-proxy: {e}");
            return ExitCode::from(e.code());
        }
    };
    let ended = run(args).await;
    if let Some(telemetry) = telemetry {
        telemetry.shutdown().await;
    }
    match ended {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("mcp-proxy: {why}");
            ExitCode::from(3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Result<Args, String> {
        parse(s.split_whitespace().map(str::to_owned)).map(|a| a.expect("not a help request"))
    }

    #[test]
    fn arguments_are_read_in_order() {
        let a = args("--prefix fs --timeout 5 http 127.0.0.1:0 -- srv stdio").unwrap();
        assert_eq!(a.prefix, "fs");
        assert_eq!(a.timeout, Duration::from_secs(5));
        assert_eq!(a.addr, "127.0.0.1:0");
        assert_eq!(a.command, ["srv", "stdio"]);
        assert_eq!(
            args("http :0 srv").unwrap_err(),
            "expected `--` and the command after the address"
        );
        assert_eq!(
            args("http :0 --").unwrap_err(),
            "missing the command to spawn"
        );
        assert_eq!(args("--what").unwrap_err(), "unknown argument \"--what\"");
        for help in ["-h", "--help", "--prefix fs --help"] {
            assert!(
                parse(help.split_whitespace().map(str::to_owned))
                    .unwrap()
                    .is_none()
            );
        }
        // After `--`, words belong to the spawned server.
        assert_eq!(
            args("http :0 -- srv --help").unwrap().command,
            ["srv", "--help"]
        );
    }
}
