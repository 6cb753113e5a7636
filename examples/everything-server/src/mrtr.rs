//! Multi round-trip requests of the stateless era (FIXTURES.md §3.5): tools and a prompt that
//! ask the client through `ctx.elicit`, `ctx.sample` and `ctx.roots`.
//!
//! Each body is written once, as if the answers were awaited. In the 2026-07-28 era the runtime
//! answers `input_required` with the named `inputRequests` and a sealed `requestState`, and runs
//! the body again when the client retries with `inputResponses`; questions started together
//! (`tokio::join!`) go out in the same round.

use mcp_runtime::prelude::*;
use mcp_runtime::protocol::{CreateMessageRequestParams, SamplingMessage};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::interactive::sampled_text;

// A form with one required `name`.
#[derive(Debug, Deserialize, JsonSchema)]
struct NameForm {
    name: String,
}

// A form with one required `ok` flag.
#[derive(Debug, Deserialize, JsonSchema)]
struct ConfirmForm {
    ok: bool,
}

// A form with one required `color`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ColorForm {
    color: String,
}

// A form with one required `value`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ValueForm {
    value: String,
}

// A form with one required `context`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ContextForm {
    context: String,
}

/// The accepted value, or a tool error naming what the user did instead.
fn accepted<T>(answer: Elicitation<T>) -> Result<T, ToolError> {
    match answer {
        Elicitation::Accept(value) => Ok(value),
        Elicitation::Decline => Err(ToolError::new("the user declined")),
        Elicitation::Cancel => Err(ToolError::new("the user cancelled")),
    }
}

/// A one-message sampling request.
fn ask_model(text: &str, max_tokens: u64) -> CreateMessageRequestParams {
    CreateMessageRequestParams::new(vec![SamplingMessage::user(text)], max_tokens)
}

/// Asks the user's name through an input request, then greets them.
#[tool]
async fn test_input_required_result_elicitation(ctx: Context) -> Result<String, ToolError> {
    let form = accepted(
        ctx.elicit::<NameForm>("What is your name?")
            .key("user_name")
            .await?,
    )?;
    Ok(format!("Hello, {}!", form.name))
}

/// Asks the client's model a question through an input request.
#[tool]
async fn test_input_required_result_sampling(ctx: Context) -> Result<String, ToolError> {
    let request = ask_model("What is the capital of France?", 100);
    let answer = ctx.sample(request).key("capital_question").await?;
    Ok(format!("Sampling result: {}", sampled_text(&answer)))
}

/// Asks the client for its roots through an input request.
#[tool]
async fn test_input_required_result_list_roots(ctx: Context) -> Result<String, ToolError> {
    let roots = ctx.roots().key("client_roots").await?;
    let names: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    Ok(format!(
        "Found {} root(s): {}",
        roots.len(),
        names.join(", ")
    ))
}

/// Asks for a confirmation; the retry must echo the sealed `requestState`.
#[tool]
async fn test_input_required_result_request_state(ctx: Context) -> Result<String, ToolError> {
    let form = accepted(
        ctx.elicit::<ConfirmForm>("Please confirm")
            .key("confirm")
            .await?,
    )?;
    Ok(if form.ok {
        "state-ok: requestState validated".to_owned()
    } else {
        "state-ok: requestState validated, not confirmed".to_owned()
    })
}

/// Asks for a name, a greeting from the model and the roots, all in one round.
#[tool]
async fn test_input_required_result_multiple_inputs(ctx: Context) -> Result<String, ToolError> {
    let (name, greeting, roots) = tokio::join!(
        ctx.elicit::<NameForm>("What is your name?")
            .key("user_name"),
        ctx.sample(ask_model("Generate a greeting", 50))
            .key("greeting"),
        ctx.roots().key("client_roots"),
    );
    let name = accepted(name?)?.name;
    let greeting = sampled_text(&greeting?);
    let roots = roots?.len();
    Ok(format!(
        "Name: {name}; Greeting: {greeting}; Roots: {roots}"
    ))
}

/// Asks for a name, then, in a second round, for a favourite colour.
#[tool]
async fn test_input_required_result_multi_round(ctx: Context) -> Result<String, ToolError> {
    let name = accepted(
        ctx.elicit::<NameForm>("Step 1: What is your name?")
            .key("step1")
            .await?,
    )?
    .name;
    let color = accepted(
        ctx.elicit::<ColorForm>("Step 2: What is your favorite color?")
            .key("step2")
            .await?,
    )?
    .color;
    Ok(format!("Multi-round complete for {name} who likes {color}"))
}

/// Asks for a confirmation under a sealed `requestState`; an altered state is rejected with
/// -32602 before this body runs again.
#[tool]
async fn test_input_required_result_tampered_state(ctx: Context) -> Result<String, ToolError> {
    accepted(
        ctx.elicit::<ConfirmForm>("Please confirm")
            .key("confirm")
            .await?,
    )?;
    Ok("integrity-ok: state verified".to_owned())
}

/// Asks only what the request's client capabilities allow: a value (elicitation) and a model
/// answer (sampling).
#[tool]
async fn test_input_required_result_capabilities(ctx: Context) -> Result<String, ToolError> {
    let caps = ctx.client_capabilities();
    let can_elicit = caps.is_some_and(|c| c.elicitation.is_some());
    let can_sample = caps.is_some_and(|c| c.sampling.is_some());
    if !can_elicit && !can_sample {
        return Ok("No supported capabilities declared".to_owned());
    }
    let elicit = async {
        if can_elicit {
            Some(
                ctx.elicit::<ValueForm>("Please provide a value")
                    .key("elicit_input")
                    .await,
            )
        } else {
            None
        }
    };
    let sample = async {
        if can_sample {
            Some(
                ctx.sample(ask_model("Sample request", 50))
                    .key("sample_input")
                    .await,
            )
        } else {
            None
        }
    };
    let (value, sampled) = tokio::join!(elicit, sample);
    let mut received = Vec::new();
    if let Some(value) = value {
        let value = accepted(value?)?.value;
        received.push(format!("elicit_input ({value})"));
    }
    if let Some(sampled) = sampled {
        received.push(format!("sample_input ({})", sampled_text(&sampled?)));
    }
    Ok(format!("capabilities-ok: received {}", received.join(", ")))
}

/// A prompt that asks the user which context to use before it is rendered.
#[prompt]
async fn test_input_required_result_prompt(
    ctx: Context,
) -> Result<Vec<PromptMessage>, InteractionError> {
    let answer = ctx
        .elicit::<ContextForm>("What context should the prompt use?")
        .key("user_context")
        .await?;
    let context = match answer {
        Elicitation::Accept(form) => form.context,
        Elicitation::Decline | Elicitation::Cancel => "none".to_owned(),
    };
    Ok(vec![PromptMessage::user(format!(
        "Prompt with context: {context}"
    ))])
}
