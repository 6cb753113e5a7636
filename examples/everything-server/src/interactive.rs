//! Tools that ask the client (sampling, form elicitation) or need its transport's cooperation
//! (SSE reconnection) (FIXTURES.md §3.2).
//!
//! The suites call them in the handshake era, where each question is a request to the client on
//! the call's stream; the same bodies answer `input_required` in the stateless era.

use mcp_runtime::prelude::*;
use mcp_runtime::protocol::client::{SamplingContent, SamplingContentBlock};
use mcp_runtime::protocol::{CreateMessageRequestParams, CreateMessageResult, SamplingMessage};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The text blocks of a sampling result, joined by spaces.
pub(crate) fn sampled_text(result: &CreateMessageResult) -> String {
    let blocks = match &result.content {
        SamplingContent::Single(block) => std::slice::from_ref(block),
        SamplingContent::Multiple(blocks) => blocks.as_slice(),
    };
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|block| match block {
            SamplingContentBlock::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect();
    texts.join(" ")
}

/// What the user did, with `show` describing an accepted form.
fn describe<T>(answer: Elicitation<T>, show: impl FnOnce(T) -> String) -> String {
    match answer {
        Elicitation::Accept(content) => format!("accepted {}", show(content)),
        Elicitation::Decline => "declined".to_owned(),
        Elicitation::Cancel => "cancelled".to_owned(),
    }
}

/// Asks the client's model to answer a prompt (`sampling/createMessage`).
#[tool]
async fn test_sampling(
    /// The prompt to send to the model
    prompt: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let request = CreateMessageRequestParams::new(vec![SamplingMessage::user(prompt)], 100);
    let result = ctx.sample(request).await?;
    Ok(format!("LLM response: {}", sampled_text(&result)))
}

// The user's contact details (the doc comments of the fields are the form's labels).
#[derive(Debug, Deserialize, JsonSchema)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the user for a username and an email address (form elicitation).
#[tool]
async fn test_elicitation(
    /// The message to show the user
    message: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let answer = ctx.elicit::<UserInfo>(message).await?;
    let text = describe(answer, |u| {
        format!("username={}, email={}", u.username, u.email)
    });
    Ok(format!("User response: {text}"))
}

// A form whose fields all have defaults (SEP-1034), derived from the struct.
#[derive(Debug, Deserialize, JsonSchema)]
struct Defaults {
    /// User name
    #[serde(default = "default_name")]
    name: String,
    /// User age
    #[serde(default = "default_age")]
    age: i64,
    /// User score
    #[serde(default = "default_score")]
    score: f64,
    /// User status
    #[serde(default)]
    status: Status,
    /// Verification status
    #[serde(default = "default_verified")]
    verified: bool,
}

// A user's status.
#[derive(Debug, Default, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

fn default_name() -> String {
    "John Doe".to_owned()
}

fn default_age() -> i64 {
    30
}

fn default_score() -> f64 {
    95.5
}

fn default_verified() -> bool {
    true
}

/// Asks for a form whose fields carry default values (SEP-1034).
#[tool]
async fn test_elicitation_sep1034_defaults(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Defaults>("Please review and update the form fields with defaults")
        .await?;
    let text = describe(answer, |d| {
        format!(
            "name={}, age={}, score={}, status={:?}, verified={}",
            d.name, d.age, d.score, d.status, d.verified
        )
    });
    Ok(format!("Elicitation completed: {text}"))
}

/// Asks for a form with every enum style of SEP-1330: untitled and titled, single and multiple
/// choice, and the legacy `enumNames`.
#[tool]
async fn test_elicitation_sep1330_enums(ctx: Context) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string",
                "description": "Choose an option",
                "enum": ["option1", "option2", "option3"]
            },
            "titledSingle": {
                "type": "string",
                "description": "Choose a titled option",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}
                ]
            },
            "legacyEnum": {
                "type": "string",
                "description": "Choose a legacy option",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array",
                "description": "Choose multiple options",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
            },
            "titledMulti": {
                "type": "array",
                "description": "Choose multiple titled options",
                "minItems": 1,
                "maxItems": 3,
                "items": {"anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"}
                ]}
            }
        },
        "required": []
    });
    let answer = ctx
        .elicit::<Map<String, Value>>("Please select options from the enum fields")
        .schema(schema)
        .await?;
    Ok(format!(
        "Elicitation completed: {}",
        describe(answer, |m| Value::Object(m).to_string())
    ))
}

/// Closes its SSE stream mid-call (server-initiated disconnect, SEP-1699) and answers once the
/// client has reconnected with `Last-Event-ID`.
#[tool]
async fn test_reconnection(ctx: Context) -> &'static str {
    ctx.close_stream().await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    "Reconnection test completed"
}
