//! The `_meta` keys of widget-linked tools and widget resources, the OpenAI aliases, and the
//! capability: applied once, when the catalog is built.

use mcp_core::{Meta, ServerCapabilities};
use serde_json::{Value, json};

use super::{AppsOptions, EXTENSION_ID, MIME_TYPE, SKYBRIDGE_MIME_TYPE, ToolUi};

/// Adds `_meta.ui` (and the aliases) of a widget-linked tool to its `_meta`. A `ui` key given
/// by hand in `meta` as well is refused: the two would disagree.
pub(crate) fn tool_meta(
    ui: Option<ToolUi>,
    options: &AppsOptions,
    meta: &mut Option<Meta>,
) -> Result<(), String> {
    let Some(ui) = ui else { return Ok(()) };
    if !ui.visibility.model && !ui.visibility.app {
        return Err("a widget-linked tool must be visible to the model, the app or both".into());
    }
    let meta = meta.get_or_insert_with(Meta::new);
    if meta.contains_key("ui") {
        return Err(
            "`meta` has a `ui` key and the tool is linked to a widget (`ui = ..`); give the link once"
                .into(),
        );
    }
    let mut link = Meta::new();
    link.insert("resourceUri".into(), ui.resource_uri.into());
    if ui.visibility != super::Visibility::MODEL_AND_APP {
        link.insert("visibility".into(), json!(ui.visibility.names()));
    }
    meta.insert("ui".into(), Value::Object(link));
    if options.is_openai_compat() {
        let template = if options.is_skybridge() {
            ui.skybridge_uri
        } else {
            ui.resource_uri
        };
        meta.insert("openai/outputTemplate".into(), template.into());
        meta.insert("openai/widgetAccessible".into(), ui.visibility.app.into());
        let visibility = if ui.visibility.model {
            "public"
        } else {
            "private"
        };
        meta.insert("openai/visibility".into(), visibility.into());
    }
    Ok(())
}

/// Whether a resource is served: `text/html+skybridge` `ui://` twins only with
/// [`AppsOptions::skybridge`].
pub(crate) fn served(mime: Option<&str>, uri: &str, options: &AppsOptions) -> bool {
    options.is_skybridge() || !(mime == Some(SKYBRIDGE_MIME_TYPE) && uri.starts_with("ui://"))
}

/// Adds the OpenAI aliases of a widget resource's `_meta.ui` to its listing's `_meta`, when
/// asked. Returns whether the resource is a widget.
pub(crate) fn resource_meta(
    mime: Option<&str>,
    uri: &str,
    description: Option<&str>,
    options: &AppsOptions,
    meta: &mut Option<Meta>,
) -> bool {
    let widget = mime == Some(MIME_TYPE) && uri.starts_with("ui://");
    if !widget || !options.is_openai_compat() {
        return widget;
    }
    let meta = meta.get_or_insert_with(Meta::new);
    let ui = meta.get("ui").cloned().unwrap_or(Value::Null);
    for (key, value) in openai_aliases(&ui, description) {
        meta.entry(key).or_insert(value);
    }
    true
}

/// The `openai/widget*` keys equivalent to a `_meta.ui` object.
pub(crate) fn openai_aliases(ui: &Value, description: Option<&str>) -> Meta {
    let mut out = Meta::new();
    if let Some(csp) = ui.get("csp").and_then(Value::as_object) {
        let mut snake = Meta::new();
        for (camel, name) in [
            ("connectDomains", "connect_domains"),
            ("resourceDomains", "resource_domains"),
            ("frameDomains", "frame_domains"),
        ] {
            if let Some(list) = csp.get(camel) {
                snake.insert(name.into(), list.clone());
            }
        }
        out.insert("openai/widgetCSP".into(), Value::Object(snake));
    }
    if let Some(domain) = ui.get("domain") {
        out.insert("openai/widgetDomain".into(), domain.clone());
    }
    if let Some(border) = ui.get("prefersBorder") {
        out.insert("openai/widgetPrefersBorder".into(), border.clone());
    }
    if let Some(description) = description {
        out.insert("openai/widgetDescription".into(), description.into());
    }
    out
}

/// Declares the extension when the server has a widget.
pub(crate) fn advertise(caps: &mut ServerCapabilities, has_widgets: bool) {
    if has_widgets {
        caps.extensions
            .get_or_insert_with(Meta::new)
            .insert(EXTENSION_ID.into(), json!({}));
    }
}
