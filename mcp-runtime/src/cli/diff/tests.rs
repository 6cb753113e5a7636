//! Each kind of change, breaking and compatible, with the exact line `diff` prints for it.

use serde_json::{Value, json};

use super::{compare, report};

/// A listing with these tools, resources, templates and prompts.
fn listing(tools: Value, resources: Value, templates: Value, prompts: Value) -> Value {
    json!({
        "tools/list": {"tools": tools},
        "resources/list": {"resources": resources},
        "resources/templates/list": {"resourceTemplates": templates},
        "prompts/list": {"prompts": prompts},
    })
}

fn tools(list: Value) -> Value {
    listing(list, json!([]), json!([]), json!([]))
}

/// The lines of the changes from `old` to `new`.
fn lines(old: &Value, new: &Value) -> Vec<String> {
    compare(old, new)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The `search` tool with this input schema's properties and required names.
fn search(properties: Value, required: Value) -> Value {
    json!({"name": "search", "inputSchema": {"type": "object", "properties": properties, "required": required}})
}

/// The lines from `search(old properties)` to `search(new properties)`.
fn arguments(old: (Value, Value), new: (Value, Value)) -> Vec<String> {
    lines(
        &tools(json!([search(old.0, old.1)])),
        &tools(json!([search(new.0, new.1)])),
    )
}

fn limit(schema: Value) -> (Value, Value) {
    (json!({ "limit": schema }), json!([]))
}

#[test]
fn the_same_lists_have_no_changes() {
    let a = tools(json!([search(
        json!({"q": {"type": "string"}}),
        json!(["q"])
    )]));
    assert_eq!(lines(&a, &a), Vec::<String>::new());
    assert_eq!(report(&[("2025-11-25", vec![])]).0, "no changes\n");
}

#[test]
fn removed_renamed_and_added_items() {
    let q = json!({"q": {"type": "string"}});
    let old = tools(
        json!([search(q.clone(), json!(["q"])), {"name": "ping", "inputSchema": {"type": "object"}}]),
    );
    let mut find = search(q, json!(["q"]));
    find["name"] = json!("find");
    let new = tools(json!([find, {"name": "pong", "inputSchema": {"type": "object"}}]));
    assert_eq!(
        lines(&old, &new),
        [
            // Nothing tells `pong` from any other tool without arguments: not a rename.
            "tool ping: removed (breaking)",
            "tool pong: added (compatible)",
            "tool search: renamed to find (breaking)",
        ]
    );
}

#[test]
fn arguments_added_removed_and_required() {
    let s = json!({"type": "string"});
    assert_eq!(
        arguments(
            (json!({}), json!([])),
            (json!({"limit": s}), json!(["limit"]))
        ),
        ["tool search: argument \"limit\": added, required (breaking)"]
    );
    assert_eq!(
        arguments((json!({}), json!([])), (json!({"limit": s}), json!([]))),
        ["tool search: argument \"limit\": added, optional (compatible)"]
    );
    assert_eq!(
        arguments((json!({"limit": s}), json!([])), (json!({}), json!([]))),
        ["tool search: argument \"limit\": removed (breaking)"]
    );
    assert_eq!(
        arguments(
            (json!({"limit": s}), json!([])),
            (json!({"limit": s}), json!(["limit"]))
        ),
        ["tool search: argument \"limit\": now required (breaking)"]
    );
    assert_eq!(
        arguments(
            (json!({"limit": s}), json!(["limit"])),
            (json!({"limit": s}), json!([]))
        ),
        ["tool search: argument \"limit\": now optional (compatible)"]
    );
}

#[test]
fn types_narrowed_and_widened() {
    let cases = [
        (
            "integer",
            json!("string"),
            "type integer -> string (breaking)",
        ),
        (
            "number",
            json!("integer"),
            "type number -> integer (breaking)",
        ),
        (
            "integer",
            json!("number"),
            "type integer -> number (compatible)",
        ),
        (
            "string",
            json!(["string", "null"]),
            "type string -> [null, string] (compatible)",
        ),
    ];
    for (old, new, line) in cases {
        assert_eq!(
            arguments(limit(json!({"type": old})), limit(json!({"type": new}))),
            [format!("tool search: argument \"limit\": {line}")]
        );
    }
    assert_eq!(
        arguments(limit(json!({})), limit(json!({"type": "integer"}))),
        ["tool search: argument \"limit\": type any -> integer (breaking)"]
    );
}

#[test]
fn enums_narrowed_and_widened() {
    let mode = |values: Value| limit(json!({"type": "string", "enum": values}));
    assert_eq!(
        arguments(
            mode(json!(["fast", "slow"])),
            mode(json!(["slow", "exact"]))
        ),
        [
            "tool search: argument \"limit\": enum value \"fast\" removed (breaking)",
            "tool search: argument \"limit\": enum value \"exact\" added (compatible)",
        ]
    );
    assert_eq!(
        arguments(limit(json!({"type": "string"})), mode(json!(["a", "b"]))),
        ["tool search: argument \"limit\": enum [\"a\", \"b\"] added (breaking)"]
    );
    assert_eq!(
        arguments(mode(json!(["a"])), limit(json!({"type": "string"}))),
        ["tool search: argument \"limit\": enum removed (compatible)"]
    );
    assert_eq!(
        arguments(limit(json!({"const": 1})), limit(json!({"const": 2}))),
        [
            "tool search: argument \"limit\": enum value 1 removed (breaking)",
            "tool search: argument \"limit\": enum value 2 added (compatible)",
        ]
    );
}

#[test]
fn bounds_tighter_and_looser() {
    let cases = [
        (
            json!({"maximum": 100}),
            json!({"maximum": 50}),
            "maximum 100 -> 50 (breaking)",
        ),
        (
            json!({"maximum": 50}),
            json!({"maximum": 100}),
            "maximum 50 -> 100 (compatible)",
        ),
        (
            json!({}),
            json!({"minimum": 0}),
            "minimum none -> 0 (breaking)",
        ),
        (
            json!({"minimum": 1}),
            json!({}),
            "minimum 1 -> none (compatible)",
        ),
        (
            json!({"maxLength": 64}),
            json!({"maxLength": 32}),
            "maxLength 64 -> 32 (breaking)",
        ),
        (
            json!({"minItems": 1}),
            json!({"minItems": 2}),
            "minItems 1 -> 2 (breaking)",
        ),
        (
            json!({}),
            json!({"pattern": "^a"}),
            "pattern none -> \"^a\" (breaking)",
        ),
        (
            json!({"pattern": "^a"}),
            json!({"pattern": "^b"}),
            "pattern \"^a\" -> \"^b\" (breaking)",
        ),
        (
            json!({"format": "uri"}),
            json!({}),
            "format \"uri\" -> none (compatible)",
        ),
    ];
    for (old, new, line) in cases {
        assert_eq!(
            arguments(limit(old), limit(new)),
            [format!("tool search: argument \"limit\": {line}")]
        );
    }
}

#[test]
fn nested_properties_and_items_have_their_path() {
    let old = json!({"filter": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}});
    let new = json!({"filter": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "integer"}}, "lang": {"type": "string"}}, "required": ["lang"]}});
    assert_eq!(
        arguments((old, json!([])), (new, json!([]))),
        [
            "tool search: argument \"filter.lang\": added, required (breaking)",
            "tool search: argument \"filter.tags[]\": type string -> integer (breaking)",
        ]
    );
}

