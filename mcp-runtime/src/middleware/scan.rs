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
/// the walk. The quotes and backslashes are found eight bytes at a time ([`specials`]).
fn quick(target: Option<Target>, text: &str) -> Option<Scanned<'_>> {
    const FIRST: &[u8] = b"{\"name\":\"";
    let b = text.as_bytes();
    // Where the look starts, and (for a `name` target) where the name starts: its end is the
    // first quote or backslash after it, which must be a quote.
    let (from, mut name) = match target {
        None => (0, None),
        Some(Target::Name) if b.starts_with(FIRST) => (FIRST.len(), Some(FIRST.len())),
        Some(_) => return None,
    };
    let mut found = None;
    let mut base = from;
    while base < b.len() {
        let (word, width) = word_at(b, base);
        let mut marks = specials(word);
        while marks != 0 {
            let i = base + (marks.trailing_zeros() / 8) as usize;
            marks &= marks - 1;
            if b[i] == b'\\' {
                return None;
            }
            if let Some(start) = name.take() {
                found = Some(text.get(start..i)?);
                continue;
            }
            if names_a_member(target, &b[i + 1..]) {
                return None;
            }
        }
        base += width;
    }
    if name.is_some() {
        return None;
    }
    Some(Scanned {
        target: found.map(Cow::Borrowed),
        meta: None,
    })
}

/// The eight bytes of `b` from `at` as a little-endian word (zeros past the end, which are
/// neither quotes nor backslashes), and how many of them are `b`'s.
#[inline]
fn word_at(b: &[u8], at: usize) -> (u64, usize) {
    if let Some(eight) = b.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(eight);
        return (u64::from_le_bytes(word), 8);
    }
    let tail = b.get(at..).unwrap_or_default();
    let word = tail
        .iter()
        .rev()
        .fold(0u64, |w, &c| (w << 8) | u64::from(c));
    (word, tail.len())
}

/// Whether the quote before `next` opens a key serde reads for `target` (the first letter
/// picks the one key it could be).
#[inline]
fn names_a_member(target: Option<Target>, next: &[u8]) -> bool {
    let key: &[u8] = match next.first() {
        Some(b'_') => b"_meta\"",
        Some(_) if target.is_none() => return false,
        Some(b'n') => b"name\"",
        Some(b'u') => b"uri\"",
        Some(b't') => b"taskId\"",
        Some(b'r') => b"ref\"",
        _ => return false,
    };
    next.starts_with(key)
}

/// The bytes of `word` (eight, little-endian) that are a quote or a backslash: bit 7 of each
/// such byte set, every other bit clear.
#[inline]
fn specials(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // A byte's top bit is set when the byte is zero, exactly (no carry crosses bytes).
    let zeros = |x: u64| !(((x & LOW).wrapping_add(LOW)) | x | LOW);
    zeros(word ^ (ONES * u64::from(b'"'))) | zeros(word ^ (ONES * u64::from(b'\\')))
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

    #[test]
    fn the_quick_look_agrees_at_every_offset_of_its_words() {
        let name = Some(Target::Name);
        for pad in 0..20 {
            let p = "p".repeat(pad);
            let plain = format!(r#"{{"name":"a{p}","arguments":{{"k{p}":"v{p}","n":[1,{pad}]}}}}"#);
            let q = quick(name, &plain).unwrap();
            assert_eq!(q.target.as_deref(), Some(format!("a{p}").as_str()));
            assert_eq!(q, both(name, &plain));
            let q = quick(None, &plain).unwrap();
            assert_eq!(q, Scanned::default());
            for refused in [
                format!(r#"{{"name":"a{p}\"x","arguments":{{}}}}"#),
                format!(r#"{{"name":"a{p}","arguments":{{"k":"{p}\\"}}}}"#),
                format!(r#"{{"name":"a{p}","arguments":{{}},"_meta":{{}}}}"#),
                format!(r#"{{"name":"a{p}","arguments":{{"uri":"{p}"}}}}"#),
                format!(r#"{{"x{p}":1,"name":"a","arguments":{{}}}}"#),
            ] {
                assert_eq!(quick(name, &refused), None, "{refused}");
                let _ = both(name, &refused);
            }
        }
        assert_eq!(quick(name, r#"{"name":"abc"#), None, "an unterminated name");
        assert_eq!(
            specials(u64::from_le_bytes(*b"a\"b\\c\"\x00\xa2")),
            0x0000_8000_8000_8000
        );
    }
}
