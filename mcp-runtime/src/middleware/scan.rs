//! What [`Request::target`](super::Request::target) and [`Request::meta`](super::Request::meta)
//! read from the params: the target and the text of `_meta`, found by walking the params' top
//! level without parsing the other members' values, with the same answers as serde's reading
//! of the same members (which is what a case the walk does not settle falls back to).

use std::borrow::Cow;

use mcp_core::method::Target;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The target (borrowed from the params unless it has escapes) and the text of `_meta` (an
/// object), parsed only when a layer asks for it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Scanned<'a> {
    pub(super) target: Option<Cow<'a, str>>,
    pub(super) meta: Option<&'a str>,
}

#[derive(Deserialize)]
struct MetaOnly<'a> {
    #[serde(rename = "_meta", default, borrow)]
    meta: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Targets<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    uri: Option<Cow<'a, str>>,
    #[serde(rename = "taskId", default, borrow)]
    task_id: Option<Cow<'a, str>>,
    #[serde(rename = "ref", default, borrow)]
    reference: Option<Reference<'a>>,
    #[serde(rename = "_meta", default, borrow)]
    meta: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Reference<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    uri: Option<Cow<'a, str>>,
}

/// The target (for a method that has one) and `_meta`, in one pass over the params. Params
/// the method would refuse (a duplicate member, a wrong type, a `_meta` that is not an
/// object) have neither.
pub(super) fn scan(target: Option<Target>, params: &RawValue) -> Scanned<'_> {
    quick(target, params.get())
        .or_else(|| walk(target, params.get()))
        .unwrap_or_else(|| parse(target, params))
}

/// The common case, settled by looking at the quotes only: params with no escape at all,
/// whose target (if any) is a `name` that comes first, and where no other quoted text is a
/// member serde reads (`"name"`, `"uri"`, `"taskId"`, `"ref"`, `"_meta"`): without escapes,
/// every such key is written as it is, so none is in the params. `None` sends the params to
/// the walk.
fn quick(target: Option<Target>, text: &str) -> Option<Scanned<'_>> {
    const FIRST: &str = "{\"name\":\"";
    let (found, rest) = match target {
        None => (None, text),
        Some(Target::Name) => {
            let after = text.strip_prefix(FIRST)?;
            let end = after.find('"')?;
            (Some(&after[..end]), &after[end + 1..])
        }
        Some(_) => return None,
    };
    let b = rest.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'\\' => return None,
            b'"' => {
                let next = &b[i + 1..];
                // The first letter picks the one key it could be.
                let key: &[u8] = match next.first() {
                    Some(b'_') => b"_meta\"",
                    Some(_) if target.is_none() => continue,
                    Some(b'n') => b"name\"",
                    Some(b'u') => b"uri\"",
                    Some(b't') => b"taskId\"",
                    Some(b'r') => b"ref\"",
                    _ => continue,
                };
                if next.starts_with(key) {
                    return None;
                }
            }
            _ => {}
        }
    }
    if found.is_some_and(|name| name.contains('\\')) {
        return None;
    }
    Some(Scanned {
        target: found.map(Cow::Borrowed),
        meta: None,
    })
}

/// serde's reading: what the walk falls back to.
fn parse(target: Option<Target>, params: &RawValue) -> Scanned<'_> {
    if target.is_none() {
        return serde_json::from_str::<MetaOnly<'_>>(params.get())
            .ok()
            .and_then(|m| object(m.meta).ok())
            .map(|meta| Scanned { target: None, meta })
            .unwrap_or_default();
    }
    let Ok(t) = serde_json::from_str::<Targets<'_>>(params.get()) else {
        return Scanned::default();
    };
    let Ok(meta) = object(t.meta) else {
        return Scanned::default();
    };
    let found = match target {
        Some(Target::Name) => t.name,
        Some(Target::Uri) => t.uri,
        Some(Target::TaskId) => t.task_id,
        Some(Target::Ref) => t.reference.and_then(|r| r.name.or(r.uri)),
        _ => None,
    };
    Scanned {
        target: found,
        meta,
    }
}

