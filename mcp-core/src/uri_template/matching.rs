//! Matching a concrete URI back to a template's variables, within a work budget proportional
//! to the URI's length.

use std::collections::BTreeMap;

use super::{Expr, Op, Part, VarSpec, decode};

/// The variables of `uri` if it matches `parts`.
pub(super) fn match_uri(parts: &[Part], uri: &str) -> Option<BTreeMap<String, String>> {
    let mut caps = Captures {
        pairs: Vec::new(),
        budget: WORK_PER_BYTE
            .saturating_mul(uri.len())
            .saturating_add(WORK_BASE),
    };
    if match_parts(parts, uri, 0, &mut caps) {
        Some(caps.pairs.into_iter().collect())
    } else {
        None
    }
}

/// Steps of matching work allowed per byte of the URI, on top of [`WORK_BASE`]: matching tries
/// the possible ends of each expression, and a hostile URI (megabytes long, with no valid end)
/// must cost time in proportion to its length, not to its square. A match that would take more
/// is taken to fail; real templates and URIs need a few steps per byte.
const WORK_PER_BYTE: usize = 64;
/// Steps of matching work every URI may take.
const WORK_BASE: usize = 1 << 16;

/// The variables matched so far, and the steps of work left.
struct Captures {
    pairs: Vec<(String, String)>,
    budget: usize,
}

impl Captures {
    /// Spends `steps`; `false` once the budget is gone (then nothing matches any more).
    fn charge(&mut self, steps: usize) -> bool {
        match self.budget.checked_sub(steps) {
            Some(left) => {
                self.budget = left;
                true
            }
            None => {
                self.budget = 0;
                false
            }
        }
    }
}

/// Whether what follows an expression could start at `end`: the end of the URI when nothing
/// follows, the next literal when one does (a cheap test before any decoding).
fn can_follow(rest: &[Part], uri: &str, end: usize) -> bool {
    match rest.first() {
        None => end == uri.len(),
        Some(Part::Literal(l)) => uri[end..].starts_with(l.as_str()),
        Some(Part::Expr(_)) => true,
    }
}

fn match_parts(parts: &[Part], uri: &str, pos: usize, caps: &mut Captures) -> bool {
    let Some((part, rest)) = parts.split_first() else {
        return pos == uri.len();
    };
    if !caps.charge(1) {
        return false;
    }
    match part {
        Part::Literal(l) => {
            uri[pos..].starts_with(l.as_str()) && match_parts(rest, uri, pos + l.len(), caps)
        }
        Part::Expr(e) => match e.op {
            Op::Simple | Op::Reserved => match_simple(e, rest, uri, pos, caps),
            Op::Fragment => match_fragment(e, rest, uri, pos, caps),
            Op::Label | Op::Path | Op::PathParam => match_segments(e, rest, uri, pos, caps),
            Op::Query | Op::QueryCont => match_query(e, parts, uri, pos, caps),
        },
    }
}

fn fits_prefix(spec: &VarSpec, value: &str) -> bool {
    spec.prefix.is_none_or(|n| value.chars().count() <= n)
}

/// Tries `attempt` with the captures made; undoes them when the rest does not match.
fn with_captures(
    caps: &mut Captures,
    new: Vec<(String, String)>,
    rest: impl FnOnce(&mut Captures) -> bool,
) -> bool {
    let mark = caps.pairs.len();
    caps.pairs.extend(new);
    if rest(caps) {
        true
    } else {
        caps.pairs.truncate(mark);
        false
    }
}

fn match_simple(e: &Expr, rest: &[Part], uri: &str, pos: usize, caps: &mut Captures) -> bool {
    // `{+var}` may span `/` and `?`, but leaves a query to a following `{?..}`.
    let query_follows = rest
        .iter()
        .any(|p| matches!(p, Part::Expr(x) if x.op == Op::Query));
    let stops: &[u8] = match e.op {
        Op::Reserved if !query_follows => b"#",
        Op::Reserved => b"?#",
        _ => b"/?#",
    };
    let max_end = uri[pos..]
        .bytes()
        .position(|b| stops.contains(&b))
        .map_or(uri.len(), |n| pos + n);
    for end in (pos + 1..=max_end).rev() {
        if !caps.charge(1) {
            return false;
        }
        if !uri.is_char_boundary(end) || !can_follow(rest, uri, end) {
            continue;
        }
        let text = &uri[pos..end];
        if !caps.charge(text.len()) {
            return false;
        }
        let pieces: Vec<&str> = if e.vars.len() == 1 {
            vec![text]
        } else {
            text.split(',').collect()
        };
        if pieces.len() > e.vars.len() {
            continue;
        }
        let new: Vec<(String, String)> = e
            .vars
            .iter()
            .zip(&pieces)
            .map(|(spec, raw)| (spec.name.clone(), decode(raw)))
            .collect();
        if !e.vars.iter().zip(&new).all(|(s, (_, v))| fits_prefix(s, v)) {
            continue;
        }
        if with_captures(caps, new, |caps| match_parts(rest, uri, end, caps)) {
            return true;
        }
    }
    false
}

