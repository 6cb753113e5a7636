//! A resource template exposed as a tool (`ResourceTool` naming a template), local and mounted:
//! its variables are the tool's required string arguments, checked against that schema, and a
//! call reads the resource the template expands to.
#![cfg(feature = "client")]

use mcp_runtime::client::Client;
use mcp_runtime::prelude::*;
use mcp_runtime::transform::{MountOptions, ResourceTool};
use serde_json::{Value, json};

/// A day's log.
#[resource(uri = "logs://{day}/{service}")]
async fn day_log(day: String, service: String) -> String {
    format!("{service} on {day}: ok")
}

fn text(r: &mcp_runtime::protocol::CallToolResult) -> &str {
    r.content[0].as_text().unwrap()
}

fn expected_tool(name: &str) -> Value {
    json!({"name": name, "description": "A day's log.",
           "inputSchema": {"type": "object", "properties": {
               "day": {"type": "string", "description": "`{day}` of logs://{day}/{service}"},
               "service": {"type": "string", "description": "`{service}` of logs://{day}/{service}"}
           }, "required": ["day", "service"]},
           "annotations": {"readOnlyHint": true, "destructiveHint": false}})
}

async fn check(client: &Client, name: &str) {
    let tools = client.list_tools().await.unwrap();
    let listed: Vec<Value> = tools
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(listed, [expected_tool(name)]);
    let r = client
        .call_tool(name, json!({"day": "2026-12-04", "service": "api gw"}))
        .await
        .unwrap();
    assert_eq!((r.is_error, text(&r)), (None, "api gw on 2026-12-04: ok"));
    let r = client
        .call_tool(name, json!({"day": "2026-12-04"}))
        .await
        .unwrap();
    assert_eq!(
        (r.is_error, text(&r)),
        (
            Some(true),
            &*format!("invalid arguments for tool '{name}': missing required property 'service'")
        )
    );
    let r = client
        .call_tool(name, json!({"day": 4, "service": "api"}))
        .await
        .unwrap();
    assert_eq!(
        (r.is_error, text(&r)),
        (
            Some(true),
            &*format!(
                "invalid arguments for tool '{name}': property 'day': expected a string, got integer 4"
            )
        )
    );
}

#[tokio::test]
async fn a_local_template_is_a_tool_of_its_variables() {
    let server = Server::builder(server_info!())
        .resource(day_log::RESOURCE)
        .transform(ResourceTool::new("read_log", "logs://{day}/{service}"))
        .build()
        .unwrap();
    let client = server.connect_client(Client::builder()).await.unwrap();
    check(&client, "read_log").await;
    // The template is still a template.
    let templates = client.list_resource_templates().await.unwrap();
    assert_eq!(templates[0].uri_template, "logs://{day}/{service}");
}

#[tokio::test]
async fn a_mounted_template_is_a_tool_of_its_variables() {
    let backend = Server::builder(server_info!())
        .resource(day_log::RESOURCE)
        .build()
        .unwrap();
    let link = backend.connect_client(Client::builder()).await.unwrap();
    let gateway = Server::builder(server_info!())
        .mount_with(
            "up",
            link,
            MountOptions::new().transform(ResourceTool::new("read_log", "logs://{day}/{service}")),
        )
        .build()
        .unwrap();
    gateway.mounted().await;
    let client = gateway.connect_client(Client::builder()).await.unwrap();
    check(&client, "up.read_log").await;
}

#[tokio::test]
async fn a_resource_tool_naming_nothing_stops_the_build() {
    let err = Server::builder(server_info!())
        .resource(day_log::RESOURCE)
        .transform(ResourceTool::new("read_log", "logs://{day}"))
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid configuration: resource tool `read_log`: the server has no resource or template \
         `logs://{day}`"
    );
}
