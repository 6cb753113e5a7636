//! Every `#[tool]` key and every `#[arg]` key a tool accepts, with `#[ctx]`.

use mcp_runtime::prelude::*;
use mcp_runtime::{FromContext, HandlerError};

/// A custom injected type.
pub struct RequestTag;

impl FromContext for RequestTag {
    fn from_context(_ctx: &Context) -> Result<Self, HandlerError> {
        Ok(RequestTag)
    }
}

pub struct Db;

/// Paging, spread as top-level properties.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Paging {
    /// The page
    page: Option<u32>,
}

/// Looks things up.
#[tool(
    name = "look.up-v2",
    title = "Look up",
    description = "Looks up a key in the store.",
    read_only,
    destructive = false,
    idempotent = true,
    open_world = false,
    icon = "https://example.com/icon.png",
    icon(src = "data:image/png;base64,AA==", mime = "image/png", sizes = ["16x16", "any"], theme = "dark"),
    meta = r#"{"team": "search", "rank": 1}"#,
    server = "admin",
    timeout_ms = 5000,
    max_concurrency = 4,
    allow_unknown_args,
    task = "optional",
)]
pub async fn look_up(
    /// The key to look up
    #[arg(rename = "lookupKey", title = "Key", pattern = "^[a-z]+$", header = "Key")]
    key: String,
    /// How many results
    #[arg(default = 10, min = 1, max = 100)]
    limit: u32,
    /// Minimum score
    #[arg(default = 0, min = -1.5, max = 1)]
    threshold: f64,
    /// Language
    #[arg(default = "en")]
    mut lang: String,
    /// Optional filter
    #[arg(pattern = "^[a-z]*$")]
    filter: Option<String>,
    #[arg(min = 0)]
    offset: Option<u64>,
    #[arg(flatten)]
    paging: Paging,
    #[ctx] tag: RequestTag,
    ctx: Context,
    db: State<Db>,
) -> Result<String, ToolError> {
    let _ = (tag, ctx, db, filter, offset, paging.page);
    lang.push('!');
    Ok(format!("{key} {limit} {threshold} {lang}"))
}

fn main() {
    let tool = look_up::TOOL;
    assert_eq!(tool.name, "look.up-v2");
    assert_eq!(tool.title, Some("Look up"));
    assert_eq!(tool.description, Some("Looks up a key in the store."));
    assert_eq!(tool.hints.read_only, Some(true));
    assert_eq!(tool.hints.destructive, Some(false));
    assert_eq!(tool.hints.idempotent, Some(true));
    assert_eq!(tool.hints.open_world, Some(false));
    assert_eq!(tool.icons.len(), 2);
    assert_eq!(tool.icons[0].src, "https://example.com/icon.png");
    assert_eq!(tool.icons[1].sizes, ["16x16", "any"]);
    assert_eq!(tool.icons[1].theme, Some("dark"));
    assert_eq!(tool.icons[1].mime_type, Some("image/png"));
    assert_eq!(tool.meta, Some(r#"{"team": "search", "rank": 1}"#));
    assert_eq!(tool.server, "admin");
    assert_eq!(tool.timeout_ms, Some(5000));
    assert_eq!(tool.max_concurrency, Some(4));
    assert_eq!(tool.allow_unknown_args, Some(true));
    assert_eq!(tool.task_support, mcp_runtime::protocol::tasks::TaskSupport::Optional);
    let mut needs = mcp_runtime::StateNeeds::new();
    (tool.state_needs)(&mut needs);
    assert_eq!(needs.type_names().collect::<Vec<_>>(), [std::any::type_name::<Db>()]);

    let mut generator = schemars::SchemaGenerator::default();
    let mcp_runtime::registry::InputSchema::Generated(schema) = tool.input_schema else { panic!("generated") };
    let schema = serde_json::to_value(schema(&mut generator)).unwrap();
    let properties = &schema["properties"];
    assert_eq!(properties["lookupKey"]["description"], "The key to look up");
    assert_eq!(properties["lookupKey"]["title"], "Key");
    assert_eq!(properties["lookupKey"]["pattern"], "^[a-z]+$");
    assert_eq!(properties["lookupKey"]["x-mcp-header"], "Key");
    assert_eq!(properties["limit"]["default"], 10);
    assert_eq!(properties["limit"]["minimum"], 1);
    assert_eq!(properties["limit"]["maximum"], 100);
    assert_eq!(properties["threshold"]["minimum"], -1.5);
    assert_eq!(properties["threshold"]["default"], 0.0);
    assert_eq!(properties["lang"]["default"], "en");
    assert_eq!(properties["page"]["description"], "The page");
    assert!(properties.get("tag").is_none());
    assert!(properties.get("ctx").is_none());
    assert!(properties.get("db").is_none());
    assert_eq!(schema["required"], serde_json::json!(["lookupKey"]));
}
