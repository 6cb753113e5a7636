use mcp_runtime::prelude::*;

struct Mood;

#[prompt]
async fn greet(name: String, mood: Option<Mood>) -> String {
    let _ = mood;
    name
}

fn main() {}
