//! `everything-server`: the conformance fixture server of `mcp-runtime`.
//!
//! It carries every tool, resource, resource template and prompt that the official MCP
//! conformance suites exercise (the contract is `FIXTURES.md` of the conformance notes), written
//! with the framework's own macros, so the suites judge the framework as a user would meet it.
//!
//! ```text
//! everything-server http 127.0.0.1:8000   # what conformance/run.sh starts
//! everything-server list                  # what a client sees
//! everything-server call test_simple_text
//! ```
//!
//! | module | fixtures |
//! | --- | --- |
//! | [`tools`] | content, errors, progress, logging, JSON Schema 2020-12, custom header, diagnostics |
//! | [`interactive`] | sampling and elicitation (form, defaults, every enum style), SSE reconnection |
//! | [`mrtr`] | `input_required` rounds of the stateless era: tools and a prompt |
//! | [`resources`] | static text and binary resources, the watched resource, the template |
//! | [`prompts`] | prompts with and without arguments, embedded resource, image; completion |
//! | [`tasks`] | tools run as tasks (both eras): sync, slow, failing, input while running, MRTR then task |
//! | [`scale`] | the scale-out tests' replicas: who ran a call, cancellation counts, a stream cut, a tool added at runtime |
//! | `skills/` | the skills of the `sep-2640-*` scenarios (embedded with `skills!`): a prefixed skill, a one-file skill, one with subdirectories, metadata and a nested skill |

mod interactive;
mod media;
mod mrtr;
mod prompts;
mod resources;
mod scale;
mod tasks;
mod tools;

use mcp_runtime::prelude::*;

#[tokio::main]
async fn main() {
    let info = server_info!()
        .with_title("Everything")
        .with_description("Every tool, resource and prompt the MCP conformance suites exercise")
        .with_website_url(
            "https://github.com/mcp-runtime/mcp-runtime/tree/main/examples/everything-server",
        );
    let card = mcp_runtime::card::CardOptions::new("io.github.mcp-runtime/everything-server");
    let served = Server::from_registry(info)
        .card(card)
        .skills(mcp_runtime::skills!("skills"))
        .instructions("Conformance fixture server: every tool, resource and prompt the MCP conformance suites exercise.")
        .run()
        .await;
    if let Err(err) = served {
        eprintln!("everything-server: {err}");
        std::process::exit(2);
    }
}
