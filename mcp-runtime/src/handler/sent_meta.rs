//! A request's `_meta` as the handler sees it, made into a map only when a handler asks.

use mcp_core::meta::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY};
use mcp_core::{ClientCapabilities, Implementation, Meta, ProtocolVersion, RequestMeta};

/// The `_meta` a request sent, kept typed; [`SentMeta::build`] makes the handler's view (the
/// context keeps it once made).
///
/// The stateless era's typed keys live in the request's context (the client's identity and
/// capabilities as `Arc`s, the version as a revision); they are put back when the map is made,
/// so the handler sees every key as sent without the hot path copying or serialising anything.
///
/// One pointer, and no allocation for a request that sent nothing beyond what the context keeps
/// (most requests, in both eras).
#[derive(Default)]
pub(crate) struct SentMeta(Option<Box<RequestMeta>>);

/// What the context keeps of a request's `_meta`, to put back into the map in the stateless era.
pub(crate) struct Typed<'a> {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_info: Option<&'a Implementation>,
    pub(crate) client_caps: Option<&'a ClientCapabilities>,
}

impl SentMeta {
    /// A request's `_meta`: in the handshake era all of it; in the stateless era what is left
    /// once the scope took the version, the client's identity and its capabilities.
    pub(crate) fn new(sent: Option<RequestMeta>) -> Self {
        Self(sent.filter(|m| !Self::nothing_in(m)).map(Box::new))
    }

    /// Whether `meta` holds no key at all (it need not be kept).
    pub(crate) fn nothing_in(meta: &RequestMeta) -> bool {
        // A transport that read `_meta` ahead hands over the default one when there is none.
        *meta == RequestMeta::default()
    }

    /// Whether there is no map to make (a handshake-era request without `_meta`).
    pub(crate) fn is_none(&self, version: ProtocolVersion) -> bool {
        self.0.is_none() && !version.is_stateless()
    }

    /// `_meta` as the handler sees it: every key the request sent (`None` when it sent none).
    pub(crate) fn build(&self, typed: Typed<'_>) -> Option<Meta> {
        let mut map = match self.0.as_deref().map(serde_json::to_value) {
            Some(Ok(serde_json::Value::Object(m))) => m,
            _ => Meta::new(),
        };
        // Every stateless request sent these (the scope refuses one without them).
        if typed.version.is_stateless() {
            let mut put = |key: &str, value: Option<serde_json::Value>| {
                if let Some(v) = value {
                    map.insert(key.to_owned(), v);
                }
            };
            put(
                CLIENT_CAPABILITIES_KEY,
                typed.client_caps.and_then(|c| serde_json::to_value(c).ok()),
            );
            put(
                CLIENT_INFO_KEY,
                typed.client_info.and_then(|i| serde_json::to_value(i).ok()),
            );
            put(
                PROTOCOL_VERSION_KEY,
                Some(serde_json::Value::String(typed.version.as_str().to_owned())),
            );
        }
        (!map.is_empty()).then_some(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn read(params: &str) -> RequestMeta {
        let raw = serde_json::value::RawValue::from_string(params.to_owned()).unwrap();
        RequestMeta::from_params(Some(&raw)).unwrap()
    }

    fn handshake() -> Typed<'static> {
        Typed {
            version: ProtocolVersion::V2025_11_25,
            client_info: None,
            client_caps: None,
        }
    }

    #[test]
    fn a_handshake_request_sees_its_meta_as_sent() {
        let m = SentMeta::new(Some(read(
            r#"{"_meta":{"progressToken":7,"vendor.example/x":[1]}}"#,
        )));
        assert_eq!(
            serde_json::to_string(&m.build(handshake()).unwrap()).unwrap(),
            r#"{"progressToken":7,"vendor.example/x":[1]}"#
        );
        let v = ProtocolVersion::V2025_11_25;
        assert!(SentMeta::new(None).is_none(v));
        assert!(SentMeta::new(Some(read("{}"))).is_none(v));
        assert!(SentMeta::new(None).build(handshake()).is_none());
    }

    #[test]
    fn a_stateless_request_sees_the_keys_its_scope_took() {
        let mut sent = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"k":"v"}}"#,
        );
        sent.protocol_version.take().unwrap();
        let info: Option<Arc<Implementation>> = sent.client_info.take();
        let caps: Option<Arc<ClientCapabilities>> = sent.client_capabilities.take();
        let typed = || Typed {
            version: ProtocolVersion::V2026_07_28,
            client_info: info.as_deref(),
            client_caps: caps.as_deref(),
        };
        let map = SentMeta::new(Some(sent)).build(typed()).unwrap();
        assert_eq!(map["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
        assert_eq!(
            map["io.modelcontextprotocol/clientCapabilities"],
            serde_json::json!({"roots": {}})
        );
        assert_eq!(
            map["io.modelcontextprotocol/clientInfo"],
            serde_json::json!({"name": "c", "version": "1"})
        );
        assert_eq!(map["k"], "v");
        assert_eq!(map.len(), 4);
        // Nothing but the typed keys sent: nothing kept, the map made from the context alone.
        let m = SentMeta::new(None);
        assert!(!m.is_none(ProtocolVersion::V2026_07_28));
        let map = m.build(typed()).unwrap();
        assert_eq!(map.len(), 3);
        assert_eq!(map["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    }
}
