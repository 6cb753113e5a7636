//! Every `#[resource]` key; template variables (path and query) with `rename` and `complete`.

use mcp_runtime::prelude::*;

/// Gift catalog.
#[resource(
    uri = "gifts://catalog",
    name = "catalog",
    title = "Gift catalog",
    description = "Every gift.",
    mime = "application/json",
    icon = "https://example.com/c.png",
    icon(src = "https://example.com/c-dark.png", theme = "dark"),
    meta = r#"{"k": 1}"#,
    server = "shop",
    timeout_ms = 30_000,
    max_concurrency = 2,
)]
fn gift_catalog(ctx: Context) -> String {
    let _ = ctx;
    "[]".to_owned()
}

/// Files, by path, with an optional query.
#[resource(uri = "files:///{+path}{?lang,page}")]
async fn file(
    #[arg(complete = complete_path)] path: String,
    #[arg(rename = "lang")] language: Option<String>,
    page: Option<u32>,
) -> Result<String, ResourceError> {
    Ok(format!("{path} {language:?} {page:?}"))
}

fn complete_path(_req: &CompletionRequest) -> Vec<String> {
    vec!["a.txt".into()]
}

/// Bytes.
#[resource(uri = "blob://{id}", mime = "application/octet-stream", timeout_ms = 250)]
async fn blob(id: u64) -> Vec<u8> {
    id.to_be_bytes().to_vec()
}

fn main() {
    let r = gift_catalog::RESOURCE;
    assert_eq!(r.name, "catalog");
    assert_eq!(r.title, Some("Gift catalog"));
    assert_eq!(r.description, Some("Every gift."));
    assert_eq!(r.mime_type, Some("application/json"));
    assert_eq!(r.icons.len(), 2);
    assert_eq!(r.meta, Some(r#"{"k": 1}"#));
    assert_eq!(r.server, "shop");
    assert_eq!(r.timeout_ms, Some(30_000));
    assert_eq!(r.max_concurrency, Some(2));
    let f = file::RESOURCE;
    assert_eq!(f.name, "file");
    assert_eq!(f.description, Some("Files, by path, with an optional query."));
    assert_eq!(f.completions.len(), 1);
    assert_eq!(f.completions[0].argument, "path");
    assert_eq!(f.timeout_ms, None);
    assert_eq!(f.max_concurrency, None);
    assert_eq!(blob::RESOURCE.uri, "blob://{id}");
    assert_eq!(blob::RESOURCE.timeout_ms, Some(250));
    assert_eq!(blob::RESOURCE.max_concurrency, None);
}
