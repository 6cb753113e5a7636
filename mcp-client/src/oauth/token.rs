//! The token endpoint: its requests (client authentication, DPoP), the RFC 8693 exchange of
//! enterprise-managed authorization, refresh, and what the answers hold.

use std::time::{Duration, SystemTime};

use base64::Engine as _;
use serde_json::{Map, Value, json};

use std::sync::Arc;

use super::ident::{Method, Refresh, Registered};
use super::store::Tokens;
use super::{Config, OAuthError};
use mcp_io::fetch::{FetchError, Fetcher, form_encode, read_json};

/// The JWT bearer grant type (RFC 7523).
pub(crate) const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// The RFC 8693 token exchange at the enterprise identity provider: the user's ID token for an
/// identity assertion grant (ID-JAG) aimed at `audience` for `resource`.
pub(crate) async fn exchange(
    fetcher: &Fetcher,
    endpoint: &str,
    id_token: &str,
    client_id: Option<&str>,
    audience: &str,
    resource: Option<&str>,
    scope: Option<&str>,
) -> Result<String, OAuthError> {
    let mut form = vec![
        (
            "grant_type",
            "urn:ietf:params:oauth:grant-type:token-exchange",
        ),
        (
            "requested_token_type",
            "urn:ietf:params:oauth:token-type:id-jag",
        ),
        ("subject_token", id_token),
        (
            "subject_token_type",
            "urn:ietf:params:oauth:token-type:id_token",
        ),
        ("audience", audience),
    ];
    if let Some(r) = resource {
        form.push(("resource", r));
    }
    if let Some(s) = scope {
        form.push(("scope", s));
    }
    if let Some(c) = client_id {
        form.push(("client_id", c));
    }
    let answer = fetcher
        .post_form(endpoint, &form, None)
        .await
        .map_err(OAuthError::fetch(
            "the token exchange at the identity provider",
        ))?;
    answer
        .get("access_token")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| OAuthError::refused("the token exchange answer has no access_token"))
}

/// A token endpoint request, the client authenticated as registered, with a DPoP proof when
/// `dpop` (sent again once with the server's nonce when it asks for one).
pub(crate) async fn token_request(
    config: &Config,
    fetcher: &Fetcher,
    endpoint: &str,
    issuer: &str,
    client: &Registered,
    mut form: Vec<(&str, String)>,
    dpop: bool,
) -> Result<Map<String, Value>, OAuthError> {
    let mut basic = None;
    match client.method {
        Method::None => form.push(("client_id", client.client_id.clone())),
        Method::Post => {
            form.push(("client_id", client.client_id.clone()));
            form.push(("client_secret", client.secret.clone().unwrap_or_default()));
        }
        Method::Basic => {
            basic = Some((
                form_encode(&client.client_id),
                form_encode(client.secret.as_deref().unwrap_or_default()),
            ));
        }
        Method::PrivateKeyJwt => {
            let (pem, alg) = config
                .signing_key
                .as_ref()
                .ok_or(OAuthError::Config("private_key_jwt needs a signing key"))?;
            form.push(("client_id", client.client_id.clone()));
            form.push((
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".into(),
            ));
            form.push((
                "client_assertion",
                assertion(pem, *alg, &client.client_id, issuer)?,
            ));
        }
    }
    let mut nonce: Option<String> = None;
    for _ in 0..2 {
        let mut req = fetcher
            .client()
            .post(endpoint)
            .header(reqwest::header::ACCEPT, "application/json")
            .form(&form);
        if let Some((id, secret)) = &basic {
            req = req.basic_auth(id, Some(secret));
        }
        if dpop {
            req = req.header(
                "dpop",
                config.dpop.proof("POST", endpoint, None, nonce.as_deref()),
            );
        }
        let resp = req.send().await.map_err(|e| {
            OAuthError::fetch("the token request")(FetchError::Request {
                url: endpoint.to_owned(),
                source: Arc::new(e),
            })
        })?;
        let status = resp.status();
        let asked = resp
            .headers()
            .get("dpop-nonce")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = read_json(endpoint, resp).await.unwrap_or_default();
        if status.is_success() {
            if body.is_empty() {
                return Err(OAuthError::refused(format!(
                    "the token endpoint {endpoint} answered no JSON object"
                )));
            }
            return Ok(body);
        }
        let error = body.get("error").and_then(Value::as_str).unwrap_or("");
        if dpop && nonce.is_none() && error == "use_dpop_nonce" && asked.is_some() {
            nonce = asked;
            continue;
        }
        let description = body
            .get("error_description")
            .and_then(Value::as_str)
            .unwrap_or("");
        return Err(OAuthError::TokenEndpoint {
            status: status.as_u16(),
            error: error.to_owned(),
            description: description.to_owned(),
        });
    }
    Err(OAuthError::refused(
        "the token endpoint asked for a DPoP nonce twice",
    ))
}

