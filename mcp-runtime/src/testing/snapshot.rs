//! Snapshot files: a text saved in the repository, compared with what the code makes now, and
//! written only when asked.

use std::path::{Path, PathBuf};

use super::diff::line_diff;
use crate::Server;

/// The environment variable that makes snapshots write their files instead of comparing:
/// `MCP_UPDATE_SNAPSHOTS=1 cargo test`.
pub const UPDATE_VARIABLE: &str = "MCP_UPDATE_SNAPSHOTS";

/// Whether [`UPDATE_VARIABLE`] asks for updates (set, and not `0`, `false` or empty): the one
/// place it is read.
fn update_requested() -> bool {
    std::env::var_os(UPDATE_VARIABLE).is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// A snapshot file: compared with the text of now, and written instead when updating
/// (`MCP_UPDATE_SNAPSHOTS=1`, see [`UPDATE_VARIABLE`], or [`update`](Self::update)).
///
/// A relative path is relative to the working directory, which `cargo test` sets to the
/// package's folder. A missing file is a failure (never a silent pass), telling how to make it.
///
/// ```
/// use mcp_runtime::testing::{Snapshot, SnapshotError};
///
/// let dir = std::env::temp_dir().join(format!("snapshot-doc-{}", std::process::id()));
/// let path = dir.join("greeting.txt");
/// // Missing: the error tells how to make it.
/// let err = Snapshot::new(&path).update(false).check("hello\n").unwrap_err();
/// assert!(matches!(err, SnapshotError::Missing { .. }));
/// // Written when updating, then equal.
/// Snapshot::new(&path).update(true).check("hello\n").unwrap();
/// Snapshot::new(&path).update(false).check("hello\n").unwrap();
/// // Changed: the error shows the lines that differ.
/// let err = Snapshot::new(&path).update(false).check("goodbye\n").unwrap_err();
/// assert!(err.to_string().contains("- hello\n+ goodbye"), "{err}");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Snapshot {
    path: PathBuf,
    update: bool,
}

impl Snapshot {
    /// The snapshot at `path`, updated when [`UPDATE_VARIABLE`] says so.
    pub fn new(path: impl AsRef<Path>) -> Self {
        Self {
            path: path.as_ref().to_owned(),
            update: update_requested(),
        }
    }

    /// Writes the file (`true`) or compares with it (`false`), whatever the environment says.
    pub fn update(mut self, update: bool) -> Self {
        self.update = update;
        self
    }

    /// The file's path.
    ///
    /// ```
    /// use mcp_runtime::testing::Snapshot;
    /// assert_eq!(Snapshot::new("tests/lists.json").path(), std::path::Path::new("tests/lists.json"));
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Compares `actual` with the file (line by line: line endings do not count), or writes
    /// it when updating (the folders too).
    pub fn check(&self, actual: &str) -> Result<(), SnapshotError> {
        let io = |source| SnapshotError::Io {
            path: self.path.clone(),
            source,
        };
        if self.update {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(io)?;
            }
            return std::fs::write(&self.path, actual).map_err(io);
        }
        let saved = match std::fs::read_to_string(&self.path) {
            Ok(saved) => saved,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(SnapshotError::Missing {
                    path: self.path.clone(),
                });
            }
            Err(e) => return Err(io(e)),
        };
        let diff = line_diff(&saved, actual);
        if diff.is_empty() {
            return Ok(());
        }
        Err(SnapshotError::Changed {
            path: self.path.clone(),
            diff,
        })
    }

    /// Compares the server's lists (tools, resources, templates and prompts as a client of
    /// each era's newest revision receives them: what `<bin> list --json` prints, so that
    /// `<bin> diff FILE` reads the file too) with the file, or writes them.
    ///
    /// ```rust,standalone_crate
    /// use mcp_runtime::prelude::*;
    /// use mcp_runtime::testing::Snapshot;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> String {
    ///     (a + b).to_string()
    /// }
    ///
    /// fn main() {
    ///     let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
    ///     let path = std::env::temp_dir().join(format!("lists-{}.json", std::process::id()));
    ///     Snapshot::new(&path).update(true).check_lists(&server).unwrap();
    ///     Snapshot::new(&path).update(false).check_lists(&server).unwrap();
    ///     let saved = std::fs::read_to_string(&path).unwrap();
    ///     assert!(saved.contains(r#""name": "add""#));
    ///     std::fs::remove_file(&path).unwrap();
    /// }
    /// ```
    pub fn check_lists(&self, server: &Server) -> Result<(), SnapshotError> {
        let mut lists = crate::cli::listings(server);
        lists.push('\n');
        self.check(&lists)
    }
}

/// Asserts that the server's lists equal the snapshot at `path` ([`Snapshot::check_lists`]),
/// or writes it when `MCP_UPDATE_SNAPSHOTS=1`; panics with [`SnapshotError`]'s message.
///
/// ```rust,standalone_crate
/// use mcp_runtime::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// fn main() {
///     let server = Server::builder(server_info!()).tool(add::TOOL).build().unwrap();
///     let path = std::env::temp_dir().join(format!("lists-assert-{}.json", std::process::id()));
///     mcp_runtime::testing::Snapshot::new(&path).update(true).check_lists(&server).unwrap();
///     mcp_runtime::testing::assert_lists_snapshot(&server, &path);
///     std::fs::remove_file(&path).unwrap();
/// }
/// ```
#[track_caller]
pub fn assert_lists_snapshot(server: &Server, path: impl AsRef<Path>) {
    if let Err(err) = Snapshot::new(path).check_lists(server) {
        panic!("{err}");
    }
}

/// Why a [`Snapshot`] failed.
///
/// ```
/// use mcp_runtime::testing::SnapshotError;
///
/// let err = SnapshotError::Missing { path: "tests/lists.json".into() };
/// assert_eq!(
///     err.to_string(),
///     "the snapshot tests/lists.json does not exist: run the tests with MCP_UPDATE_SNAPSHOTS=1 to write it, then commit it"
/// );
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// There is no file yet.
    #[error(
        "the snapshot {} does not exist: run the tests with MCP_UPDATE_SNAPSHOTS=1 to write it, then commit it",
        path.display()
    )]
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// The text differs from the file.
    #[error(
        "the snapshot {} differs from what the code makes now (- snapshot, + now):\n{diff}\nif the change is meant, run the tests with MCP_UPDATE_SNAPSHOTS=1 to update the file",
        path.display()
    )]
    Changed {
        /// The file.
        path: PathBuf,
        /// The lines that differ, with a little context.
        diff: String,
    },
    /// The file could not be read or written.
    #[error("the snapshot {} could not be read or written", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system reported.
        #[source]
        source: std::io::Error,
    },
}
