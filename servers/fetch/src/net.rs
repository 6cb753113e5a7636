//! Outbound HTTP, bounded: a timeout per request, a cap on the body, at most
//! [`MAX_REDIRECTS`] hops followed by hand so that each hop passes the private-address guard
//! (and, for a tool fetch, robots.txt) before it is requested.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use url::Url;

/// Redirect hops followed before giving up (httpx's default, which the original uses).
pub const MAX_REDIRECTS: usize = 20;

/// The limits of one fetch.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Limits {
    /// Per request of the page (the original's 30 s).
    pub page_timeout: Duration,
    /// Per request of robots.txt (httpx's default 5 s, which the original keeps).
    pub robots_timeout: Duration,
    /// The most bytes of a body read; a larger one is refused.
    pub max_body: usize,
}

impl Default for Limits {
    /// 30 s, 5 s and 16 MiB.
    ///
    /// ```
    /// let l = mcp_server_fetch::net::Limits::default();
    /// assert_eq!(l.max_body, 16 * 1024 * 1024);
    /// ```
    fn default() -> Self {
        Self {
            page_timeout: Duration::from_secs(30),
            robots_timeout: Duration::from_secs(5),
            max_body: 16 * 1024 * 1024,
        }
    }
}

/// A response: its status, content type and body text (UTF-8, lossily).
#[derive(Debug)]
pub struct Page {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` header, or empty.
    pub content_type: String,
    /// The body.
    pub text: String,
}

/// Why a request did not produce a response, named as httpx names its errors (the original
/// prints their `repr`).
#[derive(Debug)]
pub enum Failure {
    /// The guard or a robots.txt check refused a hop; the text is the whole message.
    Refused(String),
    /// A transport failure, as `Kind('detail')`.
    Transport(String),
}

/// Whether `ip` is a globally routable unicast address (the original's ranges: loopback,
/// private, link-local, shared, documentation, multicast and the other special-purpose
/// ranges are not; a mapped or NAT64 IPv6 address is judged by its IPv4).
///
/// ```
/// use mcp_server_fetch::net::is_public;
/// assert!(!is_public("127.0.0.1".parse().unwrap()));
/// assert!(!is_public("::ffff:10.0.0.1".parse().unwrap()));
/// assert!(is_public("1.1.1.1".parse().unwrap()));
/// ```
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return public_v4(v4);
            }
            let s = v6.segments();
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                let o = v6.octets();
                return public_v4(Ipv4Addr::new(o[12], o[13], o[14], o[15]));
            }
            public_v6(v6)
        }
    }
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], bits: u32) -> bool {
    let mask = if bits == 0 {
        0
    } else {
        u32::MAX << (32 - bits)
    };
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(net)) & mask
}

fn public_v4(ip: Ipv4Addr) -> bool {
    if [[192, 0, 0, 9], [192, 0, 0, 10]]
        .iter()
        .any(|n| in_v4(ip, *n, 32))
    {
        return true;
    }
    const PRIVATE: [([u8; 4], u32); 15] = [
        ([0, 0, 0, 0], 8),
        ([10, 0, 0, 0], 8),
        ([100, 64, 0, 0], 10),
        ([127, 0, 0, 0], 8),
        ([169, 254, 0, 0], 16),
        ([172, 16, 0, 0], 12),
        ([192, 0, 0, 0], 24),
        ([192, 0, 2, 0], 24),
        ([192, 88, 99, 0], 24),
        ([192, 168, 0, 0], 16),
        ([198, 18, 0, 0], 15),
        ([198, 51, 100, 0], 24),
        ([203, 0, 113, 0], 24),
        ([240, 0, 0, 0], 4),
        ([224, 0, 0, 0], 4),
    ];
    !PRIVATE.iter().any(|(n, b)| in_v4(ip, *n, *b))
}

fn in_v6(ip: Ipv6Addr, net: &str, bits: u32) -> bool {
    let net: Ipv6Addr = net.parse().unwrap_or(Ipv6Addr::UNSPECIFIED);
    let mask = if bits == 0 {
        0
    } else {
        u128::MAX << (128 - bits)
    };
    u128::from(ip) & mask == u128::from(net) & mask
}

