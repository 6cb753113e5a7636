//! Completion hooks take the request first, then any injected parameters (`Context`,
//! `State<T>`, `FromContext` types), may be `async`, and may fail.

use std::sync::Mutex;

use mcp_runtime::prelude::*;

#[derive(Default)]
struct Store(Mutex<Vec<u32>>);

fn plain(req: &CompletionRequest) -> Vec<String> {
    vec![req.value().to_owned()]
}

fn with_state(req: &CompletionRequest, store: State<Store>) -> Vec<String> {
    let ids = store.0.lock().unwrap();
    ids.iter()
        .map(u32::to_string)
        .filter(|id| id.starts_with(req.value()))
        .collect()
}

async fn awaited(req: CompletionRequest, store: State<Store>, ctx: Context) -> Vec<String> {
    let _ = ctx.protocol_version();
    with_state(&req, store)
}

async fn fallible(req: CompletionRequest) -> Result<Vec<String>, std::io::Error> {
    Ok(vec![req.value.clone()])
}

/// A note in a folder.
#[resource(uri = "notes://{folder}/{id}/{rev}/{lang}")]
async fn note(
    #[arg(complete = plain)] folder: String,
    #[arg(complete = with_state)] id: u32,
    #[arg(complete = awaited)] rev: u32,
    #[arg(complete = fallible)] lang: String,
) -> String {
    format!("{folder} {id} {rev} {lang}")
}

/// A prompt with a completed argument.
#[prompt]
async fn recall(#[arg(complete = awaited)] id: String) -> String {
    format!("Recall note {id}.")
}

fn main() {
    assert_eq!(note::RESOURCE.completions.len(), 4);
    assert_eq!(recall::PROMPT.completions[0].argument, "id");
    let mut needs = mcp_runtime::StateNeeds::new();
    (note::RESOURCE.completions[2].state_needs)(&mut needs);
    assert_eq!(
        needs.type_names().collect::<Vec<_>>(),
        [std::any::type_name::<Store>()]
    );
}
