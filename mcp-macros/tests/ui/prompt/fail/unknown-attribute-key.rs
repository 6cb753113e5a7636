use mcp_runtime::prelude::*;

#[prompt(read_only)]
async fn greet(#[arg(min = 1)] name: String) -> String {
    name
}

fn main() {}
