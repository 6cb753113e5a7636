//! `bench-rmcp`: the benchmark's server on rmcp 3.x (the official Rust SDK), written the way its
//! documentation shows: `#[tool_router]` / `#[tool]` / `#[tool_handler]` with `Parameters<T>`,
//! `stdio_pipes()` over stdio (what rmcp recommends when both streams are pipes), and its
//! `StreamableHttpService` with the default configuration (sessions, SSE replies) mounted in axum,
//! with `TCP_NODELAY` on so that Nagle does not distort it.
//!
//! ```text
//! bench-rmcp [stdio]            serve MCP over stdin/stdout
//! bench-rmcp http ADDR          serve Streamable HTTP at http://ADDR/mcp
//! ```

use std::sync::Arc;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The arguments of `echo`.
#[derive(Debug, Deserialize, JsonSchema)]
struct EchoArgs {
    /// The text to echo
    text: String,
}

/// The arguments of `add`.
#[derive(Debug, Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend
    a: i64,
    /// The second addend
    b: i64,
}

/// What the gift is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Occasion {
    /// A birthday.
    Birthday,
    /// A wedding.
    Wedding,
    /// A graduation.
    Graduation,
}

/// The arguments of `suggest_gifts`.
#[derive(Debug, Deserialize, JsonSchema)]
struct GiftArgs {
    /// The occasion, e.g. birthday or wedding
    occasion: Occasion,
    /// Budget in US dollars
    #[schemars(range(min = 0))]
    budget: f64,
    /// Who the gift is for, e.g. "my sister"
    recipient: Option<String>,
}

/// One gift idea.
#[derive(Debug, Clone, Serialize, JsonSchema)]
struct Gift {
    /// Display name.
    name: &'static str,
    /// Price in US dollars.
    price: f64,
}

/// Gift ideas that fit the request.
#[derive(Debug, Serialize, JsonSchema)]
struct GiftList {
    /// Matching gifts, cheapest first.
    gifts: Vec<Gift>,
    /// A one-line summary for the model.
    summary: String,
}

const CATALOG: &[(&str, f64, &[Occasion])] = &[
    (
        "Board game",
        45.0,
        &[Occasion::Birthday, Occasion::Graduation],
    ),
    ("Chef's knife", 120.0, &[Occasion::Wedding]),
    (
        "Fountain pen",
        75.0,
        &[Occasion::Graduation, Occasion::Birthday],
    ),
    (
        "Scented candles",
        30.0,
        &[Occasion::Birthday, Occasion::Wedding],
    ),
    ("Espresso machine", 420.0, &[Occasion::Wedding]),
    (
        "E-reader",
        140.0,
        &[Occasion::Graduation, Occasion::Birthday],
    ),
];

/// The server: no state.
#[derive(Debug, Clone, Default)]
struct Bench;

#[tool_router]
impl Bench {
    /// Echoes the text back.
    #[tool(annotations(read_only_hint = true))]
    async fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.text
    }

    /// Adds two integers.
    #[tool(annotations(read_only_hint = true))]
    async fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }

    /// Suggests gift ideas for a given occasion and budget.
    #[tool(annotations(
        title = "Gift ideas generator",
        read_only_hint = true,
        open_world_hint = false
    ))]
    async fn suggest_gifts(
        &self,
        Parameters(args): Parameters<GiftArgs>,
    ) -> Result<Json<GiftList>, String> {
        if args.budget < 0.0 {
            return Err("budget must be at least 0".to_owned());
        }
        let mut gifts: Vec<Gift> = CATALOG
            .iter()
            .filter(|(_, price, occasions)| {
                *price <= args.budget && occasions.contains(&args.occasion)
            })
            .map(|&(name, price, _)| Gift { name, price })
            .collect();
        if gifts.is_empty() {
            return Err(format!("no gift fits a budget of ${}", args.budget));
        }
        gifts.sort_by(|a, b| a.price.total_cmp(&b.price));
        let who = args
            .recipient
            .map_or(String::new(), |r| format!(" for {r}"));
        let summary = format!("{} gift ideas{who} within ${}", gifts.len(), args.budget);
        Ok(Json(GiftList { gifts, summary }))
    }
}

#[tool_handler(name = "bench-rmcp", version = "0.0.0")]
impl rmcp::ServerHandler for Bench {}

async fn stdio() -> Result<(), Box<dyn std::error::Error>> {
    let service = Bench.serve(rmcp::transport::stdio_pipes()).await?;
    service.waiting().await?;
    Ok(())
}

async fn http(addr: &str) -> Result<(), Box<dyn std::error::Error>> {
    let service = StreamableHttpService::new(
        || Ok(Bench),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "serving MCP over Streamable HTTP at http://{}/mcp",
        listener.local_addr()?
    );
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
        Some(other) => Err(format!("usage: bench-rmcp [stdio | http ADDR] (got `{other}`)").into()),
    };
    if let Err(err) = result {
        eprintln!("bench-rmcp: {err}");
        std::process::exit(2);
    }
}
