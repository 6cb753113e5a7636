use mcp_runtime::prelude::*;

#[tool]
#[prompt]
async fn greet(name: String) -> String {
    name
}

fn main() {}
