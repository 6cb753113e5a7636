//! `mcp-server-git`: `[--repository PATH | -r PATH] [-v...]`, then a command of the mcp-runtime
//! command line (`stdio` by default, `http ADDR`, `list`, `call`, `install`, …).
//! `MCP_GIT_REPOSITORY` stands for `--repository` when the flag is absent (so that
//! `install CLIENT --env MCP_GIT_REPOSITORY=PATH` can confine an installed server).

use std::path::PathBuf;

use mcp_server_git::{Confinement, find_root, server};

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut repository: Option<PathBuf> = std::env::var_os("MCP_GIT_REPOSITORY")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let mut rest = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--repository" || arg == "-r" {
            let Some(value) = args.next() else {
                eprintln!("mcp-server-git: {arg} needs a PATH");
                std::process::exit(2);
            };
            repository = Some(PathBuf::from(value));
        } else if let Some(value) = arg.strip_prefix("--repository=") {
            repository = Some(PathBuf::from(value));
        } else if arg.starts_with("-v") && arg.trim_start_matches('-').chars().all(|c| c == 'v') {
            // Verbosity: the log level comes from RUST_LOG here.
        } else {
            rest.push(arg);
        }
    }
    let confinement = match repository {
        None => Confinement::new(None),
        Some(path) => match find_root(&path) {
            Ok(root) => Confinement::new(Some(root)),
            Err(message) => {
                // As the original: a missing path exits 1; a path outside any repository is
                // logged and the server exits without serving.
                eprintln!("mcp-server-git: {message}");
                let missing = !mcp_server_git::git::absolute(&path).exists();
                std::process::exit(if missing { 1 } else { 0 });
            }
        },
    };
    // The MCP_* settings of the runtime are read too (ServerBuilder::run_with).
    server(confinement).run_with(rest).await
}
