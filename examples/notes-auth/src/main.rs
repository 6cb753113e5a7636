//! Notes, kept per caller, behind OAuth 2.1.
//!
//! Reading needs the scope `notes:read`, writing `notes:write`. Each caller
//! (the token's subject) has notes of their own. Point it at an authorization server:
//!
//! ```text
//! MCP_AUTH_ISSUER=https://auth.example.com \
//! MCP_AUTH_AUDIENCE=https://notes.example.com/mcp \
//!   cargo run -p notes-auth -- http 0.0.0.0:8000
//! ```
//!
//! Clients then find the authorization server at
//! `/.well-known/oauth-protected-resource/mcp`, and get 401 / 403 challenges naming it. Access
//! tokens must be typed `at+jwt` (RFC 9068); `MCP_AUTH_ALLOW_JWT_TYP=1` also accepts those of
//! authorization servers that type them `JWT`.
//!
//! Started without `MCP_AUTH_*`, `http` refuses to serve (exit code 6): its tools declare
//! scopes, and nothing would check them (`MCP_ALLOW_UNPROTECTED=1` says that is meant).
//! `stdio` is served either way: it carries no tokens.

use std::collections::HashMap;
use std::sync::Mutex;

use mcp_runtime::auth::Auth;
use mcp_runtime::prelude::*;

/// Every caller's notes.
#[derive(Default)]
struct Notes(Mutex<HashMap<String, Vec<String>>>);

/// Adds a note to your notes.
#[tool(scopes = ["notes:write"])]
async fn add_note(
    auth: Auth,
    notes: State<Notes>,
    /// The note
    text: String,
) -> String {
    let mut all = notes.0.lock().unwrap_or_else(|e| e.into_inner());
    let mine = all.entry(auth.subject.clone()).or_default();
    mine.push(text);
    format!("{} has {} note(s)", auth.subject, mine.len())
}

/// Lists your notes.
#[tool(scopes = ["notes:read"], read_only)]
async fn list_notes(auth: Auth, notes: State<Notes>) -> String {
    let all = notes.0.lock().unwrap_or_else(|e| e.into_inner());
    all.get(&auth.subject)
        .map_or_else(String::new, |n| n.join("\n"))
}

/// Says whom the token speaks for.
#[tool(read_only)]
async fn whoami(auth: Auth) -> String {
    format!("{} (scopes: {})", auth.subject, auth.scopes.join(" "))
}

#[mcp_runtime::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    // No authorization code here: built with the `auth` feature, the command line's `http`
    // reads MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE. (With the builder, `.auth(Authorization::jwt(
    // issuer, audience).imply("notes", ["notes:read", "notes:write"]))` adds a hierarchy.)
    Server::from_registry(server_info!())
        .state(Notes::default())
        .run()
        .await
}
