//! Items declared inside another function's body (as tests do) expand and register too.

use mcp_runtime::prelude::*;

fn main() {
    /// Greets someone.
    #[tool]
    async fn greet(name: String) -> String {
        format!("Hello, {name}!")
    }

    /// A note.
    #[resource(uri = "notes://{id}")]
    fn note(id: u32) -> String {
        format!("note {id}")
    }

    /// Says hi.
    #[prompt]
    fn hi(name: String) -> String {
        format!("Say hi to {name}")
    }

    let server = Server::builder(server_info!()).tool(greet::TOOL).resource(note::RESOURCE).prompt(hi::PROMPT).build();
    assert!(server.is_ok());
    assert_eq!(greet::TOOL.description, Some("Greets someone."));
    assert_eq!(note(7), "note 7");
}
