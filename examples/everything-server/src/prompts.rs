//! Prompts and argument completion (FIXTURES.md §2, §5).

use mcp_runtime::prelude::*;

use crate::media::PNG_BASE64;

/// A simple prompt without arguments.
#[prompt]
async fn test_simple_prompt() -> Vec<PromptMessage> {
    vec![PromptMessage::user("This is a simple prompt for testing.")]
}

/// A prompt with two required arguments.
#[prompt]
async fn test_prompt_with_arguments(
    /// First test argument
    #[arg(complete = complete_arg1)]
    arg1: String,
    /// Second test argument
    arg2: String,
) -> Vec<PromptMessage> {
    vec![PromptMessage::user(format!(
        "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
    ))]
}

/// Candidate values for `arg1`: those starting with what was typed.
fn complete_arg1(req: &CompletionRequest) -> Vec<String> {
    ["paris", "park", "party", "test", "testing", "tested"]
        .iter()
        .filter(|v| v.starts_with(req.value()))
        .map(|v| (*v).to_owned())
        .collect()
}

/// A prompt that embeds a resource.
#[prompt]
async fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    #[arg(rename = "resourceUri")]
    resource_uri: String,
) -> Vec<PromptMessage> {
    let embedded = ResourceContents::text(resource_uri, "Embedded resource content for testing.")
        .with_mime_type("text/plain");
    vec![
        PromptMessage::new(Role::User, ContentBlock::embedded(embedded)),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt that shows an image.
#[prompt]
async fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::new(Role::User, ContentBlock::image(PNG_BASE64, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}