/// The text of a `_meta` serde read: an object, or none (`Err` for any other value).
fn object(meta: Option<&RawValue>) -> Result<Option<&str>, ()> {
    match meta {
        Some(m) if !m.get().starts_with('{') => Err(()),
        m => Ok(m.map(RawValue::get)),
    }
}

/// The walk over the top-level members of `text` (valid JSON: the envelope was parsed), one
/// pass over its bytes: `None` for anything it leaves to serde (a key or target with escapes,
/// `ref`, a member twice, a value of the wrong type, params that are not an object).
fn walk(target: Option<Target>, text: &str) -> Option<Scanned<'_>> {
    let b = text.as_bytes();
    let open = b
        .iter()
        .position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))?;
    if b[open] != b'{' {
        return None;
    }
    let mut found = Scanned::default();
    // The members serde reads, each at most once: name, uri, taskId, _meta.
    let mut seen = 0u8;
    let mut depth = 0u32;
    // The current member's key (from, to) and where its value starts.
    let mut key: Option<(usize, usize)> = None;
    let mut value_start = None;
    let mut i = open;
    loop {
        // To the next byte that is structure (everything else is inside a scalar or
        // whitespace).
        i += b
            .get(i..)?
            .iter()
            .position(|&c| STRUCTURE[usize::from(c)])?;
        match b[i] {
            b'"' => {
                let from = i + 1;
                let mut end = from + quote_or_escape(b.get(from..)?)?;
                let mut escaped = false;
                while b[end] == b'\\' {
                    escaped = true;
                    end += 2;
                    end += quote_or_escape(b.get(end..)?)?;
                }
                if depth == 1 && value_start.is_none() {
                    if escaped {
                        return None;
                    }
                    key = Some((from, end));
                }
                i = end;
            }
            b'{' | b'[' => depth += 1,
            b':' if depth == 1 => value_start = Some(i + 1),
            c @ (b',' | b'}') if depth == 1 => {
                if let (Some((from, to)), Some(start)) = (key.take(), value_start.take()) {
                    let value = text.get(start..i)?.trim_ascii();
                    member(target, text.get(from..to)?, value, &mut found, &mut seen)?;
                }
                if c == b'}' {
                    return Some(found);
                }
            }
            b']' if depth == 1 => return None,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            _ => {}
        }
        i += 1;
    }
}

/// The bytes that are JSON's structure: quotes, brackets, braces, commas and colons.
static STRUCTURE: [bool; 256] = {
    let mut table = [false; 256];
    let mut k = 0;
    let special = b"\"{}[],:";
    while k < special.len() {
        table[special[k] as usize] = true;
        k += 1;
    }
    table
};

/// Where the first quote or backslash of `b` is.
fn quote_or_escape(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'"' || c == b'\\')
}

/// One top-level member, `key` and its `value` (as written): what it says of the target and
/// `_meta`, or `None` when serde would refuse it (or its reading is left to serde).
fn member<'a>(
    target: Option<Target>,
    key: &str,
    value: &'a str,
    found: &mut Scanned<'a>,
    seen: &mut u8,
) -> Option<()> {
    let (bit, member) = match key {
        "_meta" => (1, None),
        _ if target.is_none() => return Some(()),
        "name" => (2, Some(Target::Name)),
        "uri" => (4, Some(Target::Uri)),
        "taskId" => (8, Some(Target::TaskId)),
        "ref" => return None,
        _ => return Some(()),
    };
    if *seen & bit != 0 {
        return None;
    }
    *seen |= bit;
    match member {
        None => match value.as_bytes().first()? {
            b'{' => found.meta = Some(value),
            b'n' => found.meta = None,
            _ => return None,
        },
        Some(member) => {
            let text = if value == "null" {
                None
            } else if plain(value) {
                Some(&value[1..value.len() - 1])
            } else {
                return None;
            };
            if target == Some(member) {
                found.target = text.map(Cow::Borrowed);
            }
        }
    }
    Some(())
}

