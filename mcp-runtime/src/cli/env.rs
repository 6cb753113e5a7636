//! What the environment asks of a command-line server: the variables it reads, the requests this
//! binary cannot honour (refused before anything is served: the command line fails closed), and
//! their lines in `help`, only those of the features this binary was built with.

use super::exit::{CliError, Failure};
use crate::error::Error;
#[cfg(feature = "http")]
use crate::http::options::Allow;
use crate::server::{Server, ServerBuilder};

/// Every setting the environment gives a command-line server, read here into its builder (the
/// library reads no environment variable): `MCP_REQUEST_STATE_KEYS` (the `requestState` key
/// ring replicas share); with feature `http`, `MCP_ALLOWED_HOSTS` (unless the builder's
/// `HttpOptions` list hosts) and `MCP_ALLOW_UNPROTECTED`; with feature `redis`, `MCP_REDIS_URL`
/// (this process is one replica of several; see `docs/scale-out.md`); with feature `auth`,
/// `MCP_AUTH_*` (unless the builder has its authorization).
pub(super) fn from_env(builder: ServerBuilder) -> Result<ServerBuilder, Error> {
    let mut builder = builder;
    if let Some(ring) = std::env::var("MCP_REQUEST_STATE_KEYS")
        .ok()
        .filter(|k| !k.trim().is_empty())
    {
        let ring = crate::scale::parse_key_ring(&ring)
            .map_err(|e| Error::Config(format!("MCP_REQUEST_STATE_KEYS: {e}")))?;
        builder = builder.request_state_keys(ring);
    }
    // `MCP_PUBLIC_URL`: the public URL the Server Card names, unless the code gave one; a
    // server without a card would ignore it.
    if let Some(url) = std::env::var("MCP_PUBLIC_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
    {
        let Some(card) = builder.options_mut().card.as_mut() else {
            return Err(Error::Config(
                "MCP_PUBLIC_URL is set, but this server has no Server Card (ServerBuilder::card)"
                    .into(),
            ));
        };
        card.public_url_or(url.trim().to_owned());
    }
    // `MCP_ALLOWED_HOSTS`, `MCP_ALLOW_UNPROTECTED`: a malformed host list is reported by the
    // `http` command, which is the one that uses it.
    #[cfg(feature = "http")]
    {
        if let Ok(Some(hosts)) = hosts_from_env()
            && matches!(builder.http.options.hosts, Allow::Auto)
        {
            builder.http.options.hosts = hosts;
        }
        if allows_unprotected() {
            builder = builder.allow_unprotected(true);
        }
    }
    #[cfg(feature = "redis")]
    {
        builder = crate::scale_redis::from_env(builder);
    }
    // `MCP_AUTH_*`: this server's authorization, unless the builder has its own. Malformed
    // variables are reported by the `http` command, which is the one that reads them.
    #[cfg(feature = "auth")]
    if !builder.has_auth()
        && let Ok(Some(auth)) = crate::http::auth::env_authorization()
    {
        builder = builder.auth(auth);
    }
    Ok(builder)
}

/// `http` with `MCP_AUTH_*` variables: malformed ones are an error; well-formed ones that the
/// server does not have (built with `ServerBuilder::build`, then `Server::run`) would leave it
/// open, so nothing is served.
#[cfg(feature = "auth")]
pub(super) fn refuse_unread_auth(server: &Server) -> Result<(), CliError> {
    match crate::http::auth::check_env(server) {
        Err(e) => Err(CliError::new(Failure::Server, e)),
        Ok(false) => Ok(()),
        Ok(true) => Err(CliError::new(
            Failure::Unsafe,
            "MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE are set, but this server was built without \
             reading them: build it with ServerBuilder::run (which reads them) or give the \
             authorization to ServerBuilder::auth",
        )),
    }
}

/// A variable set to something other than blanks.
fn set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.to_string_lossy().trim().is_empty())
}

/// Every command but `help`: `MCP_REDIS_URL` names a store this server does not use (built
/// without the `redis` feature, or built without reading the variable). Serving alone would
/// split its sessions from the other replicas'.
pub(super) fn refuse_unused_redis(server: &Server) -> Result<(), CliError> {
    if !set("MCP_REDIS_URL") || server.inner.scale.is_some() {
        return Ok(());
    }
    let why = if cfg!(feature = "redis") {
        "MCP_REDIS_URL is set, but this server was built without reading it: build it with \
         ServerBuilder::run (which reads it) or give the URL to ServerBuilder::redis"
    } else {
        "MCP_REDIS_URL is set, but this binary was built without the `redis` feature of \
         mcp-runtime: it cannot share its sessions with other replicas. Unset MCP_REDIS_URL, or \
         build with the `redis` feature"
    };
    Err(CliError::new(Failure::Unsafe, why))
}

