//! `gift-server`: gift ideas for any occasion, over MCP.
//!
//! The items live in this library so that other apps can mount the same server (see
//! `examples/axum-mount`); the binary only runs [`server`]'s command line.
//!
//! ```text
//! cargo run -p gift-server -- call suggest_gifts '{"occasion":"birthday","budget":50}'
//! cargo run -p gift-server                  # serve MCP on stdio
//! cargo run -p gift-server -- list          # what a client sees
//! ```

pub mod catalog;

use catalog::{Catalog, Gift, Occasion};
use mcp_runtime::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;

/// Gift ideas that fit the request.
#[derive(Debug, Serialize, JsonSchema)]
struct GiftList {
    /// Matching gifts, cheapest first.
    gifts: Vec<Gift>,
    /// A one-line summary for the model.
    summary: String,
}

/// Gift ideas as cards, each with a "More ideas like this" button (MCP Apps widget; hosts
/// without apps show the tools' text instead).
#[widget(uri = "ui://gift-server/gift-cards.html", prefers_border = true)]
pub const GIFT_CARDS: &str = include_str!("../widgets/gift-cards.html");

/// Suggests gift ideas for a given occasion and budget.
#[tool(
    title = "Gift ideas generator",
    read_only,
    open_world = false,
    ui = GIFT_CARDS
)]
async fn suggest_gifts(
    /// The occasion
    occasion: Occasion,
    /// Budget in US dollars
    #[arg(min = 0)]
    budget: f64,
    /// Who the gift is for, e.g. "my sister"
    recipient: Option<String>,
) -> Result<Json<GiftList>, ToolError> {
    // A span of the handler's own: with the `otel` export on (`OTEL_EXPORTER_OTLP_ENDPOINT`),
    // it is exported as a child of the request's `tools/call suggest_gifts` span.
    let gifts: Vec<Gift> = tracing::info_span!("catalog.matching", occasion = occasion.as_str())
        .in_scope(|| {
            catalog::matching(occasion, budget)
                .into_iter()
                .cloned()
                .collect()
        });
    if gifts.is_empty() {
        let hint = catalog::cheapest(occasion).map_or(String::new(), |g| {
            format!("; the cheapest is {} at ${}", g.name, g.price)
        });
        return Err(ToolError::new(format!(
            "no {} gift fits a budget of ${budget}{hint}",
            occasion.as_str()
        )));
    }
    let who = recipient.map_or(String::new(), |r| format!(" for {r}"));
    let summary = format!("{} gift ideas{who} within ${budget}", gifts.len());
    Ok(Json(GiftList { gifts, summary }))
}

/// More gift ideas like one gift: same category first, then the same occasions, near its
/// price. Called by the gift cards widget's "More ideas like this" button.
#[tool(
    title = "More ideas like this",
    read_only,
    open_world = false,
    ui = GIFT_CARDS,
    visibility = "app"
)]
async fn more_like_this(
    /// The id of the gift to find relatives of
    gift_id: u32,
) -> Result<Json<GiftList>, ToolError> {
    let Some(base) = catalog::GIFTS.iter().find(|g| g.id == gift_id) else {
        return Err(ToolError::new(format!("no gift has the id {gift_id}")));
    };
    let gifts: Vec<Gift> = catalog::similar(base).into_iter().cloned().collect();
    let summary = format!("{} ideas like {} (${})", gifts.len(), base.name, base.price);
    Ok(Json(GiftList { gifts, summary }))
}

/// Base catalog of gifts with categories and prices
#[resource(
    uri = "mcp://gift-server/resources/gift_catalog",
    mime = "application/json"
)]
async fn gift_catalog() -> Json<Catalog> {
    Json(Catalog {
        gifts: catalog::GIFTS,
    })
}

/// One gift of the catalog, by id
#[resource(uri = "gifts://item/{id}", mime = "application/json")]
async fn gift(#[arg(complete = complete_gift_id)] id: u32) -> Result<Json<Gift>, ResourceError> {
    catalog::GIFTS
        .iter()
        .find(|g| g.id == id)
        .cloned()
        .map(Json)
        .ok_or(ResourceError::NotFound)
}

fn complete_gift_id(req: &CompletionRequest) -> Vec<String> {
    catalog::GIFTS
        .iter()
        .map(|g| g.id.to_string())
        .filter(|id| id.starts_with(req.value()))
        .collect()
}

/// Style guide for congratulations that go with a gift
#[prompt(title = "Congratulations style")]
async fn gift_congrats_style(
    /// Who is congratulated
    name: String,
    /// The occasion
    #[arg(complete = complete_occasion)]
    occasion: Option<String>,
    /// Tone: warm, formal or funny
    #[arg(complete = complete_tone)]
    tone: Option<String>,
) -> Vec<PromptMessage> {
    let occasion = occasion.unwrap_or_else(|| "birthday".into());
    let tone = tone.unwrap_or_else(|| "warm".into());
    vec![PromptMessage::user(format!(
        "Write a short, {tone} {occasion} congratulation for {name} to go with a gift. \
         Two or three sentences, no clichés, mention the gift only in passing."
    ))]
}

fn complete_occasion(req: &CompletionRequest) -> Vec<String> {
    let all = [
        "anniversary",
        "birthday",
        "graduation",
        "holiday",
        "housewarming",
        "wedding",
    ];
    all.iter()
        .filter(|o| o.starts_with(req.value()))
        .map(|o| (*o).to_owned())
        .collect()
}

fn complete_tone(req: &CompletionRequest) -> Vec<String> {
    ["warm", "formal", "funny"]
        .iter()
        .filter(|t| t.starts_with(req.value()))
        .map(|t| (*t).to_owned())
        .collect()
}

/// The gift server: every item of this crate, with its instructions.
///
/// ```
/// let server = gift_server::server().build().unwrap();
/// assert_eq!(server.info().name, "gift-server");
/// ```
///
/// With `GIFT_SERVER_OPENAI=1` in the environment it also speaks the OpenAI Apps SDK dialect of
/// widgets (the `openai/*` aliases and a `text/html+skybridge` twin of the gift cards), for
/// ChatGPT builds that predate MCP Apps.
pub fn server() -> mcp_runtime::ServerBuilder {
    let openai = std::env::var_os("GIFT_SERVER_OPENAI").is_some_and(|v| v == "1");
    let info = server_info!().with_title("Gift ideas").with_website_url(
        "https://github.com/mcp-runtime/mcp-runtime/tree/main/examples/gift-server",
    );
    // The Server Card (`gift-server server-card`, `GET /mcp/server-card`); its remote is
    // `MCP_PUBLIC_URL` when set, a template otherwise.
    let card = mcp_runtime::card::CardOptions::new("io.github.mcp-runtime/gift-server").repository(
        mcp_runtime::protocol::server_card::Repository::new(
            "github",
            "https://github.com/mcp-runtime/mcp-runtime",
        )
        .with_subfolder("examples/gift-server"),
    );
    Server::from_registry(info)
        .card(card)
        // The `choosing-a-gift` skill (its files under `skills/`, embedded at compile time):
        // hosts that load skills read how to use the tool and the catalog together.
        .skills(mcp_runtime::skills!("skills"))
        .apps(mcp_runtime::apps::AppsOptions::new().skybridge(openai))
        .instructions(
            "Suggests gifts for an occasion and budget. Read the gift catalog resource for what \
         exists; use the gift_congrats_style prompt for a card text. The skill \
         skill://choosing-a-gift/SKILL.md says how to choose within a budget.",
        )
}
