use mcp_runtime::prelude::*;

struct Mood;

#[prompt]
async fn greet(names: Vec<String>, pair: (String, u8), mood: Option<Mood>) -> String {
    let _ = (names, pair, mood);
    String::new()
}

fn main() {}
