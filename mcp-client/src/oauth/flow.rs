//! The flows: client identity, the grants, the token endpoint, refresh.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::Url;
use serde_json::{Map, Value, json};
use sha2::{Digest as _, Sha256};

use super::discover::{self, Challenge, strings};
use super::ident::{Method, Refresh, Registered, Registrations};
use super::store::Tokens;
use super::token::{JWT_BEARER, exchange, refreshed, token_request, tokens_of};
use super::{Assertion, Config, Grant, OAuthError};
use mcp_io::fetch::Fetcher;

/// What the flows learn, kept between them.
#[derive(Debug, Default)]
pub(crate) struct State {
    fetcher: Option<Fetcher>,
    registrations: Registrations,
    scopes: Vec<String>,
    refresh: Option<Refresh>,
}

/// Obtains tokens after the endpoint `url` refused a request with `status` and `challenge`.
pub(crate) async fn authorize(
    config: &Config,
    state: &mut State,
    url: &Url,
    status: u16,
    challenge: &Challenge,
) -> Result<Tokens, OAuthError> {
    let fetcher = state
        .fetcher
        .get_or_insert_with(|| Fetcher::new(Duration::from_secs(10)))
        .clone();
    if status == 401
        && let Some(refresh) = state.refresh.take()
    {
        match refreshed(config, &fetcher, &refresh).await {
            Ok(tokens) => {
                remember(
                    state,
                    &tokens,
                    refresh.token_endpoint,
                    refresh.resource,
                    refresh.client,
                    refresh.dpop,
                );
                return Ok(tokens);
            }
            Err(e) => tracing::debug!("mcp client: refresh refused ({e}); authorizing anew"),
        }
    }
    let prm = discover::resource_metadata(&fetcher, url, challenge).await;
    // RFC 8707 `resource`, always sent: the metadata's, else the server's canonical URI.
    let (issuer, resource, supported) = match &prm {
        Some(doc) => {
            let resource = doc.get("resource").and_then(Value::as_str);
            if let Some(r) = resource
                && !discover::resource_matches(r, url)
            {
                return Err(OAuthError::refused(format!(
                    "the protected resource metadata names {r}, not the server {url}"
                )));
            }
            let issuer = strings(doc, "authorization_servers")
                .and_then(|a| a.into_iter().next())
                .ok_or_else(|| {
                    OAuthError::refused(
                        "the protected resource metadata names no authorization server",
                    )
                })?;
            let resource = resource.map_or_else(|| discover::canonical_uri(url), str::to_owned);
            (issuer, Some(resource), strings(doc, "scopes_supported"))
        }
        None => (
            url.origin().ascii_serialization(),
            Some(discover::canonical_uri(url)),
            None,
        ),
    };
    let meta = discover::server_metadata(&fetcher, &issuer, prm.is_none()).await?;
    let endpoint = |key: &str| {
        meta.get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| {
                OAuthError::refused(format!("the authorization server metadata has no {key}"))
            })
    };
    let token_endpoint = endpoint("token_endpoint")?;

    let mut scopes = match (challenge.scopes(), supported) {
        (c, _) if !c.is_empty() && status == 403 => union(&state.scopes, &c),
        (c, _) if !c.is_empty() => c,
        (_, Some(s)) => s,
        (_, None) => Vec::new(),
    };
    let offers_offline =
        strings(&meta, "scopes_supported").is_some_and(|s| s.iter().any(|s| s == "offline_access"));
    if config.grant == Grant::AuthorizationCode
        && config.offline_access
        && offers_offline
        && !scopes.iter().any(|s| s == "offline_access")
    {
        scopes.push("offline_access".into());
    }
    state.scopes.clone_from(&scopes);
    let scope = (!scopes.is_empty()).then(|| scopes.join(" "));

    let client = identity(config, state, &fetcher, &issuer, &meta).await?;
    let mut form: Vec<(&str, String)> = Vec::new();
    match config.grant {
        Grant::ClientCredentials => form.push(("grant_type", "client_credentials".into())),
        Grant::JwtBearer => {
            let assertion = match &config.assertion {
                Some(Assertion::Given(jwt)) => jwt.clone(),
                Some(Assertion::Exchanged {
                    endpoint,
                    id_token,
                    client_id,
                }) => {
                    exchange(
                        &fetcher,
                        endpoint,
                        id_token,
                        client_id.as_deref(),
                        &issuer,
                        resource.as_deref(),
                        scope.as_deref(),
                    )
                    .await?
                }
                None => {
                    return Err(OAuthError::Config(
                        "the JWT bearer grant needs an assertion",
                    ));
                }
            };
            form.push(("grant_type", JWT_BEARER.into()));
            form.push(("assertion", assertion));
        }
        Grant::AuthorizationCode => {
            let authorization_endpoint = endpoint("authorization_endpoint")?;
            let verifier = URL_SAFE_NO_PAD.encode(mcp_io::random::bytes());
            let code = code(
                config,
                &meta,
                &issuer,
                &authorization_endpoint,
                &client,
                &verifier,
                scope.as_deref(),
                resource.as_deref(),
            )
            .await?;
            form.push(("grant_type", "authorization_code".into()));
            form.push(("code", code));
            form.push(("redirect_uri", config.redirect_uri.clone()));
            form.push(("code_verifier", verifier));
        }
    }
    if let Some(s) = &scope {
        form.push(("scope", s.clone()));
    }
    if let Some(r) = &resource {
        form.push(("resource", r.clone()));
    }
    let dpop = strings(&meta, "dpop_signing_alg_values_supported")
        .is_some_and(|algs| algs.iter().any(|a| a == "ES256"));
    let answer = token_request(
        config,
        &fetcher,
        &token_endpoint,
        &issuer,
        &client,
        form,
        dpop,
    )
    .await?;
    let tokens = tokens_of(&answer, &issuer)?;
    remember(state, &tokens, token_endpoint, resource, client, dpop);
    Ok(tokens)
}

