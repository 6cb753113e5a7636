//! Input schemas on the wire: the portable and strict profiles, raw schemas, `#[arg]` refinements,
//! and that what the schema promises is what the call accepts.

use mcp_runtime::SchemaProfile;
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

use crate::{only_text, result};

/// Searches the shelf.
#[tool(server = "it-schemas")]
async fn search(
    /// What to look for
    #[arg(rename = "queryText", pattern = "^[a-z ]+$")]
    query: String,
    /// How many results
    #[arg(default = 10, min = 1, max = 50)]
    limit: u32,
    /// Language
    #[arg(default = "en")]
    lang: String,
    /// Only in this section
    section: Option<String>,
) -> String {
    format!(
        "{query}|{limit}|{lang}|{}",
        section.unwrap_or_else(|| "-".into())
    )
}

/// Takes anything.
#[tool(
    server = "it-schemas",
    input_schema = r#"{"type": "object", "properties": {"x": {"type": "number"}}, "additionalProperties": true}"#
)]
async fn raw(arguments: serde_json::Value) -> String {
    arguments.to_string()
}

async fn tools(profile: SchemaProfile) -> (mcp_runtime::transport::memory::TestClient, Vec<Value>) {
    let server = Server::builder(server_info!())
        .tool(search::TOOL)
        .tool(raw::TOOL)
        .schema_profile(profile)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    let list = result(&client.request("tools/list", Value::Null).await, json!(2));
    (client, list["tools"].as_array().unwrap().clone())
}

#[tokio::test]
async fn the_portable_profile_inlines_and_keeps_optionals_plain() {
    let (_, tools) = tools(SchemaProfile::Portable).await;
    assert_eq!(tools[1]["name"], "search");
    assert_eq!(
        tools[1]["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "queryText": {"type": "string", "pattern": "^[a-z ]+$", "description": "What to look for"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10, "description": "How many results"},
                "lang": {"type": "string", "default": "en", "description": "Language"},
                "section": {"type": "string", "description": "Only in this section"}
            },
            "required": ["queryText"]
        })
    );
}

#[tokio::test]
async fn the_strict_profile_is_json_schema_2020_12() {
    let (_, tools) = tools(SchemaProfile::Strict2020_12).await;
    let schema = &tools[1]["inputSchema"];
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(
        schema["properties"]["section"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(schema["required"], json!(["queryText"]));
}

#[tokio::test]
async fn a_raw_schema_is_served_verbatim_and_the_arguments_arrive_whole() {
    let (mut client, tools) = tools(SchemaProfile::Portable).await;
    assert_eq!(tools[0]["name"], "raw");
    assert_eq!(
        tools[0]["inputSchema"],
        json!({"type": "object", "properties": {"x": {"type": "number"}}, "additionalProperties": true})
    );
    let r = result(
        &client.call_tool("raw", json!({"x": 1, "y": [true]})).await,
        json!(3),
    );
    assert_eq!(only_text(&r), r#"{"x":1,"y":[true]}"#);
}

#[tokio::test]
async fn defaults_renames_and_patterns_apply_to_calls() {
    let (mut client, _) = tools(SchemaProfile::Portable).await;
    let r = result(
        &client
            .call_tool("search", json!({"queryText": "red books"}))
            .await,
        json!(3),
    );
    assert_eq!(only_text(&r), "red books|10|en|-");
    let r = result(
        &client
            .call_tool(
                "search",
                json!({"queryText": "x", "limit": 3, "lang": "fr", "section": "poetry"}),
            )
            .await,
        json!(4),
    );
    assert_eq!(only_text(&r), "x|3|fr|poetry");
    // The Rust name is not the property name.
    let r = result(
        &client.call_tool("search", json!({"query": "x"})).await,
        json!(5),
    );
    assert_eq!(
        only_text(&r),
        "invalid arguments for tool 'search': unknown property 'query'; allowed properties are 'lang', 'limit', 'queryText', 'section'"
    );
    let r = result(
        &client
            .call_tool("search", json!({"queryText": "Nope!"}))
            .await,
        json!(6),
    );
    assert_eq!(r["isError"], true);
    assert!(
        only_text(&r).starts_with("invalid arguments for tool 'search': property 'queryText': "),
        "{r}"
    );
    assert!(only_text(&r).contains("^[a-z ]+$"), "{r}");
    let r = result(
        &client
            .call_tool("search", json!({"queryText": "x", "limit": 51}))
            .await,
        json!(7),
    );
    assert_eq!(
        only_text(&r),
        "invalid arguments for tool 'search': property 'limit': must be between 1 and 50, got 51"
    );
}
