//! A set of skills built once: the files (bytes, digest, size, resource descriptor, contents as
//! `resources/read` gives them), each skill's entry (also as JSON text), and every directory
//! level with its direct children.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use base64::Engine;
use mcp_core::skills::{self, SkillEntry, SkillFile, SkillFiles};
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

/// A file's bytes as `resources/read` answers with them: text for a text MIME type and UTF-8
/// bytes, a blob otherwise.
pub(crate) fn contents(uri: &str, mime: &str, bytes: &[u8]) -> ResourceContents {
    match std::str::from_utf8(bytes) {
        Ok(text) if skills::is_text(mime) => ResourceContents::text(uri, text),
        _ => ResourceContents::blob(uri, base64::engine::general_purpose::STANDARD.encode(bytes)),
    }
    .with_mime_type(mime)
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

impl SkillSet {
    pub(crate) fn build(sources: Vec<Source>) -> Result<Self, SkillsError> {
        let mut set = SkillSet::default();
        let listed: Vec<(&str, &[u8])> = sources.iter().map(|s| (&*s.0, &*s.1)).collect();
        // The first problem refuses the set (`skills!` reports them all while compiling).
        // (`check` reports at least one problem when it refuses.)
        let layout = skills::layout::check(&listed).map_err(|problems| {
            let first = problems.into_iter().next();
            first.map_or_else(|| SkillsError::new("", "refused"), SkillsError::from)
        })?;
        let skill_dirs: BTreeMap<String, serde_json::Map<String, serde_json::Value>> = layout
            .skills
            .into_iter()
            .map(|(dir, md)| (dir, md.frontmatter))
            .collect();
        let by_path: BTreeMap<&str, &Source> = sources.iter().map(|s| (&*s.0, s)).collect();
        for (path, source) in &by_path {
            let frontmatter = path
                .strip_suffix("/SKILL.md")
                .and_then(|d| skill_dirs.get(d));
            set.add_fixed(path, source.1.clone(), frontmatter);
        }
        for (dir, frontmatter) in skill_dirs {
            set.add_skill(&dir, frontmatter, &by_path)?;
        }
        Ok(set)
    }

    /// Adds a fixed file at `path` (a `SKILL.md` with its skill's frontmatter: the resource's
    /// name and description are the skill's).
    pub(super) fn add_fixed(
        &mut self,
        path: &str,
        bytes: Cow<'static, [u8]>,
        frontmatter: Option<&serde_json::Map<String, serde_json::Value>>,
    ) {
        let uri = format!("{}{path}", skills::SCHEME);
        let mime = skills::mime_type(path);
        let mut descriptor = Resource::new(uri.clone(), path.rsplit('/').next().unwrap_or(path));
        if let Some(fm) = frontmatter {
            let field = |k: &str| fm.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            descriptor.name = field("name").unwrap_or_default();
            descriptor.description = field("description");
        }
        descriptor.mime_type = Some(mime.to_owned());
        descriptor.size = Some(bytes.len() as u64);
        let contents = contents(&uri, mime, &bytes);
        self.add_dirs(path, &descriptor);
        let generate = None;
        let file = File {
            bytes,
            descriptor,
            contents,
            generate,
        };
        self.files.insert(uri, file);
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
        for (path, source) in by_path.range(prefix.as_str()..) {
            if !path.starts_with(&prefix) {
                break;
            }
            if **path == skill_md {
                continue;
            }
            files.push(SkillFile::new(
                format!("{}{path}", skills::SCHEME),
                &*source.2,
                source.1.len() as u64,
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
