//! `input_schema = ".."` is the escape hatch: the schema is used verbatim and the tool takes the
//! whole arguments object as one parameter.

use mcp_runtime::prelude::*;
use mcp_runtime::registry::InputSchema;
use serde::Deserialize;

/// Echoes its arguments.
#[tool(input_schema = r#"{"type": "object", "additionalProperties": true}"#)]
async fn echo(arguments: serde_json::Value, ctx: Context) -> String {
    let _ = ctx;
    arguments.to_string()
}

#[derive(Deserialize)]
struct Point {
    x: f64,
    y: f64,
}

/// Distance from the origin.
#[tool(input_schema = r#"{"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}"#)]
fn norm(point: Point) -> String {
    (point.x.hypot(point.y)).to_string()
}

/// Ignores any arguments.
#[tool(input_schema = r#"{"type": "object"}"#)]
fn ping() -> &'static str {
    "pong"
}

fn main() {
    assert!(matches!(echo::TOOL.input_schema, InputSchema::Raw(s) if s.contains("additionalProperties")));
    assert!(matches!(norm::TOOL.input_schema, InputSchema::Raw(_)));
    assert!(matches!(ping::TOOL.input_schema, InputSchema::Raw(_)));
}
