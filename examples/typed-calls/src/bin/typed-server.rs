//! Serves the shared definitions on stdio.

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    typed_calls::server().build()?.serve_stdio().await
}