/// An RFC 7523 client assertion: issued by and about the client, for the authorization server.
fn assertion(
    pem: &str,
    alg: jsonwebtoken::Algorithm,
    client_id: &str,
    audience: &str,
) -> Result<String, OAuthError> {
    let der = pem_body(pem)?;
    let key = match alg {
        jsonwebtoken::Algorithm::ES256 | jsonwebtoken::Algorithm::ES384 => {
            jsonwebtoken::EncodingKey::from_ec_der(&der)
        }
        jsonwebtoken::Algorithm::EdDSA => jsonwebtoken::EncodingKey::from_ed_der(&der),
        _ => jsonwebtoken::EncodingKey::from_rsa_der(&der),
    };
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + 300,
        "jti": mcp_io::random::token(),
    });
    jsonwebtoken::encode(&jsonwebtoken::Header::new(alg), &claims, &key)
        .map_err(OAuthError::Signing)
}

/// The DER bytes of a PEM document (one `-----BEGIN …-----` block).
fn pem_body(pem: &str) -> Result<Vec<u8>, OAuthError> {
    let body: String = pem
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("-----"))
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(body)
        .map_err(OAuthError::Pem)
}

/// Uses a refresh token at the authorization server that issued it.
pub(crate) async fn refreshed(
    config: &Config,
    fetcher: &Fetcher,
    refresh: &Refresh,
) -> Result<Tokens, OAuthError> {
    let mut form = vec![
        ("grant_type", "refresh_token".to_owned()),
        ("refresh_token", refresh.token.clone()),
    ];
    if let Some(r) = &refresh.resource {
        form.push(("resource", r.clone()));
    }
    let answer = token_request(
        config,
        fetcher,
        &refresh.token_endpoint,
        &refresh.issuer,
        &refresh.client,
        form,
        refresh.dpop,
    )
    .await?;
    let mut tokens = tokens_of(&answer, &refresh.issuer)?;
    // A server may keep the refresh token without sending it again.
    if tokens.refresh_token.is_none() {
        tokens.refresh_token = Some(refresh.token.clone());
    }
    Ok(tokens)
}

/// The tokens of a token endpoint answer.
pub(crate) fn tokens_of(answer: &Map<String, Value>, issuer: &str) -> Result<Tokens, OAuthError> {
    let access = answer
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| OAuthError::refused("the token answer has no access_token"))?;
    let mut tokens = Tokens::new(access, issuer);
    tokens.refresh_token = answer
        .get("refresh_token")
        .and_then(Value::as_str)
        .map(str::to_owned);
    tokens.expires_at = answer
        .get("expires_in")
        .and_then(Value::as_u64)
        .map(|s| SystemTime::now() + Duration::from_secs(s));
    if let Some(t) = answer.get("token_type").and_then(Value::as_str) {
        t.clone_into(&mut tokens.token_type);
    }
    tokens.scope = answer
        .get("scope")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(tokens)
}
