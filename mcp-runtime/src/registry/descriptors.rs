//! Protocol descriptors made from records: tools (with their input schema shaped by the profile
//! and, when unknown arguments are refused, the properties a call may give), icons and `_meta`.

use mcp_core::{Icon, Tool, ToolAnnotations};
use serde_json::Value;

use super::record::{IconRecord, InputSchema, Location, ToolHints, ToolRecord};
use crate::error::Error;
use crate::schema::SchemaProfile;

/// The property names of a tool's input schema, sorted.
pub(crate) type KnownProperties = Box<[String]>;

pub(super) fn icons(records: &[IconRecord]) -> Option<Vec<Icon>> {
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

pub(super) fn meta(
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

/// The tool's descriptor, and the properties a call may give when unknown ones are refused
/// (`allow_unknown_args` is the server's default for tools that do not say).
pub(super) fn tool_descriptor(
    record: &ToolRecord,
    profile: SchemaProfile,
    allow_unknown_args: bool,
) -> Result<(Tool, Option<KnownProperties>), Error> {
    let invalid = |reason: String| Error::InvalidItem {
        kind: "tool",
        name: record.name.to_owned(),
        location: record.location.to_string(),
        reason,
    };
    let mut known_properties = None;
    let input_schema = match record.input_schema {
        InputSchema::Generated(generate) => {
            let mut generator = profile.generator();
            let mut schema = profile.finish(generate(&mut generator));
            // The hidden argument struct has no doc of its own: a root description comes from
            // a flattened parameter's type and is not the tool's.
            if let Some(root) = schema.as_object_mut() {
                root.remove("description");
            }
            let refuse = !record.allow_unknown_args.unwrap_or(allow_unknown_args);
            if refuse {
                known_properties = profile.close_root(&mut schema);
            }
            schema
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
    // A schema that is not derived is listed as written: results are checked against it, and a
    // profile that dropped its `null`s would refuse the results it allows.
    let output_schema = (record.output_schema)(&mut generator).map(|s| {
        if record.output_schema_derived {
            profile.finish(s)
        } else {
            s.to_value()
        }
    });
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
    if record.task_support != mcp_core::tasks::TaskSupport::Forbidden {
        tool.execution = Some(mcp_core::tasks::ToolExecution::new(record.task_support));
    }
    Ok((tool, known_properties))
}