#[test]
fn unknown_keywords_and_closed_objects() {
    assert_eq!(
        arguments(
            limit(json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})),
            limit(json!({"anyOf": [{"type": "string"}]}))
        ),
        ["tool search: argument \"limit\": `anyOf` changed (not compared) (breaking)"]
    );
    let open = json!({"name": "search", "inputSchema": {"type": "object"}});
    let closed =
        json!({"name": "search", "inputSchema": {"type": "object", "additionalProperties": false}});
    assert_eq!(
        lines(&tools(json!([open])), &tools(json!([closed]))),
        ["tool search: input schema: additionalProperties none -> false (breaking)"]
    );
}

#[test]
fn texts_and_defaults_are_compatible() {
    let old = json!({"name": "search", "description": "Finds.", "inputSchema": {"type": "object", "properties": {"limit": {"type": "integer", "description": "How many", "default": 10}}}});
    let new = json!({"name": "search", "title": "Search", "description": "Finds things.", "inputSchema": {"type": "object", "properties": {"limit": {"type": "integer", "description": "At most this many", "default": 20}}}});
    assert_eq!(
        lines(&tools(json!([old])), &tools(json!([new]))),
        [
            "tool search: title changed (compatible)",
            "tool search: description changed (compatible)",
            "tool search: argument \"limit\": description changed (compatible)",
            "tool search: argument \"limit\": default 10 -> 20 (compatible)",
        ]
    );
}

fn with_output(output: Option<Value>) -> Value {
    let mut tool = json!({"name": "search", "inputSchema": {"type": "object"}});
    if let Some(output) = output {
        tool["outputSchema"] = output;
    }
    tools(json!([tool]))
}

fn output(properties: Value, required: Value) -> Option<Value> {
    Some(json!({"type": "object", "properties": properties, "required": required}))
}

#[test]
fn output_schemas_break_when_they_promise_less() {
    let int = json!({"type": "integer"});
    let cases = [
        (
            output(json!({"total": int, "page": int}), json!(["total"])),
            output(json!({"page": int}), json!([])),
            "tool search: output field \"total\": removed (breaking)",
        ),
        (
            output(json!({"total": int}), json!(["total"])),
            output(json!({"total": int}), json!([])),
            "tool search: output field \"total\": now optional: may be absent (breaking)",
        ),
        (
            output(json!({"total": int}), json!([])),
            output(json!({"total": {"type": "number"}}), json!([])),
            "tool search: output field \"total\": type integer -> number (breaking)",
        ),
        (
            output(json!({"total": {"type": "number"}}), json!([])),
            output(json!({"total": int}), json!([])),
            "tool search: output field \"total\": type number -> integer (compatible)",
        ),
        (
            output(json!({"kind": {"enum": ["a"]}}), json!([])),
            output(json!({"kind": {"enum": ["a", "b"]}}), json!([])),
            "tool search: output field \"kind\": enum value \"b\" added (breaking)",
        ),
        (
            output(json!({}), json!([])),
            output(json!({"total": int}), json!(["total"])),
            "tool search: output field \"total\": added (compatible)",
        ),
        (
            output(json!({}), json!([])),
            None,
            "tool search: output schema: removed (breaking)",
        ),
        (
            None,
            output(json!({}), json!([])),
            "tool search: output schema: added (compatible)",
        ),
    ];
    for (old, new, line) in cases {
        assert_eq!(lines(&with_output(old), &with_output(new)), [line]);
    }
}

