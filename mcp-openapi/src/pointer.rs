//! JSON pointers (RFC 6901) in URI-fragment form, as errors name the parts of a document.

use serde_json::Value;

/// `base` followed by the escaped `token` (`~` as `~0`, `/` as `~1`).
pub(crate) fn join(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The value a local reference (`#/a/b`, its tokens percent-decoded then unescaped) names.
pub(crate) fn lookup<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let path = reference.strip_prefix('#')?;
    if path.is_empty() {
        return Some(root);
    }
    let path = path.strip_prefix('/')?;
    let mut at = root;
    for raw in path.split('/') {
        let decoded = percent_encoding::percent_decode_str(raw)
            .decode_utf8()
            .ok()?;
        let token = decoded.replace("~1", "/").replace("~0", "~");
        at = match at {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}
