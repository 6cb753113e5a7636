//! `axum-mount`: an MCP server living inside an ordinary axum app.
//!
//! The app keeps its own routes (`/` and `/health` here); the MCP endpoint is one more route,
//! mounted with `nest` at a path of the app's choosing.
//!
//! ```text
//! cargo run -p axum-mount                 # http://127.0.0.1:3000/ and http://127.0.0.1:3000/mcp
//! ```

use axum::Router;
use axum::routing::get;
use mcp_runtime::prelude::*;

/// Suggests a gift for a budget in US dollars.
#[tool(read_only)]
async fn suggest_gift(
    /// Budget in US dollars
    budget: f64,
) -> String {
    let gift = if budget < 20.0 {
        "a good book"
    } else {
        "a pair of concert tickets"
    };
    format!("Within ${budget}: {gift}")
}

/// The whole app: the shop's own routes and the MCP endpoint at `/mcp`.
///
/// ```
/// let app: axum::Router = axum_mount::app();
/// # let _ = app;
/// ```
pub fn app() -> Router {
    let mcp = Server::builder(server_info!())
        .tool(suggest_gift::TOOL)
        .build()
        .expect("valid server");
    Router::new()
        .route("/", get(|| async { "The gift shop" }))
        .route("/health", get(|| async { "ok" }))
        .nest("/mcp", mcp.router())
}