#[test]
fn annotations_and_task_support() {
    let tool = |hints: Value, support: &str| json!({"name": "export", "inputSchema": {"type": "object"}, "annotations": hints, "execution": {"taskSupport": support}});
    assert_eq!(
        lines(
            &tools(json!([tool(json!({"readOnlyHint": true}), "optional")])),
            &tools(json!([tool(json!({"readOnlyHint": false}), "required")]))
        ),
        [
            "tool export: annotations.readOnlyHint true -> false (compatible)",
            "tool export: taskSupport optional -> required (breaking)",
        ]
    );
    assert_eq!(
        lines(
            &tools(json!([tool(json!({}), "required")])),
            &tools(json!([tool(json!({}), "optional")]))
        ),
        ["tool export: taskSupport required -> optional (compatible)"]
    );
}

#[test]
fn resources_and_templates() {
    let old = listing(
        json!([]),
        json!([
            {"uri": "x://all", "name": "all", "mimeType": "text/plain"},
            {"uri": "x://gone", "name": "gone"}
        ]),
        json!([{"name": "item", "uriTemplate": "x://{id}", "mimeType": "text/plain"}]),
        json!([]),
    );
    let new = listing(
        json!([]),
        json!([
            {"uri": "x://all", "name": "everything", "mimeType": "application/json"},
            {"uri": "x://new", "name": "new"}
        ]),
        json!([{"name": "item", "uriTemplate": "x://items/{id}", "mimeType": "text/plain"}]),
        json!([]),
    );
    assert_eq!(
        lines(&old, &new),
        [
            "resource x://all: name \"all\" -> \"everything\" (compatible)",
            "resource x://all: mimeType \"text/plain\" -> \"application/json\" (breaking)",
            "resource x://gone: removed (breaking)",
            "resource x://new: added (compatible)",
            "resource template item: uriTemplate \"x://{id}\" -> \"x://items/{id}\" (breaking)",
        ]
    );
}

#[test]
fn prompt_arguments() {
    let prompt = |args: Value| {
        listing(
            json!([]),
            json!([]),
            json!([]),
            json!([{"name": "greet", "arguments": args}]),
        )
    };
    let old = prompt(json!([
        {"name": "name", "required": true},
        {"name": "tone"},
        {"name": "style"}
    ]));
    let new = prompt(json!([
        {"name": "name"},
        {"name": "tone", "required": true, "description": "How"},
        {"name": "lang", "required": true},
        {"name": "emoji"}
    ]));
    assert_eq!(
        lines(&old, &new),
        [
            "prompt greet: argument \"emoji\": added, optional (compatible)",
            "prompt greet: argument \"lang\": added, required (breaking)",
            "prompt greet: argument \"name\": now optional (compatible)",
            "prompt greet: argument \"style\": removed (breaking)",
            "prompt greet: argument \"tone\": now required (breaking)",
            "prompt greet: argument \"tone\": description changed (compatible)",
        ]
    );
}

#[test]
fn a_saved_file_that_is_not_a_listing_is_an_error() {
    let current = tools(json!([]));
    assert_eq!(
        compare(&json!({"tools/list": {}}), &current).unwrap_err(),
        "the saved lists have no `tools/list` with `tools`"
    );
    assert_eq!(
        compare(&tools(json!([{"title": "x"}])), &current).unwrap_err(),
        "an item of the saved `tools/list` has no `name`: {\"title\":\"x\"}"
    );
}

#[test]
fn the_report_merges_the_revisions_and_counts() {
    let old = tools(json!([search(
        json!({"limit": {"type": "integer"}}),
        json!([])
    )]));
    let new = tools(json!([search(
        json!({"limit": {"type": "string", "description": "n"}}),
        json!([])
    )]));
    let both = compare(&old, &new).unwrap();
    let mut stateless = both.clone();
    stateless.extend(
        compare(
            &tools(json!([])),
            &tools(json!([{"name": "t", "inputSchema": {}}])),
        )
        .unwrap(),
    );
    let (text, breaking) = report(&[("2025-11-25", both), ("2026-07-28", stateless)]);
    assert_eq!(
        text,
        "tool search: argument \"limit\": type integer -> string (breaking)\n\
         tool search: argument \"limit\": description changed (compatible)\n\
         tool t: added (compatible, 2026-07-28 only)\n\
         1 breaking change, 2 compatible changes\n"
    );
    assert_eq!(breaking, 1);
}
