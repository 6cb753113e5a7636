use mcp_runtime::prelude::*;

/// The name has a space.
#[tool(name = "get weather")]
async fn get_weather() -> String {
    String::new()
}

/// The function name is not ASCII.
#[tool]
async fn café() -> String {
    String::new()
}

fn main() {}
