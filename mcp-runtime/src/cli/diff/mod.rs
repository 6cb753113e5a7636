//! `diff OLD.json`: what changed between a saved `list` and the server's lists now, each change
//! breaking or compatible for a client written against the saved ones.
//!
//! Items are matched by what a client names them with: tools, prompts and resource templates
//! by name, resources by URI. A missing item is removed, or renamed when exactly one new item
//! is the same but for its name, title and description; both break a client. Then, per item:
//! tools compare their input schema (what the server accepts) and output schema (what it
//! promises; [`schema`] has the rules), annotations (compatible) and task support (narrowed:
//! breaking); resources their MIME type; templates their URI template and MIME type; prompts
//! their arguments (removed, or newly required: breaking). Titles and descriptions are
//! compatible everywhere; icons and `_meta` are not compared.

mod change;
mod schema;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

pub(crate) use change::Change;
use change::{Changes, shown};
use schema::Direction;

/// The lists of a listing: its member, the items' array, the label of an item, its key.
const KINDS: [(&str, &str, &str, &str); 4] = [
    ("tools/list", "tools", "tool", "name"),
    ("resources/list", "resources", "resource", "uri"),
    (
        "resources/templates/list",
        "resourceTemplates",
        "resource template",
        "name",
    ),
    ("prompts/list", "prompts", "prompt", "name"),
];

/// The changes from the listing `old` (what `list` printed) to `new`; an error names what
/// `old` lacks to be a listing.
pub(crate) fn compare(old: &Value, new: &Value) -> Result<Vec<Change>, String> {
    let mut found = Vec::new();
    for (member, field, label, key) in KINDS {
        let items = |listing: &Value, which: &str| -> Result<BTreeMap<String, Value>, String> {
            let list = listing
                .get(member)
                .and_then(|l| l.get(field))
                .and_then(Value::as_array)
                .ok_or_else(|| format!("the {which} lists have no `{member}` with `{field}`"))?;
            let mut by_key = BTreeMap::new();
            for item in list {
                let name = item.get(key).and_then(Value::as_str).ok_or_else(|| {
                    format!("an item of the {which} `{member}` has no `{key}`: {item}")
                })?;
                by_key.insert(name.to_owned(), item.clone());
            }
            Ok(by_key)
        };
        let (a, b) = (items(old, "saved")?, items(new, "current")?);
        found.extend(kind(label, &a, &b));
    }
    Ok(found)
}

/// An item's descriptor without what a rename changes (name, title, description).
fn renamed_form(item: &Value) -> Value {
    let mut item = item.clone();
    if let Some(map) = item.as_object_mut() {
        for key in ["name", "title", "description"] {
            map.remove(key);
        }
    }
    item
}

/// Whether a removed item can be recognised when renamed: resources are known by their URI,
/// and a tool without arguments or output is like every other.
fn recognisable(label: &str, form: &Value) -> bool {
    match label {
        "resource" => false,
        "tool" => {
            form.pointer("/inputSchema/properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty())
                || form.get("outputSchema").is_some()
        }
        "prompt" => form
            .get("arguments")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty()),
        _ => true,
    }
}

fn kind(label: &str, old: &BTreeMap<String, Value>, new: &BTreeMap<String, Value>) -> Vec<Change> {
    let added: Vec<&String> = new.keys().filter(|k| !old.contains_key(*k)).collect();
    let mut renamed: BTreeMap<&String, &String> = BTreeMap::new();
    for (name, item) in old.iter().filter(|(k, _)| !new.contains_key(*k)) {
        let form = renamed_form(item);
        if !recognisable(label, &form) {
            continue;
        }
        let like: Vec<&&String> = added
            .iter()
            .filter(|a| renamed_form(&new[a.as_str()]) == form)
            .collect();
        if let [only] = like.as_slice()
            && !renamed.values().any(|taken| taken == *only)
        {
            renamed.insert(name, only);
        }
    }
    let claimed: BTreeSet<&String> = renamed.values().copied().collect();
    let mut found = Vec::new();
    let names: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for name in names {
        let mut changes = Changes::of(format!("{label} {name}"));
        match (old.get(name.as_str()), new.get(name.as_str())) {
            (Some(a), Some(b)) => item(label, a, b, &mut changes),
            (Some(_), None) => match renamed.get(name) {
                Some(to) => changes.push("", format!("renamed to {to}"), true),
                None => changes.push("", "removed".into(), true),
            },
            (None, Some(_)) if !claimed.contains(name) => {
                changes.push("", "added".into(), false);
            }
            _ => {}
        }
        found.extend(changes.found);
    }
    found
}

