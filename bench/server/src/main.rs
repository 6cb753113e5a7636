//! `bench-server`: the benchmark's server on mcp-runtime, written as a user would write it.
//!
//! ```text
//! bench-server [stdio]          serve MCP over stdin/stdout
//! bench-server http ADDR        serve Streamable HTTP at http://ADDR/mcp
//! ```
//!
//! `BENCH_LAYERS` picks the middleware (`bench layers`): `none` (or unset), `pass` (one layer
//! that only calls `next`), `observe` (the OpenTelemetry tracing layer, exporting where the
//! standard `OTEL_*` variables say, and the metrics layer). Any other value refuses to start.

use mcp_runtime::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Echoes the text back.
#[tool(read_only)]
async fn echo(
    /// The text to echo
    text: String,
) -> String {
    text
}

/// Adds two integers.
#[tool(read_only)]
async fn add(
    /// The first addend
    a: i64,
    /// The second addend
    b: i64,
) -> String {
    (a + b).to_string()
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

/// Suggests gift ideas for a given occasion and budget.
#[tool(title = "Gift ideas generator", read_only, open_world = false)]
async fn suggest_gifts(
    /// The occasion, e.g. birthday or wedding
    occasion: Occasion,
    /// Budget in US dollars
    #[arg(min = 0)]
    budget: f64,
    /// Who the gift is for, e.g. "my sister"
    recipient: Option<String>,
) -> Result<Json<GiftList>, ToolError> {
    let mut gifts: Vec<Gift> = CATALOG
        .iter()
        .filter(|(_, price, occasions)| *price <= budget && occasions.contains(&occasion))
        .map(|&(name, price, _)| Gift { name, price })
        .collect();
    if gifts.is_empty() {
        return Err(ToolError::new(format!(
            "no gift fits a budget of ${budget}"
        )));
    }
    gifts.sort_by(|a, b| a.price.total_cmp(&b.price));
    let who = recipient.map_or(String::new(), |r| format!(" for {r}"));
    let summary = format!("{} gift ideas{who} within ${budget}", gifts.len());
    Ok(Json(GiftList { gifts, summary }))
}

/// The server, with the layers `BENCH_LAYERS` asks for.
fn server() -> mcp_runtime::ServerBuilder {
    let builder = Server::from_registry(server_info!());
    match std::env::var("BENCH_LAYERS").as_deref() {
        Err(_) | Ok("none") => builder,
        Ok("pass") => builder.layer(mcp_runtime::middleware::from_fn(|_request, next| {
            next.run()
        })),
        Ok("observe") => builder.otel(),
        Ok(other) => {
            eprintln!("bench-server: BENCH_LAYERS={other}: expected none, pass or observe");
            std::process::exit(2);
        }
    }
}

#[tokio::main]
async fn main() {
    if let Err(err) = server().run().await {
        eprintln!("bench-server: {err}");
        std::process::exit(2);
    }
}
