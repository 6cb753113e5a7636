//! Paths as the original reads them: `~` expanded, made absolute against the allowed
//! directories, normalised, checked against the allowed directories, then resolved through
//! their symbolic links and checked again. The messages are the original's.
//!
//! This is the first check only: [`crate::fsops`] opens what it names without following a
//! symbolic link and checks the opened descriptor's real path again, so that a path swapped
//! between this check and its use is refused.

use std::io;
use std::path::{Path, PathBuf};

use crate::errors::{self, FsError};

/// The allowed directories of one call: as given (normalised) and as resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed {
    /// The directories, as `list_allowed_directories` shows them and as messages name them.
    pub dirs: Vec<String>,
    /// The same, through their symbolic links: what an opened descriptor's path must be in.
    pub real: Vec<PathBuf>,
}

impl Allowed {
    /// `dirs` (already normalised), with their real paths.
    pub fn new(dirs: Vec<String>) -> Self {
        let mut real: Vec<PathBuf> = Vec::new();
        for dir in &dirs {
            if let Ok(r) = std::fs::canonicalize(dir)
                && !real.contains(&r)
            {
                real.push(r);
            }
        }
        Self { dirs, real }
    }

    /// Whether `path` (absolute) is one of the directories or below one.
    pub fn contains(&self, path: &str) -> bool {
        within(path, &self.dirs)
    }

    /// Whether a real path (of an opened descriptor) is inside a real allowed directory.
    pub fn contains_real(&self, path: &Path) -> bool {
        self.real.iter().any(|dir| path.starts_with(dir))
    }

    fn joined(&self) -> String {
        self.dirs.join(", ")
    }
}

/// `~` and `~/…` with the home directory.
pub fn expand_home(path: &str) -> String {
    if (path == "~" || path.starts_with("~/"))
        && let Some(home) = std::env::var_os("HOME")
    {
        let home = home.to_string_lossy().into_owned();
        return resolve(&home, path[1..].trim_start_matches('/'));
    }
    path.to_owned()
}

/// `path.resolve(base, p)`: `p` against `base` unless absolute, `.` and `..` applied,
/// repeated and trailing slashes dropped.
pub fn resolve(base: &str, p: &str) -> String {
    let joined = if p.starts_with('/') {
        p.to_owned()
    } else {
        format!("{base}/{p}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The original's `normalizePath` on a POSIX host: trimmed, one surrounding quote removed,
/// repeated slashes collapsed, a trailing slash dropped.
pub fn normalize(p: &str) -> String {
    let p = p.trim();
    let p = p.strip_prefix(['"', '\'']).unwrap_or(p);
    let p = p.strip_suffix(['"', '\'']).unwrap_or(p);
    if !p.starts_with('/') {
        return p.to_owned();
    }
    let mut out = String::with_capacity(p.len());
    for c in p.chars() {
        if c == '/' && out.ends_with('/') {
            continue;
        }
        out.push(c);
    }
    if out.len() > 1 && out.ends_with('/') {
        out.pop();
    }
    out
}

/// Whether `path` is one of `dirs` or below one (the original's
/// `isPathWithinAllowedDirectories`): NUL bytes never are.
pub fn within(path: &str, dirs: &[String]) -> bool {
    if path.is_empty() || dirs.is_empty() || path.contains('\0') || !path.starts_with('/') {
        return false;
    }
    let path = resolve("/", path);
    dirs.iter().any(|dir| {
        if dir.is_empty() || dir.contains('\0') || !dir.starts_with('/') {
            return false;
        }
        let dir = resolve("/", dir);
        path == dir || dir == "/" || path.starts_with(&format!("{dir}/"))
    })
}

/// `path.relative(from, to)` for absolute paths.
pub fn relative(from: &str, to: &str) -> String {
    let from = resolve("/", from);
    let to = resolve("/", to);
    let f: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let t: Vec<&str> = to.split('/').filter(|s| !s.is_empty()).collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; f.len() - common];
    parts.extend(&t[common..]);
    parts.join("/")
}

/// The original's `validatePath`: the real path of `requested` when it is inside the allowed
/// directories, or the path a new file or directory would have there.
pub fn validate(requested: &str, allowed: &Allowed, cwd: &str) -> Result<String, FsError> {
    let expanded = expand_home(requested);
    let b = expanded.as_bytes();
    if b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b.len() == 2 || b[2] == b'/' || b[2] == b'\\')
    {
        return Err(FsError::denied(format!(
            "Access denied - Windows-style path received on a POSIX host: {requested}"
        )));
    }
    let absolute = if expanded.starts_with('/') {
        resolve("/", &expanded)
    } else {
        resolve_relative(&expanded, allowed, cwd)
    };
    if !allowed.contains(&normalize(&absolute)) {
        return Err(FsError::denied(format!(
            "Access denied - path outside allowed directories: {absolute} not in {}",
            allowed.joined()
        )));
    }
    match std::fs::canonicalize(&absolute) {
        Ok(real) => {
            let real = real.to_string_lossy().into_owned();
            if !allowed.contains(&normalize(&real)) {
                return Err(outside(&real, allowed));
            }
            Ok(real)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            match resolve_missing(&absolute, allowed) {
                Err(e) if e.is_not_found() => Err(FsError::other(format!(
                    "Parent directory does not exist: {}",
                    parent_of(&absolute)
                ))),
                other => other,
            }
        }
        Err(e) => Err(errors::node(&e, "realpath", &absolute)),
    }
}

fn outside(real: &str, allowed: &Allowed) -> FsError {
    FsError::denied(format!(
        "Access denied - symlink target outside allowed directories: {real} not in {}",
        allowed.joined()
    ))
}

/// `path.dirname`.
pub fn parent_of(path: &str) -> String {
    match Path::new(path).parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_string_lossy().into_owned(),
        _ => "/".to_owned(),
    }
}

