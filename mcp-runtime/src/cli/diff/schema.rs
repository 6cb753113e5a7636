//! Two JSON Schemas of one place compared: what a client could send before and cannot now (an
//! input schema), or what a client could rely on before and cannot now (an output schema).
//!
//! An input schema says what the server accepts: it breaks its clients when it accepts less
//! (a type no longer accepted, an enum value removed, a tighter bound, a new required property,
//! a property removed). An output schema says what the server promises: it breaks its clients
//! when it promises less (a type it may now send, a new enum value, a looser bound, a property
//! removed or no longer required). Titles, descriptions and defaults change nothing a client
//! relies on. A keyword this module does not understand (`anyOf`, `$ref`, `not`, ...) that
//! changed is reported as breaking: it is not compared in detail, and silence would be a guess.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::change::{Changes, shown};

/// Which side of the exchange a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// What the client sends (`inputSchema`): accepting less breaks it.
    Input,
    /// What the server sends (`outputSchema`): promising less breaks it.
    Output,
}

impl Direction {
    /// Whether a change that makes the schema accept fewer values (`narrowed`) or more breaks
    /// a client.
    fn breaks(self, narrowed: bool) -> bool {
        match self {
            Self::Input => narrowed,
            Self::Output => !narrowed,
        }
    }
}

/// Keywords that bound a value from below (`true`) or above (`false`).
const BOUNDS: [(&str, bool); 10] = [
    ("minimum", true),
    ("exclusiveMinimum", true),
    ("minLength", true),
    ("minItems", true),
    ("minProperties", true),
    ("maximum", false),
    ("exclusiveMaximum", false),
    ("maxLength", false),
    ("maxItems", false),
    ("maxProperties", false),
];

/// Keywords that, when added, accept fewer values; changed, different ones.
const CONSTRAINTS: [&str; 3] = ["pattern", "format", "multipleOf"];

/// Keywords compared below, or that change nothing a client relies on.
const KNOWN: [&str; 13] = [
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "title",
    "description",
    "default",
    "examples",
    "$schema",
    "$comment",
];

/// Annotations whose changes are shown, and compatible.
const ANNOTATIONS: [&str; 3] = ["deprecated", "readOnly", "writeOnly"];

/// Where in a schema: the root, or a property path (`filter.limit`, `tags[]`).
#[derive(Debug, Clone)]
struct Place {
    direction: Direction,
    path: String,
}

impl Place {
    /// How a change here is introduced: `input schema`, `argument "filter.limit"`,
    /// `output schema`, `output field "gifts[].price"`.
    fn at(&self) -> String {
        match (self.direction, self.path.is_empty()) {
            (Direction::Input, true) => "input schema".to_owned(),
            (Direction::Output, true) => "output schema".to_owned(),
            (Direction::Input, false) => format!("argument \"{}\"", self.path),
            (Direction::Output, false) => format!("output field \"{}\"", self.path),
        }
    }

    fn property(&self, name: &str) -> Self {
        let path = if self.path.is_empty() {
            name.to_owned()
        } else {
            format!("{}.{name}", self.path)
        };
        Self { path, ..*self }
    }

    fn items(&self) -> Self {
        Self {
            path: format!("{}[]", self.path),
            ..*self
        }
    }

    fn additional(&self) -> Self {
        self.property("*")
    }
}

/// Compares the schema `old` with `new` at the root of one side, into `out`.
pub(crate) fn compare(old: &Value, new: &Value, direction: Direction, out: &mut Changes) {
    let root = Place {
        direction,
        path: String::new(),
    };
    node(old, new, &root, out);
}

