//! Serves the shop with its MCP endpoint on 127.0.0.1:3000.

/// What `--help` prints.
const HELP: &str = "\
usage: axum-mount

Serves a small shop on http://127.0.0.1:3000/, with its MCP endpoint mounted at /mcp.
";

#[tokio::main]
async fn main() -> std::io::Result<()> {
    if matches!(std::env::args().nth(1).as_deref(), Some("-h" | "--help")) {
        print!("{HELP}");
        return Ok(());
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    eprintln!("http://{}/ (MCP at /mcp)", listener.local_addr()?);
    axum::serve(listener, axum_mount::app()).await
}
