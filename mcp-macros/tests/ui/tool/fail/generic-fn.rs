use mcp_runtime::prelude::*;

#[tool]
async fn show<T: std::fmt::Display>(value: String) -> String {
    value
}

fn main() {}
