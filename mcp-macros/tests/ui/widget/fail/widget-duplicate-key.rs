use mcp_runtime::prelude::*;

/// `uri` twice.
#[widget(uri = "ui://demo/a.html", uri = "ui://demo/b.html")]
const A: &str = "<!doctype html><html></html>";

fn main() {}
