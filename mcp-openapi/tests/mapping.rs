//! Each mapping rule of an operation to a tool, with the exact tool it gives.

use mcp_runtime_openapi::{Api, BodyArgs, Location, Media, OpenApiError, Options, Scheme, Style};
use serde_json::{Value, json};

fn api(doc: Value) -> Api {
    Api::from_value(&doc, &Options::new()).unwrap()
}

fn one(path: &str, method: &str, op: Value) -> mcp_runtime_openapi::OpenApiTool {
    let doc = json!({"openapi": "3.1.0", "paths": {path: {method: op}}});
    api(doc).tools.remove(0)
}

#[test]
fn names_come_from_the_operation_id_else_method_and_path() {
    assert_eq!(
        one("/a", "get", json!({"operationId": "listThings"})).name,
        "listThings"
    );
    assert_eq!(
        one("/a", "get", json!({"operationId": "list things/all!"})).name,
        "list_things_all"
    );
    assert_eq!(
        one("/pets/{petId}/toys", "delete", json!({})).name,
        "delete_pets_petId_toys"
    );
    assert_eq!(one("/", "get", json!({})).name, "get");
    assert_eq!(
        one("/a", "get", json!({"operationId": "read__item__get"})).name,
        "read__item__get"
    );
    let long = "x".repeat(200);
    assert_eq!(
        one("/a", "get", json!({"operationId": long})).name.len(),
        128
    );
}

#[test]
fn repeated_names_are_numbered_and_renames_apply() {
    let doc = json!({"openapi": "3.1.0", "paths": {
        "/a": {"get": {"operationId": "same"}}, "/b": {"get": {"operationId": "same"}},
        "/c": {"get": {"operationId": "old"}}}});
    let names: Vec<String> = Api::from_value(&doc, &Options::new().rename("old", "new"))
        .unwrap()
        .tools
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["same", "same_2", "new"]);
}

#[test]
fn descriptions_join_summary_and_description() {
    let both = one(
        "/a",
        "get",
        json!({"summary": "Short", "description": "Long text."}),
    );
    assert_eq!(both.description.as_deref(), Some("Short\n\nLong text."));
    let only = one("/a", "get", json!({"description": "Only this."}));
    assert_eq!(only.description.as_deref(), Some("Only this."));
    assert_eq!(
        one("/a", "get", json!({})).description.as_deref(),
        Some("GET /a")
    );
}

#[test]
fn parameters_become_arguments_with_their_schemas() {
    let tool = one(
        "/items/{id}",
        "get",
        json!({"parameters": [
        {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}},
        {"name": "q", "in": "query", "description": "search", "schema": {"type": "string"}},
        {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string"}},
        {"name": "session", "in": "cookie", "schema": {"type": "string"}},
        {"name": "id", "in": "query", "schema": {"type": "string"}},
        {"name": "Accept", "in": "header", "schema": {"type": "string"}}]}),
    );
    assert_eq!(
        tool.input_schema,
        json!({"type": "object", "properties": {
        "id": {"type": "integer"}, "q": {"type": "string", "description": "search"},
        "X-Trace": {"type": "string"}, "session": {"type": "string"}, "id__query": {"type": "string"}},
        "required": ["id", "X-Trace"]})
    );
    let p: Vec<(&str, &str, Location, Style, bool)> = tool
        .plan
        .params
        .iter()
        .map(|p| {
            (
                p.argument.as_str(),
                p.name.as_str(),
                p.location,
                p.style,
                p.explode,
            )
        })
        .collect();
    assert_eq!(
        p,
        [
            ("id", "id", Location::Path, Style::Simple, false),
            ("q", "q", Location::Query, Style::Form, true),
            ("X-Trace", "X-Trace", Location::Header, Style::Simple, false),
            ("session", "session", Location::Cookie, Style::Form, true),
            ("id__query", "id", Location::Query, Style::Form, true)
        ]
    );
}

#[test]
fn path_item_parameters_are_merged_and_overridden() {
    let doc = json!({"openapi": "3.1.0", "paths": {"/a/{id}": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                       {"name": "v", "in": "query", "schema": {"type": "string"}}],
        "get": {"parameters": [{"name": "v", "in": "query", "schema": {"type": "integer"}}]}}}});
    let tool = api(doc).tools.remove(0);
    assert_eq!(
        tool.input_schema["properties"],
        json!({"id": {"type": "string"}, "v": {"type": "integer"}})
    );
}

