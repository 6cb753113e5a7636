//! A notes server: tools with an enum, a list with a default, an optional number with a
//! maximum, a nested struct and structured output (one with a text block of its own, one with
//! camelCase argument names); shared state; a resource, a resource template and a
//! multi-message prompt. Its only dependency is `mcp-runtime`, and each type of its own is
//! declared with one line, `#[mcp_runtime::data]`.

use std::collections::BTreeMap;
use std::sync::Mutex;

use mcp_runtime::prelude::*;

/// How urgent a note is.
#[mcp_runtime::data]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Whenever.
    Low,
    /// Soon.
    Normal,
    /// Now.
    High,
}

/// When a note is due.
#[mcp_runtime::data]
#[derive(Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Due {
    /// Day, as `YYYY-MM-DD`.
    pub date: String,
    /// Remind this many minutes before.
    pub remind_minutes: Option<u32>,
}

/// One note.
#[mcp_runtime::data]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Its id, used in `notes://note/{id}`.
    pub id: u32,
    /// The text.
    pub text: String,
    /// How urgent it is.
    pub priority: Priority,
    /// Labels.
    pub tags: Vec<String>,
    /// When it is due, if ever.
    pub due: Option<Due>,
}

/// The notes, shared by every handler through `State<Store>`.
#[derive(Debug, Default)]
pub struct Store {
    notes: Mutex<BTreeMap<u32, Note>>,
}

impl Store {
    fn with<R>(&self, f: impl FnOnce(&mut BTreeMap<u32, Note>) -> R) -> R {
        let mut notes = self.notes.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut notes)
    }
}

/// Notes found.
#[mcp_runtime::data]
#[derive(Debug, PartialEq, Eq)]
pub struct Found {
    /// The notes, by id.
    pub notes: Vec<Note>,
    /// How many notes match, before `limit`.
    pub total: usize,
}

/// Adds a note and returns it.
#[tool]
async fn add_note(
    store: State<Store>,
    /// What to remember
    text: String,
    /// How urgent it is
    priority: Priority,
    /// Labels for finding it again
    #[arg(default = vec!["inbox".to_owned()])]
    tags: Vec<String>,
    /// When it is due
    due: Option<Due>,
) -> Json<Note> {
    let note = store.with(|notes| {
        let id = notes.keys().next_back().map_or(1, |last| last + 1);
        let note = Note {
            id,
            text,
            priority,
            tags,
            due,
        };
        notes.insert(id, note.clone());
        note
    });
    Json(note)
}

/// Lists notes, most urgent first.
#[tool(read_only)]
async fn list_notes(
    store: State<Store>,
    /// Only notes with this tag
    tag: Option<String>,
    /// At most this many notes
    #[arg(max = 50)]
    limit: Option<u32>,
) -> Json<Found> {
    let mut notes: Vec<Note> = store.with(|notes| {
        notes
            .values()
            .filter(|n| tag.as_ref().is_none_or(|t| n.tags.contains(t)))
            .cloned()
            .collect()
    });
    notes.sort_by_key(|n| (std::cmp::Reverse(n.priority as u8), n.id));
    let total = notes.len();
    notes.truncate(limit.map_or(usize::MAX, |l| l as usize));
    Json(Found { notes, total })
}

/// What `tag_notes` did.
#[mcp_runtime::data]
#[derive(Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Tagged {
    /// The notes that got the tag.
    pub tagged_ids: Vec<u32>,
    /// The ids asked for that name no note.
    pub unknown_ids: Vec<u32>,
}

/// Adds a tag to notes. Its arguments are camelCase on the wire (`noteIds`, `newTag`), and its
/// text block is a sentence rather than the JSON of the result.
#[tool(rename_all = "camelCase")]
async fn tag_notes(
    store: State<Store>,
    /// The notes to tag
    note_ids: Vec<u32>,
    /// The tag to add
    new_tag: String,
) -> Structured<Tagged> {
    let (tagged_ids, unknown_ids) = store.with(|notes| {
        note_ids
            .iter()
            .partition::<Vec<u32>, _>(|id| match notes.get_mut(id) {
                Some(note) => {
                    if !note.tags.contains(&new_tag) {
                        note.tags.push(new_tag.clone());
                    }
                    true
                }
                None => false,
            })
    });
    Json(Tagged {
        tagged_ids,
        unknown_ids,
    })
    .text_with(|t| {
        format!(
            "tagged {} note(s) '{new_tag}'; {} unknown",
            t.tagged_ids.len(),
            t.unknown_ids.len()
        )
    })
}

/// Deletes a note.
#[tool(destructive)]
async fn delete_note(
    store: State<Store>,
    /// The note's id
    id: u32,
) -> Result<String, ToolError> {
    match store.with(|notes| notes.remove(&id)) {
        Some(note) => Ok(format!("deleted note {id}: {}", note.text)),
        None => Err(ToolError::new(format!("there is no note {id}"))),
    }
}

/// Every note, as JSON.
#[resource(uri = "notes://all", mime = "application/json")]
async fn all_notes(store: State<Store>) -> Json<Vec<Note>> {
    Json(store.with(|notes| notes.values().cloned().collect()))
}

/// The ids of the notes in the store that start with what was typed: completion reads the same
/// state as the handlers, no global.
fn note_ids(req: &CompletionRequest, store: State<Store>) -> Vec<String> {
    store.with(|notes| {
        notes
            .keys()
            .map(u32::to_string)
            .filter(|id| id.starts_with(req.value()))
            .collect()
    })
}

/// One note, by id.
#[resource(uri = "notes://note/{id}", mime = "text/plain")]
async fn note(
    store: State<Store>,
    #[arg(complete = note_ids)] id: u32,
) -> Result<String, ResourceError> {
    store
        .with(|notes| notes.get(&id).map(|n| n.text.clone()))
        .ok_or(ResourceError::NotFound)
}

fn complete_style(req: &CompletionRequest) -> Vec<String> {
    ["short", "detailed"]
        .into_iter()
        .filter(|s| s.starts_with(req.value()))
        .map(str::to_owned)
        .collect()
}

/// Asks the model to turn a note into a plan.
#[prompt]
async fn plan(
    store: State<Store>,
    /// The note's id
    id: u32,
    /// `short` or `detailed`
    #[arg(complete = complete_style)]
    style: Option<String>,
) -> Result<Vec<PromptMessage>, PromptError> {
    let text = store
        .with(|notes| notes.get(&id).map(|n| n.text.clone()))
        .ok_or_else(|| PromptError::new(format!("there is no note {id}")))?;
    let style = style.unwrap_or_else(|| "short".to_owned());
    Ok(vec![
        PromptMessage::user(format!("Here is a note of mine: {text}")),
        PromptMessage::assistant("Understood. What should I do with it?"),
        PromptMessage::user(format!("Turn it into a {style} plan of steps.")),
    ])
}

/// The notes server, with an empty store.
pub fn server() -> mcp_runtime::ServerBuilder {
    Server::from_registry(server_info!())
        .state(Store::default())
        .instructions("Keeps notes: add, list and delete them; read notes://all.")
}
