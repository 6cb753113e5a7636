use mcp_runtime::prelude::*;

/// Unknown keys, in the attribute, in `csp` and in `permissions`.
#[widget(uri = "ui://demo/a.html", prefers_bordr = true)]
const A: &str = "<!doctype html><html></html>";

/// Unknown `csp` key.
#[widget(uri = "ui://demo/b.html", csp(script_domains = ["https://a.com"]))]
const B: &str = "<!doctype html><html></html>";

/// Unknown permission.
#[widget(uri = "ui://demo/c.html", permissions(camera, bluetooth))]
const C: &str = "<!doctype html><html></html>";

fn main() {}
