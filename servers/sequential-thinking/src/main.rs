//! `mcp-server-sequential-thinking`: the command line of the sequential-thinking server
//! (`mcp-server-sequential-thinking help`). `DISABLE_THOUGHT_LOGGING=true` keeps the thoughts
//! off stderr.

#[mcp_runtime::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let disabled =
        std::env::var("DISABLE_THOUGHT_LOGGING").is_ok_and(|v| v.eq_ignore_ascii_case("true"));
    mcp_server_sequential_thinking::server(!disabled)
        .run()
        .await
}
