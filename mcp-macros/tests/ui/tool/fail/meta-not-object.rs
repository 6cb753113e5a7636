use mcp_runtime::prelude::*;

#[tool(meta = r#"["a"]"#)]
async fn listed() -> String {
    String::new()
}

#[tool(meta = r#"{"k": 1,}"#)]
async fn trailing_comma() -> String {
    String::new()
}

fn main() {}
