//! Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640): directories of files, each
//! with a `SKILL.md`, served to hosts that load skills from MCP servers.
//!
//! A [`Skills`] value is a set of skills with all their files, checked and hashed once when it is
//! made: at compile time with [`skills!`](crate::skills!) (the directory embedded in the binary),
//! or at start-up with [`Skills::from_dir`]. Given to [`ServerBuilder::skills`](crate::ServerBuilder::skills),
//! the server declares the extension (with `directoryRead`) and answers `skills/list`,
//! `skills/get` and `resources/directory/read`; every file is also an ordinary resource
//! (`skill://<skill-path>/<file-path>`) of `resources/list` and `resources/read`, in both eras.
//!
//! ```
//! use mcp_runtime::skills::Skills;
//!
//! let skills = Skills::from_files([(
//!     "git-workflow/SKILL.md",
//!     b"---\nname: git-workflow\ndescription: Branch and commit the team's way\n---\n# Git\n".to_vec(),
//! )])
//! .unwrap();
//! assert_eq!(skills.entries()[0].uri, "skill://git-workflow/SKILL.md");
//! ```

mod dir;
mod generated;
mod served;
mod set;

use std::borrow::Cow;
use std::sync::Arc;

use mcp_core::skills::SkillEntry;

pub use generated::GeneratedSkill;
pub(crate) use served::{DirectoryError, Served};
pub use set::Generated;
pub(crate) use set::SkillSet;
pub(crate) use set::contents;
pub(crate) use set::{File, Generate};

/// Why a set of skills was refused: the file (relative to the skills directory) and the rule.
///
/// ```
/// use mcp_runtime::skills::Skills;
///
/// let err = Skills::from_files([("pdf/SKILL.md", b"---\nname: forms\ndescription: d\n---\n".to_vec())])
///     .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "skill file pdf/SKILL.md: its `name` is `forms`, but its directory is `pdf` (they must be equal)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("skill file {path}: {reason}")]
#[non_exhaustive]
pub struct SkillsError {
    /// The file, relative to the skills directory (`/`-separated).
    pub path: String,
    /// What is wrong.
    pub reason: String,
}

impl From<mcp_core::skills::layout::Problem> for SkillsError {
    fn from(p: mcp_core::skills::layout::Problem) -> Self {
        Self::new(p.path, p.reason)
    }
}

impl SkillsError {
    pub(crate) fn new(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

/// A set of skills with their files, their digests and sizes computed once, when it was made;
/// cheap to clone (shared).
///
/// Each directory with a `SKILL.md` is a skill; its path under the skills directory is its
/// `<skill-path>` (`acme/billing/refunds`), whose last segment must be the `name` of its
/// frontmatter. A skill inside another one is a skill of its own too, and its files are files
/// of the enclosing skill as well (the extension's nested skills).
///
/// ```
/// use mcp_runtime::skills::Skills;
///
/// let skills = Skills::from_files([
///     ("acme/refunds/SKILL.md", b"---\nname: refunds\ndescription: Refund per policy\n---\n".to_vec()),
///     ("acme/refunds/examples/email.md", b"Dear customer".to_vec()),
/// ])
/// .unwrap();
/// let entry = &skills.entries()[0];
/// assert_eq!(entry.uri, "skill://acme/refunds/SKILL.md");
/// assert_eq!(entry.resources.files()[1].uri, "skill://acme/refunds/examples/email.md");
/// assert_eq!(entry.resources.files()[1].size, 13);
/// ```
#[derive(Clone)]
pub struct Skills {
    pub(crate) set: Arc<SkillSet>,
    /// Why static data was refused (reported by `ServerBuilder::build`; `skills!` checks the
    /// same rules while compiling, so it does not happen).
    pub(crate) refused: Option<SkillsError>,
}

impl std::fmt::Debug for Skills {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Skills")
            .field("skills", &self.set.skills.len())
            .field("files", &self.set.files.len())
            .finish()
    }
}

impl Skills {
    /// Skills from files given by their paths relative to the skills directory (`/`-separated)
    /// and their bytes; each file is hashed here. Refused: a `SKILL.md` whose frontmatter lacks
    /// `name` or `description` or breaks the Agent Skills naming rules, a `name` other than its
    /// directory's, a file outside every skill, a path segment that is not a plain URI segment,
    /// a skill over the extension's limits (512 files, 16 MiB).
    ///
    /// ```
    /// use mcp_runtime::skills::Skills;
    ///
    /// let err = Skills::from_files([("notes.md", b"x".to_vec())]).unwrap_err();
    /// assert_eq!(err.reason, "it is in no skill directory (no SKILL.md above it)");
    /// ```
    pub fn from_files<P, B>(files: impl IntoIterator<Item = (P, B)>) -> Result<Self, SkillsError>
    where
        P: Into<String>,
        B: Into<Vec<u8>>,
    {
        let files = files
            .into_iter()
            .map(|(path, bytes)| {
                let bytes = bytes.into();
                let digest = set::digest(&bytes);
                (
                    Cow::Owned(path.into()),
                    Cow::Owned(bytes),
                    Cow::Owned(digest),
                )
            })
            .collect();
        SkillSet::build(files).map(Self::from_set)
    }

