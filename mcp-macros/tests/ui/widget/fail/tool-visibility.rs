use mcp_runtime::prelude::*;

/// The widget.
#[widget(uri = "ui://demo/cards.html")]
const CARDS: &str = "<!doctype html><html></html>";

/// Visibility without a widget.
#[tool(visibility = "app")]
async fn a() -> String {
    "a".into()
}

/// Unknown value, twice the same, and an empty list.
#[tool(ui = CARDS, visibility = ["modle", "app", "app"])]
async fn b() -> String {
    "b".into()
}

/// Empty.
#[tool(ui = CARDS, visibility = [])]
async fn c() -> String {
    "c".into()
}

fn main() {}
