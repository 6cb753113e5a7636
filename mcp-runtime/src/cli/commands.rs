//! The built-in commands: their arguments checked, then run.

use std::io::IsTerminal;

use mcp_core::ProtocolVersion;
use serde_json::Value;

use super::args::Args;
use super::exit::{CliError, Failure};
use super::inspect::{self, Completion};
use crate::error::Error;
use crate::server::Server;

#[cfg(feature = "http")]
use crate::http::options::MetricsAt;
/// Without HTTP there is no `/metrics` to serve.
#[cfg(not(feature = "http"))]
#[allow(dead_code)]
pub(super) enum MetricsAt {
    Path(String),
    Address(String, String),
}

const CALL: &str = "call NAME [JSON] [--json] [--timeout SECONDS]";
const READ: &str = "read URI [--json] [--timeout SECONDS]";
const PROMPT: &str = "prompt NAME [JSON] [--json] [--timeout SECONDS]";
const COMPLETE: &str = "complete prompt NAME ARG [VALUE] | complete resource TEMPLATE ARG [VALUE] [--context JSON] [--json] [--timeout SECONDS]";
const SCHEMA: &str = "schema NAME";
const LIST: &str = "list [--json]";
const HTTP: &str = "http [ADDR] [--metrics | --metrics-address ADDR]";
const DIFF: &str = "diff OLD.json";
const SERVER_CARD: &str = "server-card [--catalog]";
const INSTALL: &str = "install CLIENT [--name NAME] [--env KEY=VALUE]... [--config PATH] [--print]";
const UNINSTALL: &str = "uninstall CLIENT [--name NAME] [--config PATH]";

/// What a command prints on stdout, or its failure with what stdout still gets.
pub(super) type Outcome = Result<String, (String, CliError)>;

/// Where a built-in command runs: the server, the binary's name, and its help text.
pub(super) struct Invocation<'a> {
    pub(super) server: &'a Server,
    pub(super) bin: &'a str,
    pub(super) help: &'a (dyn Fn() -> String + Sync),
}