/// `http` without the `auth` feature: an `MCP_AUTH_*` variable asks for bearer tokens this
/// binary cannot check; serving would let everyone in.
#[cfg(all(feature = "http", not(feature = "auth")))]
pub(super) fn refuse_auth_without_feature() -> Result<(), CliError> {
    let mut names: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| k.starts_with("MCP_AUTH_") && set(k))
        .collect();
    if names.is_empty() {
        return Ok(());
    }
    names.sort();
    Err(CliError::new(
        Failure::Unsafe,
        format!(
            "{} set, but this binary was built without the `auth` feature of mcp-runtime: it \
             cannot check bearer tokens and would serve everyone. Unset {}, or build with the \
             `auth` feature",
            names.join(", ") + if names.len() == 1 { " is" } else { " are" },
            if names.len() == 1 { "it" } else { "them" },
        ),
    ))
}

/// `http`: a malformed `MCP_ALLOWED_HOSTS`; `MCP_ALLOWED_HOSTS` or `MCP_ALLOW_UNPROTECTED` set
/// for a server built without reading them (`ServerBuilder::build`, then `Server::run` or a
/// `Cli` of its own); items that declare scopes, and nothing to check them (see
/// [`ServerBuilder::allow_unprotected`]).
#[cfg(feature = "http")]
pub(super) fn refuse_unprotected(server: &Server) -> Result<(), CliError> {
    let hosts = hosts_from_env().map_err(|e| CliError::new(Failure::Server, e))?;
    let http = &server.inner.http;
    if hosts.is_some() && matches!(http.options.hosts, Allow::Auto) {
        return Err(unread(
            ALLOWED_HOSTS_ENV,
            "list the hosts with HttpOptions::allowed_hosts",
        ));
    }
    match crate::http::options::unprotected_scopes(&server.inner, crate::http::gated(&server.inner))
    {
        Some(_) if allows_unprotected() => Err(unread(
            ALLOW_UNPROTECTED_ENV,
            "say so with ServerBuilder::allow_unprotected(true)",
        )),
        Some(why) => Err(CliError::new(Failure::Unsafe, why)),
        None => Ok(()),
    }
}

/// `name` is set, but the server was built without reading it; `instead` is the builder's way.
#[cfg(feature = "http")]
fn unread(name: &str, instead: &str) -> CliError {
    CliError::new(
        Failure::Unsafe,
        format!(
            "{name} is set, but this server was built without reading it: build it with \
             ServerBuilder::run (which reads it) or {instead}"
        ),
    )
}

/// The environment variable naming the `Host` values a server accepts.
#[cfg(feature = "http")]
const ALLOWED_HOSTS_ENV: &str = "MCP_ALLOWED_HOSTS";
/// The environment variable that says scoped items may be served without authorization.
#[cfg(feature = "http")]
const ALLOW_UNPROTECTED_ENV: &str = "MCP_ALLOW_UNPROTECTED";

/// `MCP_ALLOWED_HOSTS`: `None` when unset or blank, `*` for any host, else the comma-separated
/// host names (with or without port); an error names an entry that is not a host.
#[cfg(feature = "http")]
fn hosts_from_env() -> Result<Option<Allow>, String> {
    let Ok(value) = std::env::var(ALLOWED_HOSTS_ENV) else {
        return Ok(None);
    };
    parse_hosts(&value)
}

#[cfg(feature = "http")]
fn parse_hosts(value: &str) -> Result<Option<Allow>, String> {
    let entries: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    if entries.is_empty() {
        return Ok(None);
    }
    if entries == ["*"] {
        return Ok(Some(Allow::Any));
    }
    for e in &entries {
        let host_char = |c: char| c.is_ascii_alphanumeric() || "-.:[]_".contains(c);
        if !e.chars().all(host_char) || e.starts_with(':') {
            return Err(format!(
                "{ALLOWED_HOSTS_ENV}: {:?} is not a host: give the names clients reach this server by, \
                 with or without port, comma-separated (mcp.example.com,mcp.example.com:8443), or * for any host",
                e.chars().take(80).collect::<String>()
            ));
        }
    }
    Ok(Some(Allow::list(entries)))
}

