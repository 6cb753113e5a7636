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
//! With `--openapi FILE_OR_URL`, the operations of an HTTP API's OpenAPI document are served
//! as tools too (`ServerBuilder::openapi`; `--base-url` overrides the document's server; the
//! credentials come from `MCP_OPENAPI_<SCHEME>`), and no command is needed. `stdio` in place
//! of `http ADDR` serves it all on stdin and stdout instead.
//!
//! `mcp-proxy --help` (or `-h`) prints, and exits 0:
#![doc = concat!("```text\n", include_str!("usage.txt"), "```")]

mod config;

use std::process::ExitCode;
use std::time::Duration;

use mcp_runtime::transform::{MountOptions, Transforms};

use mcp_runtime::cli::Telemetry;
use mcp_runtime::client::{Client, ErrorChain};
use mcp_runtime::protocol::{ClientCapabilities, Implementation, ProtocolVersion};
use mcp_runtime::{Server, serde_json};

/// What `--help` prints.
const HELP: &str = include_str!("usage.txt");

const USAGE: &str = "usage: mcp-proxy [--prefix NAME] [--protocol-version REV] \
[--timeout SECONDS] [--config FILE] [--openapi FILE_OR_URL [--base-url URL] [--openapi-prefix NAME]] \
(http ADDR | stdio) [-- COMMAND [ARGS...]]";

#[derive(Debug)]
struct Args {
    prefix: String,
    version: Option<ProtocolVersion>,
    timeout: Duration,
    config: Option<String>,
    openapi: Option<OpenApiArgs>,
    /// `None`: stdio.
    addr: Option<String>,
    command: Vec<String>,
}

/// `--openapi FILE_OR_URL [--base-url URL] [--openapi-prefix NAME]`.
#[derive(Debug, Default)]
struct OpenApiArgs {
    location: String,
    base_url: Option<String>,
    prefix: String,
}

