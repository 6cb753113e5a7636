//! The stateless era's request headers: `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` (from
//! `x-mcp-header` schema annotations), checked against the body.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::HeaderMap;
use mcp_core::ErrorObject;
use mcp_core::jsonrpc::{echo, error_codes};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::registry::mirror::HeaderParam;

/// -32020 HeaderMismatch.
pub(crate) fn mismatch(message: impl Into<String>) -> ErrorObject {
    ErrorObject::new(error_codes::HEADER_MISMATCH, message)
}

/// A header's value, trimmed; `Err` when it is not visible ASCII.
pub(crate) fn text<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>, ErrorObject> {
    match headers.get(name) {
        None => Ok(None),
        Some(v) => v.to_str().map(|s| Some(s.trim())).map_err(|_| {
            mismatch(format!(
                "Header mismatch: {name} contains invalid characters"
            ))
        }),
    }
}

/// Decodes a `=?base64?…?=` value; plain values are returned as they are.
pub(crate) fn decode(value: &str) -> Result<std::borrow::Cow<'_, str>, ()> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(b64) => {
            let bytes = STANDARD.decode(b64).map_err(|_| ())?;
            String::from_utf8(bytes)
                .map(std::borrow::Cow::Owned)
                .map_err(|_| ())
        }
        None => Ok(std::borrow::Cow::Borrowed(value)),
    }
}

/// Checks that `name`'s header (possibly Base64-encoded) equals `expected`.
/// `Mcp-Method` is present and names the body's method.
pub(crate) fn check_method(headers: &HeaderMap, method: &str) -> Result<(), ErrorObject> {
    match text(headers, "mcp-method")? {
        None => Err(mismatch(
            "Header mismatch: the Mcp-Method header is required",
        )),
        Some(m) if m != method => Err(mismatch(format!(
            "Header mismatch: Mcp-Method header value '{}' does not match body value '{}'",
            echo(m),
            echo(method)
        ))),
        Some(_) => Ok(()),
    }
}

/// The `Mcp-Param-*` headers of a tool call agree with its arguments.
pub(crate) fn check_arguments(
    headers: &HeaderMap,
    params: &[HeaderParam],
    arguments: Option<&RawValue>,
) -> Result<(), ErrorObject> {
    if params.is_empty() {
        return Ok(());
    }
    let arguments: Option<Value> = arguments.and_then(|a| serde_json::from_str(a.get()).ok());
    check_params(headers, params, arguments.as_ref())
}

pub(crate) fn check_name(headers: &HeaderMap, expected: &str) -> Result<(), ErrorObject> {
    let Some(raw) = text(headers, "mcp-name")? else {
        return Err(mismatch(
            "Header mismatch: the Mcp-Name header is required for this method",
        ));
    };
    let got =
        decode(raw).map_err(|()| mismatch("Header mismatch: Mcp-Name is not valid Base64"))?;
    if got != expected {
        return Err(mismatch(format!(
            "Header mismatch: Mcp-Name header value '{}' does not match body value '{}'",
            echo(&got),
            echo(expected)
        )));
    }
    Ok(())
}

/// Checks the `Mcp-Param-*` headers of a tool call against its `arguments`.
pub(crate) fn check_params(
    headers: &HeaderMap,
    params: &[HeaderParam],
    arguments: Option<&Value>,
) -> Result<(), ErrorObject> {
    for p in params {
        let mut value = arguments;
        for key in &p.path {
            value = value.and_then(|v| v.get(key));
        }
        let value = match value {
            None | Some(Value::Null) => continue,
            Some(v) => v,
        };
        let Some(raw) = text(headers, &p.header)? else {
            return Err(mismatch(format!(
                "Header mismatch: header {} is required when `{}` is given",
                p.header,
                p.path.join(".")
            )));
        };
        let got = decode(raw)
            .map_err(|()| mismatch(format!("Header mismatch: {} is not valid Base64", p.header)))?;
        let equal = match value {
            Value::String(s) => got == s.as_str(),
            Value::Bool(b) => got == if *b { "true" } else { "false" },
            Value::Number(n) => match (got.parse::<f64>(), n.as_f64()) {
                (Ok(a), Some(b)) => a == b,
                _ => false,
            },
            _ => false,
        };
        if !equal {
            return Err(mismatch(format!(
                "Header mismatch: {} header value '{}' does not match body value {}",
                p.header,
                echo(&got),
                echo(&value.to_string())
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                http::HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn decodes_base64_sentinel() {
        assert_eq!(decode("us-west1").unwrap(), "us-west1");
        assert_eq!(
            decode("=?base64?SGVsbG8sIOS4lueVjA==?=").unwrap(),
            "Hello, 世界"
        );
        assert!(
            decode("=?base64?SGVsbG8sIOS4lueVjA?=").is_err(),
            "bad padding"
        );
        assert!(decode("=?base64?***?=").is_err(), "not the alphabet");
    }

    #[test]
    fn checks_params_against_body() {
        let params = vec![HeaderParam {
            header: "mcp-param-region".into(),
            path: vec!["region".into()],
        }];
        let args = json!({"region": "us-west1"});
        assert!(
            check_params(
                &headers(&[("Mcp-Param-Region", " us-west1 ")]),
                &params,
                Some(&args)
            )
            .is_ok()
        );
        assert!(
            check_params(
                &headers(&[("mcp-param-region", "=?base64?dXMtd2VzdDE=?=")]),
                &params,
                Some(&args)
            )
            .is_ok()
        );
        assert_eq!(
            check_params(&headers(&[]), &params, Some(&args))
                .unwrap_err()
                .code,
            -32020
        );
        assert!(
            check_params(
                &headers(&[("mcp-param-region", "eu")]),
                &params,
                Some(&args)
            )
            .is_err()
        );
        assert!(
            check_params(&headers(&[]), &params, Some(&json!({}))).is_ok(),
            "absent value: no header expected"
        );
        let n = vec![HeaderParam {
            header: "mcp-param-n".into(),
            path: vec!["n".into()],
        }];
        assert!(
            check_params(
                &headers(&[("mcp-param-n", "42.0")]),
                &n,
                Some(&json!({"n": 42}))
            )
            .is_ok()
        );
    }

    #[test]
    fn checks_name() {
        assert!(check_name(&headers(&[("mcp-name", "t")]), "t").is_ok());
        assert!(check_name(&headers(&[("mcp-name", "=?base64?dA==?=")]), "t").is_ok());
        assert!(check_name(&headers(&[("mcp-name", "u")]), "t").is_err());
        assert!(check_name(&headers(&[]), "t").is_err());
    }
}
