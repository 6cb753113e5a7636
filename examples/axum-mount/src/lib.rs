//! `axum-mount`: the gift server living inside an ordinary axum app.
//!
//! The app keeps its own routes (`/` and `/health` here); the MCP endpoint of `gift-server` is
//! one more route, mounted with `nest` at a path of the app's choosing.
//!
//! ```text
//! cargo run -p axum-mount                 # http://127.0.0.1:3000/ and http://127.0.0.1:3000/mcp
//! ```

use axum::Router;
use axum::routing::get;

/// The whole app: the shop's own routes and the gift server's MCP endpoint at `/mcp`.
///
/// ```
/// let app: axum::Router = axum_mount::app();
/// # let _ = app;
/// ```
pub fn app() -> Router {
    let mcp = gift_server::server().build().expect("valid server");
    Router::new()
        .route("/", get(|| async { "The gift shop" }))
        .route("/health", get(|| async { "ok" }))
        .nest("/mcp", mcp.router())
}
