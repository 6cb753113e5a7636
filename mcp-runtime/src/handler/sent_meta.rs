//! A request's `_meta` as the handler sees it, made into a map only when a handler asks.

use std::sync::{Arc, OnceLock};

use mcp_core::meta::PROTOCOL_VERSION_KEY;
use mcp_core::{ClientCapabilities, Implementation, Meta, RequestMeta};

/// The `_meta` a request sent, kept typed; [`SentMeta::map`] builds the handler's view once.
///
/// The stateless era's typed keys live in the request's scope (the client's identity and
/// capabilities as `Arc`s, the version as a revision); they are put back when the map is made,
/// so the handler sees every key as sent without the hot path serialising anything.
///
/// One pointer: a request without `_meta` (most in the handshake era) costs nothing to carry.
#[derive(Default)]
pub(crate) struct SentMeta(Option<Box<Sent>>);

struct Sent {
    sent: Box<RequestMeta>,
    /// Stateless era: the requested revision, raw, and the client's typed keys.
    version: Option<String>,
    client_info: Option<Arc<Implementation>>,
    client_caps: Option<Arc<ClientCapabilities>>,
    map: OnceLock<Option<Meta>>,
}

impl SentMeta {
    /// A handshake-era request's `_meta` (whole; nothing was taken out of it).
    pub(crate) fn handshake(sent: Option<Box<RequestMeta>>) -> Self {
        Self(sent.map(|sent| {
            Box::new(Sent {
                sent,
                version: None,
                client_info: None,
                client_caps: None,
                map: OnceLock::new(),
            })
        }))
    }

    /// A stateless request's `_meta`: `sent` without its version, client identity and
    /// capabilities, which are given apart.
    pub(crate) fn stateless(
        sent: Box<RequestMeta>,
        version: String,
        client_info: Option<Arc<Implementation>>,
        client_caps: Option<Arc<ClientCapabilities>>,
    ) -> Self {
        Self(Some(Box::new(Sent {
            sent,
            version: Some(version),
            client_info,
            client_caps,
            map: OnceLock::new(),
        })))
    }

    /// `_meta` as the handler sees it: every key the request sent (`None` when it sent none).
    pub(crate) fn map(&self) -> Option<&Meta> {
        let s = self.0.as_deref()?;
        s.map.get_or_init(|| s.build()).as_ref()
    }
}

impl Sent {
    fn build(&self) -> Option<Meta> {
        let sent = &*self.sent;
        let Some(version) = &self.version else {
            return meta_map(sent);
        };
        let mut whole = sent.clone();
        whole.client_info = self.client_info.as_deref().cloned();
        whole.client_capabilities = self.client_caps.as_deref().cloned();
        // The version goes in last, as it was before the map was made lazily.
        let mut map = meta_map(&whole)?;
        map.insert(
            PROTOCOL_VERSION_KEY.to_owned(),
            serde_json::Value::String(version.clone()),
        );
        Some(map)
    }
}

fn meta_map(meta: &RequestMeta) -> Option<Meta> {
    // A transport that read `_meta` ahead hands over the default one when there is none.
    if *meta == RequestMeta::default() {
        return None;
    }
    match serde_json::to_value(meta) {
        Ok(serde_json::Value::Object(m)) if !m.is_empty() => Some(m),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(params: &str) -> Box<RequestMeta> {
        let raw = serde_json::value::RawValue::from_string(params.to_owned()).unwrap();
        Box::new(RequestMeta::from_params(Some(&raw)).unwrap())
    }

    #[test]
    fn a_handshake_request_sees_its_meta_as_sent() {
        let m = SentMeta::handshake(Some(read(
            r#"{"_meta":{"progressToken":7,"vendor.example/x":[1]}}"#,
        )));
        assert_eq!(
            serde_json::to_string(m.map().unwrap()).unwrap(),
            r#"{"progressToken":7,"vendor.example/x":[1]}"#
        );
        assert!(SentMeta::handshake(None).map().is_none());
        assert!(SentMeta::handshake(Some(read("{}"))).map().is_none());
    }

    #[test]
    fn a_stateless_request_sees_the_keys_its_scope_took() {
        let mut sent = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"k":"v"}}"#,
        );
        let version = sent.protocol_version.take().unwrap();
        let info = sent.client_info.take().map(Arc::new);
        let caps = sent.client_capabilities.take().map(Arc::new);
        let m = SentMeta::stateless(sent, version, info, caps);
        let map = m.map().unwrap();
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
        // Built once.
        assert!(std::ptr::eq(m.map().unwrap(), map));
    }
}
