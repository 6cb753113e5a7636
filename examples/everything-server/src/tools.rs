//! Tools that need nothing from the client: content of every kind, errors, progress, logging,
//! the JSON Schema 2020-12 escape hatch and the custom-header tool (FIXTURES.md §3.1, §3.3,
//! §3.4, §3.6).

use std::time::Duration;

use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ErrorObject;
use mcp_runtime::protocol::jsonrpc::error_codes;
use mcp_runtime::{HandlerError, ListChanged};

use crate::media::{PNG_BASE64, WAV_BASE64};

/// Pause between the steps of the progress and logging tools.
const STEP: Duration = Duration::from_millis(50);

/// Returns a simple text response.
#[tool(read_only)]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns a 1x1 PNG image.
#[tool(read_only)]
async fn test_image_content() -> ContentBlock {
    ContentBlock::image(PNG_BASE64, "image/png")
}

/// Returns a short WAV clip.
#[tool(read_only)]
async fn test_audio_content() -> ContentBlock {
    ContentBlock::audio(WAV_BASE64, "audio/wav")
}

/// Returns an embedded text resource.
#[tool(read_only)]
async fn test_embedded_resource() -> ContentBlock {
    ContentBlock::embedded(
        ResourceContents::text(
            "test://embedded-resource",
            "This is an embedded resource content.",
        )
        .with_mime_type("text/plain"),
    )
}

/// Returns text, an image and an embedded JSON resource in one result.
#[tool(read_only)]
async fn test_multiple_content_types() -> Vec<ContentBlock> {
    vec![
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image(PNG_BASE64, "image/png"),
        ContentBlock::embedded(
            ResourceContents::text(
                "test://mixed-content-resource",
                r#"{"test":"data","value":123}"#,
            )
            .with_mime_type("application/json"),
        ),
    ]
}

/// Always fails with a tool error (a result with `isError: true`).
#[tool(read_only)]
async fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Reports progress 0, 50 and 100 of 100, then answers.
#[tool(read_only)]
async fn test_tool_with_progress(ctx: Context) -> &'static str {
    for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(STEP).await;
        }
        ctx.progress(
            step,
            Some(100.0),
            Some(&format!("Completed step {step} of 100")),
        )
        .await;
    }
    "Progress test completed"
}

/// Logs three info messages while it works, then answers.
#[tool(read_only)]
async fn test_tool_with_logging(ctx: Context) -> &'static str {
    let steps = [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ];
    for (i, message) in steps.into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(STEP).await;
        }
        ctx.log(LoggingLevel::Info, message).await;
    }
    "Logging test completed"
}

/// Accepts an object whose schema uses JSON Schema 2020-12 features ($defs, $anchor, $ref,
/// composition and conditionals); the schema is served verbatim.
#[tool(input_schema = r##"{
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {
                "street": { "type": "string" },
                "city": { "type": "string" }
            }
        }
    },
    "properties": {
        "name": { "type": "string" },
        "address": { "$ref": "#/$defs/address" },
        "contactMethod": { "type": "string", "enum": ["phone", "email"] },
        "phone": { "type": "string" },
        "email": { "type": "string" }
    },
    "allOf": [
        { "anyOf": [ { "required": ["phone"] }, { "required": ["email"] } ] }
    ],
    "if": {
        "properties": { "contactMethod": { "const": "phone" } },
        "required": ["contactMethod"]
    },
    "then": { "required": ["phone"] },
    "else": { "required": ["email"] },
    "additionalProperties": false
}"##)]
async fn json_schema_2020_12_tool(args: serde_json::Value) -> String {
    format!("JSON Schema 2020-12 tool called with: {args}")
}

/// Echoes a region that the client also mirrors in the `Mcp-Param-Region` header.
#[tool(read_only)]
async fn test_custom_header(
    /// A region name, e.g. "eu-west-1"; mirrored in the `Mcp-Param-Region` header
    #[arg(header = "Region")]
    region: String,
) -> String {
    format!("Region: {region}")
}

/// Needs the client's `sampling` capability: fails with -32021 when the request does not declare
/// it.
#[tool(read_only)]
async fn test_missing_capability(ctx: Context) -> Result<&'static str, HandlerError> {
    let declared = ctx
        .client_capabilities()
        .is_some_and(|caps| caps.sampling.is_some());
    if !declared {
        return Err(HandlerError::Protocol(
            ErrorObject::new(
                error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY,
                "MissingRequiredClientCapabilityError: this tool needs the client's `sampling` capability",
            )
            .with_data(serde_json::json!({ "requiredCapabilities": { "sampling": {} } })),
        ));
    }
    Ok("The client declared the sampling capability")
}

/// Streams its answer: a log message and progress first (when the client asked for them), then
/// the result; never a request to the client.
#[tool(read_only)]
async fn test_streaming_elicitation(ctx: Context) -> &'static str {
    ctx.progress(50.0, Some(100.0), Some("streaming")).await;
    ctx.log(LoggingLevel::Info, "Streaming response started")
        .await;
    tokio::time::sleep(STEP).await;
    ctx.progress(100.0, Some(100.0), Some("streamed")).await;
    "Streaming elicitation test completed"
}

/// Logs one info message (sent only when the request asks for log messages), then answers.
#[tool(read_only)]
async fn test_logging_tool(ctx: Context) -> &'static str {
    ctx.log(LoggingLevel::Info, "Logging tool executed").await;
    "Logging tool completed"
}

/// Announces a change of the tool list to every `subscriptions/listen` stream that asked for
/// `toolsListChanged` (and to every handshake-era session).
#[tool]
async fn test_trigger_tool_change(ctx: Context) -> &'static str {
    ctx.server().notify_list_changed(ListChanged::Tools);
    "Sent notifications/tools/list_changed"
}

/// Announces a change of the prompt list to every `subscriptions/listen` stream that asked for
/// `promptsListChanged` (and to every handshake-era session).
#[tool]
async fn test_trigger_prompt_change(ctx: Context) -> &'static str {
    ctx.server().notify_list_changed(ListChanged::Prompts);
    "Sent notifications/prompts/list_changed"
}

/// Takes its time: reports progress 0 at once (when asked), sleeps `duration_ms` milliseconds
/// (at most one minute), then answers. For shutdown and cancellation tests.
#[tool(read_only)]
async fn test_slow_call(
    ctx: Context,
    /// How long the call takes, in milliseconds (at most 60000)
    duration_ms: u64,
) -> String {
    ctx.progress(0.0, Some(1.0), Some("started")).await;
    tokio::time::sleep(Duration::from_millis(duration_ms.min(60_000))).await;
    format!("Slow call completed after {} ms", duration_ms.min(60_000))
}
