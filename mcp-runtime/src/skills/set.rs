//! A set of skills built once: the files (bytes, digest, size, resource descriptor, contents as
//! `resources/read` gives them), each skill's entry (also as JSON text), and every directory
//! level with its direct children.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use base64::Engine;
use mcp_core::skills::{self, SkillEntry, SkillFile, SkillFiles, SkillMd};
use mcp_core::{Resource, ResourceContents};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use super::SkillsError;

/// One file as given: its path under the skills directory, bytes and digest.
pub(crate) type Source = (Cow<'static, str>, Cow<'static, [u8]>, Cow<'static, str>);

/// What a generated file's function returns: the file's bytes, or why they could not be made
/// (logged by the server; the client gets an internal error without the reason).
///
/// ```
/// let made: mcp_runtime::skills::Generated = Ok(b"# Today".to_vec());
/// assert_eq!(made.unwrap().len(), 7);
/// ```
pub type Generated = Result<Vec<u8>, Box<dyn std::error::Error + Send + Sync>>;

/// The function of a generated skill: given a file's path inside the skill, its bytes.
pub(crate) type Generate =
    std::sync::Arc<dyn Fn(String) -> crate::future::BoxFuture<'static, Generated> + Send + Sync>;

/// One served file.
#[derive(Clone)]
pub(crate) struct File {
    pub(crate) bytes: Cow<'static, [u8]>,
    /// What `resources/list` and `resources/directory/read` show of it.
    pub(crate) descriptor: Resource,
    /// What `resources/read` answers with (for a fixed file).
    pub(crate) contents: ResourceContents,
    /// A generated file's path inside its skill and the skill's function that makes it.
    pub(crate) generate: Option<(String, Generate)>,
}

/// Every skill and file, indexed.
#[derive(Default, Clone)]
pub(crate) struct SkillSet {
    /// The entries, by URI.
    pub(crate) entries: Vec<SkillEntry>,
    /// Each entry as JSON text (what `skills/list` and `skills/get` send).
    pub(crate) entry_json: Vec<Box<RawValue>>,
    /// `SKILL.md` URI → index of its entry.
    pub(crate) skills: HashMap<String, usize>,
    /// The files, by URI.
    pub(crate) files: BTreeMap<String, File>,
    /// Directory URI (no trailing slash) → its direct children, by URI.
    pub(crate) dirs: BTreeMap<String, Vec<Resource>>,
}

/// `sha256:` and the hex digest of `bytes`.
pub(crate) fn digest(bytes: &[u8]) -> String {
    skills::digest_text(&Sha256::digest(bytes).into())
}

/// Whether a path segment is served as it is in a URI: unreserved characters and the
/// sub-delimiters that need no escaping in a path (no `%`, no space, no `?`, `#` or `/`).
fn plain_segment(segment: &str) -> bool {
    !segment.is_empty()
        && segment != "."
        && segment != ".."
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=@".contains(&b))
}

/// Refuses a path with a segment that is not a plain URI path segment.
pub(crate) fn plain_path(path: &str) -> Result<(), SkillsError> {
    match path.split('/').find(|s| !plain_segment(s)) {
        Some(bad) => Err(SkillsError::new(
            path,
            format!("the path segment `{bad}` is not a plain URI path segment"),
        )),
        None => Ok(()),
    }
}

impl SkillSet {
    pub(crate) fn build(sources: Vec<Source>) -> Result<Self, SkillsError> {
        let mut set = SkillSet::default();
        // Skill directories (paths) and the frontmatter of each.
        let mut skill_dirs: BTreeMap<String, serde_json::Map<String, serde_json::Value>> =
            BTreeMap::new();
        let mut by_path: BTreeMap<&str, &Source> = BTreeMap::new();
        for source in &sources {
            let path = &*source.0;
            plain_path(path)?;
            if by_path.insert(path, source).is_some() {
                return Err(SkillsError::new(path, "the file is given twice"));
            }
            if path == skills::SKILL_FILE {
                return Err(SkillsError::new(
                    path,
                    "a SKILL.md at the root of the skills directory has no skill path: put each \
                     skill in a directory named after it",
                ));
            }
            let Some(dir) = path.strip_suffix("/SKILL.md") else {
                continue;
            };
            let text = std::str::from_utf8(&source.1)
                .map_err(|_| SkillsError::new(path, "it is not UTF-8"))?;
            let md = SkillMd::parse(text).map_err(|reason| SkillsError::new(path, reason))?;
            let last = dir.rsplit('/').next().unwrap_or(dir);
            if md.name() != last {
                return Err(SkillsError::new(
                    path,
                    format!(
                        "its `name` is `{}`, but its directory is `{last}` (they must be equal)",
                        md.name()
                    ),
                ));
            }
            skill_dirs.insert(dir.to_owned(), md.frontmatter);
        }
        for (path, source) in &by_path {
            let inside = skill_dirs
                .keys()
                .any(|dir| path.starts_with(dir.as_str()) && path[dir.len()..].starts_with('/'));
            if !inside {
                return Err(SkillsError::new(
                    *path,
                    "it is in no skill directory (no SKILL.md above it)",
                ));
            }
            let uri = format!("{}{path}", skills::SCHEME);
            let (name, mime) = (
                path.rsplit('/').next().unwrap_or(path),
                skills::mime_type(path),
            );
            let mut descriptor = Resource::new(uri.clone(), name);
            if let Some(fm) = path
                .strip_suffix("/SKILL.md")
                .and_then(|d| skill_dirs.get(d))
            {
                let field = |k: &str| fm.get(k).and_then(|v| v.as_str()).map(str::to_owned);
                descriptor.name = field("name").unwrap_or_default();
                descriptor.description = field("description");
            }
            descriptor.mime_type = Some(mime.to_owned());
            descriptor.size = Some(source.1.len() as u64);
            let contents = match std::str::from_utf8(&source.1) {
                Ok(text) if skills::is_text(mime) => ResourceContents::text(uri.clone(), text),
                _ => ResourceContents::blob(
                    uri.clone(),
                    base64::engine::general_purpose::STANDARD.encode(&source.1),
                ),
            }
            .with_mime_type(mime);
            set.add_dirs(path, &descriptor);
            set.files.insert(
                uri,
                File {
                    bytes: source.1.clone(),
                    descriptor,
                    contents,
                    generate: None,
                },
            );
        }
        for (dir, frontmatter) in skill_dirs {
            set.add_skill(&dir, frontmatter, &by_path)?;
        }
        Ok(set)
    }

    /// Records `descriptor` as a child of its directory, and each directory as a child of its
    /// parent, up to the first segment.
    pub(super) fn add_dirs(&mut self, path: &str, descriptor: &Resource) {
        let mut child = descriptor.clone();
        let mut at = path;
        while let Some((parent, _)) = at.rsplit_once('/') {
            let uri = format!("{}{parent}", skills::SCHEME);
            let children = self.dirs.entry(uri.clone()).or_default();
            let known = children.iter().any(|c| c.uri == child.uri);
            if !known {
                let pos = children.partition_point(|c| c.uri < child.uri);
                children.insert(pos, child);
            }
            let name = parent.rsplit('/').next().unwrap_or(parent);
            child = Resource::new(uri, name);
            child.mime_type = Some(skills::DIRECTORY_MIME_TYPE.to_owned());
            at = parent;
        }
    }

    fn add_skill(
        &mut self,
        dir: &str,
        frontmatter: serde_json::Map<String, serde_json::Value>,
        by_path: &BTreeMap<&str, &Source>,
    ) -> Result<(), SkillsError> {
        let skill_md = format!("{dir}/SKILL.md");
        let mut files = vec![SkillFile::new(
            format!("{}{skill_md}", skills::SCHEME),
            &*by_path[skill_md.as_str()].2,
            by_path[skill_md.as_str()].1.len() as u64,
        )];
        let prefix = format!("{dir}/");
        let mut total = files[0].size;
        for (path, source) in by_path.range(prefix.as_str()..) {
            if !path.starts_with(&prefix) {
                break;
            }
            if **path == skill_md {
                continue;
            }
            total += source.1.len() as u64;
            files.push(SkillFile::new(
                format!("{}{path}", skills::SCHEME),
                &*source.2,
                source.1.len() as u64,
            ));
        }
        if files.len() > skills::MAX_FILES || total > skills::MAX_TOTAL_BYTES {
            return Err(SkillsError::new(
                skill_md,
                format!(
                    "the skill has {} files of {total} bytes, over the extension's limits ({} \
                     files, {} bytes)",
                    files.len(),
                    skills::MAX_FILES,
                    skills::MAX_TOTAL_BYTES
                ),
            ));
        }
        let entry = SkillEntry::new(files[0].uri.clone(), frontmatter, SkillFiles::Listed(files));
        self.insert_entry(entry)
    }

    /// Adds an entry (and its JSON text), keeping the entries sorted by URI.
    pub(super) fn insert_entry(&mut self, entry: SkillEntry) -> Result<(), SkillsError> {
        let json = serde_json::value::to_raw_value(&entry)
            .map_err(|e| SkillsError::new(&entry.uri, e.to_string()))?;
        // Directories sort before their contents, so entries stay in URI order of their
        // directories; keep them sorted by URI.
        let pos = self.entries.partition_point(|e| e.uri < entry.uri);
        for index in self.skills.values_mut() {
            if *index >= pos {
                *index += 1;
            }
        }
        self.skills.insert(entry.uri.clone(), pos);
        self.entries.insert(pos, entry);
        self.entry_json.insert(pos, json);
        Ok(())
    }

    /// A served file.
    pub(crate) fn file(&self, uri: &str) -> Option<&File> {
        self.files.get(uri)
    }

    /// The index of the skill whose `SKILL.md` is at `uri`.
    pub(crate) fn skill(&self, uri: &str) -> Option<usize> {
        self.skills.get(uri).copied()
    }

    /// Every file's descriptor, by URI (what `resources/list` adds).
    pub(crate) fn descriptors(&self) -> impl Iterator<Item = &Resource> {
        self.files.values().map(|f| &f.descriptor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(files: &[(&str, &str)]) -> Result<SkillSet, SkillsError> {
        SkillSet::build(
            files
                .iter()
                .map(|(p, t)| {
                    let bytes = t.as_bytes().to_vec();
                    let d = digest(&bytes);
                    (Cow::Owned(p.to_string()), Cow::Owned(bytes), Cow::Owned(d))
                })
                .collect(),
        )
    }

    const MD: &str = "---\nname: b\ndescription: d\n---\n";

    #[test]
    fn directories_list_their_direct_children() {
        let nested = "---\nname: c\ndescription: n\n---\n";
        let set = build(&[
            ("a/b/SKILL.md", MD),
            ("a/b/t/x.md", "x"),
            ("a/b/c/SKILL.md", nested),
        ])
        .unwrap();
        let names = |uri: &str| -> Vec<(String, Option<String>)> {
            set.dirs[uri]
                .iter()
                .map(|r| (r.uri.clone(), r.mime_type.clone()))
                .collect()
        };
        let dir = Some("inode/directory".to_owned());
        assert_eq!(names("skill://a"), [("skill://a/b".into(), dir.clone())]);
        assert_eq!(
            names("skill://a/b"),
            [
                ("skill://a/b/SKILL.md".into(), Some("text/markdown".into())),
                ("skill://a/b/c".into(), dir.clone()),
                ("skill://a/b/t".into(), dir),
            ]
        );
        // The nested skill's files are the enclosing skill's too.
        let outer = &set.entries[set.skill("skill://a/b/SKILL.md").unwrap()];
        assert_eq!(outer.resources.files().len(), 3);
        let inner = &set.entries[set.skill("skill://a/b/c/SKILL.md").unwrap()];
        assert_eq!(inner.resources.files().len(), 1);
        assert_eq!(set.entries[0].uri, "skill://a/b/SKILL.md");
    }

    #[test]
    fn refusals() {
        let err = |files: &[(&str, &str)]| build(files).err().unwrap().to_string();
        assert_eq!(
            err(&[("a b/SKILL.md", MD)]),
            "skill file a b/SKILL.md: the path segment `a b` is not a plain URI path segment"
        );
        assert_eq!(
            err(&[("b/SKILL.md", "---\nname: b\n---\n")]),
            "skill file b/SKILL.md: the frontmatter has no `description`"
        );
        assert!(err(&[("SKILL.md", MD)]).contains("has no skill path"));
    }
}
