//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), client side: list the
//! skills a server offers (every page), get one entry by its URI, and load a skill only after
//! its `SKILL.md` matches its entry (byte size, SHA-256 digest, and the frontmatter field by
//! field, nested values included, read by the same rules the server's are: `mcp_core::skills`);
//! its other files are read on demand, each checked the same way. Nothing is fetched ahead of
//! need. The entry types are `mcp_core::skills`'s, shared with the server.

use base64::Engine;
use mcp_core::method::Method;
use mcp_core::skills::{
    GetSkillResult, ListSkillsResult, ReadDirectoryResult, SkillFile as File, SkillFiles,
};
use mcp_core::{ReadResourceResult, ResourceContents};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::Client;
use crate::error::ClientError;
use crate::methods::Call;

pub use mcp_core::skills::{SkillEntry, SkillFile};

/// The extension's identifier, as servers declare it under `capabilities.extensions`.
pub const SKILLS_EXTENSION: &str = mcp_core::skills::EXTENSION;

/// A skill whose `SKILL.md` matched its entry.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Skill {
    /// The entry it was loaded from.
    pub entry: SkillEntry,
    /// The verified text of its `SKILL.md`.
    pub text: String,
}

/// Checks `bytes` against `file`: size first, then digest.
pub(crate) fn verify(file: &File, bytes: &[u8]) -> Result<(), String> {
    let size = bytes.len() as u64;
    if size != file.size {
        return Err(format!(
            "{} is {size} bytes, its entry says {}",
            file.uri, file.size
        ));
    }
    let digest = mcp_core::skills::digest_text(&Sha256::digest(bytes).into());
    if file.digest != digest {
        return Err(format!(
            "{} does not match its digest {}",
            file.uri, file.digest
        ));
    }
    Ok(())
}

/// The bytes of a read's first contents (text, or a base64 blob decoded).
fn bytes_of(uri: &str, result: ReadResourceResult) -> Result<Vec<u8>, ClientError> {
    match result.contents.into_iter().next() {
        Some(ResourceContents::Text(t)) => Ok(t.text.into_bytes()),
        Some(ResourceContents::Blob(b)) => base64::engine::general_purpose::STANDARD
            .decode(b.blob)
            .map_err(|e| ClientError::protocol(format!("{uri}: a blob that is not base64: {e}"))),
        _ => Err(ClientError::protocol(format!("{uri} has no contents"))),
    }
}

impl Client {
    /// The skills the server offers (`skills/list`, every page within the client's list
    /// bounds): entries only, no file is read.
    pub async fn list_skills(&self) -> Result<Vec<SkillEntry>, ClientError> {
        self.pages(Method::ListSkills, |r: ListSkillsResult| {
            (r.skills, r.next_cursor)
        })
        .await
    }

    /// The entry of the skill whose `SKILL.md` is at `uri` (`skills/get`), listed or not.
    pub async fn get_skill(&self, uri: &str) -> Result<SkillEntry, ClientError> {
        let mut params = Map::new();
        params.insert("uri".into(), json!(uri));
        let result: GetSkillResult = Call::new(self, Method::GetSkill, Ok(params)).await?;
        Ok(result.skill)
    }

    /// One page of `resources/directory/read`: the direct children of the directory resource at
    /// `uri` (only for a server that declares `directoryRead`).
    pub fn read_directory_page(
        &self,
        uri: &str,
        cursor: Option<&str>,
    ) -> Call<ReadDirectoryResult> {
        let mut params = Map::new();
        params.insert("uri".into(), json!(uri));
        if let Some(c) = cursor {
            params.insert("cursor".into(), json!(c));
        }
        Call::new(self, Method::ReadDirectory, Ok(params))
    }

    /// Reads a skill's `SKILL.md` and loads it only if the text has the size and digest its
    /// entry lists (a `"dynamic"` skill has none to check) and the frontmatter its entry states,
    /// field for field; any difference is [`ClientError::Verification`] and the skill is not
    /// loaded.
    pub async fn load_skill(&self, entry: &SkillEntry) -> Result<Skill, ClientError> {
        let bytes = match &entry.resources {
            SkillFiles::Dynamic => bytes_of(&entry.uri, self.read_resource(&entry.uri).await?)?,
            _ => self.read_verified(entry, &entry.uri).await?,
        };
        let text = String::from_utf8(bytes)
            .map_err(|_| ClientError::Verification(format!("{} is not UTF-8", entry.uri)))?;
        let (found, _) = mcp_core::skills::frontmatter(&text).map_err(|why| {
            ClientError::Verification(format!("{}: its frontmatter: {why}", entry.uri))
        })?;
        for key in found.keys().chain(entry.frontmatter.keys()) {
            let (got, want) = (found.get(key), entry.frontmatter.get(key));
            if got != want {
                return Err(ClientError::Verification(format!(
                    "{}: frontmatter `{key}` is {}, its entry says {}",
                    entry.uri,
                    got.map_or("absent".into(), Value::to_string),
                    want.map_or("absent".into(), Value::to_string),
                )));
            }
        }
        Ok(Skill {
            entry: entry.clone(),
            text,
        })
    }

    /// Reads another file of a loaded skill, checked against its entry: its bytes (a text
    /// file's UTF-8, a binary file's decoded blob). A `"dynamic"` skill lists nothing to check
    /// against: any URI inside its directory is read as it comes (`read_directory_page` finds
    /// them).
    pub async fn read_skill_file(&self, skill: &Skill, uri: &str) -> Result<Vec<u8>, ClientError> {
        if let SkillFiles::Dynamic = skill.entry.resources {
            let dir = skill.entry.uri.strip_suffix("SKILL.md").unwrap_or("");
            let rest = uri
                .strip_prefix(dir)
                .filter(|_| !dir.is_empty())
                .unwrap_or("");
            if rest.is_empty()
                || rest
                    .split('/')
                    .any(|s| s.is_empty() || s == "." || s == "..")
            {
                return Err(ClientError::Verification(format!(
                    "{uri} is not inside the skill {}",
                    skill.entry.uri
                )));
            }
            return bytes_of(uri, self.read_resource(uri).await?);
        }
        self.read_verified(&skill.entry, uri).await
    }

    async fn read_verified(&self, entry: &SkillEntry, uri: &str) -> Result<Vec<u8>, ClientError> {
        let file = entry
            .resources
            .files()
            .iter()
            .find(|f| f.uri == uri)
            .ok_or_else(|| {
                ClientError::Verification(format!("{uri} is not a file of the skill {}", entry.uri))
            })?;
        let bytes = bytes_of(uri, self.read_resource(uri).await?)?;
        verify(file, &bytes).map_err(ClientError::Verification)?;
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> File {
        File::new(
            "skill://a/SKILL.md",
            mcp_core::skills::digest_text(&Sha256::digest(text.as_bytes()).into()),
            text.len() as u64,
        )
    }

    #[test]
    fn size_and_digest_are_both_checked() {
        let good = "---\nname: a\n---\nbody\n";
        let f = file(good);
        assert_eq!(verify(&f, good.as_bytes()), Ok(()));
        assert_eq!(
            verify(&f, b"---\nname: a\n---\nbody!\n").unwrap_err(),
            "skill://a/SKILL.md is 22 bytes, its entry says 21"
        );
        assert!(
            verify(&f, b"---\nname: b\n---\nbody\n")
                .unwrap_err()
                .contains("digest")
        );
    }
}
