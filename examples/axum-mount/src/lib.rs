//! `axum-mount`: an MCP server living inside an ordinary axum app.
//!
//! The app keeps its own routes (`/` and `/health` here); the shop's MCP endpoint is one more
//! route, mounted with `nest` at a path of the app's choosing. The server is declared here, with
//! `mcp-runtime` as the only MCP dependency, so this crate packages on its own.
//!
//! ```text
//! cargo run -p axum-mount                 # http://127.0.0.1:3000/ and http://127.0.0.1:3000/mcp
//! ```

use axum::Router;
use axum::routing::get;
use mcp_runtime::prelude::*;

/// A day of the week.
#[derive(
    Debug, Clone, Copy, mcp_runtime::serde::Deserialize, mcp_runtime::schemars::JsonSchema,
)]
#[serde(crate = "mcp_runtime::serde", rename_all = "lowercase")]
#[schemars(crate = "mcp_runtime::schemars")]
pub enum Day {
    /// Monday.
    Monday,
    /// Tuesday.
    Tuesday,
    /// Wednesday.
    Wednesday,
    /// Thursday.
    Thursday,
    /// Friday.
    Friday,
    /// Saturday.
    Saturday,
    /// Sunday.
    Sunday,
}

/// The shop's opening hours on one day of the week.
#[tool(read_only)]
pub async fn opening_hours(
    /// The day to ask about.
    day: Day,
) -> Result<String, ToolError> {
    match day {
        Day::Sunday => Err(ToolError::new("the shop is closed on Sundays")),
        Day::Saturday => Ok("10:00-14:00".into()),
        _ => Ok("09:00-18:00".into()),
    }
}

/// The shop's MCP server: every tool of this crate.
///
/// ```
/// let server = axum_mount::server().build().unwrap();
/// # let _ = server;
/// ```
pub fn server() -> mcp_runtime::ServerBuilder {
    Server::from_registry(server_info!()).instructions("Tells the shop's opening hours.")
}

/// The whole app: the shop's own routes and its MCP endpoint at `/mcp`.
///
/// ```
/// let app: axum::Router = axum_mount::app();
/// # let _ = app;
/// ```
pub fn app() -> Router {
    let mcp = server().build().expect("valid server");
    Router::new()
        .route("/", get(|| async { "The corner shop" }))
        .route("/health", get(|| async { "ok" }))
        .nest("/mcp", mcp.router())
}
