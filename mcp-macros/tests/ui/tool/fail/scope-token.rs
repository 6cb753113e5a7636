use mcp_runtime::prelude::*;

/// Two scopes in one string.
#[tool(scopes = ["notes:read notes:write"])]
async fn two_in_one() -> String {
    String::new()
}

/// An empty scope, and a quote.
#[tool(scopes = ["", "say\"hi"])]
async fn empty_and_quote() -> String {
    String::new()
}

/// Not a list.
#[tool(scopes = "notes:read")]
async fn not_a_list() -> String {
    String::new()
}

/// On resources and prompts too.
#[resource(uri = "notes://all", scopes = ["ünïcode"])]
async fn all_notes() -> String {
    String::new()
}

fn main() {}