/// One schema with another, at `place`.
fn node(old: &Value, new: &Value, place: &Place, out: &mut Changes) {
    if old == new {
        return;
    }
    let at = place.at();
    let dir = place.direction;
    let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
        // `true`/`false` schemas, or something that is not a schema.
        out.push(&at, format!("schema {old} -> {new}"), true);
        return;
    };
    types(o, n, &at, dir, out);
    enums(o, n, &at, dir, out);
    for (key, lower) in BOUNDS {
        bound(o, n, key, lower, &at, dir, out);
    }
    for key in CONSTRAINTS {
        let (a, b) = (o.get(key), n.get(key));
        if a == b {
            continue;
        }
        let breaking = match (a, b) {
            (None, Some(_)) => dir.breaks(true),
            (Some(_), None) => dir.breaks(false),
            _ => true,
        };
        out.push(&at, format!("{key} {} -> {}", shown(a), shown(b)), breaking);
    }
    properties(o, n, place, out);
    match (o.get("items"), n.get("items")) {
        (Some(a), Some(b)) => node(a, b, &place.items(), out),
        (None, Some(_)) => out.push(&at, "items constrained".to_owned(), dir.breaks(true)),
        (Some(_), None) => out.push(&at, "items unconstrained".to_owned(), dir.breaks(false)),
        (None, None) => {}
    }
    if !place.path.is_empty() {
        out.texts(&at, old, new);
    }
    if o.get("default") != n.get("default") {
        let (a, b) = (shown(o.get("default")), shown(n.get("default")));
        out.push(&at, format!("default {a} -> {b}"), false);
    }
    let keys: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
    for key in keys {
        let (a, b) = (o.get(key.as_str()), n.get(key.as_str()));
        let compared = KNOWN.contains(&key.as_str())
            || CONSTRAINTS.contains(&key.as_str())
            || BOUNDS.iter().any(|(k, _)| k == key);
        if compared || a == b {
            continue;
        }
        if ANNOTATIONS.contains(&key.as_str()) {
            out.push(&at, format!("{key} {} -> {}", shown(a), shown(b)), false);
        } else {
            out.push(&at, format!("`{key}` changed (not compared)"), true);
        }
    }
}

