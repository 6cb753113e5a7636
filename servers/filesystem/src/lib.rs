//! `mcp-server-filesystem`: the MCP filesystem server, a port of
//! `@modelcontextprotocol/server-filesystem` on `mcp-runtime`.
//!
//! The same tools (`read_text_file`, `read_media_file`, `read_multiple_files`, `write_file`,
//! `edit_file`, `create_directory`, `list_directory`, `list_directory_with_sizes`,
//! `directory_tree`, `move_file`, `search_files`, `get_file_info`,
//! `list_allowed_directories` and the deprecated `read_file`), with the same arguments,
//! results and messages, inside the allowed directories of the command line or of the
//! client's roots ([`roots`]).
//!
//! Paths are checked as the original checks them (the original's `validatePath`), then every file and directory
//! is used through a descriptor opened without following symbolic links and checked again
//! after opening (see the README's Safety section): a symbolic link swapped in after the check, a FIFO, a device or
//! a huge file is refused.
//!
//! ```text
//! mcp-server-filesystem ~/projects ~/notes          # serve MCP on stdio
//! mcp-server-filesystem ~/projects http 127.0.0.1:8080
//! mcp-server-filesystem ~/projects call list_directory '{"path": "~/projects"}'
//! ```

mod diff;
mod edit;
mod errors;
mod fsops;
mod glob;
mod output;
mod paths;
pub mod roots;
mod text;
mod tools;

use mcp_runtime::prelude::*;

pub use fsops::MAX_READ;
pub use output::{Media, Text};
pub use roots::Roots;

/// The environment variable of more allowed directories, separated by `:` (for client
/// configurations written by `install`, whose entry runs `stdio` with no directories).
///
/// ```
/// assert_eq!(mcp_server_filesystem::DIRS_VARIABLE, "MCP_FILESYSTEM_DIRS");
/// ```
pub const DIRS_VARIABLE: &str = "MCP_FILESYSTEM_DIRS";

/// The framework's command names: the first of them in the arguments starts the command line.
const COMMANDS: &[&str] = &[
    "stdio",
    "http",
    "list",
    "call",
    "read",
    "prompt",
    "complete",
    "schema",
    "diff",
    "install",
    "uninstall",
    "server-card",
    "apps",
    "help",
    "-h",
    "--help",
];

/// Splits the arguments into the allowed directories (the words before the first command
/// name, then those of [`DIRS_VARIABLE`]) and the command line.
///
/// ```
/// let args: Vec<String> = ["/a", "/b", "http", "127.0.0.1:0"].map(String::from).into();
/// let (dirs, command) = mcp_server_filesystem::split_args(&args);
/// assert_eq!(dirs, ["/a", "/b"]);
/// assert_eq!(command, ["http", "127.0.0.1:0"]);
/// ```
pub fn split_args(args: &[String]) -> (Vec<String>, Vec<String>) {
    let at = args
        .iter()
        .position(|a| COMMANDS.contains(&a.as_str()))
        .unwrap_or(args.len());
    let mut dirs = args[..at].to_vec();
    if let Some(more) = std::env::var_os(DIRS_VARIABLE) {
        let more = more.to_string_lossy().into_owned();
        dirs.extend(more.split(':').filter(|d| !d.is_empty()).map(str::to_owned));
    }
    (dirs, args[at..].to_vec())
}

/// The filesystem server with `dirs` (already read by [`roots::from_args`]) as the command
/// line's allowed directories.
///
/// ```
/// let server = mcp_server_filesystem::server(vec!["/tmp".into()]).build().unwrap();
/// assert_eq!(server.info().name, "mcp-server-filesystem");
/// ```
pub fn server(dirs: Vec<String>) -> mcp_runtime::ServerBuilder {
    use tools::{list, read, write};
    let info = server_info!().with_title("Filesystem").with_website_url(
        "https://github.com/mcp-runtime/mcp-runtime/tree/main/servers/filesystem",
    );
    Server::builder(info)
        .tool(read::read_file::TOOL)
        .tool(read::read_text_file::TOOL)
        .tool(read::read_media_file::TOOL)
        .tool(read::read_multiple_files::TOOL)
        .tool(write::write_file::TOOL)
        .tool(write::edit_file::TOOL)
        .tool(write::create_directory::TOOL)
        .tool(list::list_directory::TOOL)
        .tool(list::list_directory_with_sizes::TOOL)
        .tool(list::directory_tree::TOOL)
        .tool(write::move_file::TOOL)
        .tool(list::search_files::TOOL)
        .tool(read::get_file_info::TOOL)
        .tool(list::list_allowed_directories::TOOL)
        .state(Roots::new(dirs))
}
