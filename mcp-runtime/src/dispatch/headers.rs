//! The stateless era's request headers: `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` (from
//! `x-mcp-header` schema annotations), checked against the body.

use http::HeaderMap;
use mcp_core::ErrorObject;
use mcp_core::jsonrpc::{echo, error_codes};
use mcp_core::method::headers as codec;
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

/// Decodes a `=?base64?…?=` value (the method table's codec); plain values are returned as
/// they are.
pub(crate) fn decode(value: &str) -> Result<std::borrow::Cow<'_, str>, ()> {
    codec::decode(value).map_err(|_| ())
}

/// Checks that `name`'s header (possibly Base64-encoded) equals `expected`.
/// `Mcp-Method` is present and names the body's method (`route`, read from `method`): both
/// read through the method table, so that they are compared as methods.
pub(crate) fn check_method(
    headers: &HeaderMap,
    route: mcp_core::Method,
    method: &str,
) -> Result<(), ErrorObject> {
    match text(headers, codec::METHOD)? {
        None => Err(mismatch(
            "Header mismatch: the Mcp-Method header is required",
        )),
        Some(m) if mcp_core::Method::client_request(m) != route => Err(mismatch(format!(
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
    // The arguments' own reading decides what the headers must mirror: arguments it cannot read
    // (nesting past the parser's depth, a number out of range, a lone surrogate) are refused,
    // never taken as absent (which would let a request skip the headers an intermediary routes
    // or authorizes by).
    let arguments: Option<Value> = match arguments {
        None => None,
        Some(a) => Some(serde_json::from_str(a.get()).map_err(|e| {
            ErrorObject::invalid_params(format!(
                "invalid params: the arguments cannot be checked against their Mcp-Param headers: {e}"
            ))
        })?),
    };
    check_params(headers, params, arguments.as_ref())
}

pub(crate) fn check_name(headers: &HeaderMap, expected: &str) -> Result<(), ErrorObject> {
    let Some(raw) = text(headers, codec::NAME)? else {
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
    fn the_method_header_names_the_bodys_method_exactly() {
        let route = mcp_core::Method::CallTool;
        let ok = headers(&[("mcp-method", " tools/call ")]);
        assert!(check_method(&ok, route, "tools/call").is_ok());
        for other in [
            "Tools/Call",
            "tools/list",
            "tools/call/x",
            "notifications/cancelled",
        ] {
            let err =
                check_method(&headers(&[("mcp-method", other)]), route, "tools/call").unwrap_err();
            assert_eq!(err.code, -32020, "{other}");
            assert_eq!(
                err.message,
                format!(
                    "Header mismatch: Mcp-Method header value '{other}' does not match body value 'tools/call'"
                )
            );
        }
        assert_eq!(
            check_method(&headers(&[]), route, "tools/call")
                .unwrap_err()
                .message,
            "Header mismatch: the Mcp-Method header is required"
        );
    }

    #[test]
    fn unreadable_arguments_are_refused_not_taken_as_absent() {
        let params = vec![HeaderParam {
            header: "mcp-param-region".into(),
            path: vec!["region".into()],
        }];
        let deep = format!(r#"{{"x":{}{}}}"#, "[".repeat(200), "]".repeat(200));
        for text in [
            deep.as_str(),
            r#"{"region":"us","x":1e400}"#,
            r#"{"region":"us","x":"\ud800"}"#,
        ] {
            let raw = RawValue::from_string(text.to_owned()).unwrap();
            let err = check_arguments(&headers(&[]), &params, Some(&raw)).unwrap_err();
            assert_eq!(err.code, -32602, "{text}");
            assert!(err.message.contains("Mcp-Param"), "{}", err.message);
        }
        // Readable ones are checked as before.
        let raw = RawValue::from_string(r#"{"region":"us"}"#.to_owned()).unwrap();
        let h = headers(&[("mcp-param-region", "us")]);
        assert!(check_arguments(&h, &params, Some(&raw)).is_ok());
        assert_eq!(
            check_arguments(&headers(&[]), &params, Some(&raw))
                .unwrap_err()
                .code,
            -32020
        );
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
