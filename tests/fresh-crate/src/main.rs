//! `notes-server`: `notes-server help` lists the commands; with none, it serves MCP on stdio.

#[mcp_runtime::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    notes_server::server().run().await
}
