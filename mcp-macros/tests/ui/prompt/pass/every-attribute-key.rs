//! Every `#[prompt]` key and every `#[arg]` key a prompt accepts.

use mcp_runtime::prelude::*;

/// Writes a poem.
#[prompt(
    name = "poem",
    title = "Poem",
    description = "Writes a short poem.",
    icon = "https://example.com/p.png",
    meta = r#"{"k": true}"#,
    server = "poetry",
    timeout_ms = 1500,
    max_concurrency = 8,
)]
fn write_poem(
    /// What the poem is about
    #[arg(rename = "topic", title = "Topic", complete = complete_topic)]
    subject: String,
    /// How many lines
    #[arg(default = 4)]
    lines: u8,
    /// Style
    #[arg(default = "free verse")]
    style: String,
    mood: Option<String>,
    ctx: Context,
) -> Result<String, PromptError> {
    let _ = ctx;
    Ok(format!("{lines} lines of {style} about {subject} ({mood:?})"))
}

fn complete_topic(_req: &CompletionRequest) -> Vec<String> {
    vec!["sea".into()]
}

fn main() {
    let p = write_poem::PROMPT;
    assert_eq!(p.name, "poem");
    assert_eq!(p.title, Some("Poem"));
    assert_eq!(p.description, Some("Writes a short poem."));
    assert_eq!(p.icons.len(), 1);
    assert_eq!(p.meta, Some(r#"{"k": true}"#));
    assert_eq!(p.server, "poetry");
    assert_eq!(p.timeout_ms, Some(1500));
    assert_eq!(p.max_concurrency, Some(8));
    let names: Vec<_> = p.arguments.iter().map(|a| (a.name, a.required)).collect();
    assert_eq!(names, [("topic", true), ("lines", false), ("style", false), ("mood", false)]);
    assert_eq!(p.arguments[0].title, Some("Topic"));
    assert_eq!(p.arguments[0].description, Some("What the poem is about"));
    assert_eq!(p.completions[0].argument, "topic");
}