fn remember(
    state: &mut State,
    tokens: &Tokens,
    token_endpoint: String,
    resource: Option<String>,
    client: Registered,
    dpop: bool,
) {
    state.refresh = tokens.refresh_token.clone().map(|token| Refresh {
        token,
        issuer: tokens.issuer.clone(),
        token_endpoint,
        resource,
        client,
        dpop,
    });
}

fn union(before: &[String], now: &[String]) -> Vec<String> {
    let mut all = before.to_vec();
    for s in now {
        if !all.contains(s) {
            all.push(s.clone());
        }
    }
    all
}

/// The client's identity at `issuer`: pre-registered, a metadata document URL, or registered
/// now (once per authorization server).
async fn identity(
    config: &Config,
    state: &mut State,
    fetcher: &Fetcher,
    issuer: &str,
    meta: &Map<String, Value>,
) -> Result<Registered, OAuthError> {
    let supported = strings(meta, "token_endpoint_auth_methods_supported");
    if let Some((id, secret)) = &config.preregistered
        && config.issuer.as_deref().is_none_or(|i| i == issuer)
    {
        let method = if config.signing_key.is_some() {
            Method::PrivateKeyJwt
        } else {
            choose(secret.is_some(), supported.as_deref(), None)
        };
        return Ok(Registered {
            client_id: id.clone(),
            secret: secret.clone(),
            method,
        });
    }
    if let Some(known) = state.registrations.get(issuer) {
        return Ok(known.clone());
    }
    if let Some(url) = &config.metadata_url
        && meta.get("client_id_metadata_document_supported") == Some(&Value::Bool(true))
    {
        return Ok(Registered {
            client_id: url.clone(),
            secret: None,
            method: Method::None,
        });
    }
    let endpoint = meta
        .get("registration_endpoint")
        .and_then(Value::as_str)
        .ok_or(OAuthError::Config(
            "no pre-registered client, and the authorization server offers no registration",
        ))?;
    let wanted = match supported.as_deref() {
        Some(s) if !s.iter().any(|m| m == "none") => {
            if s.iter().any(|m| m == "client_secret_basic") {
                "client_secret_basic"
            } else {
                "client_secret_post"
            }
        }
        _ => "none",
    };
    let grants = match config.grant {
        Grant::AuthorizationCode => vec!["authorization_code", "refresh_token"],
        Grant::ClientCredentials => vec!["client_credentials"],
        Grant::JwtBearer => vec![JWT_BEARER],
    };
    let body = json!({
        "client_name": config.client_name,
        "redirect_uris": [config.redirect_uri],
        "grant_types": grants,
        "response_types": ["code"],
        "token_endpoint_auth_method": wanted,
        "application_type": "native",
    });
    let answer = fetcher
        .post_json(endpoint, &body)
        .await
        .map_err(OAuthError::fetch("dynamic client registration"))?;
    let client_id = answer
        .get("client_id")
        .and_then(Value::as_str)
        .ok_or_else(|| OAuthError::refused("the registration answer has no client_id"))?
        .to_owned();
    let secret = answer
        .get("client_secret")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let registered_method = answer
        .get("token_endpoint_auth_method")
        .and_then(Value::as_str);
    let registered = Registered {
        client_id,
        method: choose(secret.is_some(), supported.as_deref(), registered_method),
        secret,
    };
    state.registrations.insert(issuer, registered.clone());
    Ok(registered)
}

