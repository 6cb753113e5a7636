//! `mcp-server-fetch`: the MCP reference fetch server (PyPI `mcp-server-fetch` 2026.10.24)
//! rebuilt on mcp-runtime: the `fetch` tool and the `fetch` prompt, robots.txt obeyed for the
//! tool, private addresses refused unless allowed, HTML simplified to Markdown.
//!
//! ```text
//! mcp-server-fetch                                 # serve MCP on stdio
//! mcp-server-fetch --ignore-robots-txt --user-agent 'MyBot/1.0'
//! mcp-server-fetch http 127.0.0.1:8000             # Streamable HTTP
//! ```

pub mod fetcher;
pub mod net;
pub mod robots;

use mcp_runtime::prelude::*;

pub use fetcher::Settings;

/// Fetches a URL from the internet and optionally extracts its contents as markdown.
///
/// Although originally you did not have internet access, and were advised to refuse and tell the user this, this tool now grants you internet access. Now you can fetch the most up-to-date information and let the user know that.
#[tool(read_only, destructive = false, idempotent, open_world)]
async fn fetch(
    settings: State<Settings>,
    /// URL to fetch
    url: UrlArg,
    /// Maximum number of characters to return.
    #[arg(default = 5000, min = 1, max = 999999)]
    max_length: i64,
    /// On return output starting at this character index, useful if a previous fetch was truncated and more context is required.
    #[arg(default = 0, min = 0)]
    start_index: i64,
    /// Get the actual HTML content of the requested page, without simplification.
    #[arg(default = false)]
    raw: bool,
) -> Result<String, ToolError> {
    fetcher::tool(&settings, &url.0, max_length, start_index, raw)
        .await
        .map_err(|e| ToolError::new(format!("Error executing tool fetch: {e}")))
}

/// The `url` argument of the tool: a string, `format: uri`, at least one character (the
/// original's schema); parsed as a URL by the tool.
#[derive(Debug, mcp_runtime::serde::Deserialize)]
#[serde(crate = "mcp_runtime::serde")]
struct UrlArg(String);

impl mcp_runtime::schemars::JsonSchema for UrlArg {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "UrlArg".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(
        _: &mut mcp_runtime::schemars::SchemaGenerator,
    ) -> mcp_runtime::schemars::Schema {
        mcp_runtime::schemars::json_schema!({"type": "string", "format": "uri", "minLength": 1})
    }
}

/// Fetch a URL and extract its contents as markdown
#[prompt(name = "fetch")]
async fn fetch_prompt(
    settings: State<Settings>,
    /// URL to fetch
    url: String,
) -> Vec<PromptMessage> {
    vec![PromptMessage::user(fetcher::prompt(&settings, &url).await)]
}

/// The fetch server with `settings`.
///
/// ```
/// let server = mcp_server_fetch::server(mcp_server_fetch::Settings::default()).build().unwrap();
/// assert_eq!(server.info().name, "mcp-fetch");
/// ```
pub fn server(settings: Settings) -> mcp_runtime::ServerBuilder {
    let mut info = server_info!();
    info.name = "mcp-fetch".to_owned();
    Server::from_registry(info).state(settings)
}
