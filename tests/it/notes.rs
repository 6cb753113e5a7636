//! The notes scenario of a first hour with the framework: a resource template whose variable is
//! completed from application state (no global), completion and `resources/read` that agree, a
//! forgotten `.state(..)` refused when the server is built, and a variable of the wrong type
//! answered as invalid params.

use std::collections::BTreeMap;
use std::sync::Mutex;

use mcp_runtime::prelude::*;
use serde_json::{Value, json};

use crate::{error_message, only_text, result};

/// The notes, by id.
#[derive(Default)]
pub struct Store(Mutex<BTreeMap<u32, String>>);

impl Store {
    fn ids(&self) -> Vec<String> {
        let notes = self.0.lock().unwrap();
        notes.keys().map(u32::to_string).collect()
    }
}

/// The ids of the notes that start with what was typed (`async`, from state).
async fn note_ids(req: CompletionRequest, store: State<Store>) -> Vec<String> {
    let mut ids = store.ids();
    ids.retain(|id| id.starts_with(req.value()));
    ids
}

/// The same, synchronous, with the context too.
fn recall_ids(req: &CompletionRequest, store: State<Store>, ctx: Context) -> Vec<String> {
    let mut ids = store.ids();
    ids.retain(|id| id.starts_with(req.value()));
    // The request being served is the completion's own.
    assert!(ctx.request_id().is_some());
    ids
}

/// A hook whose lookup fails.
async fn broken_ids(_req: CompletionRequest) -> Result<Vec<String>, std::io::Error> {
    Err(std::io::Error::other("index file /var/secret is gone"))
}

/// A hook that explains why it has nothing.
fn refusing_ids(_req: &CompletionRequest) -> Result<Vec<String>, String> {
    Err("type at least one digit".into())
}

/// Adds a note and returns its id.
#[tool(server = "it-notes")]
async fn add_note(
    /// The note's text
    text: String,
    store: State<Store>,
) -> String {
    let mut notes = store.0.lock().unwrap();
    let id = notes.keys().next_back().map_or(1, |last| last + 1);
    notes.insert(id, text);
    id.to_string()
}

/// One note by id
#[resource(server = "it-notes", uri = "notes://note/{id}", mime = "text/plain")]
async fn note(
    #[arg(complete = note_ids)] id: u32,
    store: State<Store>,
) -> Result<String, ResourceError> {
    let notes = store.0.lock().unwrap();
    notes.get(&id).cloned().ok_or(ResourceError::NotFound)
}

/// Recalls a note in a prompt.
#[prompt(server = "it-notes")]
async fn recall(
    /// The note's id
    #[arg(complete = recall_ids)]
    id: String,
    /// Unused; its completion fails
    #[arg(complete = broken_ids)]
    tag: Option<String>,
    /// Unused; its completion refuses
    #[arg(complete = refusing_ids)]
    shelf: Option<String>,
) -> String {
    let _ = (tag, shelf);
    format!("Recall note {id}.")
}

fn server() -> Server {
    Server::builder(server_info!())
        .tool(add_note::TOOL)
        .resource(note::RESOURCE)
        .prompt(recall::PROMPT)
        .state(Store::default())
        .build()
        .unwrap()
}

fn complete_note(value: &str) -> Value {
    json!({"ref": {"type": "ref/resource", "uri": "notes://note/{id}"}, "argument": {"name": "id", "value": value}})
}

fn values(response: &Value, id: i64) -> Value {
    result(response, json!(id))["completion"]["values"].clone()
}