    /// What [`skills!`](crate::skills!) expands to: files embedded in the binary with the digests
    /// computed at compile time (nothing is hashed at start-up). Data that breaks a rule makes
    /// no skills, and [`ServerBuilder::build`](crate::ServerBuilder::build) reports why.
    #[doc(hidden)]
    pub fn from_static(files: &'static [(&'static str, &'static [u8], &'static str)]) -> Self {
        let files = files
            .iter()
            .map(|&(path, bytes, digest)| {
                (
                    Cow::Borrowed(path),
                    Cow::Borrowed(bytes),
                    Cow::Borrowed(digest),
                )
            })
            .collect();
        SkillSet::build(files).map_or_else(
            |e| Self {
                set: Arc::default(),
                refused: Some(e),
            },
            Self::from_set,
        )
    }

    fn from_set(set: SkillSet) -> Self {
        Self {
            set: Arc::new(set),
            refused: None,
        }
    }

    /// Every skill's entry, in the order of their URIs (what `skills/list` pages through).
    ///
    /// ```
    /// assert!(mcp_runtime::skills::Skills::default().entries().is_empty());
    /// ```
    pub fn entries(&self) -> &[SkillEntry] {
        &self.set.entries
    }

    /// The bytes of a fixed skill file by its URI (`None` for a generated one).
    ///
    /// ```
    /// use mcp_runtime::skills::Skills;
    ///
    /// let skills = Skills::from_files([("a/SKILL.md", b"---\nname: a\ndescription: b\n---\n".to_vec())]).unwrap();
    /// assert_eq!(skills.file("skill://a/SKILL.md").unwrap().len(), 31);
    /// assert!(skills.file("skill://a/other.md").is_none());
    /// ```
    pub fn file(&self, uri: &str) -> Option<&[u8]> {
        self.set
            .file(uri)
            .filter(|f| f.generate.is_none())
            .map(|f| &*f.bytes)
    }

    /// This set with a skill whose files are generated when read (its entry's `resources` is
    /// `"dynamic"`); refused as [`GeneratedSkill`] says.
    ///
    /// ```
    /// use mcp_runtime::skills::{GeneratedSkill, Skills};
    ///
    /// let md = "---\nname: rota\ndescription: Who is on call\n---\n";
    /// let make = |_path: String| async { Ok(b"Ann".to_vec()) };
    /// let skills = Skills::default().with_generated(GeneratedSkill::new("rota", md, make)).unwrap();
    /// assert_eq!(skills.entries()[0].uri, "skill://rota/SKILL.md");
    /// let again = skills.with_generated(GeneratedSkill::new("rota/inner", md, make)).unwrap_err();
    /// assert_eq!(again.reason, "its `name` is `rota`, but its directory is `inner` (they must be equal)");
    /// ```
    pub fn with_generated(self, skill: GeneratedSkill) -> Result<Self, SkillsError> {
        if let Some(refused) = self.refused {
            return Err(refused);
        }
        let mut set = Arc::unwrap_or_clone(self.set);
        set.add_generated(skill)?;
        Ok(Self::from_set(set))
    }

    /// Whether there is no skill.
    ///
    /// ```
    /// assert!(mcp_runtime::skills::Skills::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.set.entries.is_empty()
    }
}

impl Default for Skills {
    /// No skill.
    fn default() -> Self {
        Self::from_set(SkillSet::default())
    }
}

/// Declares the extension, with `directoryRead` (the capabilities' `extensions` are sent to
/// stateless requests only: `ServerCapabilities::for_version`).
pub(crate) fn advertise(caps: &mut mcp_core::ServerCapabilities) {
    caps.extensions
        .get_or_insert_with(mcp_core::Meta::new)
        .insert(
            mcp_core::skills::EXTENSION.to_owned(),
            serde_json::json!({ "directoryRead": true }),
        );
}
