use mcp_runtime::prelude::*;

/// A widget's MIME type cannot be written.
#[widget(uri = "ui://demo/cards.html", mime = "text/html")]
const CARDS: &str = "<!doctype html><html></html>";

fn main() {}
