//! Skills whose content is generated: the entry says `"resources": "dynamic"` ("When a skill's
//! content is generated dynamically, such that stable digests cannot be published, the server
//! **MUST** set `resources` to the string `"dynamic"`", skills.mdx, Resources), its `SKILL.md` is
//! given (its frontmatter is the entry's), and each of its other files is made by the skill's
//! function when a client reads it.

use std::borrow::Cow;
use std::sync::Arc;

use mcp_core::skills::{self, SkillEntry, SkillFiles, layout};
use mcp_core::{Resource, ResourceContents};

use super::Generated;
use super::SkillsError;
use super::set::{File, Generate, SkillSet};

/// A skill whose files (but its `SKILL.md`) are generated each time a client reads them, added to
/// a set with [`Skills::with_generated`](super::Skills::with_generated).
///
/// The files are named here, so that `resources/list` and `resources/directory/read` show
/// them; their bytes come from the function, which is given the file's path inside the skill
/// (`reports/latest.md`). Hosts can verify nothing of such a skill (the extension's Security
/// Considerations: it "cannot be content-bound", and hosts "MAY decline to load" it): prefer
/// fixed skills where the content allows.
///
/// ```
/// use mcp_runtime::skills::{GeneratedSkill, Skills};
///
/// let skill = GeneratedSkill::new(
///     "on-call",
///     "---\nname: on-call\ndescription: Who is on call this week\n---\nRead rota.md.\n",
///     |path: String| async move { Ok(format!("{path}: Ann").into_bytes()) },
/// )
/// .file("rota.md");
/// let skills = Skills::default().with_generated(skill).unwrap();
/// let json = serde_json::to_value(&skills.entries()[0]).unwrap();
/// assert_eq!(json["resources"], "dynamic");
/// ```
#[must_use]
pub struct GeneratedSkill {
    path: String,
    skill_md: Vec<u8>,
    files: Vec<String>,
    generate: Generate,
}

impl std::fmt::Debug for GeneratedSkill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeneratedSkill")
            .field("path", &self.path)
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl GeneratedSkill {
    /// The skill at `path` (its `<skill-path>`, whose last segment must be the frontmatter's
    /// `name`), with its `SKILL.md` and the function that makes its other files.
    ///
    /// ```
    /// use mcp_runtime::skills::GeneratedSkill;
    ///
    /// let skill = GeneratedSkill::new(
    ///     "status",
    ///     "---\nname: status\ndescription: The service's status\n---\n",
    ///     |_path: String| async { Ok(b"all green".to_vec()) },
    /// );
    /// assert!(format!("{skill:?}").contains("status"));
    /// ```
    pub fn new<F, Fut>(path: impl Into<String>, skill_md: impl Into<Vec<u8>>, generate: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Generated> + Send + 'static,
    {
        Self {
            path: path.into(),
            skill_md: skill_md.into(),
            files: Vec::new(),
            generate: Arc::new(move |path| Box::pin(generate(path))),
        }
    }

    /// Names one generated file, by its path inside the skill (`/`-separated; its MIME type
    /// from its extension, as for fixed files).
    ///
    /// ```
    /// use mcp_runtime::skills::GeneratedSkill;
    ///
    /// let skill = GeneratedSkill::new("s", "---\nname: s\ndescription: d\n---\n", |_p: String| async {
    ///     Ok(Vec::new())
    /// })
    /// .file("data/today.json");
    /// assert!(format!("{skill:?}").contains("data/today.json"));
    /// ```
    pub fn file(mut self, path: impl Into<String>) -> Self {
        self.files.push(path.into());
        self
    }
}

impl SkillSet {
    /// Adds a generated skill: refused when its path or `SKILL.md` breaks the rules of a fixed
    /// skill, or when it is inside another skill or another skill is inside it (a generated
    /// skill's files could not be listed in the enclosing skill's manifest).
    pub(crate) fn add_generated(&mut self, skill: GeneratedSkill) -> Result<(), SkillsError> {
        let dir = skill.path.trim_end_matches('/');
        let skill_md = format!("{dir}/{}", skills::SKILL_FILE);
        layout::check_path(&skill_md).map_err(problem(&skill_md))?;
        let md = layout::check_skill_md(dir, &skill.skill_md).map_err(problem(&skill_md))?;
        let root = format!("{}{dir}", skills::SCHEME);
        let overlaps = self.entries.iter().any(|e| {
            let other = e.uri.strip_suffix("/SKILL.md").unwrap_or(&e.uri);
            nested(other, &root) || nested(&root, other)
        });
        if overlaps {
            return Err(SkillsError::new(
                &skill_md,
                "a generated skill can neither hold nor be inside another skill",
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for file in std::iter::once(skills::SKILL_FILE).chain(skill.files.iter().map(|f| &**f)) {
            let path = format!("{dir}/{file}");
            layout::check_path(&path).map_err(problem(&path))?;
            if !seen.insert(path.clone()) {
                return Err(SkillsError::new(path, "the file is given twice"));
            }
        }
        if seen.len() > skills::MAX_FILES {
            return Err(SkillsError::new(
                &skill_md,
                format!("the skill has more than {} files", skills::MAX_FILES),
            ));
        }
        // Its SKILL.md, fixed.
        let uri = format!("{}{skill_md}", skills::SCHEME);
        self.add_fixed(&skill_md, Cow::Owned(skill.skill_md), Some(&md.frontmatter));
        // The generated files: named, with no size (nothing is known of their bytes).
        for name in &skill.files {
            let path = format!("{dir}/{name}");
            let file_uri = format!("{}{path}", skills::SCHEME);
            let leaf = path.rsplit('/').next().unwrap_or(&path);
            let mime = skills::mime_type(&path);
            let mut descriptor = Resource::new(file_uri.clone(), leaf);
            descriptor.mime_type = Some(mime.to_owned());
            let generate = Arc::clone(&skill.generate);
            self.add_dirs(&path, &descriptor);
            self.files.insert(
                file_uri.clone(),
                File {
                    contents: ResourceContents::text(file_uri, ""),
                    bytes: Cow::Borrowed(&[]),
                    descriptor,
                    generate: Some((name.clone(), generate)),
                },
            );
        }
        let entry = SkillEntry::new(uri, md.frontmatter, SkillFiles::Dynamic);
        self.insert_entry(entry)
    }
}

/// The refusal of `path` for a reason (of `layout`'s checks).
fn problem(path: &str) -> impl FnOnce(String) -> SkillsError + '_ {
    move |reason| SkillsError::new(path, reason)
}

/// Whether the directory URI `inner` is `outer` or inside it.
fn nested(inner: &str, outer: &str) -> bool {
    inner == outer || (inner.starts_with(outer) && inner[outer.len()..].starts_with('/'))
}
