use mcp_runtime::prelude::*;

/// The const must hold HTML text (`&'static str`) or an `Html`.
#[widget(uri = "ui://demo/a.html")]
const CARDS: u32 = 7;

fn main() {}