/// The command line; `None` when it asks for the help.
fn parse(mut argv: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let (mut prefix, mut version, mut timeout) = (String::new(), None, Duration::from_secs(300));
    let mut config = None;
    let (mut openapi, mut base_url, mut openapi_prefix) = (None, None, String::new());
    let stdio;
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
            Some("--config") => config = Some(argv.next().ok_or("--config needs a file")?),
            Some("--openapi") => {
                openapi = Some(argv.next().ok_or("--openapi needs a file or URL")?);
            }
            Some("--base-url") => base_url = Some(argv.next().ok_or("--base-url needs a URL")?),
            Some("--openapi-prefix") => {
                openapi_prefix = argv.next().ok_or("--openapi-prefix needs a name")?;
            }
            Some("http") => {
                stdio = false;
                break;
            }
            Some("stdio") => {
                stdio = true;
                break;
            }
            Some(other) => return Err(format!("unknown argument {other:?}")),
            None => return Err("missing `http ADDR -- COMMAND`".into()),
        }
    }
    if openapi.is_none() && (base_url.is_some() || !openapi_prefix.is_empty()) {
        return Err("--base-url and --openapi-prefix go with --openapi".into());
    }
    let addr = if stdio {
        None
    } else {
        Some(argv.next().ok_or("http needs an address")?)
    };
    let optional = config.is_some() || openapi.is_some();
    let command: Vec<String> = match argv.next().as_deref() {
        Some("--") => argv.collect(),
        None if optional => Vec::new(),
        _ => return Err("expected `--` and the command after the address".into()),
    };
    if command.is_empty() && !optional {
        return Err("missing the command to spawn".into());
    }
    let openapi = openapi.map(|location| OpenApiArgs {
        location,
        base_url,
        prefix: openapi_prefix,
    });
    Ok(Some(Args {
        prefix,
        version,
        timeout,
        config,
        openapi,
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

/// Spawns `command` and connects to it over stdio.
async fn connect(args: &Args, command: &[String]) -> Result<Client, Failure> {
    let mut spawned = mcp_runtime::tokio::process::Command::new(&command[0]);
    spawned.args(&command[1..]);
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
    client.connect_stdio(spawned).await.map_err(|e| {
        Failure::Serve(format!(
            "could not start {:?}: {}",
            command[0],
            ErrorChain(&e)
        ))
    })
}

/// Why the proxy stopped: a configuration it refuses (exit 2), or a server it could not start
/// or serve (exit 3).
enum Failure {
    Config(String),
    Serve(String),
}

/// The servers to mount: the command line's (with the file's top-level transforms), then the
/// file's `mount` list, each with its transforms, checked against the server's own lists.
async fn mounts(args: &Args) -> Result<Vec<(String, Client, MountOptions)>, Failure> {
    let file = match &args.config {
        Some(path) => Some(config::read(path).map_err(Failure::Config)?),
        None => None,
    };
    let mut wanted = Vec::new();
    if !args.command.is_empty() {
        let t = match &file {
            Some(f) => f.transforms().map_err(Failure::Config)?,
            None => Transforms::new(),
        };
        wanted.push((args.prefix.clone(), args.command.clone(), t));
    } else if let Some(f) = &file
        && !f.transforms().map_err(Failure::Config)?.is_empty()
    {
        return Err(Failure::Config(
            "the file's top-level transforms are for the server after `--`, and none is given"
                .into(),
        ));
    }
    for m in file.iter().flat_map(|f| f.mounts.iter()) {
        if m.command.is_empty() {
            return Err(Failure::Config(format!(
                "mount `{}`: `command` is empty",
                m.prefix
            )));
        }
        let t = m
            .transforms()
            .map_err(|e| Failure::Config(format!("mount `{}`: {e}", m.prefix)))?;
        wanted.push((m.prefix.clone(), m.command.clone(), t));
    }
    let mut out = Vec::new();
    for (prefix, command, transforms) in wanted {
        let client = connect(args, &command).await?;
        if !transforms.is_empty() {
            let problems = config::problems(&client, &transforms).await?;
            if !problems.is_empty() {
                return Err(Failure::Config(format!(
                    "the transforms of {:?} do not fit its items:\n  {}",
                    command[0],
                    problems.join("\n  ")
                )));
            }
        }
        out.push((
            prefix,
            client,
            MountOptions::new().transforms_from(transforms),
        ));
    }
    Ok(out)
}

async fn run(args: Args) -> Result<(), Failure> {
    let serve = Failure::Serve;
    let mounts = mounts(&args).await?;
    let first = mounts.first().map(|(_, c, _)| c);
    let info = first
        .and_then(Client::server_info)
        .unwrap_or_else(|| Implementation::new("mcp-proxy", env!("CARGO_PKG_VERSION")));
    let mut builder = Server::builder(info).otel();
    if let Some(text) = first.and_then(Client::instructions) {
        builder = builder.instructions(text);
    }
    for (prefix, client, options) in mounts {
        builder = builder.mount_with(prefix, client, options);
    }
    if let Some(o) = &args.openapi {
        let options = mcp_runtime::openapi::Options::new();
        let mut api = mcp_runtime::openapi::OpenApi::load(&o.location, &options)
            .await
            .map_err(|e| Failure::Config(format!("--openapi {}: {e}", o.location)))?
            .timeout(args.timeout);
        if let Some(url) = &o.base_url {
            api = api.with_base_url(url);
        }
        for skipped in api.skipped() {
            eprintln!("mcp-proxy: --openapi: left out: {skipped}");
        }
        builder = builder.openapi(o.prefix.clone(), api);
    }
    let server = builder
        .build()
        .map_err(|e| Failure::Config(e.to_string()))?;
    server.mounted().await;
    let Some(addr) = &args.addr else {
        return server.serve_stdio().await.map_err(|e| serve(e.to_string()));
    };
    let listener = mcp_runtime::tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| serve(format!("could not listen on {addr}: {e}")))?;
    let addr = listener.local_addr().map_err(|e| serve(e.to_string()))?;
    println!("listening on http://{addr}/mcp");
    server
        .serve_http_on(listener)
        .await
        .map_err(|e| serve(e.to_string()))
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
        Err(Failure::Config(why)) => {
            eprintln!("mcp-proxy: {why}");
            ExitCode::from(2)
        }
        Err(Failure::Serve(why)) => {
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
        assert_eq!(a.addr.as_deref(), Some("127.0.0.1:0"));
        assert_eq!(a.command, ["srv", "stdio"]);
        assert_eq!(
            args("http :0 srv").unwrap_err(),
            "expected `--` and the command after the address"
        );
        assert_eq!(
            args("http :0 --").unwrap_err(),
            "missing the command to spawn"
        );
        // With a configuration file, the command is optional (the file may name servers).
        let a = args("--config g.toml http :0").unwrap();
        assert_eq!((a.config.as_deref(), a.command.len()), (Some("g.toml"), 0));
        assert_eq!(args("--what").unwrap_err(), "unknown argument \"--what\"");
        for help in ["-h", "--help", "--prefix fs --help"] {
            assert!(
                parse(help.split_whitespace().map(str::to_owned))
                    .unwrap()
                    .is_none()
            );
        }
        // An OpenAPI document needs no command, and stdio needs no address.
        let a = args("--openapi api.json --base-url http://127.0.0.1:9 stdio").unwrap();
        let o = a.openapi.unwrap();
        assert_eq!(
            (o.location.as_str(), o.base_url.as_deref(), a.addr),
            ("api.json", Some("http://127.0.0.1:9"), None)
        );
        assert_eq!(
            args("--base-url http://h stdio").unwrap_err(),
            "--base-url and --openapi-prefix go with --openapi"
        );
        // After `--`, words belong to the spawned server.
        assert_eq!(
            args("http :0 -- srv --help").unwrap().command,
            ["srv", "--help"]
        );
    }
}
