//! `bench-server`: the benchmark's server on mcp-runtime, written as a user would write it.
//!
//! ```text
//! bench-server [stdio]          serve MCP over stdin/stdout
//! bench-server http ADDR        serve Streamable HTTP at http://ADDR/mcp
//! ```
//!
//! `BENCH_LAYERS` picks the middleware (`bench layers`): `none` (or unset), `pass` (one layer
//! that only calls `next`), `metrics` (the metrics layer, kept in process), `otel` (the
//! OpenTelemetry tracing layer alone, exporting where the standard `OTEL_*` variables say:
//! served without the command line, which would add the metrics layer), `observe` (both, as
//! `Server::run` serves them: the metrics exported over OTLP too), `burn` (one layer that runs
//! a loop per message: what the regression gate, `bench/gate.sh`, must catch). Any other value
//! refuses to start.
//!
//! `BENCH_OUTPUT=raw` serves `suggest_gifts` with the same output schema given by hand
//! (`ToolRecord::with_output_schema`), so that each result is checked against it (issue 28's
//! bench row); unset, the schema is derived and never checked.

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

/// `suggest_gifts` with its schema given by hand: the same schema, checked on every result.
const RAW_GIFTS: mcp_runtime::registry::ToolRecord =
    suggest_gifts::TOOL.with_output_schema(suggest_gifts::TOOL.output_schema);

/// How many rounds of a loop the optimizer keeps `BENCH_LAYERS=burn` runs per message.
const BURN_ROUNDS: u64 = 20_000;

/// The server, with the layers `BENCH_LAYERS` asks for.
fn server(layers: &str) -> mcp_runtime::ServerBuilder {
    let builder = match std::env::var("BENCH_OUTPUT").as_deref() {
        Ok("raw") => Server::builder(server_info!())
            .tool(echo::TOOL)
            .tool(add::TOOL)
            .tool(RAW_GIFTS),
        _ => Server::from_registry(server_info!()),
    };
    match layers {
        "none" => builder,
        "pass" => builder.layer(mcp_runtime::middleware::from_fn(|_request, next| {
            next.run()
        })),
        "metrics" => builder.metrics(&mcp_runtime::metrics::Metrics::new()),
        "otel" => builder.otel(),
        "observe" => builder
            .otel()
            .metrics(&mcp_runtime::metrics::Metrics::new()),
        // Extra work in every message (the regression gate's proof that it fails: `GATE_LAYERS=burn
        // bench/gate.sh`).
        "burn" => builder.layer(mcp_runtime::middleware::from_fn(|_request, next| {
            let mut x = 0u64;
            for i in 0..BURN_ROUNDS {
                x = std::hint::black_box(x.wrapping_add(i));
            }
            next.run()
        })),
        other => {
            eprintln!(
                "bench-server: BENCH_LAYERS={other}: expected none, pass, metrics, otel, observe or burn"
            );
            std::process::exit(2);
        }
    }
}

/// `otel`: the tracing layer alone. `Server::run` would add the metrics layer with the OTLP
/// export, so this installs the export and serves stdio or `http ADDR` itself.
async fn otel_only() -> Result<(), String> {
    let telemetry = mcp_runtime::cli::Telemetry::from_env("bench-server")
        .map_err(|e| e.to_string())?
        .ok_or("BENCH_LAYERS=otel: set OTEL_EXPORTER_OTLP_ENDPOINT")?;
    let server = server("otel").build().map_err(|e| e.to_string())?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let served = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] | ["stdio"] => server.serve_stdio().await,
        ["http", addr] => server.serve_http(addr).await,
        _ => return Err("usage: bench-server [stdio | http ADDR]".to_owned()),
    };
    telemetry.shutdown().await;
    served.map_err(|e| e.to_string())
}

#[tokio::main]
async fn main() {
    let layers = std::env::var("BENCH_LAYERS").unwrap_or_else(|_| "none".to_owned());
    let served = if layers == "otel" {
        otel_only().await
    } else {
        server(&layers).run().await.map_err(|e| e.to_string())
    };
    if let Err(err) = served {
        eprintln!("bench-server: {err}");
        std::process::exit(2);
    }
}
