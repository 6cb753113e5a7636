//! The wire types of the skills extension: the `Skill` entry (`SkillEntry`, its files), and the
//! params and results of `skills/list`, `skills/get` and `resources/directory/read`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::discover::{CacheScope, ResultType};
use crate::meta::Meta;
use crate::resources::Resource;

/// One file of a skill, with the digest and size of its bytes (`SkillResource`).
///
/// ```
/// use mcp_runtime_core::skills::SkillFile;
///
/// let f = SkillFile::new("skill://a/SKILL.md", "sha256:00", 3);
/// assert_eq!(serde_json::to_string(&f).unwrap(), r#"{"uri":"skill://a/SKILL.md","digest":"sha256:00","size":3}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SkillFile {
    /// The file's resource URI.
    pub uri: String,
    /// `sha256:` and the lower-case hex digest of its raw bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

impl SkillFile {
    /// A file entry.
    pub fn new(uri: impl Into<String>, digest: impl Into<String>, size: u64) -> Self {
        Self {
            uri: uri.into(),
            digest: digest.into(),
            size,
        }
    }
}

/// A skill's `resources`: every file, or `"dynamic"` for content generated so that no stable
/// digest can be published.
///
/// ```
/// use mcp_runtime_core::skills::SkillFiles;
///
/// assert_eq!(serde_json::to_string(&SkillFiles::Dynamic).unwrap(), r#""dynamic""#);
/// let files: SkillFiles = serde_json::from_str("[]").unwrap();
/// assert_eq!(files, SkillFiles::Listed(vec![]));
/// assert!(serde_json::from_str::<SkillFiles>(r#""static""#).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkillFiles {
    /// Every file of the skill, `SKILL.md` included, each once.
    Listed(Vec<SkillFile>),
    /// `"dynamic"`.
    Dynamic,
}

impl SkillFiles {
    /// The listed files (none for `"dynamic"`).
    ///
    /// ```
    /// assert!(mcp_runtime_core::skills::SkillFiles::Dynamic.files().is_empty());
    /// ```
    pub fn files(&self) -> &[SkillFile] {
        match self {
            Self::Listed(files) => files,
            Self::Dynamic => &[],
        }
    }
}

impl Serialize for SkillFiles {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Listed(files) => files.serialize(s),
            Self::Dynamic => s.serialize_str("dynamic"),
        }
    }
}

impl<'de> Deserialize<'de> for SkillFiles {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Listed(Vec<SkillFile>),
            Word(String),
        }
        match Repr::deserialize(d)? {
            Repr::Listed(files) => Ok(Self::Listed(files)),
            Repr::Word(w) if w == "dynamic" => Ok(Self::Dynamic),
            Repr::Word(w) => Err(serde::de::Error::custom(format!(
                "`resources` is `{w}`, neither a list nor \"dynamic\""
            ))),
        }
    }
}

/// The entry of one skill (`Skill` of the extension), the same in `skills/list` and
/// `skills/get`.
///
/// ```
/// use mcp_runtime_core::skills::{SkillEntry, SkillFiles};
///
/// let entry: SkillEntry = serde_json::from_str(
///     r#"{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"b"},"resources":"dynamic"}"#,
/// ).unwrap();
/// assert_eq!(entry.resources, SkillFiles::Dynamic);
/// assert_eq!(entry.name(), Some("a"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SkillEntry {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// Its `SKILL.md` frontmatter, verbatim.
    pub frontmatter: Map<String, Value>,
    /// Its files.
    pub resources: SkillFiles,
}

impl SkillEntry {
    /// An entry.
    ///
    /// ```
    /// use mcp_runtime_core::skills::{SkillEntry, SkillFiles};
    ///
    /// let e = SkillEntry::new("skill://a/SKILL.md", Default::default(), SkillFiles::Dynamic);
    /// assert_eq!(e.name(), None);
    /// ```
    pub fn new(uri: impl Into<String>, frontmatter: Map<String, Value>, files: SkillFiles) -> Self {
        Self {
            uri: uri.into(),
            frontmatter,
            resources: files,
        }
    }

    /// The frontmatter's `name`.
    pub fn name(&self) -> Option<&str> {
        self.frontmatter.get("name").and_then(Value::as_str)
    }
}

/// The result of `skills/list`: one page of entries, with the cache hints every list has.
///
/// ```
/// use mcp_runtime_core::skills::ListSkillsResult;
///
/// let r = ListSkillsResult::new(vec![]);
/// assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"skills":[]}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListSkillsResult {
    /// The entries.
    pub skills: Vec<SkillEntry>,
    /// The next page's cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// How long the listing stays fresh, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// `complete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ListSkillsResult {
    /// A page of entries, without cursor or hints.
    pub fn new(skills: Vec<SkillEntry>) -> Self {
        Self {
            skills,
            next_cursor: None,
            ttl_ms: None,
            cache_scope: None,
            result_type: None,
            meta: None,
        }
    }
}

/// The params of `skills/get`.
///
/// ```
/// let p: mcp_runtime_core::skills::GetSkillParams =
///     serde_json::from_str(r#"{"uri":"skill://a/SKILL.md"}"#).unwrap();
/// assert_eq!(p.uri, "skill://a/SKILL.md");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GetSkillParams {
    /// The URI of the skill's `SKILL.md`.
    pub uri: String,
}

/// The result of `skills/get`: one entry, with cache hints and no cursor.
///
/// ```
/// use mcp_runtime_core::skills::{GetSkillResult, SkillEntry, SkillFiles};
///
/// let r = GetSkillResult::new(SkillEntry::new("skill://a/SKILL.md", Default::default(), SkillFiles::Dynamic));
/// assert!(serde_json::to_string(&r).unwrap().starts_with(r#"{"skill":{"uri":"#));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetSkillResult {
    /// The entry.
    pub skill: SkillEntry,
    /// How long the entry stays current, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// `complete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl GetSkillResult {
    /// The result for one entry, without hints.
    pub fn new(skill: SkillEntry) -> Self {
        Self {
            skill,
            ttl_ms: None,
            cache_scope: None,
            result_type: None,
            meta: None,
        }
    }
}

/// The params of `resources/directory/read`.
///
/// ```
/// let p: mcp_runtime_core::skills::ReadDirectoryParams =
///     serde_json::from_str(r#"{"uri":"skill://a","cursor":"p1"}"#).unwrap();
/// assert_eq!(p.cursor.as_deref(), Some("p1"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ReadDirectoryParams {
    /// The directory resource's URI (no trailing slash).
    pub uri: String,
    /// The page's cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// The result of `resources/directory/read`: one page of the directory's direct children.
///
/// ```
/// use mcp_runtime_core::skills::ReadDirectoryResult;
///
/// assert_eq!(serde_json::to_string(&ReadDirectoryResult::new(vec![])).unwrap(), r#"{"resources":[]}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReadDirectoryResult {
    /// The children: files with their resource metadata, directories as `inode/directory`.
    pub resources: Vec<Resource>,
    /// The next page's cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// `complete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ReadDirectoryResult {
    /// A page of children, without cursor.
    pub fn new(resources: Vec<Resource>) -> Self {
        Self {
            resources,
            next_cursor: None,
            result_type: None,
            meta: None,
        }
    }
}