impl Invocation<'_> {
    fn usage(&self, line: &str) -> String {
        format!("{} {line}", self.bin)
    }

    /// Runs the built-in `command` with the words after it.
    pub(super) async fn run(&self, command: &str, rest: &[String]) -> Outcome {
        let fail = |e: CliError| (String::new(), e);
        let server = self.server;
        if !matches!(command, "help" | "-h" | "--help") {
            super::env::refuse_unused_redis(server).map_err(fail)?;
        }
        match command {
            "stdio" => {
                Args::parse(command, rest, &[])
                    .and_then(|a| a.at_most(0, &self.usage("stdio")))
                    .map_err(fail)?;
                if std::io::stdin().is_terminal() {
                    let bin = self.bin;
                    eprintln!(
                        "{bin}: serving MCP on stdin/stdout for an MCP client (one JSON-RPC message per line); Ctrl-D quits, `{bin} help` lists the commands"
                    );
                }
                server.serve_stdio().await.map_err(|e| fail(serving(&e)))?;
                Ok(String::new())
            }
            "http" => {
                let a = Args::parse(command, rest, &["metrics", "metrics-address"]);
                let a = a.map_err(fail)?;
                a.at_most(1, &self.usage(HTTP)).map_err(fail)?;
                let addr = a
                    .positional
                    .first()
                    .map_or("127.0.0.1:8000", String::as_str);
                let metrics = match (a.metrics, a.metrics_address) {
                    (false, None) => None,
                    (true, None) => Some(MetricsAt::Path("/metrics".into())),
                    (false, Some(at)) => Some(MetricsAt::Address(at, "/metrics".into())),
                    (true, Some(_)) => {
                        let why = "`--metrics` and `--metrics-address` exclude each other";
                        return Err(fail(CliError::usage(why)));
                    }
                };
                if metrics.is_some() {
                    outermost(server, false, true);
                }
                serve_http(server, addr, metrics).await.map_err(fail)?;
                Ok(String::new())
            }
            "list" => {
                let a = Args::parse(command, rest, &["json"]).map_err(fail)?;
                a.at_most(0, &self.usage(LIST)).map_err(fail)?;
                let listing = if a.json {
                    inspect::listings(server)
                } else {
                    server.listing()
                };
                Ok(listing + "\n")
            }
            "diff" => self.diff(rest),
            "server-card" => {
                let a = Args::parse(command, rest, &["catalog"]).map_err(fail)?;
                a.at_most(0, &self.usage(SERVER_CARD)).map_err(fail)?;
                let document = if a.catalog {
                    server.ai_catalog_json()
                } else {
                    server.server_card_json()
                };
                let document = document.ok_or_else(|| {
                    fail(CliError::usage(
                        "this server has no Server Card (give it one with `ServerBuilder::card`)",
                    ))
                })?;
                Ok(format!("{document}\n"))
            }
            "install" => {
                let flags = ["print", "env", "name", "config"];
                let a = Args::parse(command, rest, &flags).map_err(fail)?;
                super::install::install(self.bin, &a, &self.usage(INSTALL)).map_err(fail)
            }
            "uninstall" => {
                let a = Args::parse(command, rest, &["name", "config"]).map_err(fail)?;
                super::install::uninstall(self.bin, &a, &self.usage(UNINSTALL)).map_err(fail)
            }
            "call" => {
                let a = Args::parse(command, rest, &["json", "timeout"]).map_err(fail)?;
                let name = a
                    .required(0, "the tool's NAME", &self.usage(CALL))
                    .map_err(fail)?;
                a.at_most(2, &self.usage(CALL)).map_err(fail)?;
                let json = a.positional.get(1).map(String::as_str);
                inspect::call(server, name, json, a.json, a.timeout).await
            }
            "read" => {
                let a = Args::parse(command, rest, &["json", "timeout"]).map_err(fail)?;
                let uri = a
                    .required(0, "the resource's URI", &self.usage(READ))
                    .map_err(fail)?;
                a.at_most(1, &self.usage(READ)).map_err(fail)?;
                inspect::read(server, uri, a.json, a.timeout)
                    .await
                    .map_err(fail)
            }
            "prompt" => {
                let a = Args::parse(command, rest, &["json", "timeout"]).map_err(fail)?;
                let name = a
                    .required(0, "the prompt's NAME", &self.usage(PROMPT))
                    .map_err(fail)?;
                a.at_most(2, &self.usage(PROMPT)).map_err(fail)?;
                let json = a.positional.get(1).map(String::as_str);
                inspect::prompt(server, name, json, a.json, a.timeout)
                    .await
                    .map_err(fail)
            }
            "complete" => self.complete(rest).await.map_err(fail),
            "schema" => {
                let a = Args::parse(command, rest, &["json"]).map_err(fail)?;
                let name = a
                    .required(0, "the tool's NAME", &self.usage(SCHEMA))
                    .map_err(fail)?;
                a.at_most(1, &self.usage(SCHEMA)).map_err(fail)?;
                inspect::schema(server, name).map_err(fail)
            }
            "apps" => {
                let a = Args::parse(command, rest, &[]).map_err(fail)?;
                let usage_line = self.usage(super::apps::USAGE);
                if a.positional.first().map(String::as_str) != Some("preview") {
                    return Err(fail(CliError::usage(format!("usage: {usage_line}"))));
                }
                a.at_most(4, &usage_line).map_err(fail)?;
                let (addr, samples) =
                    super::apps::parse(server, &a.positional[1..]).map_err(fail)?;
                super::apps::preview(server, &addr, &samples)
                    .await
                    .map_err(fail)?;
                Ok(String::new())
            }
            "help" | "-h" | "--help" => Ok((self.help)()),
            other => Err(fail(CliError::usage(format!(
                "unknown command `{other}`\n\n{}",
                (self.help)().trim_end()
            )))),
        }
    }

    /// `complete prompt NAME ARG [VALUE]` / `complete resource TEMPLATE ARG [VALUE]`.
    async fn complete(&self, rest: &[String]) -> Result<String, CliError> {
        let a = Args::parse("complete", rest, &["json", "timeout", "context"])?;
        let usage = self.usage(COMPLETE);
        let kind = a.required(0, "`prompt` or `resource`", &usage)?;
        let target = a.required(1, "the prompt's NAME or the resource TEMPLATE", &usage)?;
        let argument = a.required(2, "the argument's name ARG", &usage)?;
        a.at_most(4, &usage)?;
        let c = Completion {
            kind,
            target,
            argument,
            value: a.positional.get(3).map_or("", String::as_str),
            context: a.context.as_deref(),
        };
        inspect::complete(self.server, &c, a.json, a.timeout).await
    }
}

impl Invocation<'_> {
    /// `diff OLD.json`: the report on stdout; a breaking change is a [`Failure::Breaking`].
    fn diff(&self, rest: &[String]) -> Outcome {
        let fail = |e: CliError| (String::new(), e);
        let a = Args::parse("diff", rest, &[]).map_err(fail)?;
        let usage = self.usage(DIFF);
        let path = a
            .required(0, "the saved lists OLD.json", &usage)
            .map_err(fail)?;
        a.at_most(1, &usage).map_err(fail)?;
        let failed = |why: String| fail(CliError::failed(why));
        let text = std::fs::read_to_string(path)
            .map_err(|e| failed(format!("cannot read {path}: {e}")))?;
        let saved: Value =
            serde_json::from_str(&text).map_err(|e| failed(format!("{path} is not JSON: {e}")))?;
        let mut runs = Vec::new();
        for (v, old) in saved_lists(&saved).map_err(|why| failed(format!("{path}: {why}")))? {
            let changes = super::diff::compare(old, &self.server.listing_at(v))
                .map_err(|why| failed(format!("{path}: {why}")))?;
            runs.push((v.as_str(), changes));
        }
        let (report, breaking) = super::diff::report(&runs);
        if breaking == 0 {
            return Ok(report);
        }
        let changes = if breaking == 1 { "change" } else { "changes" };
        let why = format!("{breaking} breaking {changes} since {path}");
        Err((report, CliError::new(Failure::Breaking, why)))
    }
}

