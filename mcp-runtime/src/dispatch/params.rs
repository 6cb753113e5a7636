//! A method's params and the request's `_meta`, read in one pass.
//!
//! The stateless era puts the protocol version, the client's capabilities and identity in every
//! request's `params._meta`. Reading `_meta` apart and then the params again for the method
//! would walk the params twice (and skip the arguments twice); here the method's params type `P`
//! is read from the object with `_meta` taken out of it on the way, typed, by a map that hands
//! every other member to `P`'s own (derived) deserialiser. `_meta` itself is taken as text and
//! read through the connection's [`MetaMemo`] (a stateless client sends the same one each time).

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::value::RawValue;

use crate::dispatch::meta_memo::{MetaMemo, Sent};

/// What one pass over a params object found.
#[derive(Debug)]
pub(crate) enum Read<P> {
    /// The params, `_meta` if the object has one (`null` counts as none), and whether the
    /// object has a member of a retried request (`inputResponses`, `requestState`).
    Both(P, Option<Sent>, bool),
    /// `_meta` is not a valid request `_meta`: serde's message.
    BadMeta(String),
    /// The params are not a valid `P` (and `_meta`, if any, was not reached or was valid).
    BadParams,
}

/// Reads `text` (a JSON object, syntax checked) as `P` with its `_meta` member read as a
/// [`RequestMeta`](mcp_core::RequestMeta) through `memo`, and notes whether a retry's members are
/// there (so that the round need not look for them again).
pub(crate) fn read_with_meta<'a, P: Deserialize<'a>>(text: &'a str, memo: &MetaMemo) -> Read<P> {
    let (failed, retry) = (Cell::new(false), Cell::new(false));
    let (mut meta, mut bad) = (None, None);
    let seed = Whole {
        meta: &mut meta,
        memo,
        bad: &mut bad,
        failed: &failed,
        retry: &retry,
        params: PhantomData,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    match seed.deserialize(&mut de).and_then(|p| de.end().map(|()| p)) {
        Ok(params) => Read::Both(params, meta, retry.get()),
        Err(e) if failed.get() => Read::BadMeta(bad.unwrap_or_else(|| e.to_string())),
        Err(_) => Read::BadParams,
    }
}

/// The whole params object: `P`, with `_meta` set aside.
struct Whole<'m, P> {
    meta: &'m mut Option<Sent>,
    memo: &'m MetaMemo,
    bad: &'m mut Option<String>,
    failed: &'m Cell<bool>,
    retry: &'m Cell<bool>,
    params: PhantomData<P>,
}

impl<'de, P: Deserialize<'de>> DeserializeSeed<'de> for Whole<'_, P> {
    type Value = P;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<P, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, P: Deserialize<'de>> Visitor<'de> for Whole<'_, P> {
    type Value = P;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("params object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<P, A::Error> {
        P::deserialize(WithoutMeta {
            map,
            meta: self.meta,
            memo: self.memo,
            bad: self.bad,
            seen: false,
            failed: self.failed,
            retry: self.retry,
        })
    }
}

