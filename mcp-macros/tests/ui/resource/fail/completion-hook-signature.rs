//! A completion hook of no supported shape is reported on the hook, with the shapes it may
//! take: an `async` hook takes the request by value, and every parameter after the request is
//! injected.

use mcp_runtime::prelude::*;

async fn borrowed(req: &CompletionRequest) -> Vec<String> {
    vec![req.value().to_owned()]
}

fn not_injectable(req: &CompletionRequest, limit: u32) -> Vec<String> {
    vec![req.value().to_owned(); limit as usize]
}

fn not_strings(_req: &CompletionRequest) -> Vec<u32> {
    vec![1]
}

/// A note.
#[resource(uri = "notes://{a}/{b}/{c}")]
async fn note(
    #[arg(complete = borrowed)] a: String,
    #[arg(complete = not_injectable)] b: String,
    #[arg(complete = not_strings)] c: String,
) -> String {
    format!("{a} {b} {c}")
}

fn main() {}
