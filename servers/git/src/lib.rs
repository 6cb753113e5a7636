//! `mcp-server-git`: the MCP reference git server (PyPI `mcp-server-git` 2026.10.19) rebuilt on
//! mcp-runtime, through the `git` binary.
//!
//! The tools, their arguments and their texts are the original's; [`server`] builds the server
//! confined to one repository or to none. The binary parses `--repository` (`-r`) and `-v`,
//! then runs the command line of mcp-runtime (`stdio`, `http`, `list`, `call`, …).
//!
//! ```text
//! mcp-server-git --repository /path/to/repo              # serve MCP on stdio
//! mcp-server-git -r . call git_status '{"repo_path":"."}'
//! mcp-server-git -r . http 127.0.0.1:8000                # Streamable HTTP
//! ```

pub mod git;
pub mod objects;
mod show;
mod tools;

use std::path::PathBuf;

use mcp_runtime::prelude::*;

/// Where tool calls may go: one repository's working tree (`--repository`), or anywhere.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Confinement {
    /// The working tree's root every `repo_path` must be inside; `None`: no restriction.
    pub repository: Option<PathBuf>,
}

impl Confinement {
    /// Confined to `root` (already the working tree's root), or not at all.
    ///
    /// ```
    /// let c = mcp_server_git::Confinement::new(None);
    /// assert!(c.repository.is_none());
    /// ```
    pub fn new(repository: Option<PathBuf>) -> Self {
        Self { repository }
    }
}

/// Walks up from `path` to the enclosing working tree's root, as the original does for
/// `--repository` (`git rev-parse --show-toplevel`). The error says what the original logs.
///
/// ```
/// let missing = std::path::Path::new("/surely/not/here");
/// assert_eq!(
///     mcp_server_git::find_root(missing).unwrap_err(),
///     "/surely/not/here does not exist"
/// );
/// ```
pub fn find_root(path: &std::path::Path) -> Result<PathBuf, String> {
    let abs = git::absolute(path);
    if !abs.exists() {
        return Err(format!("{} does not exist", path.display()));
    }
    let mut dir = Some(abs.as_path());
    while let Some(d) = dir {
        if d.join(".git").exists() {
            return Ok(d.to_path_buf());
        }
        dir = d.parent();
    }
    Err(format!("{} is not a valid Git repository", path.display()))
}

/// The git server: its twelve tools, confined as `confinement` says.
///
/// ```
/// let server = mcp_server_git::server(mcp_server_git::Confinement::default()).build().unwrap();
/// assert_eq!(server.info().name, "mcp-git");
/// ```
pub fn server(confinement: Confinement) -> mcp_runtime::ServerBuilder {
    let mut info = server_info!();
    info.name = "mcp-git".to_owned();
    Server::from_registry(info).state(confinement)
}