/// The params' members but `_meta`, as a map (and as a deserialiser of that map, for `P`).
struct WithoutMeta<'m, A> {
    map: A,
    meta: &'m mut Option<Sent>,
    memo: &'m MetaMemo,
    /// The message of a `_meta` the memo could not read (its text's own position in it).
    bad: &'m mut Option<String>,
    seen: bool,
    failed: &'m Cell<bool>,
    /// Set when a member of a retried request goes by (it is handed to `P` all the same).
    retry: &'m Cell<bool>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WithoutMeta<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            let Some(Key(key)) = self.map.next_key::<Key<'de>>()? else {
                return Ok(None);
            };
            if key != "_meta" {
                if key == "inputResponses" || key == "requestState" {
                    self.retry.set(true);
                }
                return match key {
                    Cow::Borrowed(k) => seed
                        .deserialize(de::value::BorrowedStrDeserializer::new(k))
                        .map(Some),
                    Cow::Owned(k) => seed
                        .deserialize(de::value::StringDeserializer::new(k))
                        .map(Some),
                };
            }
            let meta = if std::mem::replace(&mut self.seen, true) {
                Err(de::Error::duplicate_field("_meta"))
            } else {
                self.map.next_value::<Option<&'de RawValue>>()
            };
            let read = match meta {
                Ok(None) => Ok(None),
                Ok(Some(raw)) => self.memo.read(raw.get()).map(Some).map_err(|e| {
                    let message = e.to_string();
                    *self.bad = Some(message.clone());
                    de::Error::custom(message)
                }),
                Err(e) => Err(e),
            };
            match read {
                Ok(meta) => *self.meta = meta,
                Err(e) => {
                    self.failed.set(true);
                    return Err(e);
                }
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for WithoutMeta<'_, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A member's name, borrowed from the text unless it has escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_core::{ClientCapabilities, ProgressToken, ProtocolVersion, RequestMeta};
    use serde::Deserialize;
    use serde_json::value::RawValue;

    #[derive(Deserialize, Debug)]
    struct Params<'a> {
        #[serde(borrow)]
        name: Cow<'a, str>,
        #[serde(default, borrow)]
        arguments: Option<&'a RawValue>,
    }

    fn read(text: &str) -> Read<Params<'_>> {
        read_with_meta(text, &MetaMemo::default())
    }

    #[test]
    fn params_and_meta_come_out_of_one_pass() {
        let text = r#"{"name":"add","arguments":{"a":1,"_meta":2},"_meta":{"progressToken":7,
            "io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":{}},"extra":[1]}"#;
        let Read::Both(p, Some(Sent::Read(meta)), false) = read(text) else {
            panic!("{:?}", read(text));
        };
        assert_eq!(p.name, "add");
        assert_eq!(p.arguments.unwrap().get(), r#"{"a":1,"_meta":2}"#);
        assert_eq!(meta.progress_token, Some(ProgressToken::Number(7)));
        assert_eq!(meta.protocol_version.as_deref(), Some("2026-07-28"));
        assert_eq!(
            meta.client_capabilities.as_deref(),
            Some(&ClientCapabilities::default())
        );
        // The same as `_meta` read apart.
        let raw = RawValue::from_string(text.to_owned()).unwrap();
        assert_eq!(meta, RequestMeta::from_params(Some(&raw)).unwrap());
    }

    #[test]
    fn no_meta_null_meta_and_escaped_names() {
        assert!(matches!(
            read(r#"{"name":"a"}"#),
            Read::Both(_, None, false)
        ));
        assert!(matches!(
            read(r#"{"_meta":null,"name":"a"}"#),
            Read::Both(_, None, false)
        ));
        let Read::Both(p, Some(Sent::Read(meta)), false) =
            read(r#"{"na\u006de":"b","\u005fmeta":{"progressToken":"t"}}"#)
        else {
            panic!("escaped names");
        };
        assert_eq!(p.name, "b");
        assert_eq!(meta.progress_token, Some(ProgressToken::String("t".into())));
    }

    #[test]
    fn a_plain_stateless_meta_is_read_once_per_text() {
        let memo = MetaMemo::default();
        let text = r#"{"name":"a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}"#;
        let known = |read: Read<Params<'_>>| match read {
            Read::Both(p, Some(Sent::Known(known)), false) if p.name == "a" => known,
            other => panic!("{other:?}"),
        };
        let first = known(read_with_meta(text, &memo));
        assert_eq!(first.version, ProtocolVersion::V2026_07_28);
        assert!(first.client_caps.roots.is_some() && first.client_info.is_none());
        let again = known(read_with_meta(text, &memo));
        assert!(std::sync::Arc::ptr_eq(
            &first.client_caps,
            &again.client_caps
        ));
        // A bad `_meta` after a kept one: its own error, its position left out.
        let bad = r#"{"name":"a","_meta":{"io.modelcontextprotocol/clientCapabilities":[]}}"#;
        let Read::BadMeta(msg) = read_with_meta::<Params<'_>>(bad, &memo) else {
            panic!("bad meta");
        };
        assert_eq!(
            crate::dispatch::scope::invalid_meta(&msg).message,
            "invalid `_meta`: invalid type: sequence, expected struct ClientCapabilities"
        );
    }

    #[test]
    fn the_members_of_a_retry_are_noticed_at_the_top_level_only() {
        let retry = |text| matches!(read(text), Read::Both(_, _, true));
        assert!(retry(r#"{"name":"a","requestState":"s"}"#));
        assert!(retry(r#"{"name":"a","inputResponses":{},"_meta":{}}"#));
        assert!(retry(r#"{"name":"a","input\u0052esponses":{}}"#));
        assert!(!retry(
            r#"{"name":"a","arguments":{"requestState":"s","inputResponses":{}}}"#
        ));
        assert!(!retry(r#"{"name":"a","_meta":{"requestState":"s"}}"#));
    }

    #[test]
    fn errors_say_whether_meta_or_the_params_are_wrong() {
        let Read::BadMeta(msg) = read(r#"{"name":"a","_meta":5}"#) else {
            panic!("bad meta");
        };
        assert!(
            msg.starts_with("invalid type: integer `5`, expected struct RequestMeta"),
            "{msg}"
        );
        let Read::BadMeta(msg) = read(r#"{"_meta":{},"name":"a","_meta":{}}"#) else {
            panic!("duplicate meta");
        };
        assert!(msg.starts_with("duplicate field `_meta`"), "{msg}");
        let Read::BadMeta(msg) =
            read(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":5},"name":"a"}"#)
        else {
            panic!("bad version");
        };
        assert!(
            msg.starts_with("invalid type: integer `5`, expected a string"),
            "{msg}"
        );
        // The params' own errors, before or after a valid `_meta`.
        assert!(matches!(read(r#"{"name":1,"_meta":{}}"#), Read::BadParams));
        assert!(matches!(read(r#"{"_meta":{}}"#), Read::BadParams));
        assert!(matches!(
            read(r#"{"_meta":{},"name":"a","name":"b"}"#),
            Read::BadParams
        ));
        assert!(matches!(read(r#"[]"#), Read::BadParams));
    }
}
