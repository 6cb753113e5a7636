//! Serves the shared definitions on stdio.

/// What `--help` prints.
const HELP: &str = "\
usage: typed-server

Serves the shared definitions' tools over stdio (one JSON-RPC message per line).
";

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    if matches!(std::env::args().nth(1).as_deref(), Some("-h" | "--help")) {
        print!("{HELP}");
        return Ok(());
    }
    typed_calls::server().build()?.serve_stdio().await
}
