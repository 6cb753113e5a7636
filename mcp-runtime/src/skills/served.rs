//! Skills as one server serves them: the `skills/list` pages prepared once (with the server's
//! page size, cache lifetime and identity), `skills/get` results and directory pages.

use std::sync::Arc;

use mcp_core::{CacheScope, Meta, Resource, ResultType};
use serde::Serialize;
use serde_json::value::RawValue;

use super::{SkillSet, Skills};

/// The skills of a built server.
pub(crate) struct Served {
    pub(crate) set: Arc<SkillSet>,
    /// The `skills/list` pages, each a result's JSON text (stateless revisions only serve it).
    pages: Vec<Arc<str>>,
    page_size: usize,
    ttl_ms: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListPage<'a> {
    skills: &'a [Box<RawValue>],
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    ttl_ms: u64,
    cache_scope: CacheScope,
    result_type: ResultType,
    #[serde(rename = "_meta")]
    meta: &'a Meta,
}

/// `skills/get`'s result (the entry's JSON as it was made once).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GetResult<'a> {
    skill: &'a RawValue,
    ttl_ms: u64,
    cache_scope: CacheScope,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) result_type: Option<ResultType>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub(crate) meta: Option<Meta>,
}

/// One page of `resources/directory/read`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DirectoryPage<'a> {
    resources: &'a [Resource],
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) result_type: Option<ResultType>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub(crate) meta: Option<Meta>,
}

/// Why a directory page could not be given.
pub(crate) enum DirectoryError {
    /// Nothing is served at the URI.
    Missing,
    /// A file is served at the URI.
    NotDirectory,
    /// The cursor names no page.
    Cursor,
}

/// Cursor `p<N>`: the index of a page after the first.
fn cursor_page(cursor: Option<&str>) -> Option<usize> {
    match cursor {
        None => Some(0),
        Some(c) => c.strip_prefix('p')?.parse().ok().filter(|n| *n > 0),
    }
}

impl Served {
    pub(crate) fn new(skills: &Skills, page_size: usize, ttl_ms: u64, meta: &Meta) -> Self {
        let set = Arc::clone(&skills.set);
        let chunks: Vec<&[Box<RawValue>]> = if set.entry_json.is_empty() {
            vec![&[]]
        } else {
            set.entry_json.chunks(page_size.max(1)).collect()
        };
        let count = chunks.len();
        let pages = chunks
            .into_iter()
            .enumerate()
            .map(|(i, skills)| {
                let page = ListPage {
                    skills,
                    next_cursor: (i + 1 < count).then(|| format!("p{}", i + 1)),
                    ttl_ms,
                    cache_scope: CacheScope::Public,
                    result_type: ResultType::Complete,
                    meta,
                };
                Arc::from(serde_json::to_string(&page).unwrap_or_default())
            })
            .collect();
        Self {
            set,
            pages,
            page_size: page_size.max(1),
            ttl_ms,
        }
    }

    /// The `skills/list` page at `cursor`, or `None` for a cursor that names none.
    pub(crate) fn page(&self, cursor: Option<&str>) -> Option<Arc<str>> {
        self.pages.get(cursor_page(cursor)?).map(Arc::clone)
    }

    /// The `skills/get` result for the skill whose `SKILL.md` is at `uri`.
    pub(crate) fn get(&self, uri: &str) -> Option<GetResult<'_>> {
        let index = self.set.skill(uri)?;
        Some(GetResult {
            skill: &self.set.entry_json[index],
            ttl_ms: self.ttl_ms,
            cache_scope: CacheScope::Public,
            result_type: None,
            meta: None,
        })
    }

    /// The page of a directory's children at `cursor`.
    pub(crate) fn directory(
        &self,
        uri: &str,
        cursor: Option<&str>,
    ) -> Result<DirectoryPage<'_>, DirectoryError> {
        let Some(children) = self.set.dirs.get(uri) else {
            return Err(if self.set.file(uri).is_some() {
                DirectoryError::NotDirectory
            } else {
                DirectoryError::Missing
            });
        };
        let index = cursor_page(cursor).ok_or(DirectoryError::Cursor)?;
        let start = index * self.page_size;
        if start > 0 && start >= children.len() {
            return Err(DirectoryError::Cursor);
        }
        let end = (start + self.page_size).min(children.len());
        Ok(DirectoryPage {
            resources: &children[start..end],
            next_cursor: (end < children.len()).then(|| format!("p{}", index + 1)),
            result_type: None,
            meta: None,
        })
    }

    /// The cache lifetime of skill files read with `resources/read`.
    pub(crate) fn ttl_ms(&self) -> u64 {
        self.ttl_ms
    }
}
