//! `mcp-server-filesystem DIR... [COMMAND]`: the filesystem server's command line.
//!
//! The words before the first command name are the allowed directories (as the original takes
//! them); the rest is the framework's command line (`stdio` when there is none, `http [ADDR]`,
//! `list`, `call NAME JSON`, `install CLIENT`, `help`, ...).

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dirs, command) = mcp_server_filesystem::split_args(&args);
    let cwd = std::env::current_dir()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "/".to_owned());
    let serving = command.first().is_none_or(|c| c == "stdio" || c == "http");
    if dirs.is_empty() && serving {
        eprintln!("Usage: mcp-server-filesystem [allowed-directory] [additional-directories...]");
        eprintln!("Note: Allowed directories can be provided via:");
        eprintln!("  1. Command-line arguments (shown above)");
        eprintln!("  2. MCP roots protocol (if client supports it)");
        eprintln!(
            "At least one directory must be provided by EITHER method for the server to operate."
        );
    }
    let found = mcp_server_filesystem::roots::from_args(&dirs, &cwd);
    for warning in &found.warnings {
        eprintln!("{warning}");
    }
    if found.dirs.is_empty() && !dirs.is_empty() {
        eprintln!("Error: None of the specified directories are accessible");
        std::process::exit(1);
    }
    // The framework's command line with the rest of the words, `MCP_*` settings read.
    mcp_server_filesystem::server(found.dirs)
        .run_with(command)
        .await
}
