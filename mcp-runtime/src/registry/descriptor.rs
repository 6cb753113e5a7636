//! Protocol descriptors from records: tool descriptors with their schemas, icons, `_meta`, and
//! the check that names and URIs are unique.

use std::collections::HashMap;

use mcp_core::{Icon, Tool, ToolAnnotations};
use serde_json::Value;

use crate::error::Error;
use crate::registry::record::{IconRecord, InputSchema, Location, ToolHints, ToolRecord};
use crate::schema::SchemaProfile;

/// Icons of a record, `None` when it has none.
pub(crate) fn icons(records: &[IconRecord]) -> Option<Vec<Icon>> {
    if records.is_empty() {
        return None;
    }
    Some(
        records
            .iter()
            .map(|r| {
                let mut icon = Icon::new(r.src);
                icon.mime_type = r.mime_type.map(str::to_owned);
                if !r.sizes.is_empty() {
                    icon.sizes = Some(r.sizes.iter().map(|s| (*s).to_owned()).collect());
                }
                icon.theme = r
                    .theme
                    .and_then(|t| serde_json::from_value(Value::String(t.to_owned())).ok());
                icon
            })
            .collect(),
    )
}

pub(crate) fn meta(
    kind: &'static str,
    name: &str,
    location: Location,
    text: Option<&str>,
) -> Result<Option<mcp_core::Meta>, Error> {
    let Some(text) = text else { return Ok(None) };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        _ => Err(Error::InvalidItem {
            kind,
            name: name.to_owned(),
            location: location.to_string(),
            reason: "`meta` must be a JSON object".into(),
        }),
    }
}

pub(crate) fn tool_descriptor(record: &ToolRecord, profile: SchemaProfile) -> Result<Tool, Error> {
    let invalid = |reason: String| Error::InvalidItem {
        kind: "tool",
        name: record.name.to_owned(),
        location: record.location.to_string(),
        reason,
    };
    let input_schema = match record.input_schema {
        InputSchema::Generated(generate) => {
            let mut generator = profile.generator();
            profile.finish(generate(&mut generator))
        }
        InputSchema::Raw(text) => serde_json::from_str::<Value>(text)
            .map_err(|e| invalid(format!("raw input schema is not JSON: {e}")))?,
    };
    if input_schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(invalid(
            "the input schema must have `\"type\": \"object\"` at its root".into(),
        ));
    }
    let mut generator = profile.generator();
    let output_schema = (record.output_schema)(&mut generator).map(|s| profile.finish(s));
    let mut tool = Tool::new(record.name, input_schema);
    tool.title = record.title.map(str::to_owned);
    tool.description = record.description.map(str::to_owned);
    tool.output_schema = output_schema;
    let h = record.hints;
    if h != ToolHints::NONE || record.title.is_some() {
        let mut a = ToolAnnotations::new();
        a.title = record.title.map(str::to_owned);
        a.read_only_hint = h.read_only;
        a.destructive_hint = h.destructive;
        a.idempotent_hint = h.idempotent;
        a.open_world_hint = h.open_world;
        tool.annotations = Some(a);
    }
    tool.icons = icons(record.icons);
    tool.meta = meta("tool", record.name, record.location, record.meta)?;
    Ok(tool)
}

pub(crate) fn check_unique<'a>(
    kind: &'static str,
    items: impl Iterator<Item = (&'a str, Location)>,
) -> Result<(), Error> {
    let mut seen: HashMap<&str, Location> = HashMap::new();
    for (name, location) in items {
        if let Some(first) = seen.insert(name, location) {
            let (a, b) = if (first.file, first.line) <= (location.file, location.line) {
                (first, location)
            } else {
                (location, first)
            };
            return Err(Error::Duplicate {
                kind,
                name: name.to_owned(),
                first: a.to_string(),
                second: b.to_string(),
            });
        }
    }
    Ok(())
}
