use mcp_runtime::prelude::*;

/// A tool, not a widget.
#[tool]
async fn other() -> String {
    "x".into()
}

/// A plain constant, not a widget.
const PLAIN: &str = "<!doctype html><html></html>";

/// Names a tool.
#[tool(ui = other)]
async fn a() -> String {
    "a".into()
}

/// Names a plain constant.
#[tool(ui = PLAIN)]
async fn b() -> String {
    "b".into()
}

fn main() {}