/// Whether `value` is a string without escapes (its only quotes the two around it).
fn plain(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() >= 2
        && b[0] == b'"'
        && b[b.len() - 1] == b'"'
        && !b[1..b.len() - 1].iter().any(|&c| c == b'"' || c == b'\\')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(target: Option<Target>, text: &str) -> Scanned<'static> {
        let raw: &'static RawValue = Box::leak(RawValue::from_string(text.to_owned()).unwrap());
        let walked = walk(target, raw.get());
        let parsed = parse(target, raw);
        if let Some(w) = &walked {
            assert_eq!(w, &parsed, "the walk and serde differ on {text}");
        }
        if let Some(q) = quick(target, raw.get()) {
            assert_eq!(q, parsed, "the quick look and serde differ on {text}");
        }
        assert_eq!(scan(target, raw), parsed);
        parsed
    }

    #[test]
    fn the_walk_reads_what_serde_reads() {
        let name = Some(Target::Name);
        let s = both(
            name,
            r#" { "arguments" : {"a":[1,{"name":"x"}],"b":"}\"]"}, "name" : "add" } "#,
        );
        assert_eq!(s.target.as_deref(), Some("add"));
        assert_eq!(s.meta, None);
        let s = both(
            name,
            r#"{"name":"add","_meta":{"traceparent":"00-ab"},"x":-1.5e3}"#,
        );
        assert_eq!(s.meta, Some(r#"{"traceparent":"00-ab"}"#));
        assert_eq!(both(name, r#"{"name":"a","name":"b"}"#), Scanned::default());
        assert_eq!(both(name, r#"{"name":1}"#), Scanned::default());
        assert_eq!(both(name, r#"{"name":"x","uri":2}"#), Scanned::default());
        assert_eq!(
            both(name, r#"{"name":"x","_meta":"m"}"#),
            Scanned::default()
        );
        assert_eq!(
            both(name, r#"{"name":null,"_meta":null}"#),
            Scanned::default()
        );
        let s = both(name, r#"{"name":"a\"b"}"#);
        assert_eq!(s.target.as_deref(), Some("a\"b"));
        let s = both(
            Some(Target::Uri),
            r#"{"name":"n","uri":"file:///a","taskId":"t"}"#,
        );
        assert_eq!(s.target.as_deref(), Some("file:///a"));
        let s = both(Some(Target::TaskId), r#"{"taskId":"t-1","cursor":true}"#);
        assert_eq!(s.target.as_deref(), Some("t-1"));
        let s = both(
            Some(Target::Ref),
            r#"{"ref":{"type":"ref/prompt","name":"p"}}"#,
        );
        assert_eq!(s.target.as_deref(), Some("p"));
        let s = both(None, r#"{"name":1,"name":2,"_meta":{"k":[]}}"#);
        assert_eq!((s.target, s.meta), (None, Some(r#"{"k":[]}"#)));
        assert_eq!(both(None, r#"{"_meta":{},"_meta":{}}"#), Scanned::default());
        assert_eq!(both(None, "[1,2]"), Scanned::default());
        assert_eq!(
            walk(name, r#"{"na\u006de":"x"}"#),
            None,
            "escaped keys go to serde"
        );
        assert_eq!(quick(name, r#"{"name":"x","uri":"y"}"#), None);
        assert_eq!(quick(name, r#"{"arguments":{},"name":"x"}"#), None);
        let q = quick(name, r#"{"name":"add","arguments":{"a":"b"}}"#).unwrap();
        assert_eq!(q.target.as_deref(), Some("add"));
        assert_eq!(
            both(name, r#"{"name":"a","arguments":{"name":"b"}}"#)
                .target
                .as_deref(),
            Some("a")
        );
        assert_eq!(both(name, r#"{"name":"a","x":"_meta"}"#).meta, None);
        assert_eq!(
            both(name, r#"{"na\u006de":"x"}"#).target.as_deref(),
            Some("x")
        );
    }
}