fn public_v6(ip: Ipv6Addr) -> bool {
    const EXCEPTIONS: [(&str, u32); 6] = [
        ("2001:1::1", 128),
        ("2001:1::2", 128),
        ("2001:3::", 32),
        ("2001:4:112::", 48),
        ("2001:20::", 28),
        ("2001:30::", 28),
    ];
    if EXCEPTIONS.iter().any(|(n, b)| in_v6(ip, n, *b)) {
        return true;
    }
    const PRIVATE: [(&str, u32); 11] = [
        ("::", 128),
        ("::1", 128),
        ("64:ff9b:1::", 48),
        ("100::", 64),
        ("2001::", 23),
        ("2001:db8::", 32),
        ("2002::", 16),
        ("fc00::", 7),
        ("fe80::", 10),
        ("ff00::", 8),
        ("::", 96),
    ];
    if PRIVATE.iter().any(|(n, b)| in_v6(ip, n, *b)) {
        return false;
    }
    // Global unicast is 2000::/3; the rest is reserved.
    in_v6(ip, "2000::", 3)
}

/// The original's refusal when `url`'s host resolves to a non-public address; `Ok` when every
/// address is public or the name does not resolve here (a proxy may resolve it).
pub async fn check_public(url: &Url) -> Result<(), Failure> {
    let (host, addrs): (String, Vec<IpAddr>) = match url.host() {
        None => return Ok(()),
        Some(url::Host::Ipv4(ip)) => (ip.to_string(), vec![IpAddr::V4(ip)]),
        Some(url::Host::Ipv6(ip)) => (ip.to_string(), vec![IpAddr::V6(ip)]),
        Some(url::Host::Domain(d)) => {
            let port = url.port_or_known_default().unwrap_or(80);
            match tokio::net::lookup_host((d, port)).await {
                Ok(found) => (d.to_owned(), found.map(|a| a.ip()).collect()),
                Err(_) => return Ok(()),
            }
        }
    };
    for ip in addrs {
        if !is_public(ip) {
            return Err(Failure::Refused(format!(
                "Refused to fetch {url}: {host} resolves to {ip}, which is not a public address. \
                 Start the server with --allow-private-ips to allow private, loopback and \
                 link-local addresses."
            )));
        }
    }
    Ok(())
}

/// Sends one GET and reads at most `max_body` bytes of the answer.
pub async fn get_once(
    client: &reqwest::Client,
    url: &Url,
    user_agent: &str,
    timeout: Duration,
    max_body: usize,
) -> Result<(Page, Option<Url>), Failure> {
    let request = client
        .get(url.clone())
        .header(reqwest::header::USER_AGENT, user_agent)
        .timeout(timeout);
    let mut response = request.send().await.map_err(transport)?;
    let status = response.status();
    let location = if status.is_redirection() {
        response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|loc| url.join(loc).ok())
    } else {
        None
    };
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(transport)? {
        if body.len() + chunk.len() > max_body {
            return Err(Failure::Transport(format!(
                "ResponseTooLarge('the body is larger than {max_body} bytes')"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    let page = Page {
        status: status.as_u16(),
        content_type,
        text: String::from_utf8_lossy(&body).into_owned(),
    };
    Ok((page, location))
}

/// A reqwest error as httpx's `repr` would name the same failure.
fn transport(e: reqwest::Error) -> Failure {
    let kind = if e.is_timeout() {
        "ReadTimeout"
    } else if e.is_connect() {
        "ConnectError"
    } else {
        "TransportError"
    };
    let mut detail = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        detail = s.to_string();
        source = s.source();
    }
    Failure::Transport(format!("{kind}('{detail}')"))
}

/// The HTTP client: no automatic redirects (they are followed by hand), the proxy given.
pub fn client(proxy: Option<&str>) -> Result<reqwest::Client, String> {
    let mut b = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none());
    if let Some(p) = proxy {
        let p = reqwest::Proxy::all(p).map_err(|e| e.to_string())?;
        b = b.proxy(p);
    }
    b.build().map_err(|e| e.to_string())
}
