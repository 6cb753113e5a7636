//! The last stateless `_meta` a connection read, kept by its text.
//!
//! A stateless (2026-07-28) client sends the same `_meta` with every request: its protocol
//! version, its capabilities and often its identity, byte for byte the same each time. Reading
//! that object is most of what the era adds to a request. A connection keeps the last one it
//! read, with its text; a request whose `_meta` has the same text gets the same reading (the
//! revision, and the shared capabilities and identity) without being read again. Any other text
//! is read as before, and replaces the kept one when it is of that plain kind.

use std::sync::{Arc, Mutex};

use mcp_core::{ClientCapabilities, Implementation, ProtocolVersion, RequestMeta};
use serde::Deserialize;

use crate::sync::lock;

/// A stateless `_meta` with nothing but the typed keys a scope takes from it: a served revision,
/// the client's capabilities and maybe its identity (no progress token, no log level, no other
/// key).
#[derive(Clone, Debug)]
pub(crate) struct Known {
    pub(crate) version: ProtocolVersion,
    pub(crate) client_caps: Arc<ClientCapabilities>,
    pub(crate) client_info: Option<Arc<Implementation>>,
}

impl Known {
    /// `meta` as a [`Known`], when it is one.
    fn of(meta: &RequestMeta) -> Option<Self> {
        let version = ProtocolVersion::parse(meta.protocol_version.as_deref()?)?;
        let client_caps = Arc::clone(meta.client_capabilities.as_ref()?);
        let plain = meta.progress_token.is_none() && meta.log_level.is_none();
        (version.is_stateless() && plain && meta.rest.is_empty()).then(|| Self {
            version,
            client_caps,
            client_info: meta.client_info.clone(),
        })
    }
}

/// What reading a `_meta` object gave.
#[derive(Debug)]
pub(crate) enum Sent {
    /// A plain stateless `_meta` (read now, or the same text as the last one).
    Known(Known),
    /// Any other `_meta`, as read.
    Read(RequestMeta),
}

/// A connection's last plain stateless `_meta` and its text (one entry: its size is bounded by
/// the message size limit).
#[derive(Default)]
pub(crate) struct MetaMemo(Mutex<Option<(Box<str>, Known)>>);

impl MetaMemo {
    /// Reads `text`, the JSON of a `_meta` value (not `null`) found in a request's params: the
    /// kept reading when `text` is the same as the last one's, else the reading of `text` (kept
    /// when it is plain). `text` was checked for JSON syntax with its message; the errors are
    /// the ones reading `_meta` in place gives.
    pub(crate) fn read(&self, text: &str) -> Result<Sent, serde_json::Error> {
        {
            let last = lock(&self.0);
            if let Some((kept, known)) = &*last
                && **kept == *text
            {
                return Ok(Sent::Known(known.clone()));
            }
        }
        let meta = read_nested(text)?;
        let Some(known) = Known::of(&meta) else {
            return Ok(Sent::Read(meta));
        };
        *lock(&self.0) = Some((text.into(), known.clone()));
        Ok(Sent::Known(known))
    }
}

/// Reads `_meta` from its own text as deeply nested as in its params (one level in: the params
/// object), so that JSON's nesting limit cuts in exactly where it does when `_meta` is read in
/// place.
fn read_nested(text: &str) -> Result<RequestMeta, serde_json::Error> {
    let mut nested = String::with_capacity(text.len() + 2);
    nested.push('[');
    nested.push_str(text);
    nested.push(']');
    let [meta] = <[RequestMeta; 1]>::deserialize(&mut serde_json::Deserializer::from_str(&nested))?;
    Ok(meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;

    fn known(sent: Sent) -> Known {
        match sent {
            Sent::Known(k) => k,
            Sent::Read(m) => panic!("not plain: {m:?}"),
        }
    }

    #[test]
    fn the_same_text_gets_the_same_shared_reading() {
        let memo = MetaMemo::default();
        let first = known(memo.read(PLAIN).unwrap());
        assert_eq!(first.version, ProtocolVersion::V2026_07_28);
        assert!(first.client_caps.roots.is_some());
        assert_eq!(first.client_info.as_deref().unwrap().name, "c");
        let second = known(memo.read(PLAIN).unwrap());
        assert!(Arc::ptr_eq(&first.client_caps, &second.client_caps));
        assert!(Arc::ptr_eq(
            first.client_info.as_ref().unwrap(),
            second.client_info.as_ref().unwrap()
        ));
        // Another text is read again, and kept in its place.
        let other = PLAIN.replace(r#""c""#, r#""d""#);
        let third = known(memo.read(&other).unwrap());
        assert_eq!(third.client_info.as_deref().unwrap().name, "d");
        assert!(!Arc::ptr_eq(&first.client_caps, &third.client_caps));
        let fourth = known(memo.read(&other).unwrap());
        assert!(Arc::ptr_eq(&third.client_caps, &fourth.client_caps));
    }

    #[test]
    fn other_meta_is_read_as_sent_and_not_kept() {
        let memo = MetaMemo::default();
        for text in [
            r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1}"#,
            r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug"}"#,
            r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"x":1}"#,
            r#"{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}"#,
            r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#,
            r#"{"progressToken":"t"}"#,
        ] {
            let Sent::Read(meta) = memo.read(text).unwrap() else {
                panic!("{text} taken as plain");
            };
            assert_eq!(meta, serde_json::from_str::<RequestMeta>(text).unwrap());
            assert!(memo.0.lock().unwrap().is_none(), "{text} kept");
        }
    }

    #[test]
    fn errors_are_those_of_reading_in_place() {
        let memo = MetaMemo::default();
        let message = |text: &str| {
            let e = memo.read(text).unwrap_err().to_string();
            e[..e.rfind(" at line ").unwrap()].to_owned()
        };
        assert_eq!(
            message("5"),
            "invalid type: integer `5`, expected struct RequestMeta"
        );
        assert_eq!(
            message(r#"{"io.modelcontextprotocol/protocolVersion":5}"#),
            "invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            message(r#"{"progressToken":1,"progressToken":2}"#),
            "duplicate field `progressToken`"
        );
        // Nesting: `_meta` is one level inside its params, so 126 more levels are allowed in
        // it, as when it is read in place.
        let deep = |n: usize| format!(r#"{{"x":{}1{}}}"#, "[".repeat(n), "]".repeat(n));
        let in_place = |n: usize| {
            let params = format!(r#"{{"_meta":{}}}"#, deep(n));
            let raw = serde_json::value::RawValue::from_string(params).unwrap();
            RequestMeta::from_params(Some(&raw)).is_ok()
        };
        for n in [125, 126, 127] {
            assert_eq!(memo.read(&deep(n)).is_ok(), in_place(n), "depth {n}");
        }
        assert!(in_place(125) && !in_place(127));
    }
}
