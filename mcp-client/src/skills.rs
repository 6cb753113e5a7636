//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), client side: list the
//! skills a server offers, and load one only after its `SKILL.md` matches the listed entry
//! (byte size, SHA-256 digest, and frontmatter field by field); its other files are read on
//! demand, each checked the same way. Nothing is fetched ahead of need.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::Client;
use crate::engine::Options;
use crate::error::ClientError;

/// The extension's identifier, as servers declare it under `capabilities.extensions`.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// A skill as `skills/list` describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SkillEntry {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// The frontmatter its `SKILL.md` must carry (`name`, `description`, …).
    #[serde(default)]
    pub frontmatter: Map<String, Value>,
    /// Its files, with what each must hash to.
    #[serde(default)]
    pub resources: Vec<SkillFile>,
}

/// One file of a skill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SkillFile {
    /// The file's resource URI.
    pub uri: String,
    /// `sha256:` and the lower-case hex digest of its bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

/// A skill whose `SKILL.md` matched its entry.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Skill {
    /// The entry it was loaded from.
    pub entry: SkillEntry,
    /// The verified text of its `SKILL.md`.
    pub text: String,
}

/// Checks `text` against `file`: size first, then digest.
pub(crate) fn verify(file: &SkillFile, text: &str) -> Result<(), String> {
    let size = text.len() as u64;
    if size != file.size {
        return Err(format!(
            "{} is {size} bytes, its entry says {}",
            file.uri, file.size
        ));
    }
    let digest: String = Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if file.digest != format!("sha256:{digest}") {
        return Err(format!(
            "{} does not match its digest {}",
            file.uri, file.digest
        ));
    }
    Ok(())
}

/// The `key: value` lines between the leading `---` lines (nested YAML is kept as text).
pub(crate) fn frontmatter(text: &str) -> Option<Map<String, Value>> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut out = Map::new();
    for line in rest.lines() {
        if line.trim_end() == "---" {
            return Some(out);
        }
        if line.starts_with([' ', '\t', '#']) || line.trim().is_empty() {
            continue;
        }
        let (key, value) = line.split_once(':')?;
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(value);
        out.insert(key.trim().to_owned(), Value::String(value.to_owned()));
    }
    None
}

fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Client {
    /// The skills the server offers (`skills/list`): entries only, no file is read.
    pub async fn list_skills(&self) -> Result<Vec<SkillEntry>, ClientError> {
        let result = self
            .raw("skills/list", Map::new(), Options::default())
            .await?
            .value("skills/list")?;
        let skills = result.get("skills").cloned().unwrap_or(json!([]));
        serde_json::from_value(skills).map_err(|e| ClientError::decode("skills/list", e))
    }

    /// Reads a skill's `SKILL.md` and loads it only if the text has the size and digest its
    /// entry lists and the frontmatter its entry states, field for field; any difference is
    /// [`ClientError::Verification`] and the skill is not loaded.
    pub async fn load_skill(&self, entry: &SkillEntry) -> Result<Skill, ClientError> {
        let text = self.read_verified(entry, &entry.uri).await?;
        let found = frontmatter(&text).ok_or_else(|| {
            ClientError::Verification(format!("{} has no frontmatter", entry.uri))
        })?;
        let same_keys = found.len() == entry.frontmatter.len();
        for (key, want) in &entry.frontmatter {
            let got = found.get(key).map(as_text);
            if got.as_deref() != Some(as_text(want).as_str()) || !same_keys {
                return Err(ClientError::Verification(format!(
                    "{}: frontmatter `{key}` is {got:?}, its entry says {want}",
                    entry.uri
                )));
            }
        }
        if !same_keys {
            return Err(ClientError::Verification(format!(
                "{}: the frontmatter has fields its entry does not list",
                entry.uri
            )));
        }
        Ok(Skill {
            entry: entry.clone(),
            text,
        })
    }

    /// Reads another file of a loaded skill, checked against its entry.
    pub async fn read_skill_file(&self, skill: &Skill, uri: &str) -> Result<String, ClientError> {
        self.read_verified(&skill.entry, uri).await
    }

    async fn read_verified(&self, entry: &SkillEntry, uri: &str) -> Result<String, ClientError> {
        let file = entry
            .resources
            .iter()
            .find(|f| f.uri == uri)
            .ok_or_else(|| {
                ClientError::Verification(format!("{uri} is not a file of the skill {}", entry.uri))
            })?;
        let result = self.read_resource(uri).await?;
        let contents = serde_json::to_value(&result.contents).unwrap_or_default();
        let text = contents
            .get(0)
            .and_then(|c| c.get("text"))
            .and_then(Value::as_str)
            .ok_or_else(|| ClientError::protocol(format!("{uri} has no text contents")))?;
        verify(file, text).map_err(ClientError::Verification)?;
        Ok(text.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SkillFile {
        let digest: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        SkillFile {
            uri: "skill://a/SKILL.md".into(),
            digest: format!("sha256:{digest}"),
            size: text.len() as u64,
        }
    }

    #[test]
    fn size_and_digest_are_both_checked() {
        let good = "---\nname: a\n---\nbody\n";
        let f = file(good);
        assert_eq!(verify(&f, good), Ok(()));
        assert!(
            verify(&f, "---\nname: a\n---\nbody!\n")
                .unwrap_err()
                .contains("bytes")
        );
        assert!(
            verify(&f, "---\nname: b\n---\nbody\n")
                .unwrap_err()
                .contains("digest")
        );
    }

    #[test]
    fn frontmatter_is_read_between_the_dashes() {
        let fm = frontmatter("---\nname: pdf\ndescription: \"Fill: forms\"\n---\nbody").unwrap();
        assert_eq!(fm["name"], "pdf");
        assert_eq!(fm["description"], "Fill: forms");
        assert_eq!(frontmatter("no frontmatter"), None);
        assert_eq!(frontmatter("---\nname: open\n"), None);
    }
}
