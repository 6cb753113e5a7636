use mcp_runtime::prelude::*;

#[tool(input_schema = r#"{"type": "object"}"#)]
async fn two(a: serde_json::Value, #[arg(default = 1)] b: u32) -> String {
    format!("{a} {b}")
}

#[tool(input_schema = r#"{"type": "object""#)]
async fn broken(a: serde_json::Value) -> String {
    a.to_string()
}

fn main() {}
