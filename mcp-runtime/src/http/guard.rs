//! DNS-rebinding protection: the `Host` and `Origin` allow-lists.

use http::{HeaderMap, header};

use crate::http::options::Allow;

/// The hosts and origins one endpoint accepts, resolved from [`HttpOptions`](super::HttpOptions)
/// and how the endpoint is bound.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    hosts: Hosts,
    origins: Origins,
}

/// Which `Host` values are accepted.
#[derive(Debug, Clone)]
enum Hosts {
    Any,
    Loopback,
    /// A public bind with no list: IP addresses and loopback names, never a DNS name (a
    /// rebinding page's requests carry the page's own name).
    Addresses,
    List(std::sync::Arc<[String]>),
}

/// Which `Origin` values are accepted.
#[derive(Debug, Clone)]
enum Origins {
    Any,
    List(std::sync::Arc<[String]>),
    /// The request's own host; with `loopback`, loopback origins too.
    SameHost {
        loopback: bool,
    },
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    Host,
    Origin,
}

impl Guard {
    /// `Auto` hosts are loopback names when bound to loopback (always for a mounted router), and
    /// otherwise IP addresses and loopback names; `Auto` origins are the request's own host, plus loopback origins when bound to
    /// loopback.
    pub(crate) fn new(hosts: &Allow, origins: &Allow, loopback: bool) -> Self {
        let hosts = match hosts {
            Allow::Auto if loopback => Hosts::Loopback,
            Allow::Auto => Hosts::Addresses,
            Allow::Any => Hosts::Any,
            Allow::List(list) => Hosts::List(std::sync::Arc::clone(list)),
        };
        let origins = match origins {
            Allow::Any => Origins::Any,
            Allow::List(list) => Origins::List(std::sync::Arc::clone(list)),
            Allow::Auto => Origins::SameHost { loopback },
        };
        Self { hosts, origins }
    }

    /// Checks `Host` and, when present, `Origin`.
    pub(crate) fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let host_ok = match &self.hosts {
            Hosts::Any => true,
            Hosts::Loopback => host.is_some_and(is_loopback_host),
            Hosts::Addresses => host.is_some_and(|h| is_loopback_host(h) || is_ip_host(h)),
            Hosts::List(list) => host.is_some_and(|h| {
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
                Origins::Any => true,
                Origins::List(list) => list.contains(&origin),
                Origins::SameHost { loopback } => {
                    host.is_some_and(|h| same_host(&origin, h))
                        || (*loopback && origin_is_loopback(&origin))
                }
            };
            if !ok {
                return Err(Refusal::Origin);
            }
        }
        Ok(())
    }
}

/// Whether an origin (`scheme://host[:port]`, lower case) names the host of the `Host` header
/// (default ports ignored on both sides).
fn same_host(origin: &str, host: &str) -> bool {
    let (authority, default_port) = if let Some(rest) = origin.strip_prefix("http://") {
        (rest, ":80")
    } else if let Some(rest) = origin.strip_prefix("https://") {
        (rest, ":443")
    } else {
        return false;
    };
    if authority.is_empty() || authority.contains(['/', '@', '?', '#']) {
        return false;
    }
    let host = host.trim().to_ascii_lowercase();
    let normal = |a: &str| a.strip_suffix(default_port).unwrap_or(a).to_owned();
    normal(authority) == normal(&host)
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

/// An IP address, with or without port (`203.0.113.9:8000`, `[2001:db8::1]:443`).
fn is_ip_host(host: &str) -> bool {
    let h = strip_port(host.trim());
    match h.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => h.parse::<std::net::Ipv4Addr>().is_ok(),
    }
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
            Err(Refusal::Origin),
            "not the host's origin"
        );
        h.insert(header::ORIGIN, "https://mcp.example.com".parse().unwrap());
        assert_eq!(listed.check(&h), Ok(()), "the host's own origin");
        h.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        let auto = Guard::new(&Allow::Auto, &Allow::Auto, true);
        assert_eq!(auto.check(&h), Err(Refusal::Host));
        h.insert(header::HOST, "localhost:8000".parse().unwrap());
        assert_eq!(auto.check(&h), Err(Refusal::Origin));
    }

    #[test]
    fn public_binds_accept_addresses_and_the_hosts_own_origin_by_default() {
        let public = Guard::new(&Allow::Auto, &Allow::Auto, false);
        let check = |host: &str, origin: Option<&str>| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, host.parse().unwrap());
            if let Some(o) = origin {
                h.insert(header::ORIGIN, o.parse().unwrap());
            }
            public.check(&h)
        };
        assert_eq!(check("203.0.113.9:8000", None), Ok(()), "no Origin: served");
        assert_eq!(check("[2001:db8::1]:8000", None), Ok(()));
        assert_eq!(check("localhost:8000", None), Ok(()));
        for name in [
            "evil.example:8000",
            "evil.example",
            "mcp.example.com",
            "203.0.113.9.nip.io:8000",
            "2130706433:8000",
            "[evil.example]:80",
            "",
        ] {
            assert_eq!(check(name, None), Err(Refusal::Host), "{name}");
        }
        let public = Guard::new(
            &Allow::list(["mcp.example.com", "10.0.0.5"]),
            &Allow::Auto,
            false,
        );
        let check = |host: &str, origin: Option<&str>| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, host.parse().unwrap());
            if let Some(o) = origin {
                h.insert(header::ORIGIN, o.parse().unwrap());
            }
            public.check(&h)
        };
        assert_eq!(
            check("mcp.example.com", Some("https://mcp.example.com")),
            Ok(())
        );
        assert_eq!(
            check("mcp.example.com", Some("https://mcp.example.com:443")),
            Ok(())
        );
        assert_eq!(
            check("mcp.example.com:443", Some("https://MCP.example.com")),
            Ok(())
        );
        assert_eq!(check("10.0.0.5:8000", Some("http://10.0.0.5:8000")), Ok(()));
        // A list is the whole rule: other addresses and names are refused.
        assert_eq!(check("203.0.113.9:8000", None), Err(Refusal::Host));
        assert_eq!(check("evil.example:8000", None), Err(Refusal::Host));
        assert_eq!(check("localhost:8000", None), Err(Refusal::Host));
        for bad in [
            "https://evil.example",
            "http://10.0.0.5:8001",
            "http://localhost:8000",
            "null",
            "http://10.0.0.5:8000.evil.example",
            "http://user@10.0.0.5:8000",
            "file://10.0.0.5:8000",
        ] {
            assert_eq!(
                check("10.0.0.5:8000", Some(bad)),
                Err(Refusal::Origin),
                "{bad}"
            );
        }
        let listed = Guard::new(
            &Allow::Auto,
            &Allow::list(["https://app.example.com"]),
            false,
        );
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "10.0.0.5:8000".parse().unwrap());
        h.insert(header::ORIGIN, "http://10.0.0.5:8000".parse().unwrap());
        assert_eq!(listed.check(&h), Err(Refusal::Origin), "only the list");
        h.insert(header::ORIGIN, "https://APP.example.com".parse().unwrap());
        assert_eq!(listed.check(&h), Ok(()));
    }
}