/// The token endpoint authentication: as registered, else what the server supports of what
/// the client has (RFC 8414's default being `client_secret_basic`).
fn choose(has_secret: bool, supported: Option<&[String]>, registered: Option<&str>) -> Method {
    match registered {
        Some("none") => return Method::None,
        Some("client_secret_basic") if has_secret => return Method::Basic,
        Some("client_secret_post") if has_secret => return Method::Post,
        _ => {}
    }
    if !has_secret {
        return Method::None;
    }
    match supported {
        Some(s) if s.iter().any(|m| m == "client_secret_basic") => Method::Basic,
        Some(s) if s.iter().any(|m| m == "client_secret_post") => Method::Post,
        _ => Method::Basic,
    }
}

/// The authorization code grant's front channel: the URL, the user's trip, the checks of the
/// redirect (`state`, `error`, RFC 9207 `iss`); the code.
#[allow(clippy::too_many_arguments)]
async fn code(
    config: &Config,
    meta: &Map<String, Value>,
    issuer: &str,
    authorization_endpoint: &str,
    client: &Registered,
    verifier: &str,
    scope: Option<&str>,
    resource: Option<&str>,
) -> Result<String, OAuthError> {
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    let expected_state = URL_SAFE_NO_PAD.encode(&mcp_io::random::bytes()[..16]);
    let mut url = Url::parse(authorization_endpoint).map_err(|source| OAuthError::InvalidUrl {
        what: "the authorization endpoint",
        url: authorization_endpoint.to_owned(),
        source,
    })?;
    {
        let mut q = url.query_pairs_mut();
        q.append_pair("response_type", "code")
            .append_pair("client_id", &client.client_id)
            .append_pair("redirect_uri", &config.redirect_uri)
            .append_pair("code_challenge", &challenge)
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", &expected_state);
        if let Some(s) = scope {
            q.append_pair("scope", s);
        }
        if let Some(r) = resource {
            q.append_pair("resource", r);
        }
    }
    let back = config.redirect.authorize(url.as_str()).await?;
    let back = Url::parse(&back).map_err(|source| OAuthError::InvalidUrl {
        what: "the redirect",
        url: back.clone(),
        source,
    })?;
    let param = |name: &str| {
        back.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    if let Some(error) = param("error") {
        let description = param("error_description").unwrap_or_default();
        return Err(OAuthError::Denied { error, description });
    }
    if param("state").as_deref() != Some(expected_state.as_str()) {
        return Err(OAuthError::refused(
            "the redirect's state is not the one sent",
        ));
    }
    // RFC 9207: compared as strings, no normalization, against the metadata's issuer.
    let recorded = meta.get("issuer").and_then(Value::as_str).unwrap_or(issuer);
    let advertised =
        meta.get("authorization_response_iss_parameter_supported") == Some(&Value::Bool(true));
    match param("iss") {
        Some(iss) if iss != recorded => {
            return Err(OAuthError::refused(format!(
                "the redirect's iss {iss:?} is not the authorization server {recorded:?}"
            )));
        }
        None if advertised => {
            return Err(OAuthError::refused(
                "the authorization server promised an iss and the redirect has none",
            ));
        }
        _ => {}
    }
    param("code").ok_or_else(|| OAuthError::refused("the redirect has no code"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_follow_registration_then_support() {
        let s = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(choose(false, None, None), Method::None);
        assert_eq!(choose(true, None, None), Method::Basic);
        assert_eq!(
            choose(true, Some(&s(&["client_secret_post"])), None),
            Method::Post
        );
        assert_eq!(
            choose(true, Some(&s(&["none"])), Some("client_secret_post")),
            Method::Post
        );
        assert_eq!(choose(true, None, Some("none")), Method::None);
        assert_eq!(union(&s(&["a", "b"]), &s(&["b", "c"])), s(&["a", "b", "c"]));
    }
}
