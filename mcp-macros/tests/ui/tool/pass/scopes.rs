use mcp_runtime::prelude::*;

/// Writes a note.
#[tool(scopes = ["notes:write", "https://notes.example.com/write"])]
async fn write_note(text: String) -> String {
    text
}

/// All notes.
#[resource(uri = "notes://all", scopes = ["notes:read"])]
async fn all_notes() -> String {
    String::new()
}

/// A summary.
#[prompt(scopes = ["notes:read"])]
async fn summary() -> String {
    String::new()
}

/// No scopes.
#[tool(scopes = [])]
async fn open() -> String {
    String::new()
}

fn main() {
    assert_eq!(write_note::TOOL.scopes, ["notes:write", "https://notes.example.com/write"]);
    assert_eq!(all_notes::RESOURCE.scopes, ["notes:read"]);
    assert_eq!(summary::PROMPT.scopes, ["notes:read"]);
    assert!(open::TOOL.scopes.is_empty());
}
