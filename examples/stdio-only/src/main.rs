//! `stdio-only`: the smallest useful server, on `mcp-runtime` with `default-features = false`
//! and only the `macros` feature. It speaks MCP on stdin/stdout, and its dependency tree has no
//! HTTP stack (axum, hyper) and no `tracing-subscriber`: `.ci/run` checks both.
//!
//! Without the `cli` feature there is no `Server::run`; the binary serves stdio directly, and
//! it would install its own `tracing` subscriber if it wanted logs.

use mcp_runtime::prelude::*;

/// Units a length can be converted between.
#[derive(Debug, Clone, Copy, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Metres.
    Metres,
    /// Feet (0.3048 m).
    Feet,
}

/// Converts a length between metres and feet.
#[tool(read_only)]
async fn convert_length(
    /// The length to convert
    value: f64,
    /// The unit of `value`
    from: Unit,
    /// The unit to convert to
    to: Unit,
) -> String {
    let metres = match from {
        Unit::Metres => value,
        Unit::Feet => value * 0.3048,
    };
    let result = match to {
        Unit::Metres => metres,
        Unit::Feet => metres / 0.3048,
    };
    format!("{result:.4}")
}

/// What `--help` prints: without the `cli` feature there is no `help` command to print it.
const HELP: &str = "\
usage: stdio-only

Serves MCP on stdin/stdout (one JSON-RPC message per line) with one tool, convert_length.
";

#[tokio::main]
async fn main() {
    if matches!(std::env::args().nth(1).as_deref(), Some("-h" | "--help")) {
        print!("{HELP}");
        return;
    }
    if let Err(err) = Server::from_registry(server_info!()).serve_stdio().await {
        eprintln!("stdio-only: {err}");
        std::process::exit(2);
    }
}
