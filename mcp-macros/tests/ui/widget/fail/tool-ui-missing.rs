use mcp_runtime::prelude::*;

/// The widget.
#[widget(uri = "ui://demo/cards.html")]
const GIFT_CARDS: &str = "<!doctype html><html></html>";

/// A mistyped widget name.
#[tool(ui = GIFT_CARD)]
async fn suggest() -> String {
    "a book".into()
}

fn main() {}
