//! Icons for implementations, tools, prompts and resources (2025-11-25+).

use serde::{Deserialize, Serialize};

/// An icon a client may display next to an item.
///
/// ```
/// use mcp_runtime_core::Icon;
///
/// let icon = Icon::new("https://example.com/icon.png").with_mime_type("image/png");
/// assert_eq!(
///     serde_json::to_string(&icon).unwrap(),
///     r#"{"src":"https://example.com/icon.png","mimeType":"image/png"}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// A URI (`https:` or `data:`) of the image.
    pub src: String,
    /// The MIME type, if the URI does not make it obvious.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `"48x48"` or `"any"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// The theme the icon is meant for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// An icon with only a source URI.
    pub fn new(src: impl Into<String>) -> Self {
        Self {
            src: src.into(),
            mime_type: None,
            sizes: None,
            theme: None,
        }
    }

    with_options! {
        with_mime_type => mime_type: String,
        with_sizes => sizes: Vec<String>,
        with_theme => theme: IconTheme,
    }
}

/// The background an icon is designed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum IconTheme {
    /// A light background.
    Light,
    /// A dark background.
    Dark,
}
