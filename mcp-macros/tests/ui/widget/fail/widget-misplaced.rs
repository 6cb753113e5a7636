use mcp_runtime::prelude::*;

/// On a function.
#[widget(uri = "ui://demo/a.html")]
fn cards() -> &'static str {
    "<!doctype html><html></html>"
}

/// On a static.
#[widget(uri = "ui://demo/b.html")]
static CARDS: &str = "<!doctype html><html></html>";

fn main() {}
