//! The definitions a server and its clients share: tools declared once, with `#[typed_tool]`
//! above `#[tool]`, so that the server binary (`typed-server`) serves them and the client binary
//! (`typed-client`) calls them with the same Rust types: `SuggestGiftsArgs` in, `Ideas` out.
//! A change of a tool's signature here is a compile error in every client
//! (`tests/ui/stale-client.rs`).

use mcp_runtime::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the gift is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Occasion {
    /// A birthday.
    Birthday,
    /// A wedding.
    Wedding,
}

/// One gift idea.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Idea {
    /// What to give.
    pub name: String,
    /// Its price in US dollars.
    pub price: f64,
}

/// Gift ideas within a budget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Ideas {
    /// Matching ideas, cheapest first.
    pub ideas: Vec<Idea>,
    /// A one-line summary.
    pub summary: String,
}

const CATALOG: &[(Occasion, &str, f64)] = &[
    (Occasion::Birthday, "Book", 15.0),
    (Occasion::Birthday, "Board game", 35.0),
    (Occasion::Birthday, "Headphones", 80.0),
    (Occasion::Wedding, "Vase", 40.0),
    (Occasion::Wedding, "Espresso machine", 250.0),
];

/// Suggests gift ideas for an occasion within a budget.
#[typed_tool]
#[tool(read_only)]
pub async fn suggest_gifts(
    /// The occasion
    occasion: Occasion,
    /// Budget in US dollars
    budget: f64,
    /// Who the gift is for
    recipient: Option<String>,
) -> Result<Json<Ideas>, ToolError> {
    let ideas: Vec<Idea> = CATALOG
        .iter()
        .filter(|(o, _, price)| *o == occasion && *price <= budget)
        .map(|(_, name, price)| Idea {
            name: (*name).to_owned(),
            price: *price,
        })
        .collect();
    if ideas.is_empty() {
        return Err(ToolError::new(format!(
            "nothing fits a budget of ${budget}"
        )));
    }
    let who = recipient.map_or(String::new(), |r| format!(" for {r}"));
    let summary = format!("{} ideas{who} within ${budget}", ideas.len());
    Ok(Json(Ideas { ideas, summary }))
}

/// Greets someone by name.
#[typed_tool]
#[tool]
pub async fn greet(
    /// Who to greet
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// The server of these tools.
///
/// ```
/// let server = typed_calls::server().build().unwrap();
/// assert_eq!(server.tool_names().collect::<Vec<_>>(), ["greet", "suggest_gifts"]);
/// ```
pub fn server() -> mcp_runtime::ServerBuilder {
    Server::builder(server_info!())
        .tool(suggest_gifts::TOOL)
        .tool(greet::TOOL)
}
