use mcp_runtime::prelude::*;

/// A template is not one widget.
#[widget(uri = "ui://demo/{id}.html")]
const CARDS: &str = "<!doctype html><html></html>";

/// Empty after the scheme.
#[widget(uri = "ui://")]
const EMPTY: &str = "<!doctype html><html></html>";

fn main() {}
