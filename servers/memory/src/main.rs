//! `mcp-server-memory`: the command line of the memory server (`mcp-server-memory help`).

#[mcp_runtime::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let exe = std::env::current_exe().ok();
    let home = exe
        .as_deref()
        .and_then(std::path::Path::parent)
        .unwrap_or(std::path::Path::new("."));
    let configured = std::env::var_os("MEMORY_FILE_PATH");
    let path = mcp_server_memory::memory_file_path(configured.as_deref(), home);
    mcp_server_memory::server(path).run().await
}