/// The lists of a saved file: `list --json` (keyed by revision) or `list` (the newest
/// handshake revision's).
fn saved_lists(saved: &Value) -> Result<Vec<(ProtocolVersion, &Value)>, String> {
    let not_lists = || "not the output of `list` or `list --json`".to_owned();
    let map = saved.as_object().ok_or_else(not_lists)?;
    if map.contains_key("tools/list") {
        return Ok(vec![(ProtocolVersion::LATEST_HANDSHAKE, saved)]);
    }
    if map.is_empty() {
        return Err(not_lists());
    }
    map.iter()
        .map(|(key, lists)| match ProtocolVersion::parse(key) {
            Some(v) => Ok((v, lists)),
            None => Err(format!("`{key}` is not a revision: {}", not_lists())),
        })
        .collect()
}

pub(super) fn serving(err: &Error) -> CliError {
    CliError::new(Failure::Server, err.to_string())
}

/// `http`: refuses what it cannot serve safely before it binds, then serves.
#[cfg(feature = "http")]
async fn serve_http(
    server: &Server,
    addr: &str,
    metrics: Option<MetricsAt>,
) -> Result<(), CliError> {
    #[cfg(not(feature = "auth"))]
    super::env::refuse_auth_without_feature()?;
    #[cfg(feature = "auth")]
    super::env::refuse_unread_auth(server)?;
    super::env::refuse_unprotected(server)?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| CliError::new(Failure::Server, format!("cannot listen on {addr}: {e}")))?;
    let local = listener.local_addr().map_err(|e| serving(&e.into()))?;
    if !local.ip().is_loopback() && crate::http::options::hosts_unlisted(&server.inner) {
        eprintln!(
            "bound to {local}: requests naming this server by IP address are served; name its host \
             names in MCP_ALLOWED_HOSTS (comma-separated) to serve those"
        );
    }
    eprintln!("serving MCP over Streamable HTTP at http://{local}/mcp");
    match metrics {
        Some(MetricsAt::Path(ref path)) => eprintln!("serving metrics at http://{local}{path}"),
        Some(MetricsAt::Address(ref at, ref path)) => {
            eprintln!("serving metrics at http://{at}{path}")
        }
        _ => {}
    }
    let serving_at = match metrics {
        Some(at) => server.serve_http_metrics(listener, at),
        None => Box::pin(server.serve_http_on(listener)),
    };
    serving_at.await.map_err(|e| serving(&e))
}

#[cfg(not(feature = "http"))]
#[allow(clippy::unused_async)]
async fn serve_http(_server: &Server, addr: &str, _: Option<MetricsAt>) -> Result<(), CliError> {
    Err(CliError::usage(format!(
        "HTTP serving ({addr}) needs the `http` feature of mcp-runtime"
    )))
}

/// Whether the command line `args` asks for metrics (`http --metrics`, `http
/// --metrics-address ADDR`): read before the command runs, so that the metrics layer is put
/// outside the others with the OpenTelemetry one, once.
pub(super) fn metrics_wanted(args: &[String]) -> bool {
    let flag = |w: &String| {
        let w = w.split_once('=').map_or(w.as_str(), |(name, _)| name);
        w == "--metrics" || w == "--metrics-address"
    };
    args.first().is_some_and(|c| c == "http") && args[1..].iter().any(flag)
}

/// Puts the command line's layers outside the application's, once: the conventions' SERVER
/// spans when `otel` (unless `ServerBuilder::otel` placed them), and metrics when `metrics` or
/// `otel` and the server keeps none yet (`ServerBuilder::metrics`); with `otel`, the metrics
/// are recorded into the global meter provider's instruments too.
pub(super) fn outermost(server: &Server, otel: bool, metrics: bool) {
    let options = &server.inner.options;
    let mut layers: Vec<std::sync::Arc<dyn crate::middleware::Layer>> = Vec::new();
    #[cfg(feature = "otel")]
    if otel && !options.layers.otel {
        layers.push(std::sync::Arc::new(crate::otel::Tracing::new()));
    }
    #[cfg(not(feature = "otel"))]
    let _ = otel;
    // With an OTLP export, the metrics go there too (a stdio server's included).
    if metrics || otel {
        let kept = crate::metrics::Metrics::new();
        if options.metrics.set(kept.clone()).is_ok() {
            layers.push(std::sync::Arc::new(kept));
        }
    }
    #[cfg(feature = "otel")]
    if otel && let Some(kept) = options.metrics.get() {
        let _ = kept.clone().opentelemetry();
    }
    if !layers.is_empty() {
        options.layers.set_outermost(layers);
    }
}
