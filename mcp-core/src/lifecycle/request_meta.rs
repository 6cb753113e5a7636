//! [`RequestMeta`]: the stateless era's per-request `_meta`, read in one pass.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::{ClientCapabilities, Implementation};
use crate::logging::LoggingLevel;
use crate::meta::Meta;
use crate::progress::ProgressToken;

/// The typed contents of a request's `params._meta`: in the stateless era (2026-07-28), the
/// per-request counterpart of `initialize` (protocol version, client capabilities and identity).
///
/// The client's capabilities and identity are behind [`Arc`]s: they are the large members, read
/// once per request and handed on (to a server's request context) without being copied, and
/// they keep the struct small to move. Read them with `as_deref()`.
///
/// ```
/// use mcp_runtime_core::RequestMeta;
/// use serde_json::value::RawValue;
///
/// let params = RawValue::from_string(r#"{"name":"x","_meta":{
///     "progressToken": 5,
///     "io.modelcontextprotocol/protocolVersion": "2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities": {},
///     "vendor.example/trace": "abc"}}"#.to_owned()).unwrap();
/// let meta = RequestMeta::from_params(Some(&params)).unwrap();
/// assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
/// assert!(meta.client_capabilities.as_deref().is_some_and(|c| c.roots.is_none()));
/// assert!(meta.progress_token.is_some());
/// assert_eq!(meta.rest["vendor.example/trace"], "abc");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct RequestMeta {
    /// `progressToken`: send progress notifications tagged with this token.
    #[serde(
        rename = "progressToken",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub progress_token: Option<ProgressToken>,
    /// [`PROTOCOL_VERSION_KEY`](crate::meta::PROTOCOL_VERSION_KEY), raw (it may name an unknown revision).
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub protocol_version: Option<String>,
    /// [`CLIENT_CAPABILITIES_KEY`](crate::meta::CLIENT_CAPABILITIES_KEY), behind an [`Arc`]:
    /// the value is large, and a server hands it on to the request's handler without copying it.
    #[serde(
        rename = "io.modelcontextprotocol/clientCapabilities",
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "shared"
    )]
    pub client_capabilities: Option<Arc<ClientCapabilities>>,
    /// [`CLIENT_INFO_KEY`](crate::meta::CLIENT_INFO_KEY), behind an [`Arc`] like the capabilities.
    #[serde(
        rename = "io.modelcontextprotocol/clientInfo",
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "shared"
    )]
    pub client_info: Option<Arc<Implementation>>,
    /// [`LOG_LEVEL_KEY`](crate::meta::LOG_LEVEL_KEY).
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub log_level: Option<LoggingLevel>,
    /// Every other key, untouched.
    // Read by the hand-written `Deserialize` below: a new reserved key needs an arm there too.
    #[serde(flatten)]
    pub rest: Meta,
}

/// Writes an optional shared value as the value itself.
fn shared<T: Serialize, S: serde::Serializer>(
    value: &Option<Arc<T>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => serializer.serialize_some(&**v),
        None => serializer.serialize_none(),
    }
}

/// Read in one pass: the reserved keys into their fields, every other key into `rest` (what
/// `#[serde(flatten)]` would do, without buffering the whole object first).
impl<'de> Deserialize<'de> for RequestMeta {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RequestMetaVisitor)
    }
}

struct RequestMetaVisitor;

/// A map key, borrowed from the input when it can be.
pub(super) struct Key<'de>(pub(super) std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> serde::de::Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(std::borrow::Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Reads one reserved key's value; a key given twice is an error, as for a derived struct.
pub(super) fn reserved<'de, A, T>(
    map: &mut A,
    slot: &mut Option<T>,
    seen: &mut bool,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    if std::mem::replace(seen, true) {
        return Err(serde::de::Error::duplicate_field(key));
    }
    *slot = map.next_value()?;
    Ok(())
}

/// [`reserved`] for a value kept behind an [`Arc`]: read in place, then moved into the `Arc`
/// once (no intermediate `Box`).
fn reserved_shared<'de, A, T>(
    map: &mut A,
    slot: &mut Option<Arc<T>>,
    seen: &mut bool,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: serde::de::MapAccess<'de>,
    T: Deserialize<'de>,
{
    let mut value = None;
    reserved(map, &mut value, seen, key)?;
    *slot = value.map(Arc::new);
    Ok(())
}

