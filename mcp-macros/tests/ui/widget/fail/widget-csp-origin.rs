use mcp_runtime::prelude::*;

/// Bare hosts, paths and misplaced wildcards are not origins.
#[widget(
    uri = "ui://demo/cards.html",
    csp(connect_domains = ["api.example.com"], resource_domains = ["https://cdn.example.com/lib", "https://a.*.example.com"]),
)]
const CARDS: &str = "<!doctype html><html></html>";

fn main() {}
