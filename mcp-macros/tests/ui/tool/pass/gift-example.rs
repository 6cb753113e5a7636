//! The full example of the design: a tool, a fixed resource, a resource template and a prompt.

use mcp_runtime::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Occasion {
    Birthday,
    Wedding,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
enum Tone {
    Warm,
    Formal,
}

impl std::str::FromStr for Tone {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "warm" => Ok(Tone::Warm),
            "formal" => Ok(Tone::Formal),
            other => Err(format!("unknown tone {other}")),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
struct GiftList {
    gifts: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
struct Gift {
    id: u32,
    name: String,
}

#[derive(Debug, Serialize)]
struct Catalog {
    gifts: Vec<Gift>,
}

/// Suggests gift ideas for a given occasion and budget.
#[tool(title = "Gift ideas generator", read_only)]
async fn suggest_gifts(
    /// The occasion, e.g. birthday or wedding
    occasion: Occasion,
    /// Budget in US dollars
    #[arg(min = 0, max = 100000)]
    budget: f64,
    /// Who the gift is for
    recipient: Option<String>,
    ctx: Context,
) -> Result<Json<GiftList>, ToolError> {
    let _ = ctx;
    let who = recipient.unwrap_or_default();
    Ok(Json(GiftList { gifts: vec![format!("{occasion:?} gift for {who} under {budget}")] }))
}

/// Base catalog of gifts
#[resource(uri = "mcp://gift-server/resources/gift_catalog", mime = "application/json")]
async fn gift_catalog() -> Json<Catalog> {
    Json(Catalog { gifts: vec![Gift { id: 1, name: "Book".into() }] })
}

/// One gift by id
#[resource(uri = "gifts://item/{id}")]
async fn gift(#[arg(complete = complete_gift_id)] id: u32) -> Result<Json<Gift>, ResourceError> {
    Ok(Json(Gift { id, name: "Book".into() }))
}

fn complete_gift_id(_req: &CompletionRequest) -> Vec<String> {
    vec!["1".into()]
}

/// Congratulations style guide
#[prompt]
async fn gift_congrats_style(
    /// Who is congratulated
    name: String,
    #[arg(complete = complete_tone)] tone: Option<Tone>,
) -> Vec<PromptMessage> {
    vec![PromptMessage::user(format!("Congratulate {name} in a {tone:?} tone"))]
}

fn complete_tone(_req: &CompletionRequest) -> Vec<String> {
    vec!["warm".into(), "formal".into()]
}

fn main() {
    let tool = suggest_gifts::TOOL;
    assert_eq!(tool.name, "suggest_gifts");
    assert_eq!(tool.title, Some("Gift ideas generator"));
    assert_eq!(tool.description, Some("Suggests gift ideas for a given occasion and budget."));
    assert_eq!(tool.hints.read_only, Some(true));
    assert_eq!(tool.hints.destructive, None);
    assert_eq!(tool.server, "");
    assert!(tool.location.file.ends_with("gift-example.rs"));

    let catalog = gift_catalog::RESOURCE;
    assert_eq!(catalog.uri, "mcp://gift-server/resources/gift_catalog");
    assert_eq!(catalog.mime_type, Some("application/json"));
    assert!(catalog.completions.is_empty());

    let item = gift::RESOURCE;
    assert_eq!(item.uri, "gifts://item/{id}");
    assert_eq!(item.completions.len(), 1);
    assert_eq!(item.completions[0].argument, "id");

    let prompt = gift_congrats_style::PROMPT;
    assert_eq!(prompt.arguments.len(), 2);
    assert_eq!(prompt.arguments[0].name, "name");
    assert_eq!(prompt.arguments[0].description, Some("Who is congratulated"));
    assert!(prompt.arguments[0].required);
    assert!(!prompt.arguments[1].required);
    assert_eq!(prompt.completions[0].argument, "tone");

    // The functions stay plain, directly callable functions.
    let _future = suggest_gifts;
    let _ = Server::builder(server_info!()).tool(suggest_gifts::TOOL).resource(gift::RESOURCE).prompt(gift_congrats_style::PROMPT);
}
