use mcp_runtime::prelude::*;

#[tool]
async fn add((a, b): (i64, i64), _: String) -> String {
    (a + b).to_string()
}

fn main() {}
