//! The listing tools: `list_directory`, `list_directory_with_sizes`, `directory_tree`,
//! `search_files`, `list_allowed_directories`.

use std::cmp::Ordering;

use mcp_runtime::prelude::*;

use super::valid;
use crate::errors::FsError;
use crate::output::Text;
use crate::paths::{self, Allowed};
use crate::{Roots, fsops, glob};

/// Get a detailed listing of all files and directories in a specified path. Results clearly
/// distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is
/// essential for understanding directory structure and finding specific files within a
/// directory. Only works within allowed directories.
#[tool(
    description = "Get a detailed listing of all files and directories in a specified path. Results \
     clearly distinguish between files and directories with [FILE] and [DIR] \
     prefixes. This tool is essential for understanding directory structure and \
     finding specific files within a directory. Only works within allowed \
     directories.",
    title = "List Directory",
    read_only,
    open_world = false
)]
pub async fn list_directory(
    ctx: Context,
    roots: State<Roots>,
    path: String,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    let entries = fsops::list(&real, &allowed, fsops::MAX_ENTRIES)?;
    let lines: Vec<String> = entries
        .iter()
        .map(|e| format!("{} {}", if e.is_dir { "[DIR]" } else { "[FILE]" }, e.name))
        .collect();
    Ok(Text(lines.join("\n")))
}

/// The original's `formatSize`: `0 B`, `512 B`, `1.50 KB`, … up to TB, two decimals rounded
/// half up as JavaScript's `toFixed` does.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    if bytes == 0 {
        return "0 B".to_owned();
    }
    let mut unit = 0;
    while unit + 1 < UNITS.len() && bytes >= 1024u64.pow(unit as u32 + 1) {
        unit += 1;
    }
    if unit == 0 {
        return format!("{bytes} B");
    }
    let denom = u128::from(1024u64.pow(unit as u32));
    let hundredths = (u128::from(bytes) * 200 + denom) / (2 * denom);
    format!(
        "{}.{:02} {}",
        hundredths / 100,
        hundredths % 100,
        UNITS[unit]
    )
}

/// A collation close to ICU's root order, which the original's `localeCompare` uses:
/// punctuation and symbols before digits before letters, letters compared without case
/// first, lower case before upper case on a tie.
fn locale_cmp(a: &str, b: &str) -> Ordering {
    fn class(c: char) -> u8 {
        if c.is_whitespace() {
            0
        } else if c.is_alphanumeric() {
            if c.is_numeric() { 2 } else { 3 }
        } else {
            1
        }
    }
    let key = |s: &str| -> Vec<(u8, String)> {
        s.chars()
            .map(|c| (class(c), c.to_lowercase().collect::<String>()))
            .collect()
    };
    key(a).cmp(&key(b)).then_with(|| {
        let lower_first = |s: &str| -> Vec<bool> { s.chars().map(char::is_uppercase).collect() };
        lower_first(a).cmp(&lower_first(b))
    })
}

/// The sort order of `list_directory_with_sizes`.
#[mcp_runtime::data]
#[serde(rename_all = "lowercase")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    /// By name.
    Name,
    /// By size, largest first.
    Size,
}

/// Get a detailed listing of all files and directories in a specified path, including sizes.
/// Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes.
/// This tool is useful for understanding directory structure and finding specific files within
/// a directory. Only works within allowed directories.
#[tool(
    description = "Get a detailed listing of all files and directories in a specified path, \
     including sizes. Results clearly distinguish between files and directories with \
     [FILE] and [DIR] prefixes. This tool is useful for understanding directory \
     structure and finding specific files within a directory. Only works within \
     allowed directories.",
    title = "List Directory with Sizes",
    read_only,
    open_world = false
)]
pub async fn list_directory_with_sizes(
    ctx: Context,
    roots: State<Roots>,
    path: String,
    /// Sort entries by name or size
    #[arg(rename = "sortBy")]
    sort_by: Option<SortBy>,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    let entries = fsops::list(&real, &allowed, fsops::MAX_ENTRIES)?;
    let mut sorted = entries.clone();
    if sort_by == Some(SortBy::Size) {
        sorted.sort_by_key(|e| std::cmp::Reverse(e.size));
    } else {
        sorted.sort_by(|a, b| locale_cmp(&a.name, &b.name));
    }
    let mut lines: Vec<String> = sorted
        .iter()
        .map(|e| {
            let name = format!("{:<30}", e.name);
            if e.is_dir {
                format!("[DIR] {name} ")
            } else {
                format!("[FILE] {name} {:>10}", format_size(e.size))
            }
        })
        .collect();
    let files = entries.iter().filter(|e| !e.is_dir).count();
    let dirs = entries.len() - files;
    let total: u64 = entries.iter().filter(|e| !e.is_dir).map(|e| e.size).sum();
    lines.push(String::new());
    lines.push(format!("Total: {files} files, {dirs} directories"));
    lines.push(format!("Combined size: {}", format_size(total)));
    Ok(Text(lines.join("\n")))
}