#[tokio::test]
async fn completion_offers_exactly_the_ids_in_state_and_each_reads() {
    let mut client = server().connect_in_memory();
    client.initialize("2025-11-25").await;
    // An empty store: nothing to offer (and nothing from a global).
    let r = client
        .request("completion/complete", complete_note(""))
        .await;
    assert_eq!(values(&r, 2), json!([]));

    for (n, text) in ["milk", "eggs", "bread"].into_iter().enumerate() {
        let r = client.call_tool("add_note", json!({"text": text})).await;
        assert_eq!(only_text(&result(&r, json!(3 + n))), (n + 1).to_string());
    }
    let r = client
        .request("completion/complete", complete_note(""))
        .await;
    assert_eq!(values(&r, 6), json!(["1", "2", "3"]));
    let r = client
        .request("completion/complete", complete_note("2"))
        .await;
    assert_eq!(values(&r, 7), json!(["2"]));

    for (n, (id, text)) in [("1", "milk"), ("2", "eggs"), ("3", "bread")]
        .into_iter()
        .enumerate()
    {
        let uri = format!("notes://note/{id}");
        let r = client.request("resources/read", json!({"uri": uri})).await;
        assert_eq!(
            result(&r, json!(8 + n)),
            json!({"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]})
        );
    }
    // An id completion never offered is not found.
    let r = client
        .request("resources/read", json!({"uri": "notes://note/4"}))
        .await;
    assert_eq!(
        error_message(&r, -32002, json!(11)),
        "resource not found: notes://note/4"
    );
}

#[tokio::test]
async fn a_synchronous_hook_takes_state_and_context_too() {
    let mut client = server().connect_in_memory();
    client.initialize("2025-11-25").await;
    client.call_tool("add_note", json!({"text": "a"})).await;
    let complete = |value: &str| json!({"ref": {"type": "ref/prompt", "name": "recall"}, "argument": {"name": "id", "value": value}});
    let r = client.request("completion/complete", complete("1")).await;
    assert_eq!(values(&r, 3), json!(["1"]));
    let r = client.request("completion/complete", complete("7")).await;
    assert_eq!(values(&r, 4), json!([]));
    // Statelessly too: the hook runs with the request's context.
    let r = client
        .stateless(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "recall"}, "argument": {"name": "id", "value": ""}}),
        )
        .await;
    assert_eq!(values(&r, 5), json!(["1"]));
}

#[tokio::test]
async fn a_failing_hook_is_an_error_masked_or_shown_like_a_handler_error() {
    let mut client = server().connect_in_memory();
    client.initialize("2025-11-25").await;
    let r = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "recall"}, "argument": {"name": "tag", "value": ""}}),
        )
        .await;
    let message = error_message(&r, -32603, json!(2));
    assert!(message.starts_with("internal error, id "), "{message}");
    assert!(!message.contains("secret"), "{message}");
    let r = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "recall"}, "argument": {"name": "shelf", "value": ""}}),
        )
        .await;
    assert_eq!(
        error_message(&r, -32602, json!(3)),
        "type at least one digit"
    );
}

#[tokio::test]
async fn a_variable_of_the_wrong_type_is_invalid_params_naming_it() {
    let mut client = server().connect_in_memory();
    client.initialize("2025-11-25").await;
    let r = client
        .request("resources/read", json!({"uri": "notes://note/abc"}))
        .await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 2, "error": {
            "code": -32602,
            "message": "variable 'id': cannot read \"abc\" as a non-negative integer"
        }})
    );
    // The same in the stateless era.
    let r = client
        .stateless("resources/read", json!({"uri": "notes://note/-1"}))
        .await;
    assert_eq!(
        error_message(&r, -32602, json!(3)),
        "variable 'id': cannot read \"-1\" as a non-negative integer"
    );
}

#[test]
fn a_forgotten_state_is_refused_at_build_naming_the_item_and_the_type() {
    let err = Server::builder(server_info!())
        .resource(note::RESOURCE)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "resource `note` ({}) takes a `State<it::notes::Store>`, but the server was not given one: add `.state(value)` with a `it::notes::Store` to the builder",
            note::RESOURCE.location
        )
    );
    // The prompt itself takes no state; its completion hook does.
    let err = Server::builder(server_info!())
        .prompt(recall::PROMPT)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the completion hook of `id` in prompt `recall` ({}) takes a `State<it::notes::Store>`, but the server was not given one: add `.state(value)` with a `it::notes::Store` to the builder",
            recall::PROMPT.location
        )
    );
}

#[test]
fn a_tool_added_at_run_time_is_checked_too() {
    let server = Server::builder(server_info!()).build().unwrap();
    let err = server.add_tool(add_note::TOOL).unwrap_err();
    assert!(err.to_string().starts_with("tool `add_note` ("), "{err}");
    assert_eq!(server.tool_names().count(), 0);
}

/// Counts greetings.
#[derive(Debug)]
pub struct Counter(pub u32);

/// Reads a newtype's field through the state.
#[tool(server = "it-notes")]
async fn count(counter: State<Counter>) -> String {
    // `State<T>` has no public field of its own: `.0` is the newtype's.
    counter.0.to_string()
}

#[tokio::test]
async fn a_state_newtype_reads_its_own_field_and_handlers_can_be_called_directly() {
    assert_eq!(count(State::new(Counter(7))).await, "7");
    let shared = std::sync::Arc::new(Counter(8));
    assert_eq!(count(State::from(shared.clone())).await, "8");
    assert_eq!(std::sync::Arc::strong_count(&shared), 1);
}
