//! Serves the shop with its MCP endpoint on 127.0.0.1:3000.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    eprintln!("http://{}/ (MCP at /mcp)", listener.local_addr()?);
    axum::serve(listener, axum_mount::app()).await
}
