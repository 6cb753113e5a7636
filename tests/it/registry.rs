//! The registry: link-time collection, named servers, duplicate detection, the CLI listing.

use mcp_runtime::prelude::*;
use serde_json::{Value, json};

use crate::fixtures;

/// Registered in the default registry of this binary.
#[tool]
async fn registered_by_default(
    /// Anything
    x: Option<String>,
) -> String {
    x.unwrap_or_default()
}

/// Registered for the server named "admin".
#[tool(server = "admin", name = "admin.reset")]
async fn admin_reset() -> &'static str {
    "reset"
}

/// Another echo, to clash with the fixture's name.
#[tool(server = "clash", name = "echo")]
async fn second_echo(text: String) -> String {
    text
}

#[test]
fn from_registry_collects_the_default_server_only() {
    let server = Server::from_registry(server_info!()).build().unwrap();
    assert_eq!(
        server.tool_names().collect::<Vec<_>>(),
        ["registered_by_default"]
    );
}

#[test]
fn named_registries_keep_servers_apart() {
    let server = Server::from_registry_named("admin", server_info!())
        .build()
        .unwrap();
    assert_eq!(server.tool_names().collect::<Vec<_>>(), ["admin.reset"]);
    let it = Server::from_registry_named("it", server_info!())
        .state(fixtures::Greeting("Hi"))
        .build()
        .unwrap();
    assert_eq!(it.tool_names().count(), 12);
}

#[test]
fn duplicate_names_are_refused_naming_both_places() {
    let err = Server::builder(server_info!())
        .tool(fixtures::echo::TOOL)
        .tool(second_echo::TOOL)
        .build()
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("duplicate tool `echo`: declared at "),
        "{text}"
    );
    assert!(
        text.contains("tests/it/fixtures.rs:") && text.contains("tests/it/registry.rs:"),
        "{text}"
    );
}

#[test]
fn the_listing_shows_all_four_lists() {
    let listing: Value = serde_json::from_str(&fixtures::server().listing()).unwrap();
    let keys: Vec<&str> = listing
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 4);
    for key in [
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
    ] {
        assert!(keys.contains(&key), "{key}");
    }
    assert_eq!(listing["tools/list"]["tools"].as_array().unwrap().len(), 12);
    assert_eq!(
        listing["resources/templates/list"]["resourceTemplates"][0]["uriTemplate"],
        "test://items/{id}"
    );
    // Every page merged, whatever the page size.
    let paged: Value =
        serde_json::from_str(&fixtures::builder().page_size(2).build().unwrap().listing()).unwrap();
    assert_eq!(paged, listing);
}

#[test]
fn server_info_is_the_calling_crate() {
    let server = fixtures::server();
    assert_eq!(server.info().name, "mcp-tests");
    assert_eq!(server.info().version, "0.1.0");
    let versions: Vec<&str> = server.supported_versions().map(|v| v.as_str()).collect();
    assert_eq!(
        versions,
        [
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ]
    );
    assert_eq!(json!(server.capabilities().tools.is_some()), json!(true));
}
