//! Where the allowed directories come from: the command line, and the client's roots.
//!
//! The command line's directories are read once, as the original reads them (`~` expanded,
//! made absolute, kept both as given and through their symbolic links, the inaccessible ones
//! left out with a warning). A client that declares the `roots` capability is asked for its
//! roots (`roots/list`) at each tool call, and its valid roots replace the command line's for
//! that call: a change of roots (`notifications/roots/list_changed`) is seen by the next call,
//! and two sessions of one HTTP server never see each other's roots.

use mcp_runtime::Context;
use mcp_runtime::protocol::Root;

use crate::paths::{self, Allowed};

/// The allowed directories of the command line (the server's state).
#[derive(Debug, Clone, Default)]
pub struct Roots {
    args: Allowed,
    cwd: String,
}

/// What reading the command line's directories found.
///
/// ```
/// let found = mcp_server_filesystem::roots::from_args(&["/no/such/dir".into()], "/");
/// assert!(found.dirs.is_empty());
/// assert_eq!(found.warnings, ["Warning: Cannot access directory /no/such/dir, skipping"]);
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FromArgs {
    /// The accessible directories, normalised.
    pub dirs: Vec<String>,
    /// A warning per directory left out (the original's wording).
    pub warnings: Vec<String>,
}

/// The directories of `args` as the original keeps them: each as given and, when different,
/// through its symbolic links; then only those that are accessible directories.
///
/// ```
/// let found = mcp_server_filesystem::roots::from_args(&["/tmp/../tmp/".into()], "/");
/// assert_eq!(found.dirs, ["/tmp"]);
/// ```
pub fn from_args(args: &[String], cwd: &str) -> FromArgs {
    let mut all = Vec::new();
    for dir in args {
        let absolute = paths::resolve(cwd, &paths::expand_home(dir));
        let original = paths::normalize(&absolute);
        match std::fs::canonicalize(&absolute) {
            Ok(real) => {
                let real = paths::normalize(&real.to_string_lossy());
                if real != original {
                    all.push(original);
                }
                all.push(real);
            }
            Err(_) => all.push(original),
        }
    }
    let mut out = FromArgs::default();
    for dir in all {
        match std::fs::metadata(&dir) {
            Ok(m) if m.is_dir() => out.dirs.push(dir),
            Ok(_) => out
                .warnings
                .push(format!("Warning: {dir} is not a directory, skipping")),
            Err(_) => out
                .warnings
                .push(format!("Warning: Cannot access directory {dir}, skipping")),
        }
    }
    out
}

impl Roots {
    /// The command line's directories (as [`from_args`] gives them).
    ///
    /// ```
    /// let roots = mcp_server_filesystem::Roots::new(vec!["/tmp".into()]);
    /// # let _ = roots;
    /// ```
    pub fn new(dirs: Vec<String>) -> Self {
        let cwd = std::env::current_dir()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "/".to_owned());
        Self {
            args: Allowed::new(dirs),
            cwd,
        }
    }

    /// The directory relative paths resolve against when there is no allowed directory.
    pub(crate) fn cwd(&self) -> &str {
        &self.cwd
    }

    /// The allowed directories of this call: the client's valid roots when it has the `roots`
    /// capability and gives at least one, else the command line's.
    pub(crate) async fn current(&self, ctx: &Context) -> Allowed {
        let asks = ctx.client_capabilities().is_some_and(|c| c.roots.is_some());
        if asks && let Ok(roots) = ctx.roots().await {
            let dirs = valid_roots(&roots);
            if !dirs.is_empty() {
                return Allowed::new(dirs);
            }
        }
        self.args.clone()
    }
}

/// The roots that are existing directories, through their symbolic links, normalised.
pub(crate) fn valid_roots(roots: &[Root]) -> Vec<String> {
    let mut out = Vec::new();
    for root in roots {
        let Some(raw) = root_path(&root.uri) else {
            continue;
        };
        let absolute = paths::resolve("/", &paths::expand_home(&raw));
        let Ok(real) = std::fs::canonicalize(&absolute) else {
            continue;
        };
        let real = paths::normalize(&real.to_string_lossy());
        if std::fs::metadata(&real).is_ok_and(|m| m.is_dir()) && !out.contains(&real) {
            out.push(real);
        }
    }
    out
}

/// A root's path: a `file://` URI's (local host only, percent-decoded, no encoded `/` or NUL),
/// or the text itself when it is no URI.
fn root_path(uri: &str) -> Option<String> {
    let Some(rest) = uri.strip_prefix("file://") else {
        return Some(uri.to_owned());
    };
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => return None,
    };
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            let byte = u8::from_str_radix(hex, 16).ok()?;
            if byte == b'/' || byte == 0 {
                return None;
            }
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris() {
        assert_eq!(root_path("file:///tmp/a%20b").as_deref(), Some("/tmp/a b"));
        assert_eq!(root_path("file://localhost/x").as_deref(), Some("/x"));
        assert_eq!(root_path("file://evil.example/x"), None);
        assert_eq!(root_path("file:///a%2Fb"), None);
        assert_eq!(root_path("/plain").as_deref(), Some("/plain"));
    }
}
