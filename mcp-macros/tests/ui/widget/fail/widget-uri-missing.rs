use mcp_runtime::prelude::*;

/// No URI at all.
#[widget(prefers_border = true)]
const CARDS: &str = "<!doctype html><html></html>";

fn main() {}
