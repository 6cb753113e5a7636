use mcp_runtime::prelude::*;

/// Not a ui:// URI.
#[widget(uri = "https://example.com/cards.html")]
const CARDS: &str = "<!doctype html><html></html>";

fn main() {}
