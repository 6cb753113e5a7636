//! [`Skills::from_dir`]: a skills directory read at start-up.

use std::path::{Path, PathBuf};

use super::{Skills, SkillsError};

/// Most files read from a skills directory (every skill's limit is 512; this bounds the walk).
const MAX_FILES: usize = 65_536;

impl Skills {
    /// Reads every file under `root` (each directory with a `SKILL.md` a skill, its path under
    /// `root` the skill's path), checks them as [`from_files`](Self::from_files) does and hashes
    /// each once. Files and directories whose names begin with `.` are skipped; symbolic links
    /// are refused (a skill is what is in its directory). A server given skills that fail
    /// refuses to start: call this before building it.
    ///
    /// ```
    /// use mcp_runtime::skills::Skills;
    ///
    /// let root = std::env::temp_dir().join(format!("skills-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(root.join("notes")).unwrap();
    /// std::fs::write(root.join("notes/SKILL.md"), "---\nname: notes\ndescription: Take notes\n---\n").unwrap();
    /// let skills = Skills::from_dir(&root).unwrap();
    /// assert_eq!(skills.entries()[0].uri, "skill://notes/SKILL.md");
    /// std::fs::write(root.join("notes/SKILL.md"), "---\nname: other\ndescription: x\n---\n").unwrap();
    /// assert!(Skills::from_dir(&root).is_err());
    /// std::fs::remove_dir_all(&root).unwrap();
    /// ```
    pub fn from_dir(root: impl AsRef<Path>) -> Result<Skills, SkillsError> {
        let root = root.as_ref();
        let mut files = Vec::new();
        let mut pending: Vec<(PathBuf, String)> = vec![(root.to_path_buf(), String::new())];
        let fail = |path: &str, e: std::io::Error| {
            SkillsError::new(
                if path.is_empty() {
                    root.display().to_string()
                } else {
                    path.to_owned()
                },
                format!("cannot be read: {e}"),
            )
        };
        while let Some((dir, rel)) = pending.pop() {
            let mut entries: Vec<_> = std::fs::read_dir(&dir)
                .map_err(|e| fail(&rel, e))?
                .collect::<Result<_, _>>()
                .map_err(|e| fail(&rel, e))?;
            entries.sort_by_key(std::fs::DirEntry::file_name);
            for entry in entries {
                let name = entry.file_name();
                let name = name.to_str().ok_or_else(|| {
                    SkillsError::new(
                        format!("{rel}/{}", name.to_string_lossy()),
                        "the name is not UTF-8",
                    )
                })?;
                if name.starts_with('.') {
                    continue;
                }
                let path = if rel.is_empty() {
                    name.to_owned()
                } else {
                    format!("{rel}/{name}")
                };
                let kind = entry.file_type().map_err(|e| fail(&path, e))?;
                if kind.is_symlink() {
                    return Err(SkillsError::new(path, "symbolic links are not served"));
                } else if kind.is_dir() {
                    pending.push((entry.path(), path));
                } else {
                    if files.len() == MAX_FILES {
                        return Err(SkillsError::new(
                            path,
                            format!("more than {MAX_FILES} files"),
                        ));
                    }
                    let bytes = std::fs::read(entry.path()).map_err(|e| fail(&path, e))?;
                    files.push((path, bytes));
                }
            }
        }
        Skills::from_files(files)
    }
}
