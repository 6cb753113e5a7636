use mcp_runtime::prelude::*;

#[tool(nmae = "add")]
async fn add() -> String {
    String::new()
}

#[tool]
async fn sub(#[arg(renmae = "x")] a: i64) -> String {
    a.to_string()
}

fn main() {}
