use mcp_runtime::prelude::*;

/// Runs for a long time.
#[tool(task = "sometimes")]
async fn export() -> String {
    String::new()
}

/// Runs as a task whenever it can.
#[tool(task = optional)]
async fn build() -> String {
    String::new()
}

fn main() {}
