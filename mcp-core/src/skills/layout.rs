//! The rules of a skills directory as a whole: which paths are served, where the skills are,
//! each `SKILL.md` against its directory, the extension's limits per skill. One place for the
//! `skills!` macro (which reports every problem while compiling) and the runtime's sets (which
//! refuse the first one).

use std::collections::BTreeMap;

use super::{MAX_FILES, MAX_TOTAL_BYTES, SKILL_FILE, SkillMd};

/// A rule a file breaks: the file (relative to the skills directory, `/`-separated) and why.
///
/// ```
/// use mcp_runtime_core::skills::layout;
///
/// let problems = layout::check(&[("notes.md", b"x".as_slice())]).unwrap_err();
/// assert_eq!(problems[0].to_string(), "skill file notes.md: it is in no skill directory (no SKILL.md above it)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Problem {
    /// The file.
    pub path: String,
    /// The rule it breaks.
    pub reason: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "skill file {}: {}", self.path, self.reason)
    }
}

/// The skills of a directory that passed [`check`]: each skill's path (its `<skill-path>`) and
/// its `SKILL.md` read.
///
/// ```
/// use mcp_runtime_core::skills::layout;
///
/// let md = b"---\nname: a\ndescription: b\n---\n".as_slice();
/// let layout = layout::check(&[("a/SKILL.md", md)]).unwrap();
/// assert_eq!(layout.skills["a"].name(), "a");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Layout {
    /// Skill path → its `SKILL.md`.
    pub skills: BTreeMap<String, SkillMd>,
}

/// Whether a path segment is served as it is in a URI: unreserved characters and the
/// sub-delimiters that need no escaping in a path (no `%`, no space, no `?`, `#` or `/`).
///
/// ```
/// use mcp_runtime_core::skills::layout::plain_segment;
///
/// assert!(plain_segment("budget.md"));
/// assert!(!plain_segment("a b") && !plain_segment(".."));
/// ```
pub fn plain_segment(segment: &str) -> bool {
    !segment.is_empty()
        && segment != "."
        && segment != ".."
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=@".contains(&b))
}

/// Refuses a path with a segment that is not [`plain_segment`].
///
/// ```
/// use mcp_runtime_core::skills::layout::check_path;
///
/// assert_eq!(
///     check_path("a b/SKILL.md").unwrap_err(),
///     "the path segment `a b` is not a plain URI path segment"
/// );
/// ```
pub fn check_path(path: &str) -> Result<(), String> {
    match path.split('/').find(|s| !plain_segment(s)) {
        Some(bad) => Err(format!(
            "the path segment `{bad}` is not a plain URI path segment"
        )),
        None => Ok(()),
    }
}

/// Reads the `SKILL.md` of the skill at `dir` and checks it: UTF-8, [`SkillMd::parse`], and a
/// `name` equal to the directory's last segment.
///
/// ```
/// use mcp_runtime_core::skills::layout::check_skill_md;
///
/// let err = check_skill_md("pdf", b"---\nname: forms\ndescription: d\n---\n").unwrap_err();
/// assert_eq!(err, "its `name` is `forms`, but its directory is `pdf` (they must be equal)");
/// ```
pub fn check_skill_md(dir: &str, bytes: &[u8]) -> Result<SkillMd, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8".to_owned())?;
    let md = SkillMd::parse(text)?;
    let last = dir.rsplit('/').next().unwrap_or(dir);
    if md.name() != last {
        return Err(format!(
            "its `name` is `{}`, but its directory is `{last}` (they must be equal)",
            md.name()
        ));
    }
    Ok(md)
}

/// Checks a skills directory given as its files (paths relative to it, `/`-separated, and
/// bytes): plain path segments, each file given once, no `SKILL.md` at the root, every file
/// inside a skill (a directory with a `SKILL.md`), each `SKILL.md` by [`check_skill_md`], and
/// each skill within the extension's limits ([`MAX_FILES`] files, [`MAX_TOTAL_BYTES`] bytes,
/// its nested skills' files counted too). Every problem is reported, in the order of the files.
///
/// ```
/// use mcp_runtime_core::skills::layout;
///
/// let md = b"---\nname: b\n---\n".as_slice();
/// let problems = layout::check(&[("b/SKILL.md", md), ("b/x y.md", b"".as_slice())]).unwrap_err();
/// let reasons: Vec<&str> = problems.iter().map(|p| p.reason.as_str()).collect();
/// assert_eq!(reasons, [
///     "the frontmatter has no `description`",
///     "the path segment `x y.md` is not a plain URI path segment",
/// ]);
/// ```
pub fn check(files: &[(&str, &[u8])]) -> Result<Layout, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut problem = |path: &str, reason: String| {
        problems.push(Problem {
            path: path.to_owned(),
            reason,
        });
    };
    let dirs: Vec<&str> = files
        .iter()
        .filter_map(|(path, _)| path.strip_suffix("/SKILL.md"))
        .collect();
    let mut seen = std::collections::HashSet::with_capacity(files.len());
    let mut totals = BTreeMap::<&str, (usize, u64)>::new();
    let mut layout = Layout::default();
    for &(path, bytes) in files {
        if let Err(reason) = check_path(path) {
            problem(path, reason);
        }
        if !seen.insert(path) {
            problem(path, "the file is given twice".into());
        }
        if path == SKILL_FILE {
            problem(
                path,
                "a SKILL.md at the root of the skills directory has no skill path: put each \
                 skill in a directory named after it"
                    .into(),
            );
        }
        let mut inside = false;
        for dir in dirs.iter().copied() {
            if path.starts_with(dir) && path[dir.len()..].starts_with('/') {
                inside = true;
                let total = totals.entry(dir).or_default();
                total.0 += 1;
                total.1 += bytes.len() as u64;
            }
        }
        if !inside && path != SKILL_FILE {
            problem(
                path,
                "it is in no skill directory (no SKILL.md above it)".into(),
            );
        }
        let Some(dir) = path.strip_suffix("/SKILL.md") else {
            continue;
        };
        match check_skill_md(dir, bytes) {
            Ok(md) => {
                layout.skills.insert(dir.to_owned(), md);
            }
            Err(reason) => problem(path, reason),
        }
    }
    for (dir, (count, bytes)) in totals {
        if count > MAX_FILES || bytes > MAX_TOTAL_BYTES {
            problem(
                &format!("{dir}/SKILL.md"),
                format!(
                    "the skill has {count} files of {bytes} bytes, over the extension's limits \
                     ({MAX_FILES} files, {MAX_TOTAL_BYTES} bytes)"
                ),
            );
        }
    }
    if problems.is_empty() {
        Ok(layout)
    } else {
        Err(problems)
    }
}
