//! Resources and the resource template (FIXTURES.md §4).

use mcp_runtime::prelude::*;
use serde::Serialize;

use crate::media::PNG_BASE64;

/// A static text resource.
#[resource(uri = "test://static-text", name = "static-text", mime = "text/plain")]
async fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource: a 1x1 PNG.
#[resource(
    uri = "test://static-binary",
    name = "static-binary",
    mime = "image/png"
)]
async fn static_binary() -> ResourceContents {
    ResourceContents::blob("test://static-binary", PNG_BASE64).with_mime_type("image/png")
}

/// A resource clients may subscribe to.
#[resource(
    uri = "test://watched-resource",
    name = "watched-resource",
    mime = "text/plain"
)]
async fn watched_resource() -> &'static str {
    "This is the content of the watched resource."
}

/// What the template resource holds for one id.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TemplateData {
    id: String,
    template_test: bool,
    data: String,
}

/// Data for one id, read through a URI template.
#[resource(
    uri = "test://template/{id}/data",
    name = "template-data",
    mime = "application/json"
)]
async fn template_data(id: String) -> Json<TemplateData> {
    let data = format!("Data for ID: {id}");
    Json(TemplateData {
        id,
        template_test: true,
        data,
    })
}