fn resolve_relative(rel: &str, allowed: &Allowed, cwd: &str) -> String {
    let Some(first) = allowed.dirs.first() else {
        return resolve(cwd, rel);
    };
    for dir in &allowed.dirs {
        let candidate = resolve(dir, rel);
        if allowed.contains(&normalize(&candidate)) {
            return candidate;
        }
    }
    resolve(first, rel)
}

/// A path that does not exist yet: its existing part resolved component by component (each
/// symbolic link met checked), the missing rest appended.
fn resolve_missing(absolute: &str, allowed: &Allowed) -> Result<String, FsError> {
    let normalized = normalize(absolute);
    let mut dirs: Vec<&String> = allowed.dirs.iter().collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.len()));
    let Some(base) = dirs
        .into_iter()
        .find(|d| within(&normalized, std::slice::from_ref(d)))
    else {
        return Ok(absolute.to_owned());
    };
    let mut current =
        std::fs::canonicalize(base).map_err(|e| errors::node(&e, "realpath", base))?;
    let rest = relative(base, absolute);
    let parts: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    for (index, part) in parts.iter().enumerate() {
        let entries = std::fs::read_dir(&current)
            .map_err(|e| errors::node(&e, "scandir", &current.to_string_lossy()))?;
        let exists = entries
            .filter_map(Result::ok)
            .any(|entry| entry.file_name().as_encoded_bytes() == part.as_bytes());
        if !exists {
            let mut out = current;
            for p in &parts[index..] {
                out.push(p);
            }
            return Ok(out.to_string_lossy().into_owned());
        }
        let next = current.join(part);
        current = std::fs::canonicalize(&next)
            .map_err(|e| errors::node(&e, "realpath", &next.to_string_lossy()))?;
        let real = current.to_string_lossy().into_owned();
        if !allowed.contains(&normalize(&real)) {
            return Err(outside(&real, allowed));
        }
    }
    Ok(current.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_like_node() {
        assert_eq!(resolve("/a/b", "../c/./d/"), "/a/c/d");
        assert_eq!(resolve("/a", "/x//y/.."), "/x");
        assert_eq!(resolve("/", "../../.."), "/");
        assert_eq!(normalize("  '/a//b/'  "), "/a/b");
        assert_eq!(relative("/a/b", "/a/c/d"), "../c/d");
        assert_eq!(relative("/a/b", "/a/b"), "");
    }

    #[test]
    fn within_needs_a_separator() {
        let dirs = vec!["/tmp/root".to_owned()];
        assert!(within("/tmp/root", &dirs));
        assert!(within("/tmp/root/x/../y", &dirs));
        assert!(!within("/tmp/rootkit", &dirs));
        assert!(!within("/tmp/root/../other", &dirs));
        assert!(!within("/tmp/root/a\0b", &dirs));
        assert!(within("/anything", &["/".to_owned()]));
    }
}
