use mcp_runtime::prelude::*;

#[tool(title = "One", read_only, title = "Two")]
async fn add(#[arg(min = 0, min = 1)] a: i64) -> String {
    a.to_string()
}

fn main() {}
