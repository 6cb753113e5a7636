//! Rules of the MCP Apps extension (`io.modelcontextprotocol/ui`) that both the macros (at
//! compile time) and the runtime (on live answers) apply, written once here.

/// Whether `text` is an origin a widget's `csp` lists may name: `scheme://host[:port]`, the
/// scheme `https`, `http`, `wss` or `ws`, the host made of letters, digits and `-` in
/// dot-separated labels, with `*.` allowed only as the first label.
///
/// ```
/// use mcp_runtime_core::apps::is_csp_origin;
/// assert!(is_csp_origin("https://api.example.com"));
/// assert!(is_csp_origin("wss://*.example.com:8443"));
/// assert!(!is_csp_origin("api.example.com")); // no scheme
/// assert!(!is_csp_origin("https://example.com/path"));
/// ```
pub fn is_csp_origin(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "https" | "http" | "wss" | "ws") {
        return false;
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    };
    if let Some(port) = port
        && (port.is_empty() || port.len() > 5 || !port.bytes().all(|b| b.is_ascii_digit()))
    {
        return false;
    }
    let host = host.strip_prefix("*.").unwrap_or(host);
    !host.is_empty()
        && host.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}
