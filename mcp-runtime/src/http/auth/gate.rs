//! The gate in front of a protected endpoint: one axum middleware that refuses tokens in query
//! strings, verifies the bearer token, keeps sessions to their subject, checks the server-wide
//! scopes, and serves the request as its caller.
//!
//! The gate never reads a message: the scopes of the items a request names are decided by the
//! dispatcher, on the item it looked up from its own reading of the params (`Caller::authorize`),
//! so that no second reading of the body can disagree with the one that acts on it.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use futures_util::StreamExt;
use http::{HeaderMap, Method, header};

use crate::caller::{Caller, Sight, serve_as};
use crate::http::auth::bind::Bindings;
use crate::http::auth::challenge::{Challenger, Refusal};
use crate::http::auth::policy::Authorization;
use crate::http::auth::verifier::AuthError;
use crate::http::endpoint::{Http, session_id, session_not_found};
use crate::http::session::Owner;
use crate::http::shared::{Found, unavailable};

/// The longest `Authorization` header accepted (a bigger one is refused unread by the verifier).
pub(crate) const MAX_TOKEN: usize = 8 * 1024;

/// The gate's state.
pub(crate) struct Gate {
    pub(crate) auth: Arc<Authorization>,
    pub(crate) http: Arc<Http>,
    pub(crate) bindings: Bindings,
    metadata_url: String,
    scope: String,
}

impl Gate {
    pub(crate) fn new(auth: Arc<Authorization>, http: Arc<Http>) -> Self {
        let metadata_url = crate::http::auth::metadata::url(&auth.resource);
        let scope = auth.required.join(" ");
        let capacity = http.opts.max_sessions.saturating_mul(2).max(1024);
        Self {
            auth,
            http,
            bindings: Bindings::new(capacity),
            metadata_url,
            scope,
        }
    }

    fn refuse(&self, refusal: &Refusal) -> Response {
        // A 401 or 403 is a refusal for want of authorization (`mcp_server_refusals_total`).
        let denied = matches!(
            refusal,
            Refusal::Missing | Refusal::Invalid(_) | Refusal::Insufficient(_)
        );
        if denied && let Some(metrics) = self.http.server.options.metrics.get() {
            metrics.refused(crate::metrics::Cause::Auth);
        }
        Challenger {
            metadata_url: &self.metadata_url,
            scope: &self.scope,
        }
        .respond(refusal)
    }
}

/// The bearer token of a request: `Err(Missing)` without an `Authorization` header,
/// `Err(Invalid)` when it is not one `Bearer` credential of a sane size.
fn bearer(headers: &HeaderMap) -> Result<&str, Refusal> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Err(Refusal::Missing);
    };
    if values.next().is_some() {
        return Err(Refusal::Invalid(
            "more than one Authorization header".into(),
        ));
    }
    if value.len() > MAX_TOKEN {
        return Err(Refusal::Invalid(format!(
            "the Authorization header is over {MAX_TOKEN} bytes"
        )));
    }
    let text = value
        .to_str()
        .map_err(|_| Refusal::Invalid("the Authorization header is not ASCII".into()))?;
    let (scheme, token) = text
        .split_once(' ')
        .ok_or_else(|| Refusal::Invalid("expected `Authorization: Bearer <token>`".into()))?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() || token.contains(' ') {
        return Err(Refusal::Invalid(
            "expected `Authorization: Bearer <token>`".into(),
        ));
    }
    Ok(token)
}

/// Whether the query string carries an access token (RFC 6750 §2.3, refused by MCP).
fn token_in_query(query: Option<&str>) -> bool {
    query.is_some_and(|q| {
        q.split('&').any(|pair| {
            let key = pair.split('=').next().unwrap_or_default();
            key.eq_ignore_ascii_case("access_token")
        })
    })
}

/// The legacy transport's `sessionId` query parameter.
fn legacy_session(query: Option<&str>) -> Option<&str> {
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("sessionId="))
}

