//! The stateless era's routing headers: `Mcp-Method` carries the method's name, `Mcp-Name` its
//! mirrored target, and `Mcp-Param-*` mirrored tool arguments; a value that is not plain visible
//! ASCII travels as `=?base64?…?=` (Base64 of its UTF-8).
//!
//! ```
//! use mcp_runtime_core::method::headers;
//!
//! assert_eq!(headers::encode("get_weather"), "get_weather");
//! assert_eq!(headers::encode("café"), "=?base64?Y2Fmw6k=?=");
//! assert_eq!(headers::decode("=?base64?Y2Fmw6k=?=").unwrap(), "café");
//! assert_eq!(headers::decode("plain").unwrap(), "plain");
//! assert!(headers::decode("=?base64?!!?=").is_err());
//! ```

use std::borrow::Cow;

/// The header naming the method.
pub const METHOD: &str = "mcp-method";
/// The header naming the target.
pub const NAME: &str = "mcp-name";
/// The prefix of the headers mirroring tool arguments.
pub const PARAM_PREFIX: &str = "mcp-param-";

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Whether a value can travel as it is: visible ASCII and inner spaces, nothing at either end
/// that a header parser would trim, and not itself of the encoded form.
pub fn is_plain(value: &str) -> bool {
    !value.is_empty()
        && value.bytes().all(|b| (b' '..=b'~').contains(&b))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && !value.starts_with("=?")
}

/// A value as it travels in a header.
pub fn encode(value: &str) -> Cow<'_, str> {
    if is_plain(value) {
        return Cow::Borrowed(value);
    }
    let bytes = value.as_bytes();
    let mut out = String::with_capacity(12 + bytes.len().div_ceil(3) * 4);
    out.push_str("=?base64?");
    for chunk in bytes.chunks(3) {
        let n = match chunk {
            [a, b, c] => u32::from(*a) << 16 | u32::from(*b) << 8 | u32::from(*c),
            [a, b] => u32::from(*a) << 16 | u32::from(*b) << 8,
            [a] => u32::from(*a) << 16,
            _ => 0,
        };
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.push_str("?=");
    Cow::Owned(out)
}

/// Why a header value could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not valid Base64 of UTF-8 text")]
#[non_exhaustive]
pub struct DecodeError;

/// A header value as sent: `=?base64?…?=` decoded (strict padding, UTF-8), any other value
/// as it is.
pub fn decode(value: &str) -> Result<Cow<'_, str>, DecodeError> {
    let Some(b64) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    else {
        return Ok(Cow::Borrowed(value));
    };
    let b64 = b64.as_bytes();
    if b64.len() % 4 != 0 {
        return Err(DecodeError);
    }
    let mut out = Vec::with_capacity(b64.len() / 4 * 3);
    for (i, quad) in b64.chunks(4).enumerate() {
        let last = i + 1 == b64.len() / 4;
        let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return Err(DecodeError);
        }
        let mut n = 0u32;
        for &c in &quad[..4 - pad] {
            let v = ALPHABET.iter().position(|&a| a == c).ok_or(DecodeError)?;
            n = n << 6 | v as u32;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = 3 - pad;
        // Non-canonical encodings (bits set in the padding) are refused.
        if bytes[keep..].iter().any(|&b| b != 0) {
            return Err(DecodeError);
        }
        out.extend_from_slice(&bytes[..keep]);
    }
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|_| DecodeError)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_round_trip() {
        for v in [
            "a",
            "ab",
            "abc",
            "abcd",
            "café",
            " lead",
            "trail ",
            "=?base64?x?=",
            "日本語",
            "tab\there",
            "",
        ] {
            let enc = encode(v);
            assert!(enc.bytes().all(|b| (b' '..=b'~').contains(&b)), "{enc}");
            assert_eq!(decode(&enc).unwrap(), v, "{enc}");
        }
        assert_eq!(encode("foo"), "foo");
        assert_eq!(encode(""), "=?base64??=");
        assert_eq!(encode(" f"), "=?base64?IGY=?=");
        assert_eq!(encode("\u{e9}"), "=?base64?w6k=?=");
        for bad in [
            "=?base64?Zg=?=",
            "=?base64?Zh==?=",
            "=?base64?Z===?=",
            "=?base64?Zg==Zg==?=",
            "=?base64?/w==?=",
            "=?base64?****?=",
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
    }
}