/// The types a schema accepts; `None` when it names none (any type).
fn type_set(schema: &Map<String, Value>) -> Option<BTreeSet<&str>> {
    match schema.get("type")? {
        Value::String(t) => Some(BTreeSet::from([t.as_str()])),
        Value::Array(ts) => Some(ts.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Whether every value of the types `a` is of the types `b` (an integer is a number).
fn within(a: Option<&BTreeSet<&str>>, b: Option<&BTreeSet<&str>>) -> bool {
    match (a, b) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(a), Some(b)) => a
            .iter()
            .all(|t| b.contains(t) || (*t == "integer" && b.contains("number"))),
    }
}

fn type_text(types: Option<&BTreeSet<&str>>) -> String {
    match types {
        None => "any".to_owned(),
        Some(ts) if ts.len() == 1 => ts.iter().next().copied().unwrap_or_default().to_owned(),
        Some(ts) => format!("[{}]", ts.iter().copied().collect::<Vec<_>>().join(", ")),
    }
}

fn types(
    o: &Map<String, Value>,
    n: &Map<String, Value>,
    at: &str,
    dir: Direction,
    out: &mut Changes,
) {
    let (a, b) = (type_set(o), type_set(n));
    if a == b {
        return;
    }
    let narrowed = !within(a.as_ref(), b.as_ref());
    let widened = !within(b.as_ref(), a.as_ref());
    let breaking = if narrowed && widened {
        true
    } else {
        dir.breaks(narrowed)
    };
    let (a, b) = (type_text(a.as_ref()), type_text(b.as_ref()));
    out.push(at, format!("type {a} -> {b}"), breaking);
}

/// The values an `enum` (or a `const`) allows; `None` when it has neither.
fn enum_values(schema: &Map<String, Value>) -> Option<Vec<&Value>> {
    if let Some(Value::Array(values)) = schema.get("enum") {
        return Some(values.iter().collect());
    }
    schema.get("const").map(|c| vec![c])
}

fn enums(
    o: &Map<String, Value>,
    n: &Map<String, Value>,
    at: &str,
    dir: Direction,
    out: &mut Changes,
) {
    match (enum_values(o), enum_values(n)) {
        (Some(a), Some(b)) => {
            for value in a.iter().filter(|v| !b.contains(v)) {
                out.push(at, format!("enum value {value} removed"), dir.breaks(true));
            }
            for value in b.iter().filter(|v| !a.contains(v)) {
                out.push(at, format!("enum value {value} added"), dir.breaks(false));
            }
        }
        (None, Some(b)) => {
            let values: Vec<String> = b.iter().map(ToString::to_string).collect();
            let text = format!("enum [{}] added", values.join(", "));
            out.push(at, text, dir.breaks(true));
        }
        (Some(_), None) => out.push(at, "enum removed".to_owned(), dir.breaks(false)),
        (None, None) => {}
    }
}

fn bound(
    o: &Map<String, Value>,
    n: &Map<String, Value>,
    key: &str,
    lower: bool,
    at: &str,
    dir: Direction,
    out: &mut Changes,
) {
    let (a, b) = (o.get(key), n.get(key));
    if a == b {
        return;
    }
    let numbers = (a.map(Value::as_f64), b.map(Value::as_f64));
    let breaking = match numbers {
        (Some(None), _) | (_, Some(None)) => true,
        (None, Some(Some(_))) => dir.breaks(true),
        (Some(Some(_)), None) => dir.breaks(false),
        (Some(Some(x)), Some(Some(y))) => dir.breaks(if lower { y > x } else { y < x }),
        (None, None) => return,
    };
    out.push(at, format!("{key} {} -> {}", shown(a), shown(b)), breaking);
}

/// The names in a schema's `required`.
fn required(schema: &Map<String, Value>) -> BTreeSet<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn properties(o: &Map<String, Value>, n: &Map<String, Value>, place: &Place, out: &mut Changes) {
    let empty = Map::new();
    let props = |s: &'_ Map<String, Value>| -> Map<String, Value> {
        s.get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty)
            .clone()
    };
    let (op, np) = (props(o), props(n));
    let (or, nr) = (required(o), required(n));
    let dir = place.direction;
    let names: BTreeSet<&String> = op.keys().chain(np.keys()).collect();
    for name in names {
        let child = place.property(name);
        let at = child.at();
        let (was, is) = (or.contains(name.as_str()), nr.contains(name.as_str()));
        match (op.get(name.as_str()), np.get(name.as_str())) {
            (Some(a), Some(b)) => {
                node(a, b, &child, out);
                match (was, is, dir) {
                    (false, true, Direction::Input) => out.push(&at, "now required".into(), true),
                    (true, false, Direction::Input) => out.push(&at, "now optional".into(), false),
                    (true, false, Direction::Output) => {
                        out.push(&at, "now optional: may be absent".into(), true);
                    }
                    (false, true, Direction::Output) => {
                        out.push(&at, "now required".into(), false);
                    }
                    _ => {}
                }
            }
            (Some(_), None) => out.push(&at, "removed".into(), true),
            (None, Some(_)) => match dir {
                Direction::Input if is => out.push(&at, "added, required".into(), true),
                Direction::Input => out.push(&at, "added, optional".into(), false),
                Direction::Output => out.push(&at, "added".into(), false),
            },
            (None, None) => {}
        }
    }
    // A required name without a property of its own (allowed by JSON Schema).
    for name in nr.difference(&or) {
        if !np.contains_key(*name) && !op.contains_key(*name) {
            let at = place.property(name).at();
            out.push(&at, "now required".into(), dir.breaks(true));
        }
    }
    additional(o, n, place, out);
}

/// `additionalProperties`: absent or `true` allows any, `false` none, a schema those it allows.
fn additional(o: &Map<String, Value>, n: &Map<String, Value>, place: &Place, out: &mut Changes) {
    let (a, b) = (o.get("additionalProperties"), n.get("additionalProperties"));
    if a == b {
        return;
    }
    let closed = |v: Option<&Value>| v == Some(&Value::Bool(false));
    let at = place.at();
    let dir = place.direction;
    match (a, b) {
        (Some(x @ Value::Object(_)), Some(y @ Value::Object(_))) => {
            node(x, y, &place.additional(), out);
        }
        _ => {
            let breaking = match (closed(a), closed(b)) {
                (false, true) => dir.breaks(true),
                (true, false) => dir.breaks(false),
                // Between "any" and a schema: the schema accepts less.
                _ => dir.breaks(b.is_some_and(Value::is_object)),
            };
            let text = format!("additionalProperties {} -> {}", shown(a), shown(b));
            out.push(&at, text, breaking);
        }
    }
}