/// The middleware.
pub(crate) async fn gate(State(g): State<Arc<Gate>>, req: Request, next: Next) -> Response {
    if let Some(r) = g.http.admit(req.headers()) {
        return r;
    }
    let query = req.uri().query();
    if token_in_query(query) {
        return g.refuse(&Refusal::InQuery);
    }
    let (parts, body) = req.into_parts();
    let token = match bearer(&parts.headers) {
        Ok(token) => token,
        Err(refusal) => return g.refuse(&refusal),
    };
    let claims = match g.auth.verifier.verify(token, &parts).await {
        Ok(claims) => claims,
        Err(AuthError::InvalidToken(why)) => return g.refuse(&Refusal::Invalid(why)),
        Err(e) => {
            tracing::warn!(
                error = &e as &dyn std::error::Error,
                "bearer token not checked"
            );
            return g.refuse(&Refusal::Unavailable);
        }
    };
    let owner = Owner {
        subject: claims.subject.clone(),
        issuer: claims.issuer.clone(),
    };
    if let Some(sid) = session_id(&parts.headers) {
        if !g.bindings.allows(sid, &owner)
            && let Err(refused) = adopt(&g, sid, &owner).await
        {
            return refused;
        }
    } else if let Some(sid) = legacy_session(parts.uri.query())
        && !g.bindings.allows(sid, &owner)
    {
        return session_not_found(None);
    }
    // The server-wide scopes, checked without allocating (every request passes here).
    if g.auth
        .required
        .iter()
        .any(|n| !g.auth.covers(&claims.scopes, n))
    {
        let mut all: Vec<String> = g.auth.required.clone();
        all.sort_unstable();
        all.dedup();
        return g.refuse(&Refusal::Insufficient(all));
    }
    let opens_legacy = parts.method == Method::GET && parts.uri.path().ends_with("/sse");
    // The dispatcher authorizes each request naming an item by this rule, and with
    // `hide_unpermitted_items` leaves out of every list answer (JSON, SSE, batch, legacy stream)
    // what the same rule would refuse.
    let rule = Arc::clone(&g.auth) as Arc<dyn Sight>;
    let caller = Caller::new(Arc::new(claims), rule, g.auth.hide);
    let req = Request::from_parts(parts, body);
    let mut resp = serve_as(caller, next.run(req)).await;
    if let Some(minted) = session_id(resp.headers()) {
        g.bindings.bind(minted, &owner);
    }
    if opens_legacy && resp.status().is_success() {
        resp = bind_legacy(&g, resp, owner);
    }
    resp
}

/// A session this replica has not bound to the caller: one of a replica set (scale-out) may
/// have been opened on another replica, and is served when its shared record names this caller
/// (it is bound here from then on). Anything else is refused as if the session did not exist
/// (404), a record without an owner included; 503 when the shared store cannot say.
async fn adopt(g: &Gate, sid: &str, owner: &Owner) -> Result<(), Response> {
    if g.http.server.scale.is_none() {
        return Err(session_not_found(None));
    }
    match g.http.find_session(sid).await {
        Found::Session(session) if session.owner() == Some(owner) => {
            g.bindings.bind(sid, owner);
            Ok(())
        }
        Found::Session(_) | Found::Gone => Err(session_not_found(None)),
        Found::Unavailable => Err(unavailable(None)),
    }
}

/// Binds the legacy session named by the stream's first event (`endpoint`) to `owner`,
/// before the client can read it.
fn bind_legacy(g: &Arc<Gate>, resp: Response, owner: Owner) -> Response {
    let (parts, body) = resp.into_parts();
    let g = Arc::clone(g);
    let mut bound = false;
    let stream = body.into_data_stream().map(move |chunk| {
        if !bound && let Ok(bytes) = &chunk {
            let text = String::from_utf8_lossy(bytes);
            if let Some(rest) = text.split("sessionId=").nth(1) {
                let id: String = rest
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '&')
                    .collect();
                g.bindings.bind(&id, &owner);
                bound = true;
            }
        }
        chunk
    });
    Response::from_parts(parts, Body::from_stream(stream))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[test]
    fn bearer_credentials() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), Err(Refusal::Missing));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer abc.def"),
        );
        assert_eq!(bearer(&h), Ok("abc.def"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer  abc"),
        );
        assert_eq!(bearer(&h), Ok("abc"));
        for bad in ["Basic abc", "Bearer", "Bearer ", "Bearer a b", "abc"] {
            h.insert(header::AUTHORIZATION, HeaderValue::from_static(bad));
            assert!(matches!(bearer(&h), Err(Refusal::Invalid(_))), "{bad}");
        }
        let big = format!("Bearer {}", "a".repeat(MAX_TOKEN));
        h.insert(header::AUTHORIZATION, HeaderValue::from_str(&big).unwrap());
        assert!(matches!(bearer(&h), Err(Refusal::Invalid(_))));
    }

    #[test]
    fn query_tokens_and_legacy_sessions() {
        assert!(token_in_query(Some("access_token=x")));
        assert!(token_in_query(Some("a=1&ACCESS_TOKEN=x")));
        assert!(!token_in_query(Some("sessionId=abc")));
        assert!(!token_in_query(None));
        assert_eq!(legacy_session(Some("x=1&sessionId=abc")), Some("abc"));
        assert_eq!(legacy_session(Some("x=1")), None);
    }
}
