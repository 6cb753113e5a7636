//! The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640, against 2026-07-28): the
//! rules of a `SKILL.md` (its YAML frontmatter, the Agent Skills naming rules), and the wire
//! types of `skills/list`, `skills/get` and `resources/directory/read`.
//!
//! The server (the runtime's `skills` module and the `skills!` macro) and the client (its
//! verification of what it reads) apply the same rules from here.
//!
//! ```
//! use mcp_runtime_core::skills::{self, SkillMd};
//!
//! let md = SkillMd::parse("---\nname: pdf-processing\ndescription: Fill PDF forms\n---\n# PDF\n")
//!     .unwrap();
//! assert_eq!(md.name(), "pdf-processing");
//! assert_eq!(md.description(), "Fill PDF forms");
//! assert!(skills::check_name("PDF").is_err());
//! ```

pub mod layout;
mod wire;
mod yaml;

pub use wire::{
    GetSkillParams, GetSkillResult, ListSkillsResult, ReadDirectoryParams, ReadDirectoryResult,
    SkillEntry, SkillFile, SkillFiles,
};

use serde_json::{Map, Value};

/// The extension's identifier, under `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";
/// The file every skill has at its root.
pub const SKILL_FILE: &str = "SKILL.md";
/// The MIME type of a `SKILL.md`.
pub const SKILL_MIME_TYPE: &str = "text/markdown";
/// The MIME type of a directory resource.
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";
/// The URI scheme skills are served under.
pub const SCHEME: &str = "skill://";
/// Most files a skill should have (its `resources`, `SKILL.md` included).
pub const MAX_FILES: usize = 512;
/// Most bytes a skill's files should add up to (16 MiB).
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
/// Longest skill name (Agent Skills: 1 to 64 characters).
pub const MAX_NAME_LEN: usize = 64;
/// Longest description (Agent Skills: 1 to 1024 characters).
pub const MAX_DESCRIPTION_LEN: usize = 1024;

/// Checks a skill name by the Agent Skills rules: 1 to 64 of lowercase letters, digits and
/// hyphens, not starting or ending with a hyphen, no two hyphens in a row.
///
/// ```
/// use mcp_runtime_core::skills::check_name;
///
/// assert!(check_name("git-workflow").is_ok());
/// assert_eq!(
///     check_name("-git").unwrap_err(),
///     "skill name `-git` starts or ends with a hyphen"
/// );
/// ```
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.chars().count() > MAX_NAME_LEN {
        return Err(format!(
            "skill name `{name}` is not 1 to {MAX_NAME_LEN} characters long"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Err(format!(
            "skill name `{name}` has `{c}`: only lowercase letters, digits and hyphens are allowed"
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err(format!("skill name `{name}` starts or ends with a hyphen"));
    }
    if name.contains("--") {
        return Err(format!("skill name `{name}` has two hyphens in a row"));
    }
    Ok(())
}

/// A `SKILL.md` read: its frontmatter as JSON (every field the author wrote) and where its body
/// starts; `name` and `description` are checked to be there and to follow the Agent Skills rules.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SkillMd {
    /// The frontmatter, verbatim as a JSON object.
    pub frontmatter: Map<String, Value>,
    /// The byte offset of the body (after the closing `---` line).
    pub body_start: usize,
}

impl SkillMd {
    /// Reads and checks a `SKILL.md`: it must begin with a `---` line (a byte order mark
    /// before it is allowed), its frontmatter end at the next `---` line, and hold a `name`
    /// that passes [`check_name`] and a non-empty `description` of at most 1024 characters.
    ///
    /// ```
    /// use mcp_runtime_core::skills::SkillMd;
    ///
    /// let err = SkillMd::parse("---\nname: a\n---\n").unwrap_err();
    /// assert_eq!(err, "the frontmatter has no `description`");
    /// ```
    pub fn parse(text: &str) -> Result<Self, String> {
        let (frontmatter, body_start) = frontmatter(text)?;
        let md = SkillMd {
            frontmatter,
            body_start,
        };
        let name = md
            .field("name")
            .ok_or("the frontmatter has no `name`")?
            .to_owned();
        check_name(&name)?;
        let description = md
            .field("description")
            .ok_or("the frontmatter has no `description`")?;
        if description.trim().is_empty() {
            return Err("the frontmatter's `description` is empty".into());
        }
        if description.chars().count() > MAX_DESCRIPTION_LEN {
            return Err(format!(
                "the frontmatter's `description` is over {MAX_DESCRIPTION_LEN} characters"
            ));
        }
        Ok(md)
    }

    fn field(&self, key: &str) -> Option<&str> {
        self.frontmatter.get(key).and_then(Value::as_str)
    }

    /// The skill's `name`.
    ///
    /// ```
    /// # use mcp_runtime_core::skills::SkillMd;
    /// let md = SkillMd::parse("---\nname: a\ndescription: b\n---\n").unwrap();
    /// assert_eq!(md.name(), "a");
    /// ```
    pub fn name(&self) -> &str {
        self.field("name").unwrap_or_default()
    }

    /// The skill's `description`.
    ///
    /// ```
    /// # use mcp_runtime_core::skills::SkillMd;
    /// let md = SkillMd::parse("---\nname: a\ndescription: b\n---\n").unwrap();
    /// assert_eq!(md.description(), "b");
    /// ```
    pub fn description(&self) -> &str {
        self.field("description").unwrap_or_default()
    }
}

/// The YAML frontmatter of a markdown file as a JSON object, and the byte offset of the body:
/// the block between a first `---` line and the next `---` line, read by the YAML subset that
/// skills use (block maps and lists, quoted and plain scalars, block scalars, one-line flow
/// collections); anything else YAML has is refused rather than misread. Checks no field.
///
/// ```
/// use mcp_runtime_core::skills::frontmatter;
/// use serde_json::json;
///
/// let (fm, body) = frontmatter("---\nname: a\nmetadata:\n  version: \"1\"\n---\nbody").unwrap();
/// assert_eq!(serde_json::Value::Object(fm), json!({"name": "a", "metadata": {"version": "1"}}));
/// assert_eq!(body, 41);
/// assert_eq!(frontmatter("# no frontmatter").unwrap_err(), "the file does not begin with a `---` line");
/// ```
pub fn frontmatter(text: &str) -> Result<(Map<String, Value>, usize), String> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[start..];
    let open = ["---\n", "---\r\n"]
        .into_iter()
        .find(|open| rest.starts_with(open))
        .ok_or("the file does not begin with a `---` line")?;
    let block_start = start + open.len();
    let mut at = block_start;
    for line in text[block_start..].split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_end_matches([' ', '\t']) == "---" {
            let map = yaml::parse_map(&text[block_start..at], 2)?;
            return Ok((map, at + line.len()));
        }
        at += line.len();
    }
    Err("the frontmatter has no closing `---` line".into())
}

