use mcp_runtime::prelude::*;

#[tool]
async fn ranges(
    #[arg(min = 10, max = 1)] a: i64,
    #[arg(default = 3)] b: Option<u32>,
    #[arg(min = "zero")] c: i64,
) -> String {
    format!("{a} {b:?} {c}")
}

fn main() {}
