//! `apps preview [ADDR] [TOOL [JSON]]`: a local host page that renders the server's widgets
//! (MCP Apps) with sample tool results, so a widget can be seen without a chat client.
//!
//! The page (`apps_preview.html`) and its host bridge (`apps_host.js`, the same one the browser
//! test drives) are compiled into the binary; the page talks to this server's own Streamable
//! HTTP endpoint at `/mcp`. Everything is served from loopback, nothing from the network.

use super::exit::{CliError, Failure};
use crate::server::Server;

/// The host bridge: a sandboxed iframe and the host side of the `ui/*` protocol.
#[cfg(feature = "http")]
pub(crate) const HOST_JS: &str = include_str!("apps_host.js");
#[cfg(feature = "http")]
const PAGE: &str = include_str!("apps_preview.html");

pub(crate) const USAGE: &str = "apps preview [ADDR] [TOOL [JSON]]";

/// The preview page with the command line's sample arguments (`{"tool": {..}}`) filled in.
#[cfg(feature = "http")]
pub(crate) fn page(samples: &serde_json::Value) -> String {
    // Inside a <script>: `</` must not close it.
    let samples = samples.to_string().replace("</", "<\\/");
    PAGE.replace("__SAMPLES__", &samples)
}

/// Checks the words after `apps preview`: the address (default `127.0.0.1:8765`), then
/// optionally a widget-linked tool and its JSON arguments.
pub(crate) fn parse(
    server: &Server,
    positional: &[String],
) -> Result<(String, serde_json::Value), CliError> {
    let addr = positional
        .first()
        .map_or("127.0.0.1:8765", String::as_str)
        .to_owned();
    let mut samples = serde_json::Map::new();
    if let Some(tool) = positional.get(1) {
        let linked = server
            .inner
            .live()
            .catalog
            .tools
            .iter()
            .any(|t| t.record.name == tool && t.record.ui.is_some());
        if !linked {
            return Err(CliError::new(
                Failure::Refused,
                format!("`{tool}` is not a tool linked to a widget (`#[tool(ui = ..)]`)"),
            ));
        }
        let json = positional.get(2).map_or("{}", String::as_str);
        let args: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| CliError::usage(format!("the arguments are not JSON: {e}")))?;
        if !args.is_object() {
            return Err(CliError::usage("the arguments must be a JSON object"));
        }
        samples.insert(tool.clone(), args);
    }
    Ok((addr, serde_json::Value::Object(samples)))
}

/// The preview's routes: the page at `/`, the bridge at `/apps_host.js`, MCP at `/mcp`.
#[cfg(feature = "http")]
pub(crate) fn router(server: &Server, samples: &serde_json::Value) -> axum::Router {
    use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
    use axum::response::IntoResponse;
    use axum::routing::get;

    let page = page(samples);
    axum::Router::new()
        .route(
            "/",
            get(move || {
                let page = page.clone();
                async move {
                    (
                        [
                            (CONTENT_TYPE, "text/html; charset=utf-8"),
                            (CACHE_CONTROL, "no-store"),
                        ],
                        page,
                    )
                        .into_response()
                }
            }),
        )
        .route(
            "/apps_host.js",
            get(|| async {
                ([(CONTENT_TYPE, "text/javascript; charset=utf-8")], HOST_JS).into_response()
            }),
        )
        .nest("/mcp", server.router())
}

/// Serves the preview until Ctrl-C.
#[cfg(feature = "http")]
pub(crate) async fn preview(
    server: &Server,
    addr: &str,
    samples: &serde_json::Value,
) -> Result<(), CliError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| CliError::new(Failure::Server, format!("cannot listen on {addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError::new(Failure::Server, e.to_string()))?;
    eprintln!("previewing MCP Apps at http://{local}/ (MCP at http://{local}/mcp); Ctrl-C stops");
    axum::serve(listener, router(server, samples))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| CliError::new(Failure::Server, e.to_string()))
}

#[cfg(not(feature = "http"))]
#[allow(clippy::unused_async)]
pub(crate) async fn preview(
    _server: &Server,
    addr: &str,
    _samples: &serde_json::Value,
) -> Result<(), CliError> {
    Err(CliError::usage(format!(
        "`apps preview` ({addr}) serves HTTP and needs the `http` feature of mcp-runtime"
    )))
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    #[test]
    fn the_samples_cannot_close_the_script() {
        let page = page(&serde_json::json!({"t": {"s": "</script><b>"}}));
        assert!(page.contains(r#"const SAMPLES = {"t":{"s":"<\/script><b>"}};"#));
        assert!(!page.contains("__SAMPLES__"));
    }
}