impl<'de> serde::de::Visitor<'de> for RequestMetaVisitor {
    type Value = RequestMeta;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("struct RequestMeta")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RequestMeta, A::Error> {
        use crate::meta::{
            CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROGRESS_TOKEN_KEY,
            PROTOCOL_VERSION_KEY,
        };
        let mut meta = RequestMeta::default();
        let mut seen = [false; 5];
        while let Some(Key(key)) = map.next_key()? {
            match &*key {
                PROGRESS_TOKEN_KEY => reserved(
                    &mut map,
                    &mut meta.progress_token,
                    &mut seen[0],
                    PROGRESS_TOKEN_KEY,
                )?,
                PROTOCOL_VERSION_KEY => reserved(
                    &mut map,
                    &mut meta.protocol_version,
                    &mut seen[1],
                    PROTOCOL_VERSION_KEY,
                )?,
                CLIENT_CAPABILITIES_KEY => reserved_shared(
                    &mut map,
                    &mut meta.client_capabilities,
                    &mut seen[2],
                    CLIENT_CAPABILITIES_KEY,
                )?,
                CLIENT_INFO_KEY => reserved_shared(
                    &mut map,
                    &mut meta.client_info,
                    &mut seen[3],
                    CLIENT_INFO_KEY,
                )?,
                LOG_LEVEL_KEY => {
                    reserved(&mut map, &mut meta.log_level, &mut seen[4], LOG_LEVEL_KEY)?
                }
                _ => {
                    let value: serde_json::Value = map.next_value()?;
                    meta.rest.insert(key.into_owned(), value);
                }
            }
        }
        Ok(meta)
    }
}

#[derive(Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
}

impl RequestMeta {
    /// Reads `_meta` from raw request params, ignoring every other member.
    ///
    /// Absent params, absent `_meta` and `"_meta": null` all give an empty `RequestMeta`.
    ///
    /// # Errors
    ///
    /// When the params are not an object or a reserved key has the wrong type.
    pub fn from_params(params: Option<&RawValue>) -> Result<Self, serde_json::Error> {
        let Some(params) = params else {
            return Ok(Self::default());
        };
        let only: MetaOnly = serde_json::from_str(params.get())?;
        Ok(only.meta.unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(params: &str) -> Result<RequestMeta, String> {
        let raw = RawValue::from_string(params.to_owned()).unwrap();
        RequestMeta::from_params(Some(&raw)).map_err(|e| e.to_string())
    }

    #[test]
    fn request_meta_reads_reserved_keys_and_keeps_the_rest() {
        let meta = read(
            r#"{"name":"x","_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug",
            "io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},
            "vendor\u002fkey":{"a":[1,2]},"io.modelcontextprotocol/logLevelX":null},"arguments":{}}"#,
        )
        .unwrap();
        assert_eq!(meta.progress_token, Some(ProgressToken::Number(7)));
        assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
        assert_eq!(
            meta.client_capabilities.as_deref(),
            Some(&ClientCapabilities::default())
        );
        assert_eq!(meta.log_level, Some(LoggingLevel::Debug));
        assert_eq!(
            meta.client_info.as_deref(),
            Some(&Implementation::new("c", "1"))
        );
        assert_eq!(
            serde_json::Value::Object(meta.rest.clone()),
            serde_json::json!({"vendor/key": {"a": [1, 2]}, "io.modelcontextprotocol/logLevelX": null})
        );
        // Written back, every key is there once.
        let back = serde_json::to_value(&meta).unwrap();
        assert_eq!(back.as_object().unwrap().len(), 7);
    }

    #[test]
    fn request_meta_errors_name_what_is_wrong() {
        assert_eq!(read(r#"{"_meta":null}"#).unwrap(), RequestMeta::default());
        assert_eq!(read(r#"{}"#).unwrap(), RequestMeta::default());
        let err = read(r#"{"_meta":5}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: integer `5`, expected struct RequestMeta"),
            "{err}"
        );
        let err = read(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":5}}"#).unwrap_err();
        assert!(
            err.starts_with("invalid type: integer `5`, expected a string"),
            "{err}"
        );
        let err = read(r#"{"_meta":{"progressToken":1,"progressToken":2}}"#).unwrap_err();
        assert!(err.starts_with("duplicate field `progressToken`"), "{err}");
    }
}
