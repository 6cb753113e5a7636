use mcp_runtime::prelude::*;

#[prompt]
async fn greet(name: String) -> Vec<String> {
    vec![name]
}

fn main() {}