#[derive(serde::Serialize)]
struct TreeEntry {
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    children: Option<Vec<TreeEntry>>,
}

/// Whether `directory_tree` leaves `relative` out for one of `patterns`.
fn tree_excludes(relative: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        if p.contains('*') {
            return glob::matches(relative, p);
        }
        glob::matches(relative, p)
            || glob::matches(relative, &format!("**/{p}"))
            || glob::matches(relative, &format!("**/{p}/**"))
    })
}

struct Walk<'a> {
    allowed: &'a Allowed,
    roots: &'a Roots,
    excludes: &'a [String],
    visited: usize,
}

impl Walk<'_> {
    fn count(&mut self) -> Result<(), FsError> {
        self.visited += 1;
        if self.visited > fsops::MAX_ENTRIES {
            return Err(FsError::other(format!(
                "Too many entries: more than {} below the directory",
                fsops::MAX_ENTRIES
            )));
        }
        Ok(())
    }

    fn tree(&mut self, current: &str, relative: &str) -> Result<Vec<TreeEntry>, FsError> {
        too_deep(relative)?;
        let real = valid(current, self.allowed, self.roots)?;
        let mut out = Vec::new();
        for entry in fsops::list(&real, self.allowed, fsops::MAX_ENTRIES)? {
            self.count()?;
            let rel = join(relative, &entry.name);
            if tree_excludes(&rel, self.excludes) {
                continue;
            }
            let children = if entry.is_dir {
                Some(self.tree(&join(current, &entry.name), &rel)?)
            } else {
                None
            };
            out.push(TreeEntry {
                name: entry.name,
                kind: if entry.is_dir { "directory" } else { "file" },
                children,
            });
        }
        Ok(out)
    }

    fn search(
        &mut self,
        root: &str,
        current: &str,
        pattern: &str,
        found: &mut Vec<String>,
    ) -> Result<(), FsError> {
        too_deep(&paths::relative(root, current))?;
        for entry in fsops::list(current, self.allowed, fsops::MAX_ENTRIES)? {
            self.count()?;
            let full = join(current, &entry.name);
            if valid(&full, self.allowed, self.roots).is_err() {
                continue;
            }
            let rel = paths::relative(root, &full);
            if self.excludes.iter().any(|p| glob::matches(&rel, p)) {
                continue;
            }
            if glob::matches(&rel, pattern) {
                found.push(full.clone());
            }
            if entry.is_dir {
                // A directory that cannot be read is skipped, as the original skips it.
                let _ = self.search(root, &full, pattern, found);
            }
        }
        Ok(())
    }
}

/// The deepest directory `directory_tree` and `search_files` descend into, below the one asked.
const MAX_DEPTH: usize = 128;

/// Refuses a directory more than [`MAX_DEPTH`] levels down (the walk recurses: its depth is
/// bounded, whatever the tree).
fn too_deep(relative: &str) -> Result<(), FsError> {
    if relative.split('/').filter(|s| !s.is_empty()).count() > MAX_DEPTH {
        return Err(FsError::other(format!(
            "Too deep: {relative} is more than {MAX_DEPTH} directories down"
        )));
    }
    Ok(())
}

fn join(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_owned()
    } else if base.ends_with('/') {
        format!("{base}{name}")
    } else {
        format!("{base}/{name}")
    }
}

