//! Errors that convert: tools, resources and prompts fail with the error type at hand. Strings
//! are messages written for the client and are shown; every other error (`std::error::Error`,
//! `BoxError`, `anyhow::Error`, and `?` on them into `ToolError` and kin) is masked with a
//! correlation id.

use mcp_runtime::prelude::*;
use serde_json::{Value, json};

use crate::{error_message, only_text, result};

/// Fails with a message.
#[tool(server = "it-errors")]
fn with_string(
    /// Anything
    text: String,
) -> Result<String, String> {
    Err(format!("{text:?} is not on the list"))
}

/// Fails with a fixed message.
#[tool(server = "it-errors")]
fn with_str() -> Result<String, &'static str> {
    Err("closed on Sundays")
}

/// Fails reading a file.
#[tool(server = "it-errors")]
fn with_box_error() -> Result<String, mcp_runtime::BoxError> {
    Ok(std::fs::read_to_string("/nonexistent/secret-path")?)
}

/// Fails with anyhow.
#[tool(server = "it-errors")]
fn with_anyhow() -> anyhow::Result<String> {
    anyhow::bail!("connection string postgres://admin:hunter2@db")
}

/// Parses with `?` into `ToolError`.
#[tool(server = "it-errors")]
fn with_question_mark(
    /// A number
    text: String,
) -> Result<String, ToolError> {
    if text.is_empty() {
        Err("give a number")?;
    }
    let n: u32 = text.parse()?;
    Ok((n * 2).to_string())
}

/// A yearly report.
#[resource(server = "it-errors", uri = "reports://{year}")]
async fn report(year: String) -> Result<String, ResourceError> {
    if year.len() != 4 {
        return Err(format!("'{year}' is not a year; use four digits").into());
    }
    let n: u16 = year.parse()?;
    Ok(format!("report {n}"))
}

/// Says hello, a few times.
#[prompt(server = "it-errors")]
async fn hello(
    /// How many times
    times: String,
) -> Result<String, PromptError> {
    let n: u32 = times.parse()?;
    if n > 3 {
        Err(format!("at most 3 times, not {n}"))?;
    }
    Ok("hello ".repeat(n as usize))
}

/// Refuses with a message.
#[prompt(server = "it-errors")]
async fn refuse() -> Result<String, &'static str> {
    Err("not now")
}

async fn client() -> mcp_runtime::transport::memory::TestClient {
    let server = Server::builder(server_info!())
        .tool(with_string::TOOL)
        .tool(with_str::TOOL)
        .tool(with_box_error::TOOL)
        .tool(with_anyhow::TOOL)
        .tool(with_question_mark::TOOL)
        .resource(report::RESOURCE)
        .prompt(hello::PROMPT)
        .prompt(refuse::PROMPT)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    client
}

/// The text of an `isError` result.
#[track_caller]
fn error_text(response: &Value, id: i64) -> String {
    let r = result(response, json!(id));
    assert_eq!(r["isError"], true, "{r}");
    only_text(&r).to_owned()
}

#[track_caller]
fn assert_masked(text: &str) {
    let id = text
        .strip_prefix("internal error, id ")
        .unwrap_or_else(|| panic!("not masked: {text}"));
    assert_eq!(id.len(), 8, "{text}");
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{text}");
}

#[tokio::test]
async fn strings_are_shown_to_the_model() {
    let mut client = client().await;
    let r = client
        .call_tool("with_string", json!({"text": "kiwi"}))
        .await;
    assert_eq!(error_text(&r, 2), "\"kiwi\" is not on the list");
    let r = client.call_tool("with_str", json!({})).await;
    assert_eq!(error_text(&r, 3), "closed on Sundays");
    let r = client
        .call_tool("with_question_mark", json!({"text": ""}))
        .await;
    assert_eq!(error_text(&r, 4), "give a number");
    let r = client
        .call_tool("with_question_mark", json!({"text": "21"}))
        .await;
    assert_eq!(only_text(&result(&r, json!(5))), "42");
}

#[tokio::test]
async fn other_errors_are_masked_with_a_correlation_id() {
    let mut client = client().await;
    let r = client.call_tool("with_box_error", json!({})).await;
    assert_masked(&error_text(&r, 2));
    let r = client.call_tool("with_anyhow", json!({})).await;
    assert_masked(&error_text(&r, 3));
    // `?` on a `ParseIntError` in a tool returning `ToolError`.
    let r = client
        .call_tool("with_question_mark", json!({"text": "many"}))
        .await;
    assert_masked(&error_text(&r, 4));
}

#[tokio::test]
async fn resources_and_prompts_show_strings_as_invalid_params_and_mask_the_rest() {
    let mut client = client().await;
    let r = client
        .request("resources/read", json!({"uri": "reports://20"}))
        .await;
    assert_eq!(
        error_message(&r, -32602, json!(2)),
        "'20' is not a year; use four digits"
    );
    let r = client
        .request("resources/read", json!({"uri": "reports://20x4"}))
        .await;
    assert_masked(&error_message(&r, -32603, json!(3)));
    let r = client
        .request(
            "prompts/get",
            json!({"name": "hello", "arguments": {"times": "9"}}),
        )
        .await;
    assert_eq!(
        error_message(&r, -32602, json!(4)),
        "at most 3 times, not 9"
    );
    let r = client
        .request(
            "prompts/get",
            json!({"name": "hello", "arguments": {"times": "x"}}),
        )
        .await;
    assert_masked(&error_message(&r, -32603, json!(5)));
    let r = client
        .request("prompts/get", json!({"name": "refuse"}))
        .await;
    assert_eq!(error_message(&r, -32602, json!(6)), "not now");
}