#[test]
fn an_object_body_is_flattened_unless_a_name_collides() {
    let body = json!({"required": true, "content": {"application/json": {"schema": {
        "type": "object", "properties": {"name": {"type": "string"}, "tag": {"type": "string"}}, "required": ["name"]}}}});
    let flat = one("/pets", "post", json!({"requestBody": body}));
    assert_eq!(
        flat.input_schema,
        json!({"type": "object", "properties": {
        "name": {"type": "string"}, "tag": {"type": "string"}}, "required": ["name"]})
    );
    let b = flat.plan.body.unwrap();
    assert_eq!(
        (b.media, b.content_type.as_str(), b.required),
        (Media::Json, "application/json", true)
    );
    assert_eq!(
        b.arguments,
        BodyArgs::Members(vec!["name".into(), "tag".into()])
    );

    let clash = one(
        "/pets/{name}",
        "put",
        json!({"requestBody": body,
        "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}]}),
    );
    assert_eq!(clash.input_schema["required"], json!(["name", "body"]));
    assert_eq!(
        clash.plan.body.unwrap().arguments,
        BodyArgs::Whole("body".into())
    );

    let array = one(
        "/tags",
        "post",
        json!({"requestBody": {"content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}}}),
    );
    assert_eq!(
        array.input_schema,
        json!({"type": "object", "properties": {"body": {"type": "array", "items": {"type": "string"}}}})
    );
}

#[test]
fn a_form_body_is_read_when_there_is_no_json() {
    let tool = one(
        "/login",
        "post",
        json!({"requestBody": {"content": {
        "application/xml": {"schema": {"type": "object"}},
        "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"user": {"type": "string"}}}}}}}),
    );
    let b = tool.plan.body.unwrap();
    assert_eq!(
        (b.media, b.content_type.as_str()),
        (Media::Form, "application/x-www-form-urlencoded")
    );
}

#[test]
fn an_unmappable_body_names_its_pointer_and_is_skipped() {
    let doc = json!({"openapi": "3.1.0", "paths": {"/up": {"post": {"requestBody": {"content": {"application/octet-stream": {}}}}}}});
    let read = api(doc.clone());
    assert!(read.tools.is_empty());
    assert_eq!(
        read.skipped,
        [OpenApiError::Unmappable {
            pointer: "#/paths/~1up/post/requestBody/content".into(),
            reason: "no JSON or form media type among [\"application/octet-stream\"]".into()
        }]
    );
    let strict = Api::from_value(&doc, &Options::new().strict(true)).unwrap_err();
    assert_eq!(
        strict.pointer(),
        Some("#/paths/~1up/post/requestBody/content")
    );
}

#[test]
fn the_output_schema_is_the_success_json_schema_wrapped_unless_an_object() {
    let object = json!({"type": "object", "properties": {"id": {"type": "integer"}}});
    let tool = one(
        "/a",
        "get",
        json!({"responses": {"404": {"description": "no"},
        "201": {"description": "made", "content": {"application/json": {"schema": object}}}}}),
    );
    assert_eq!(
        (tool.output_schema, tool.plan.wrap_output),
        (Some(object), false)
    );
    let list = one(
        "/a",
        "get",
        json!({"responses": {"200": {"description": "ok",
        "content": {"application/json": {"schema": {"type": "array", "items": {"type": "integer"}}}}}}}),
    );
    assert_eq!(
        list.output_schema,
        Some(json!({"type": "object",
        "properties": {"result": {"type": "array", "items": {"type": "integer"}}}, "required": ["result"]}))
    );
    assert!(list.plan.wrap_output);
    let none = one(
        "/a",
        "delete",
        json!({"responses": {"204": {"description": "gone"}}}),
    );
    assert_eq!(none.output_schema, None);
}

#[test]
fn references_are_resolved_and_cycles_bounded() {
    let doc = json!({"openapi": "3.1.0",
        "components": {"schemas": {
            "Node": {"type": "object", "properties": {"value": {"type": "string"}, "next": {"$ref": "#/components/schemas/Node"}}},
            "Id": {"type": "integer", "minimum": 1}},
          "parameters": {"id": {"name": "id", "in": "path", "required": true, "schema": {"$ref": "#/components/schemas/Id"}}}},
        "paths": {"/nodes/{id}": {"get": {"parameters": [{"$ref": "#/components/parameters/id"}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}}}});
    let tool = api(doc).tools.remove(0);
    assert_eq!(
        tool.input_schema["properties"]["id"],
        json!({"type": "integer", "minimum": 1})
    );
    assert_eq!(
        tool.output_schema,
        Some(json!({"type": "object", "properties": {
        "value": {"type": "string"},
        "next": {"type": "object", "description": "#/components/schemas/Node (recursive, not expanded further)"}}}))
    );
}

#[test]
fn a_reference_outside_the_document_names_where_it_is() {
    let doc = json!({"openapi": "3.1.0", "paths": {"/a": {"get": {"parameters": [
        {"name": "q", "in": "query", "schema": {"$ref": "other.yaml#/Q"}}]}}}});
    let read = api(doc);
    assert_eq!(
        read.skipped,
        [OpenApiError::Ref {
            pointer: "#/paths/~1a/get/parameters/0/schema/$ref".into(),
            reference: "other.yaml#/Q".into()
        }]
    );
}

#[test]
fn openapi_30_schemas_become_json_schema() {
    let doc = json!({"openapi": "3.0.3", "paths": {"/a": {"get": {"parameters": [{"name": "n", "in": "query",
        "schema": {"type": "integer", "nullable": true, "minimum": 0, "exclusiveMinimum": true, "example": 3,
                   "xml": {"name": "n"}}}]}}}});
    let tool = api(doc).tools.remove(0);
    assert_eq!(
        tool.input_schema["properties"]["n"],
        json!({"type": ["integer", "null"], "exclusiveMinimum": 0, "examples": [3]})
    );
}

#[test]
fn yaml_and_json_read_the_same_and_other_versions_fail() {
    let yaml = "openapi: 3.0.0\ninfo: {title: T, version: '2'}\nservers:\n  - url: 'http://{host}/v1'\n    variables: {host: {default: example.test}}\npaths: {}\n";
    let read = Api::from_text(yaml, &Options::new()).unwrap();
    assert_eq!(
        (read.title.as_deref(), read.version.as_deref()),
        (Some("T"), Some("2"))
    );
    assert_eq!(read.servers, ["http://example.test/v1"]);
    let err = Api::from_text("swagger: '2.0'\n", &Options::new()).unwrap_err();
    assert_eq!(
        err,
        OpenApiError::Version {
            found: "swagger 2.0".into()
        }
    );
    assert!(matches!(
        Api::from_text("{\"openapi\": ", &Options::new()),
        Err(OpenApiError::Parse { format: "JSON", .. })
    ));
}

#[test]
fn filters_by_tag_path_and_method() {
    let doc = json!({"openapi": "3.1.0", "paths": {
        "/pets": {"get": {"operationId": "a", "tags": ["pets"]}, "post": {"operationId": "b", "tags": ["pets", "write"]}},
        "/store/order": {"get": {"operationId": "c", "tags": ["store"]}},
        "/user": {"delete": {"operationId": "d"}}}});
    let names = |o: Options| -> Vec<String> {
        Api::from_value(&doc, &o)
            .unwrap()
            .tools
            .into_iter()
            .map(|t| t.name)
            .collect()
    };
    assert_eq!(names(Options::new()), ["a", "b", "c", "d"]);
    assert_eq!(names(Options::new().include_tag("pets")), ["a", "b"]);
    assert_eq!(names(Options::new().exclude_tag("write")), ["a", "c", "d"]);
    assert_eq!(names(Options::new().include_path("/store/*")), ["c"]);
    assert_eq!(names(Options::new().exclude_path("/pets")), ["c", "d"]);
    assert_eq!(names(Options::new().include_method("GET")), ["a", "c"]);
    assert_eq!(
        names(
            Options::new()
                .exclude_method("delete")
                .exclude_method("post")
        ),
        ["a", "c"]
    );
}

#[test]
fn security_requirements_name_their_schemes() {
    let doc = json!({"openapi": "3.1.0", "security": [{"key": []}],
        "components": {"securitySchemes": {
            "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            "token": {"type": "http", "scheme": "bearer"},
            "login": {"type": "http", "scheme": "Basic"},
            "mtls": {"type": "mutualTLS"}}},
        "paths": {"/a": {"get": {}, "post": {"security": [{"token": []}, {"login": [], "key": []}, {"mtls": []}, {}]}}}});
    let read = api(doc);
    assert_eq!(
        read.tools[0].plan.security,
        [vec![(
            "key".to_owned(),
            Scheme::ApiKey {
                location: mcp_runtime_openapi::ApiKeyIn::Header,
                name: "X-API-Key".into()
            }
        )]]
    );
    let post = &read.tools[1].plan.security;
    assert_eq!(post.len(), 3);
    assert_eq!(post[0], vec![("token".to_owned(), Scheme::Bearer)]);
    assert_eq!(
        post[1].iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["key", "login"]
    );
    assert!(post[2].is_empty());
}

#[test]
fn mutual_references_are_bounded_and_an_exponential_expansion_is_refused() {
    let doc = json!({"openapi": "3.1.0",
        "components": {"schemas": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
            "B": {"type": "array", "items": {"$ref": "#/components/schemas/A"}}}},
        "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}});
    let tool = api(doc).tools.remove(0);
    assert_eq!(
        tool.input_schema["properties"],
        json!({"b": {"type": "array", "items":
        {"type": "object", "description": "#/components/schemas/A (recursive, not expanded further)"}}})
    );

    // S0 holds two S1, each two S2, ...: 2^30 copies, refused at the budget.
    let mut schemas = serde_json::Map::new();
    for i in 0..30 {
        let next = json!({"$ref": format!("#/components/schemas/S{}", i + 1)});
        schemas.insert(
            format!("S{i}"),
            json!({"type": "object", "properties": {"l": next, "r": next}}),
        );
    }
    schemas.insert("S30".into(), json!({"type": "string"}));
    let doc = json!({"openapi": "3.1.0", "components": {"schemas": schemas},
        "paths": {"/big": {"get": {"parameters": [{"name": "q", "in": "query", "schema": {"$ref": "#/components/schemas/S0"}}]}}}});
    let err = Api::from_value(&doc, &Options::new()).unwrap_err();
    assert!(
        matches!(&err, OpenApiError::TooLarge { what, .. } if what == "schemas expand to more than 1000000 values"),
        "{err}"
    );
    assert!(
        err.pointer().unwrap().starts_with("#/components/schemas/S"),
        "{err}"
    );
}
