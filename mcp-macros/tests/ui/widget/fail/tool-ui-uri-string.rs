use mcp_runtime::prelude::*;

/// A URI instead of the widget's name.
#[tool(ui = "ui://demo/cards.html")]
async fn suggest() -> String {
    "a book".into()
}

fn main() {}