fn match_fragment(e: &Expr, rest: &[Part], uri: &str, pos: usize, caps: &mut Captures) -> bool {
    if uri[pos..].starts_with('#') {
        for end in (pos + 1..=uri.len()).rev() {
            if !caps.charge(1) {
                return false;
            }
            if !uri.is_char_boundary(end) || !can_follow(rest, uri, end) {
                continue;
            }
            let text = &uri[pos + 1..end];
            if !caps.charge(text.len()) {
                return false;
            }
            let pieces: Vec<&str> = if e.vars.len() == 1 {
                vec![text]
            } else {
                text.split(',').collect()
            };
            if pieces.len() > e.vars.len() {
                continue;
            }
            let new = e
                .vars
                .iter()
                .zip(pieces)
                .map(|(s, raw)| (s.name.clone(), decode(raw)))
                .collect();
            if with_captures(caps, new, |caps| match_parts(rest, uri, end, caps)) {
                return true;
            }
        }
    }
    match_parts(rest, uri, pos, caps)
}

fn match_segments(e: &Expr, rest: &[Part], uri: &str, pos: usize, caps: &mut Captures) -> bool {
    let (lead, stops): (u8, &[u8]) = match e.op {
        Op::Label => (b'.', b"./?#"),
        Op::Path => (b'/', b"/?#"),
        _ => (b';', b";/?#"),
    };
    // Read as many segments as the expression can hold, remembering where each ends.
    let mut segments: Vec<(usize, &str)> = Vec::new();
    let mut at = pos;
    let explode_last = e.vars.last().is_some_and(|v| v.explode);
    while uri.as_bytes().get(at) == Some(&lead) && (explode_last || segments.len() < e.vars.len()) {
        let start = at + 1;
        let end = uri[start..]
            .bytes()
            .position(|b| stops.contains(&b))
            .map_or(uri.len(), |n| start + n);
        segments.push((end, &uri[start..end]));
        at = end;
    }
    if !caps.charge(at - pos) {
        return false;
    }
    // Try the longest reading first, then fewer segments.
    for count in (0..=segments.len()).rev() {
        if !caps.charge(1) {
            return false;
        }
        let end = if count == 0 {
            pos
        } else {
            segments[count - 1].0
        };
        let Some(new) = assign_segments(e, &segments[..count]) else {
            continue;
        };
        if with_captures(caps, new, |caps| match_parts(rest, uri, end, caps)) {
            return true;
        }
    }
    false
}

fn assign_segments(e: &Expr, segments: &[(usize, &str)]) -> Option<Vec<(String, String)>> {
    let mut new = Vec::new();
    for (i, spec) in e.vars.iter().enumerate() {
        let raw: String = if spec.explode && i + 1 == e.vars.len() {
            if i >= segments.len() {
                break;
            }
            let sep = if e.op == Op::Label {
                "."
            } else if e.op == Op::Path {
                "/"
            } else {
                ";"
            };
            segments[i..]
                .iter()
                .map(|(_, s)| *s)
                .collect::<Vec<_>>()
                .join(sep)
        } else {
            match segments.get(i) {
                Some((_, s)) => (*s).to_owned(),
                None => break,
            }
        };
        let value = if e.op == Op::PathParam {
            // `;name=value` or `;name` (empty value).
            match raw.split_once('=') {
                Some((name, value)) if name == spec.name => value.to_owned(),
                None if raw == spec.name => String::new(),
                _ => return None,
            }
        } else {
            raw
        };
        let value = decode(&value);
        if !fits_prefix(spec, &value) {
            return None;
        }
        new.push((spec.name.clone(), value));
    }
    Some(new)
}

fn match_query(e: &Expr, parts: &[Part], uri: &str, pos: usize, caps: &mut Captures) -> bool {
    let rest = &parts[1..];
    let lead = if e.op == Op::Query { '?' } else { '&' };
    if !uri[pos..].starts_with(lead) {
        return match_parts(rest, uri, pos, caps);
    }
    // A query expression takes the whole query; names of following `{&..}` expressions
    // are collected here too, so pairs may come in any order.
    let mut names: Vec<&VarSpec> = e.vars.iter().collect();
    for p in rest {
        match p {
            Part::Expr(next) if next.op == Op::QueryCont => names.extend(next.vars.iter()),
            Part::Expr(next) if next.op == Op::Query => break,
            _ => {}
        }
    }
    let end = uri[pos..].find('#').map_or(uri.len(), |n| pos + n);
    if !caps.charge(end - pos) {
        return false;
    }
    let mut new = Vec::new();
    for pair in uri[pos + 1..end].split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(key);
        if let Some(spec) = names.iter().find(|s| s.name == key) {
            let value = decode(value);
            if !fits_prefix(spec, &value) {
                return false;
            }
            if !new.iter().any(|(k, _): &(String, String)| *k == key) {
                new.push((key, value));
            }
        }
    }
    with_captures(caps, new, |caps| match_parts(rest, uri, end, caps))
}