/// `MCP_ALLOW_UNPROTECTED` is `1` or `true`.
#[cfg(feature = "http")]
fn allows_unprotected() -> bool {
    std::env::var(ALLOW_UNPROTECTED_ENV)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true"))
}

/// The `environment:` section of `help`: the variables of the features built in.
pub(super) fn help() -> String {
    let mut text = String::from(
        "\nenvironment:\n\
         \x20 MCP_LOG_MESSAGES=1       log every JSON message in and out on stderr\n\
         \x20 RUST_LOG=...             tracing filter for the server's own logs (stderr)\n\
         \x20 MCP_REQUEST_STATE_KEYS=KEYS\n\
         \x20                          the requestState key ring replicas share\n\
         \x20 MCP_PUBLIC_URL=URL       the public Streamable HTTP URL the Server Card names\n",
    );
    if cfg!(feature = "http") {
        text.push_str(
            "\x20 MCP_ALLOWED_HOSTS=H,...  `http` serves only these Host names (* for any); without it, a\n\
             \x20                          loopback bind serves loopback names, another bind IP addresses\n\
             \x20 MCP_ALLOW_UNPROTECTED=1  `http` serves items that declare scopes without authorization\n",
        );
    }
    if cfg!(feature = "auth") {
        text.push_str(
            "\x20 MCP_AUTH_ISSUER=URL      `http` requires bearer tokens of this issuer\n\
             \x20 MCP_AUTH_AUDIENCE=URI    this server's resource URI, the tokens' audience\n\
             \x20 MCP_AUTH_ALLOW_JWT_TYP=1 also accept JWT access tokens typed `JWT` or untyped (not at+jwt)\n",
        );
    }
    if cfg!(feature = "otel") {
        text.push_str(
            "\x20 OTEL_EXPORTER_OTLP_ENDPOINT=URL\n\
             \x20                          export spans (URL/v1/traces) and metrics (URL/v1/metrics)\n\
             \x20                          over OTLP/HTTP; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=URL and\n\
             \x20                          OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=URL: one signal, URL as is\n\
             \x20 OTEL_EXPORTER_OTLP_PROTOCOL=P\n\
             \x20                          http/protobuf (default) or http/json (grpc: not built)\n\
             \x20 OTEL_SERVICE_NAME=NAME   the service.name of the spans (default: the binary's name)\n\
             \x20 OTEL_TRACES_SAMPLER=S    parentbased_always_on (default), always_on, always_off,\n\
             \x20                          traceidratio, parentbased_always_off, parentbased_traceidratio\n\
             \x20 OTEL_TRACES_SAMPLER_ARG=R\n\
             \x20                          the ratio of the traceidratio samplers, 0 to 1 (default 1)\n",
        );
    }
    if cfg!(feature = "redis") {
        text.push_str(
            "\x20 MCP_REDIS_URL=URL        one replica of several, sharing sessions through Redis\n\
             \x20 MCP_NODE_ID=NAME         this replica's name (default: random)\n\
             \x20 MCP_REDIS_NAMESPACE=NS   the Redis key prefix (default mcp)\n",
        );
    }
    text
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    fn listed(value: &str) -> Vec<String> {
        match parse_hosts(value) {
            Ok(Some(Allow::List(list))) => list.to_vec(),
            other => panic!("{value}: {other:?}"),
        }
    }

    #[test]
    fn allowed_hosts_from_the_environment() {
        assert_eq!(
            listed(" MCP.example.com , mcp.example.com:8443,,[::1]:80"),
            ["mcp.example.com", "mcp.example.com:8443", "[::1]:80"]
        );
        assert!(matches!(parse_hosts("*"), Ok(Some(Allow::Any))));
        assert!(matches!(parse_hosts(" * , "), Ok(Some(Allow::Any))));
        assert!(matches!(parse_hosts(""), Ok(None)));
        assert!(matches!(parse_hosts(" , "), Ok(None)));
        for bad in [
            "https://mcp.example.com",
            "a.example,*",
            "user@host",
            "a b",
            ":8000",
        ] {
            let e = parse_hosts(bad).unwrap_err();
            assert!(e.starts_with("MCP_ALLOWED_HOSTS: \""), "{bad}: {e}");
            assert!(e.contains("is not a host"), "{bad}: {e}");
        }
    }
}
