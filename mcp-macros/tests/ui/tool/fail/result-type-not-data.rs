use mcp_runtime::prelude::*;

struct Sum {
    total: i64,
}

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> Json<Sum> {
    Json(Sum { total: a + b })
}

fn main() {}