/// A MIME type for a skill file, by its extension (`text/markdown` for `.md`,
/// `application/octet-stream` when unknown).
///
/// ```
/// use mcp_runtime_core::skills::mime_type;
///
/// assert_eq!(mime_type("references/FORMS.md"), "text/markdown");
/// assert_eq!(mime_type("scripts/extract.py"), "text/x-python");
/// assert_eq!(mime_type("logo.bin"), "application/octet-stream");
/// ```
pub fn mime_type(path: &str) -> &'static str {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" => "text/plain",
        "py" => "text/x-python",
        "sh" => "text/x-shellscript",
        "js" | "mjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "rs" => "text/x-rust",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// Whether a MIME type is served as `text` (else as a base64 `blob`).
///
/// ```
/// assert!(mcp_runtime_core::skills::is_text("text/markdown"));
/// assert!(!mcp_runtime_core::skills::is_text("image/png"));
/// ```
pub fn is_text(mime_type: &str) -> bool {
    mime_type.starts_with("text/")
        || matches!(
            mime_type,
            "application/json"
                | "application/yaml"
                | "application/toml"
                | "application/xml"
                | "image/svg+xml"
        )
}

/// `sha256:` and the 64 lower-case hex digits of a digest.
///
/// ```
/// let d = mcp_runtime_core::skills::digest_text(&[0xab; 32]);
/// assert_eq!(d.len(), 71);
/// assert!(d.starts_with("sha256:abab"));
/// ```
pub fn digest_text(sha256: &[u8; 32]) -> String {
    let mut out = String::with_capacity(71);
    out.push_str("sha256:");
    for b in sha256 {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn name_rules() {
        for good in ["a", "pdf-processing", "v2", &"a".repeat(64)] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        let cases = [
            ("", "skill name `` is not 1 to 64 characters long"),
            (
                "Pdf",
                "skill name `Pdf` has `P`: only lowercase letters, digits and hyphens are allowed",
            ),
            (
                "a_b",
                "skill name `a_b` has `_`: only lowercase letters, digits and hyphens are allowed",
            ),
            ("a-", "skill name `a-` starts or ends with a hyphen"),
            ("a--b", "skill name `a--b` has two hyphens in a row"),
        ];
        for (name, message) in cases {
            assert_eq!(check_name(name).unwrap_err(), message);
        }
        assert!(check_name(&"a".repeat(65)).is_err());
    }

    #[test]
    fn skill_md_requires_name_and_description() {
        let md = SkillMd::parse(
            "\u{feff}---\r\nname: a\r\ndescription: b c\r\nlicense: MIT\r\n---\r\nbody",
        )
        .unwrap();
        assert_eq!(
            Value::Object(md.frontmatter.clone()),
            json!({"name": "a", "description": "b c", "license": "MIT"})
        );
        assert_eq!(
            &"\u{feff}---\r\nname: a\r\ndescription: b c\r\nlicense: MIT\r\n---\r\nbody"
                [md.body_start..],
            "body"
        );
        let err = |t: &str| SkillMd::parse(t).unwrap_err();
        assert_eq!(
            err("---\ndescription: b\n---\n"),
            "the frontmatter has no `name`"
        );
        assert_eq!(
            err("---\nname: a\ndescription: ''\n---\n"),
            "the frontmatter's `description` is empty"
        );
        assert_eq!(
            err("---\nname: 7\ndescription: b\n---\n"),
            "the frontmatter has no `name`"
        );
        assert_eq!(
            err("---\nname: a\n"),
            "the frontmatter has no closing `---` line"
        );
        let long = format!("---\nname: a\ndescription: {}\n---\n", "x".repeat(1025));
        assert_eq!(
            err(&long),
            "the frontmatter's `description` is over 1024 characters"
        );
    }

    #[test]
    fn entries_round_trip() {
        let text = r#"{"uri":"skill://a/SKILL.md","frontmatter":{"description":"b","name":"a"},"resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:00","size":1}]}"#;
        let entry: SkillEntry = serde_json::from_str(text).unwrap();
        assert_eq!(entry.resources.files().len(), 1);
        assert_eq!(serde_json::to_string(&entry).unwrap(), text);
        assert!(serde_json::from_str::<SkillEntry>(r#"{"uri":"x","frontmatter":{}}"#).is_err());
    }
}
