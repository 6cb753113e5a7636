//! The generated glue at run time: argument parsing, defaults, checks, injection, template
//! variables, prompt arguments and completion hooks, driven through a real server in memory.

use mcp_runtime::prelude::*;
use serde_json::{Value, json};

async fn client(server: Server) -> mcp_runtime::transport::memory::TestClient {
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    client
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

#[tokio::test]
async fn tool_arguments_defaults_and_checks() {
    /// Looks a key up.
    #[tool]
    async fn look_up(
        /// The key
        #[arg(rename = "lookupKey", pattern = "^[a-z]+$")]
        key: String,
        #[arg(default = 10, min = 1, max = 100)] limit: u32,
        #[arg(default = 1)] ratio: f64,
        #[arg(default = "en")] lang: String,
        tag: Option<String>,
        ctx: Context,
    ) -> String {
        let _ = ctx;
        format!("{key} {limit} {ratio} {lang} {tag:?}")
    }

    let server = Server::builder(server_info!())
        .tool(look_up::TOOL)
        .build()
        .unwrap();
    let mut client = client(server).await;

    let ok = client
        .call_tool("look_up", json!({"lookupKey": "abc"}))
        .await;
    assert_eq!(text(&ok), "abc 10 1 en None", "{ok}");
    let given = client
        .call_tool(
            "look_up",
            json!({"lookupKey": "abc", "limit": 5, "ratio": 0.5, "tag": "x"}),
        )
        .await;
    assert_eq!(text(&given), "abc 5 0.5 en Some(\"x\")", "{given}");

    let out_of_range = client
        .call_tool("look_up", json!({"lookupKey": "abc", "limit": 0}))
        .await;
    assert_eq!(out_of_range["result"]["isError"], true, "{out_of_range}");
    assert!(text(&out_of_range).contains("limit"), "{out_of_range}");
    let bad_pattern = client
        .call_tool("look_up", json!({"lookupKey": "ABC"}))
        .await;
    assert_eq!(bad_pattern["result"]["isError"], true, "{bad_pattern}");
    assert!(text(&bad_pattern).contains("lookupKey"), "{bad_pattern}");

    let list = client.request("tools/list", Value::Null).await;
    let schema = &list["result"]["tools"][0]["inputSchema"];
    assert_eq!(
        schema["properties"]["lookupKey"]["description"], "The key",
        "{schema}"
    );
    assert_eq!(schema["properties"]["limit"]["default"], 10, "{schema}");
    assert_eq!(schema["required"], json!(["lookupKey"]), "{schema}");
    assert!(schema["properties"].get("ctx").is_none(), "{schema}");
}

#[tokio::test]
async fn sync_and_raw_schema_tools() {
    /// Adds.
    #[tool]
    fn add(a: i64, b: i64) -> String {
        (a + b).to_string()
    }

    /// Echoes.
    #[tool(input_schema = r#"{"type": "object"}"#)]
    fn echo(arguments: serde_json::Value) -> String {
        arguments["say"].as_str().unwrap_or("nothing").to_owned()
    }

    let server = Server::builder(server_info!())
        .tool(add::TOOL)
        .tool(echo::TOOL)
        .build()
        .unwrap();
    let mut client = client(server).await;
    assert_eq!(
        text(&client.call_tool("add", json!({"a": 2, "b": 3})).await),
        "5"
    );
    assert_eq!(
        text(&client.call_tool("echo", json!({"say": "hi"})).await),
        "hi"
    );
    let list = client.request("tools/list", Value::Null).await;
    let echo = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "echo")
        .cloned()
        .unwrap();
    assert_eq!(echo["inputSchema"], json!({"type": "object"}));
}

fn complete_id(_req: &CompletionRequest) -> Vec<String> {
    vec!["7".into(), "8".into()]
}

#[tokio::test]
async fn resource_template_variables() {
    /// One item.
    #[resource(uri = "items://{id}{?lang}", mime = "text/plain")]
    async fn item(#[arg(complete = complete_id)] id: u32, lang: Option<String>) -> String {
        format!("item {id} {}", lang.unwrap_or_else(|| "en".into()))
    }

    let server = Server::builder(server_info!())
        .resource(item::RESOURCE)
        .build()
        .unwrap();
    let mut client = client(server).await;
    let read = client
        .request("resources/read", json!({"uri": "items://7?lang=fr"}))
        .await;
    assert_eq!(read["result"]["contents"][0]["text"], "item 7 fr", "{read}");
    let read = client
        .request("resources/read", json!({"uri": "items://8"}))
        .await;
    assert_eq!(read["result"]["contents"][0]["text"], "item 8 en", "{read}");

    let completion = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "items://{id}{?lang}"}, "argument": {"name": "id", "value": ""}}),
        )
        .await;
    assert_eq!(
        completion["result"]["completion"]["values"],
        json!(["7", "8"]),
        "{completion}"
    );
}

#[tokio::test]
async fn prompt_arguments() {
    /// Greets.
    #[prompt]
    fn greet(
        /// Who
        name: String,
        #[arg(default = 2)] times: u8,
        #[arg(rename = "style")] tone: Option<String>,
    ) -> String {
        format!("{} {name} x{times}", tone.unwrap_or_else(|| "hi".into()))
    }

    let server = Server::builder(server_info!())
        .prompt(greet::PROMPT)
        .build()
        .unwrap();
    let mut client = client(server).await;
    let got = client
        .request(
            "prompts/get",
            json!({"name": "greet", "arguments": {"name": "Ada", "style": "hello"}}),
        )
        .await;
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "hello Ada x2",
        "{got}"
    );
    let list = client.request("prompts/list", Value::Null).await;
    let arguments = &list["result"]["prompts"][0]["arguments"];
    assert_eq!(
        arguments[0],
        json!({"name": "name", "description": "Who", "required": true}),
        "{list}"
    );
    assert_eq!(arguments[2]["name"], "style", "{list}");
}
