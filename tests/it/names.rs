//! Names and structured results as the author writes them: `rename_all` and `rename` on the wire
//! and in the schemas, structured content in declaration order, no schema title made of a Rust
//! type's name, and a text block of the author's choosing.

use mcp_runtime::prelude::*;
use mcp_runtime::transport::{Inbound, Inbox, Outbox, Transport, memory};
use serde_json::{Value, json};

use crate::{only_text, result};

/// Where to look.
#[mcp_runtime::data]
#[serde(rename_all = "camelCase")]
struct Area {
    /// City name
    city_name: String,
    zip_code: Option<String>,
}

/// What was found, members out of alphabetical order.
#[mcp_runtime::data(output)]
struct Found {
    /// How many places
    total_count: u32,
    area_name: String,
    best: Option<String>,
}

/// Finds places.
#[tool(server = "it-names", rename_all = "camelCase")]
async fn find(
    /// Where
    search_area: Area,
    /// The most results
    max_results: u32,
    #[arg(rename = "minimum_stars")] min_stars: Option<u8>,
) -> Json<Found> {
    Json(Found {
        total_count: max_results + u32::from(min_stars.unwrap_or(0)),
        area_name: search_area.area_label(),
        best: None,
    })
}

impl Area {
    fn area_label(&self) -> String {
        format!(
            "{} {}",
            self.city_name,
            self.zip_code.as_deref().unwrap_or("-")
        )
    }
}

/// Counts, in a sentence.
#[tool(server = "it-names")]
async fn count(n: u32) -> Structured<Found> {
    Json(Found {
        total_count: n,
        area_name: "here".into(),
        best: Some("a".into()),
    })
    .text_with(|f| format!("{} places in {}", f.total_count, f.area_name))
}

/// Greets.
#[prompt(server = "it-names", rename_all = "kebab-case")]
async fn greet(first_name: String, #[arg(rename = "Last")] last_name: Option<String>) -> String {
    format!("Hello {first_name} {}", last_name.unwrap_or_default())
}

fn server() -> Server {
    Server::builder(server_info!())
        .tool(find::TOOL)
        .tool(count::TOOL)
        .prompt(greet::PROMPT)
        .build()
        .unwrap()
}

#[tokio::test]
async fn rename_all_names_the_properties_and_rename_wins() {
    let mut client = server().connect_in_memory();
    client.initialize("2025-11-25").await;
    let list = result(&client.request("tools/list", Value::Null).await, json!(2));
    let find = &list["tools"][1];
    assert_eq!(find["name"], "find");
    assert_eq!(
        find["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "searchArea": {
                    "type": "object",
                    "description": "Where",
                    "properties": {
                        "cityName": {"type": "string", "description": "City name"},
                        "zipCode": {"type": "string"}
                    },
                    "required": ["cityName"]
                },
                "maxResults": {"type": "integer", "minimum": 0, "description": "The most results"},
                "minimum_stars": {"type": "integer", "minimum": 0, "maximum": 255}
            },
            "required": ["searchArea", "maxResults"]
        })
    );
    // No `title` made of `Found`, as there is none made of the argument struct; `Found` has no
    // `rename_all`, so its members keep their Rust names.
    assert_eq!(
        find["outputSchema"],
        json!({
            "type": "object",
            "description": "What was found, members out of alphabetical order.",
            "properties": {
                "total_count": {"type": "integer", "minimum": 0, "description": "How many places"},
                "area_name": {"type": "string"},
                "best": {"type": "string"}
            },
            "required": ["total_count", "area_name"]
        })
    );
    let r = result(
        &client
            .call_tool(
                "find",
                json!({"searchArea": {"cityName": "Lyon", "zipCode": "69001"}, "maxResults": 3, "minimum_stars": 4}),
            )
            .await,
        json!(3),
    );
    assert_eq!(r["structuredContent"]["area_name"], "Lyon 69001");
    assert_eq!(r["structuredContent"]["total_count"], 7);
    // The Rust names are not the property names.
    let r = result(
        &client
            .call_tool(
                "find",
                json!({"search_area": {"cityName": "x"}, "maxResults": 1}),
            )
            .await,
        json!(4),
    );
    assert_eq!(
        only_text(&r),
        "invalid arguments for tool 'find': unknown property 'search_area' (did you mean 'searchArea'?); allowed properties are 'maxResults', 'minimum_stars', 'searchArea'"
    );
}

#[tokio::test]
async fn rename_all_names_prompt_arguments() {
    let mut client = server().connect_in_memory();
    client.initialize("2025-11-25").await;
    let list = result(&client.request("prompts/list", Value::Null).await, json!(2));
    assert_eq!(
        list["prompts"][0]["arguments"],
        json!([{"name": "first-name", "required": true}, {"name": "Last", "required": false}])
    );
    let got = result(
        &client
            .request(
                "prompts/get",
                json!({"name": "greet", "arguments": {"first-name": "Ada", "Last": "L"}}),
            )
            .await,
        json!(3),
    );
    assert_eq!(got["messages"][0]["content"]["text"], "Hello Ada L");
}

/// The bytes of the answer to one `tools/call`, read off an in-memory connection.
async fn call_bytes(name: &str, arguments: &str) -> String {
    let (server_side, client_side) = memory::pair(16);
    let server = server();
    let serving = tokio::spawn(async move { server.serve(server_side).await });
    let (mut rx, mut tx) = client_side.split();
    let messages = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#),
    ];
    for message in messages {
        tx.send(message.into_bytes()).await.unwrap();
    }
    let mut answer = None;
    while let Some(Ok(Inbound::Message(text))) = rx.receive().await {
        if text.starts_with(r#"{"jsonrpc":"2.0","id":2,"#) {
            answer = Some(text);
            break;
        }
    }
    tx.close().await.unwrap();
    let _ = serving.await;
    answer.unwrap()
}

#[tokio::test]
async fn structured_content_and_its_text_keep_the_declared_order() {
    assert_eq!(
        call_bytes(
            "find",
            r#"{"searchArea":{"cityName":"Lyon"},"maxResults":2}"#
        )
        .await,
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"total_count\":2,\"area_name\":\"Lyon -\",\"best\":null}"}],"structuredContent":{"total_count":2,"area_name":"Lyon -","best":null}}}"#
    );
    assert_eq!(
        call_bytes("count", r#"{"n":5}"#).await,
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"5 places in here"}],"structuredContent":{"total_count":5,"area_name":"here","best":"a"}}}"#
    );
}