fn item(label: &str, old: &Value, new: &Value, out: &mut Changes) {
    if old == new {
        return;
    }
    out.texts("", old, new);
    match label {
        "tool" => tool(old, new, out),
        "resource" => {
            let name = (old.get("name"), new.get("name"));
            if name.0 != name.1 {
                let text = format!("name {} -> {}", shown(name.0), shown(name.1));
                out.push("", text, false);
            }
            mime_type(old, new, out);
        }
        "resource template" => {
            let template = (old.get("uriTemplate"), new.get("uriTemplate"));
            if template.0 != template.1 {
                let text = format!("uriTemplate {} -> {}", shown(template.0), shown(template.1));
                out.push("", text, true);
            }
            mime_type(old, new, out);
        }
        _ => prompt(old, new, out),
    }
}

fn mime_type(old: &Value, new: &Value, out: &mut Changes) {
    let (a, b) = (old.get("mimeType"), new.get("mimeType"));
    if a != b {
        out.push("", format!("mimeType {} -> {}", shown(a), shown(b)), true);
    }
}

fn tool(old: &Value, new: &Value, out: &mut Changes) {
    let empty = Value::Object(Map::new());
    let input = |t: &'_ Value| {
        t.get("inputSchema")
            .cloned()
            .unwrap_or_else(|| empty.clone())
    };
    schema::compare(&input(old), &input(new), Direction::Input, out);
    match (old.get("outputSchema"), new.get("outputSchema")) {
        (Some(a), Some(b)) => schema::compare(a, b, Direction::Output, out),
        (Some(_), None) => out.push("output schema", "removed".into(), true),
        (None, Some(_)) => out.push("output schema", "added".into(), false),
        (None, None) => {}
    }
    let hints = |t: &'_ Value| {
        t.get("annotations")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let (a, b) = (hints(old), hints(new));
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for key in keys {
        let (x, y) = (a.get(key.as_str()), b.get(key.as_str()));
        if x != y {
            let text = format!("annotations.{key} {} -> {}", shown(x), shown(y));
            out.push("", text, false);
        }
    }
    let support = |t: &'_ Value| {
        t.pointer("/execution/taskSupport")
            .and_then(Value::as_str)
            .unwrap_or("forbidden")
            .to_owned()
    };
    let (a, b) = (support(old), support(new));
    if a != b {
        // Only `optional` refuses nothing: `required` refuses plain calls, `forbidden` tasks.
        let breaking = b != "optional";
        out.push("", format!("taskSupport {a} -> {b}"), breaking);
    }
}

/// A prompt's arguments by name, with whether each is required.
fn arguments(prompt: &Value) -> BTreeMap<String, (bool, Value)> {
    prompt
        .get("arguments")
        .and_then(Value::as_array)
        .map(|args| {
            args.iter()
                .filter_map(|a| {
                    let name = a.get("name")?.as_str()?.to_owned();
                    let required = a.get("required").and_then(Value::as_bool) == Some(true);
                    Some((name, (required, a.clone())))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn prompt(old: &Value, new: &Value, out: &mut Changes) {
    let (a, b) = (arguments(old), arguments(new));
    let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for name in names {
        let at = format!("argument \"{name}\"");
        match (a.get(name.as_str()), b.get(name.as_str())) {
            (Some((was, x)), Some((is, y))) => {
                match (was, is) {
                    (false, true) => out.push(&at, "now required".into(), true),
                    (true, false) => out.push(&at, "now optional".into(), false),
                    _ => {}
                }
                out.texts(&at, x, y);
            }
            (Some(_), None) => out.push(&at, "removed".into(), true),
            (None, Some((true, _))) => out.push(&at, "added, required".into(), true),
            (None, Some((false, _))) => out.push(&at, "added, optional".into(), false),
            (None, None) => {}
        }
    }
}

/// The report of one comparison per revision: each change once, in the order found, marked
/// with the revisions it is seen in when not in all of them; then a count. Returns the text
/// and the number of breaking changes.
pub(crate) fn report(runs: &[(&str, Vec<Change>)]) -> (String, usize) {
    let mut lines: Vec<(&Change, Vec<&str>)> = Vec::new();
    for (revision, changes) in runs {
        for change in changes {
            match lines.iter_mut().find(|(c, _)| *c == change) {
                Some((_, seen)) => seen.push(revision),
                None => lines.push((change, vec![revision])),
            }
        }
    }
    let mut text = String::new();
    for (change, seen) in &lines {
        if seen.len() == runs.len() {
            text.push_str(&format!("{change}\n"));
        } else {
            let kind = if change.breaking {
                "breaking"
            } else {
                "compatible"
            };
            let only = seen.join(", ");
            text.push_str(&format!(
                "{}: {} ({kind}, {only} only)\n",
                change.path, change.what
            ));
        }
    }
    let breaking = lines.iter().filter(|(c, _)| c.breaking).count();
    let compatible = lines.len() - breaking;
    let count = |n: usize, what: &str| match n {
        1 => format!("1 {what} change"),
        n => format!("{n} {what} changes"),
    };
    if lines.is_empty() {
        text.push_str("no changes\n");
    } else {
        text.push_str(&format!(
            "{}, {}\n",
            count(breaking, "breaking"),
            count(compatible, "compatible")
        ));
    }
    (text, breaking)
}