/// Get a recursive tree view of files and directories as a JSON structure. Each entry
/// includes 'name', 'type' (file/directory), and 'children' for directories. Files have no
/// children array, while directories always have a children array (which may be empty). The
/// output is formatted with 2-space indentation for readability. Only works within allowed
/// directories.
#[tool(
    description = "Get a recursive tree view of files and directories as a JSON structure. Each \
     entry includes 'name', 'type' (file/directory), and 'children' for directories. \
     Files have no children array, while directories always have a children array \
     (which may be empty). The output is formatted with 2-space indentation for \
     readability. Only works within allowed directories.",
    title = "Directory Tree",
    read_only,
    open_world = false
)]
pub async fn directory_tree(
    ctx: Context,
    roots: State<Roots>,
    path: String,
    #[arg(rename = "excludePatterns")] exclude_patterns: Option<Vec<String>>,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let excludes = exclude_patterns.unwrap_or_default();
    let mut walk = Walk {
        allowed: &allowed,
        roots: &roots,
        excludes: &excludes,
        visited: 0,
    };
    let tree = walk.tree(&path, "")?;
    let text = serde_json::to_string_pretty(&tree).map_err(|e| ToolError::new(e.to_string()))?;
    Ok(Text(text))
}

/// Recursively search for files and directories matching a pattern. The patterns should be
/// glob-style patterns that match paths relative to the working directory. Use pattern like
/// '*.ext' to match files in current directory, and '**/*.ext' to match files in all
/// subdirectories. Returns full paths to all matching items. Great for finding files when you
/// don't know their exact location. Only searches within allowed directories.
#[tool(
    description = "Recursively search for files and directories matching a pattern. The patterns \
     should be glob-style patterns that match paths relative to the working \
     directory. Use pattern like '*.ext' to match files in current directory, and \
     '**/*.ext' to match files in all subdirectories. Returns full paths to all \
     matching items. Great for finding files when you don't know their exact \
     location. Only searches within allowed directories.",
    title = "Search Files",
    read_only,
    open_world = false
)]
pub async fn search_files(
    ctx: Context,
    roots: State<Roots>,
    path: String,
    pattern: String,
    #[arg(rename = "excludePatterns")] exclude_patterns: Option<Vec<String>>,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    let excludes = exclude_patterns.unwrap_or_default();
    let mut walk = Walk {
        allowed: &allowed,
        roots: &roots,
        excludes: &excludes,
        visited: 0,
    };
    let mut found = Vec::new();
    walk.search(&real, &real, &pattern, &mut found)?;
    if found.is_empty() {
        return Ok(Text("No matches found".to_owned()));
    }
    Ok(Text(found.join("\n")))
}

/// Returns the list of directories that this server is allowed to access. Subdirectories
/// within these allowed directories are also accessible. Use this to understand which
/// directories and their nested paths are available before trying to access files.
#[tool(
    description = "Returns the list of directories that this server is allowed to access. \
     Subdirectories within these allowed directories are also accessible. Use this to \
     understand which directories and their nested paths are available before trying \
     to access files.",
    title = "List Allowed Directories",
    read_only,
    open_world = false
)]
pub async fn list_allowed_directories(ctx: Context, roots: State<Roots>) -> Text {
    let allowed = roots.current(&ctx).await;
    Text(format!("Allowed directories:\n{}", allowed.dirs.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_the_original_writes_them() {
        assert_eq!(format_size(0), "0 B");
        assert_eq!(format_size(1023), "1023 B");
        assert_eq!(format_size(1024), "1.00 KB");
        assert_eq!(format_size(1152), "1.13 KB");
        assert_eq!(format_size(5 * 1024 * 1024 * 1024), "5.00 GB");
    }

    #[test]
    fn walks_are_bounded_in_depth() {
        assert!(too_deep(&vec!["d"; MAX_DEPTH].join("/")).is_ok());
        let deeper = vec!["d"; MAX_DEPTH + 1].join("/");
        let msg = format!("Too deep: {deeper} is more than 128 directories down");
        assert_eq!(too_deep(&deeper).unwrap_err().message(), msg);
    }

    #[test]
    fn names_in_locale_order() {
        let mut names = vec!["b.txt", "B.md", "a.txt", "_x", "1"];
        names.sort_by(|a, b| locale_cmp(a, b));
        assert_eq!(names, ["_x", "1", "a.txt", "B.md", "b.txt"]);
        let mut cased = vec!["B.md", "b.md"];
        cased.sort_by(|a, b| locale_cmp(a, b));
        assert_eq!(cased, ["b.md", "B.md"]);
    }
}
