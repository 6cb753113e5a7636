//! Every supported form of `#[widget]` and of the tool link.
use mcp_runtime::apps::{Html, MIME_TYPE, Visibility, Widget};
use mcp_runtime::prelude::*;

/// Inline HTML.
#[widget(uri = "ui://demo/inline.html")]
const INLINE: &str = "<!doctype html><html><body>hi</body></html>";

/// Included from a file, with every `_meta.ui` key.
#[widget(
    uri = "ui://demo/included.html",
    name = "included",
    title = "Included widget",
    description = "An included widget",
    prefers_border = false,
    domain = "abc123.example.com",
    csp(
        connect_domains = ["https://api.example.com", "wss://live.example.com:8443"],
        resource_domains = ["https://*.cdn.example.com"],
        frame_domains = ["https://player.example.com"],
        base_uri_domains = ["https://example.com"],
    ),
    permissions(camera, microphone, geolocation, clipboard_write),
)]
pub const INCLUDED: &str = include_str!("included.html");

/// Read from a file at every read.
#[widget(uri = "ui://demo/live", server = "admin")]
const LIVE: Html = Html::file("widgets/live.html");

mod nested {
    /// Visible from a parent module.
    #[mcp_runtime::widget(uri = "ui://demo/nested.html")]
    pub const NESTED: &str = "<!doctype html><html></html>";
}

/// Linked, default visibility.
#[tool(ui = INLINE)]
async fn show() -> String {
    "shown".into()
}

/// Linked through a path, app only.
#[tool(ui = nested::NESTED, visibility = "app")]
async fn save(id: u32) -> String {
    id.to_string()
}

/// Linked, both listed.
#[tool(ui = INCLUDED, visibility = ["model", "app"])]
async fn both() -> String {
    "both".into()
}

/// Model only.
#[tool(ui = LIVE, visibility = ["model"], server = "admin")]
async fn model_only() -> String {
    "model".into()
}

fn main() {
    assert_eq!(INLINE, "<!doctype html><html><body>hi</body></html>");
    assert_eq!(INLINE::RESOURCE.mime_type, Some(MIME_TYPE));
    assert_eq!(INLINE::RESOURCE.name, "inline");
    assert_eq!(INLINE::RESOURCE.meta, None);
    assert_eq!(INCLUDED::RESOURCE.name, "included");
    assert_eq!(
        INCLUDED::RESOURCE.meta,
        Some(
            r#"{"ui":{"csp":{"connectDomains":["https://api.example.com","wss://live.example.com:8443"],"resourceDomains":["https://*.cdn.example.com"],"frameDomains":["https://player.example.com"],"baseUriDomains":["https://example.com"]},"permissions":{"camera":{},"microphone":{},"geolocation":{},"clipboardWrite":{}},"domain":"abc123.example.com","prefersBorder":false}}"#
        )
    );
    assert_eq!(INCLUDED::SKYBRIDGE.uri, "ui://demo/included.skybridge.html");
    assert_eq!(<LIVE as Widget>::SKYBRIDGE_URI, "ui://demo/live.skybridge");
    assert_eq!(LIVE::RESOURCE.server, "admin");
    assert_eq!(show::TOOL.ui.unwrap().visibility, Visibility::MODEL_AND_APP);
    assert_eq!(save::TOOL.ui.unwrap().resource_uri, "ui://demo/nested.html");
    assert_eq!(save::TOOL.ui.unwrap().visibility, Visibility::APP_ONLY);
    assert_eq!(both::TOOL.ui.unwrap().visibility, Visibility::MODEL_AND_APP);
    assert_eq!(model_only::TOOL.ui.unwrap().visibility, Visibility::MODEL_ONLY);
    let _ = (LIVE, nested::NESTED);
}
