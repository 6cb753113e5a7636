//! DNS-rebinding protection: the `Host` and `Origin` allow-lists.

use http::{HeaderMap, header};

use crate::http::options::Allow;

/// The hosts and origins one endpoint accepts, resolved from [`HttpOptions`](super::HttpOptions)
/// and how the endpoint is bound.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    hosts: Allow,
    origins: Allow,
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    Host,
    Origin,
}

impl Guard {
    /// `Auto` means loopback only when bound to loopback (always for a mounted router), and
    /// otherwise anything; origins follow an explicit host list.
    pub(crate) fn new(hosts: &Allow, origins: &Allow, loopback: bool) -> Self {
        let resolve = |a: &Allow| match a {
            Allow::Auto if loopback => Allow::Loopback,
            Allow::Auto => Allow::Any,
            other => other.clone(),
        };
        let hosts = resolve(hosts);
        let origins = match (origins, &hosts) {
            (Allow::Auto, Allow::Any | Allow::List(_)) => Allow::Any,
            (o, _) => resolve(o),
        };
        Self { hosts, origins }
    }

    /// Checks `Host` and, when present, `Origin`.
    pub(crate) fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let host_ok = match &self.hosts {
            Allow::Any | Allow::Auto => true,
            Allow::Loopback => host.is_some_and(is_loopback_host),
            Allow::List(list) => host.is_some_and(|h| {
                let h = h.to_ascii_lowercase();
                list.iter().any(|a| *a == h || *a == strip_port(&h))
            }),
        };
        if !host_ok {
            return Err(Refusal::Host);
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or_default().to_ascii_lowercase();
            let ok = match &self.origins {
                Allow::Any | Allow::Auto => true,
                Allow::Loopback => origin_is_loopback(&origin),
                Allow::List(list) => list.contains(&origin),
            };
            if !ok {
                return Err(Refusal::Origin);
            }
        }
        Ok(())
    }
}

fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |i| &host[..=i]);
    }
    match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

fn is_loopback_host(host: &str) -> bool {
    let h = strip_port(host.trim()).to_ascii_lowercase();
    matches!(h.as_str(), "localhost" | "127.0.0.1" | "[::1]")
}

fn origin_is_loopback(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    is_loopback_host(rest.split('/').next().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names() {
        for ok in [
            "localhost",
            "localhost:8000",
            "127.0.0.1:1",
            "[::1]:80",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in ["evil.com", "127.0.0.2", "localhost.evil.com:80", ""] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
        assert!(origin_is_loopback("http://localhost:3000"));
        assert!(origin_is_loopback("https://127.0.0.1"));
        assert!(!origin_is_loopback("http://evil.com"));
        assert!(!origin_is_loopback("null"));
    }

    #[test]
    fn lists_and_auto() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "mcp.example.com:443".parse().unwrap());
        let listed = Guard::new(&Allow::list(["MCP.example.com"]), &Allow::Auto, true);
        assert_eq!(listed.check(&h), Ok(()));
        h.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        assert_eq!(
            listed.check(&h),
            Ok(()),
            "origins follow an explicit host list"
        );
        let auto = Guard::new(&Allow::Auto, &Allow::Auto, true);
        assert_eq!(auto.check(&h), Err(Refusal::Host));
        h.insert(header::HOST, "localhost:8000".parse().unwrap());
        assert_eq!(auto.check(&h), Err(Refusal::Origin));
    }
}
