//! Every server-sent type, made rich, adapted with `for_version` and validated against the
//! official schema of each revision (vendored in `tests/schemas/`).
//!
//! Each instance is validated twice: against the schema as published, and against a
//! "strict" copy in which every object schema that lists its properties rejects any other
//! property. The strict pass proves that `for_version` removed everything the revision
//! does not define. Each instance must also deserialise back to an equal value.

use std::collections::HashMap;
use std::sync::OnceLock;

use mcp_runtime_core::client::{ModelHint, ModelPreferences, ToolChoice};
use mcp_runtime_core::icons::IconTheme;
use mcp_runtime_core::jsonrpc::{ErrorObject, RequestId, write_error, write_response};
use mcp_runtime_core::lifecycle::{PromptsCapability, ResourcesCapability, ToolsCapability};
use mcp_runtime_core::subscriptions::{
    NotificationParams, SubscriptionsAcknowledgedNotificationParams,
};
use mcp_runtime_core::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

type V = ProtocolVersion;

fn load(v: V) -> Value {
    let path = format!(
        "{}/tests/schemas/{}.json",
        env!("CARGO_MANIFEST_DIR"),
        v.as_str()
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn defs_key(doc: &Value) -> &'static str {
    if doc.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    }
}

/// Property names whose schemas are open by design (JSON Schemas, free-form objects).
const OPEN_PROPERTIES: &[&str] = &[
    "inputSchema",
    "outputSchema",
    "requestedSchema",
    "structuredContent",
    "_meta",
    "metadata",
    "input",
];

fn is_open_def(name: &str) -> bool {
    name.ends_with("MetaObject") || name.starts_with("JSON")
}

fn make_strict(node: &mut Value) {
    let Some(obj) = node.as_object_mut() else {
        return;
    };
    if obj.get("properties").is_some_and(Value::is_object)
        && !obj.contains_key("additionalProperties")
    {
        obj.insert("additionalProperties".into(), Value::Bool(false));
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for (name, sub) in props.iter_mut() {
            if !OPEN_PROPERTIES.contains(&name.as_str()) {
                make_strict(sub);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = obj.get_mut(key) {
            make_strict(sub);
        }
    }
    for key in ["anyOf", "allOf", "oneOf"] {
        if let Some(Value::Array(subs)) = obj.get_mut(key) {
            subs.iter_mut().for_each(make_strict);
        }
    }
}

struct Docs {
    plain: Value,
    strict: Value,
}

fn docs(v: V) -> &'static Docs {
    static CACHE: OnceLock<HashMap<V, Docs>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        V::ALL
            .into_iter()
            .map(|v| {
                let plain = load(v);
                let mut strict = plain.clone();
                let key = defs_key(&strict);
                for (name, def) in strict[key].as_object_mut().unwrap().iter_mut() {
                    if !is_open_def(name) {
                        make_strict(def);
                    }
                }
                (v, Docs { plain, strict })
            })
            .collect()
    });
    &all[&v]
}

fn has_def(v: V, def: &str) -> bool {
    let doc = &docs(v).plain;
    doc[defs_key(doc)].get(def).is_some()
}

fn def_properties(v: V, def: &str) -> Vec<String> {
    let doc = &docs(v).plain;
    doc[defs_key(doc)][def]["properties"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn check_against(v: V, def: &str, instance: &Value) {
    for (label, doc) in [
        ("schema", &docs(v).plain),
        ("strict schema", &docs(v).strict),
    ] {
        let mut root = doc.clone();
        let key = defs_key(&root);
        root["$ref"] = json!(format!("#/{key}/{def}"));
        let validator = jsonschema::validator_for(&root).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(
            errors.is_empty(),
            "{v}: {def} fails the {label}:\n{}\ninstance: {instance:#}",
            errors.join("\n")
        );
    }
}

/// Adapts, validates against `def` and round-trips; returns the JSON sent.
fn check<T>(v: V, def: &str, value: &T) -> Value
where
    T: ForVersion + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Clone,
{
    let adapted = value.clone().into_version(v);
    let json = serde_json::to_value(&adapted).unwrap();
    check_against(v, def, &json);
    let back: T = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, adapted, "{v}: {def} does not round-trip");
    json
}

/// Like [`check`], for params wrapped in a message definition such as `ProgressNotification`.
fn check_message<T>(v: V, def: &str, method: &str, id: Option<i64>, params: &T) -> Value
where
    T: ForVersion + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Clone,
{
    let adapted = params.clone().into_version(v);
    let params_json = serde_json::to_value(&adapted).unwrap();
    let props = def_properties(v, def);
    let mut message = json!({ "method": method, "params": params_json });
    if props.iter().any(|p| p == "jsonrpc") {
        message["jsonrpc"] = json!("2.0");
    }
    if let (Some(id), true) = (id, props.iter().any(|p| p == "id")) {
        message["id"] = json!(id);
    }
    check_against(v, def, &message);
    let back: T = serde_json::from_value(params_json.clone()).unwrap();
    assert_eq!(back, adapted, "{v}: {def} params do not round-trip");
    params_json
}

fn meta() -> Meta {
    let mut m = Meta::new();
    m.insert("vendor.example/trace".into(), json!("abc"));
    m
}

fn icons() -> Vec<Icon> {
    vec![
        Icon::new("https://example.com/icon.png")
            .with_mime_type("image/png")
            .with_sizes(vec!["48x48".to_owned()])
            .with_theme(IconTheme::Dark),
    ]
}

fn annotations() -> Annotations {
    Annotations::new()
        .with_audience(vec![Role::User, Role::Assistant])
        .with_priority(0.5)
        .with_last_modified("2025-01-12T15:00:58Z")
}

fn implementation() -> Implementation {
    Implementation::new("demo-server", "1.2.3")
        .with_title("Demo server")
        .with_description("A server for tests")
        .with_icons(icons())
        .with_website_url("https://example.com")
}

fn capabilities() -> ServerCapabilities {
    let mut ext = Meta::new();
    ext.insert("io.example/ext".into(), json!({}));
    let mut tools = ToolsCapability::default();
    tools.list_changed = Some(true);
    let mut resources = ResourcesCapability::default();
    resources.subscribe = Some(true);
    resources.list_changed = Some(true);
    let mut prompts = PromptsCapability::default();
    prompts.list_changed = Some(false);
    ServerCapabilities::default()
        .with_tools(tools)
        .with_resources(resources)
        .with_prompts(prompts)
        .with_logging()
        .with_completions()
        .with_experimental(ext.clone())
        .with_extensions(ext)
}

fn text_contents() -> ResourceContents {
    ResourceContents::text("file:///notes.md", "# Notes")
        .with_mime_type("text/markdown")
        .with_meta(meta())
}

fn blob_contents() -> ResourceContents {
    ResourceContents::blob("file:///logo.png", "iVBORw0KGgo=").with_mime_type("image/png")
}

fn all_blocks() -> Vec<ContentBlock> {
    vec![
        TextContent::new("hello")
            .with_annotations(annotations())
            .with_meta(meta())
            .into(),
        ImageContent::new("iVBORw0KGgo=", "image/png")
            .with_annotations(annotations())
            .with_meta(meta())
            .into(),
        AudioContent::new("UklGRg==", "audio/wav")
            .with_annotations(annotations())
            .into(),
        ResourceLink::new("file:///notes.md", "notes")
            .with_title("Notes")
            .with_description("My notes")
            .with_mime_type("text/markdown")
            .with_size(7)
            .with_icons(icons())
            .with_annotations(annotations())
            .with_meta(meta())
            .into(),
        EmbeddedResource::new(text_contents())
            .with_annotations(annotations())
            .with_meta(meta())
            .into(),
        ContentBlock::embedded(blob_contents()),
    ]
}

fn tool() -> Tool {
    Tool::new(
        "add",
        json!({
            "type": "object",
            "properties": {"a": {"type": "number", "description": "first"}, "b": {"type": "number"}},
            "required": ["a", "b"]
        }),
    )
    .with_title("Add")
    .with_description("Adds two numbers")
    .with_output_schema(json!({"type": "object", "properties": {"sum": {"type": "number"}}}))
    .with_annotations(
        ToolAnnotations::new()
            .with_title("Add numbers")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
    .with_icons(icons())
    .with_meta(meta())
}

fn prompt() -> Prompt {
    Prompt::new("greet")
        .with_title("Greeting")
        .with_description("Greets someone")
        .with_arguments(vec![
            PromptArgument::new("name")
                .with_title("Name")
                .with_description("Who to greet")
                .with_required(true),
        ])
        .with_icons(icons())
        .with_meta(meta())
}

fn resource() -> Resource {
    Resource::new("file:///notes.md", "notes")
        .with_title("Notes")
        .with_description("My notes")
        .with_mime_type("text/markdown")
        .with_size(7)
        .with_annotations(annotations())
        .with_icons(icons())
        .with_meta(meta())
}

fn template() -> ResourceTemplate {
    ResourceTemplate::new("file:///notes/{name}", "note")
        .with_title("A note")
        .with_description("One note by name")
        .with_mime_type("text/markdown")
        .with_annotations(annotations())
        .with_icons(icons())
        .with_meta(meta())
}

fn server_meta() -> Meta {
    let mut m = meta();
    m.insert(
        meta::SERVER_INFO_KEY.into(),
        serde_json::to_value(Implementation::new("demo-server", "1.2.3")).unwrap(),
    );
    m
}

#[test]
fn entities_validate_in_every_revision() {
    for v in V::ALL {
        check(v, "Implementation", &implementation());
        check(v, "ServerCapabilities", &capabilities());
        check(v, "Tool", &tool());
        check(v, "Prompt", &prompt());
        check(v, "PromptArgument", &prompt().arguments.unwrap()[0]);
        check(v, "Resource", &resource());
        check(v, "ResourceTemplate", &template());
    }
}

#[test]
fn results_validate_in_every_revision() {
    for v in V::ALL {
        check(
            v,
            "ListToolsResult",
            &ListToolsResult::new(vec![tool(), Tool::new("noop", json!({"type": "object"}))])
                .with_next_cursor("page-2")
                .with_cache(60_000, CacheScope::Public)
                .with_meta(server_meta()),
        );
        check(
            v,
            "CallToolResult",
            &CallToolResult::new(all_blocks())
                .with_structured_content(json!({"sum": 3}))
                .with_is_error(false)
                .with_meta(server_meta()),
        );
        check(v, "CallToolResult", &CallToolResult::error_text("bad `a`"));
        check(
            v,
            "ListPromptsResult",
            &ListPromptsResult::new(vec![prompt()])
                .with_next_cursor("")
                .with_cache(0, CacheScope::Private),
        );
        let messages = all_blocks()
            .into_iter()
            .map(|b| PromptMessage::new(Role::User, b))
            .chain([PromptMessage::assistant("Hi!")])
            .collect();
        check(
            v,
            "GetPromptResult",
            &GetPromptResult::new(messages)
                .with_description("A greeting")
                .with_meta(meta()),
        );
        check(
            v,
            "ListResourcesResult",
            &ListResourcesResult::new(vec![resource()]).with_next_cursor("c"),
        );
        check(
            v,
            "ListResourceTemplatesResult",
            &ListResourceTemplatesResult::new(vec![template()]).with_meta(meta()),
        );
        check(
            v,
            "ReadResourceResult",
            &ReadResourceResult::new(vec![text_contents(), blob_contents()])
                .with_cache(1000, CacheScope::Private),
        );
        let mut completion = Completion::new(vec!["red".into(), "green".into()]);
        completion.total = Some(2);
        completion.has_more = Some(false);
        check(
            v,
            "CompleteResult",
            &CompleteResult::from_completion(completion).with_meta(meta()),
        );
        check(
            v,
            "CompleteResult",
            &CompleteResult::new((0..150).map(|i| i.to_string()).collect()),
        );
        check(v, "EmptyResult", &EmptyResult::new().with_meta(meta()));
        if v.is_stateless() {
            check(
                v,
                "DiscoverResult",
                &DiscoverResult::new(
                    V::ALL.iter().map(|v| v.to_string()).collect(),
                    capabilities(),
                )
                .with_instructions("Use `add`")
                .with_cache(3_600_000, CacheScope::Public)
                .with_meta(server_meta()),
            );
            let sampling = CreateMessageRequestParams::new(vec![SamplingMessage::user("Hi")], 50);
            let elicit = ElicitRequestParams::form(
                "Your name?",
                json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
            );
            let url = ElicitRequestParams::url("Sign in", "https://example.com/login", "e-1");
            check(
                v,
                "InputRequiredResult",
                &InputRequiredResult::new()
                    .with_input_request("name", InputRequest::elicit(&elicit))
                    .with_input_request("login", InputRequest::elicit(&url))
                    .with_input_request("llm", InputRequest::create_message(&sampling))
                    .with_input_request("roots", InputRequest::list_roots())
                    .with_request_state("opaque-state")
                    .with_meta(meta()),
            );
            check(
                v,
                "InputRequiredResult",
                &InputRequiredResult::new().with_request_state("only-state"),
            );
        } else {
            let mut result = InitializeResult::new(v, capabilities(), implementation())
                .with_instructions("Use `add`");
            result.meta = Some(meta());
            check(v, "InitializeResult", &result);
        }
    }
}

#[test]
fn notifications_validate_in_every_revision() {
    for v in V::ALL {
        check_message(
            v,
            "ProgressNotification",
            "notifications/progress",
            None,
            &ProgressNotificationParams::new(ProgressToken::String("t".into()), 0.5)
                .with_total(1.0)
                .with_message("halfway"),
        );
        check_message(
            v,
            "ProgressNotification",
            "notifications/progress",
            None,
            &ProgressNotificationParams::new(ProgressToken::Number(3), 2.0),
        );
        check_message(
            v,
            "LoggingMessageNotification",
            "notifications/message",
            None,
            &LoggingMessageNotificationParams::new(LoggingLevel::Warning, json!({"disk": "full"}))
                .with_logger("storage"),
        );
        check_message(
            v,
            "ResourceUpdatedNotification",
            "notifications/resources/updated",
            None,
            &ResourceUpdatedNotificationParams::new("file:///notes.md"),
        );
        check_message(
            v,
            "CancelledNotification",
            "notifications/cancelled",
            None,
            &CancelledNotificationParams::new(RequestId::from("req-1")).with_reason("timeout"),
        );
        check_message(
            v,
            "ToolListChangedNotification",
            "notifications/tools/list_changed",
            None,
            &NotificationParams::new(),
        );
        if v.is_stateless() {
            let mut sub = Meta::new();
            sub.insert(meta::SUBSCRIPTION_ID_KEY.into(), json!(12));
            check_message(
                v,
                "SubscriptionsAcknowledgedNotification",
                "notifications/subscriptions/acknowledged",
                None,
                &SubscriptionsAcknowledgedNotificationParams::new(
                    SubscriptionFilter::new()
                        .with_tools_list_changed(true)
                        .with_resource_subscriptions(vec!["file:///notes.md".into()]),
                )
                .with_meta(sub.clone()),
            );
            check_message(
                v,
                "ToolListChangedNotification",
                "notifications/tools/list_changed",
                None,
                &NotificationParams::new().with_meta(sub),
            );
        }
    }
}

#[test]
fn server_requests_validate_where_defined() {
    for v in V::ALL {
        let mut prefs = ModelPreferences::default();
        prefs.hints = Some(vec![ModelHint::new("claude")]);
        prefs.cost_priority = Some(0.2);
        prefs.speed_priority = Some(0.3);
        prefs.intelligence_priority = Some(0.9);
        let mut choice = ToolChoice::default();
        choice.mode = Some("auto".into());
        let sampling = CreateMessageRequestParams::new(
            vec![
                SamplingMessage::user("What is 2 + 2?"),
                SamplingMessage::assistant("4"),
            ],
            100,
        )
        .with_system_prompt("Be brief")
        .with_model_preferences(prefs)
        .with_include_context(client::IncludeContext::ThisServer)
        .with_temperature(0.7)
        .with_stop_sequences(vec!["\n\n".into()])
        .with_metadata(meta())
        .with_tools(vec![tool()])
        .with_tool_choice(choice);
        check_message(
            v,
            "CreateMessageRequest",
            "sampling/createMessage",
            Some(1),
            &sampling,
        );
        if v.has_elicitation() {
            let form = ElicitRequestParams::form(
                "Your name?",
                json!({"type": "object", "properties": {"name": {"type": "string", "description": "Name"}}}),
            );
            check_message(v, "ElicitRequest", "elicitation/create", Some(2), &form);
        }
        if v >= V::V2025_11_25 {
            let url = ElicitRequestParams::url("Sign in", "https://example.com/login", "e-1");
            let json = check_message(v, "ElicitRequest", "elicitation/create", Some(3), &url);
            assert_eq!(json.get("elicitationId").is_some(), !v.is_stateless());
        }
    }
}

#[test]
fn stripping_matches_each_revision() {
    let t = |v| serde_json::to_value(tool().into_version(v)).unwrap();
    let old = t(V::V2024_11_05);
    for key in ["title", "outputSchema", "annotations", "icons", "_meta"] {
        assert!(old.get(key).is_none(), "2024-11-05 tool has {key}");
    }
    let v0326 = t(V::V2025_03_26);
    assert!(v0326.get("title").is_none() && v0326.get("outputSchema").is_none());
    assert!(v0326.get("annotations").is_some());
    let v0618 = t(V::V2025_06_18);
    assert!(v0618.get("title").is_some() && v0618.get("outputSchema").is_some());
    assert!(v0618.get("icons").is_none());
    assert!(t(V::V2025_11_25).get("icons").is_some());

    // Non-object output schemas only from 2026-07-28 on.
    let array_tool = Tool::new("list", json!({"type": "object"}))
        .with_output_schema(json!({"type": "array", "items": {"type": "string"}}));
    assert!(
        array_tool
            .clone()
            .into_version(V::V2025_11_25)
            .output_schema
            .is_none()
    );
    assert!(
        array_tool
            .into_version(V::V2026_07_28)
            .output_schema
            .is_some()
    );

    // Result type and cache hints: 2026-07-28 only, filled in when missing.
    let list = |v| serde_json::to_value(ListToolsResult::new(vec![]).into_version(v)).unwrap();
    assert_eq!(
        list(V::V2026_07_28),
        json!({"tools": [], "ttlMs": 0, "cacheScope": "private", "resultType": "complete"})
    );
    assert_eq!(list(V::V2025_11_25), json!({"tools": []}));
    let kept = ListToolsResult::new(vec![])
        .with_cache(5000, CacheScope::Public)
        .into_version(V::V2026_07_28);
    assert_eq!(
        (kept.ttl_ms, kept.cache_scope),
        (Some(5000), Some(CacheScope::Public))
    );

    // Content blocks older revisions cannot carry become text.
    let result = CallToolResult::new(all_blocks()).into_version(V::V2024_11_05);
    let kinds: Vec<&str> = result
        .content
        .iter()
        .map(|b| match b {
            ContentBlock::Text(_) => "text",
            ContentBlock::Image(_) => "image",
            ContentBlock::Audio(_) => "audio",
            ContentBlock::ResourceLink(_) => "resource_link",
            ContentBlock::Resource(_) => "resource",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["text", "image", "text", "text", "resource", "resource"]
    );
    assert_eq!(
        result.content[3].as_text(),
        Some("file:///notes.md (notes)")
    );
    assert!(result.content[2].as_text().unwrap().contains("audio/wav"));
    let result = CallToolResult::new(all_blocks()).into_version(V::V2025_03_26);
    assert!(matches!(result.content[2], ContentBlock::Audio(_)));
    assert!(matches!(result.content[3], ContentBlock::Text(_)));
    let ContentBlock::Audio(audio) = &result.content[2] else {
        unreachable!()
    };
    assert_eq!(audio.annotations.as_ref().unwrap().last_modified, None);

    // Implementation details.
    let info = implementation().into_version(V::V2025_06_18);
    assert_eq!(info.title.as_deref(), Some("Demo server"));
    assert_eq!(
        (info.description, info.icons, info.website_url),
        (None, None, None)
    );

    // Capabilities.
    let caps = capabilities().into_version(V::V2024_11_05);
    assert!(caps.completions.is_none() && caps.extensions.is_none());
    let caps = capabilities().into_version(V::V2025_11_25);
    assert!(caps.completions.is_some() && caps.extensions.is_none());
    assert!(
        capabilities()
            .into_version(V::V2026_07_28)
            .extensions
            .is_some()
    );

    // Result `_meta` exists in every revision.
    let empty = EmptyResult::new()
        .with_meta(meta())
        .into_version(V::V2024_11_05);
    assert!(empty.meta.is_some());
}

#[test]
fn written_lines_validate() {
    for v in V::ALL {
        let mut buf = Vec::new();
        let result = serde_json::to_string(&EmptyResult::new().into_version(v)).unwrap();
        write_response(&mut buf, &RequestId::Number(1), &result);
        let line: Value = serde_json::from_slice(&buf).unwrap();
        let def = if has_def(v, "JSONRPCResultResponse") {
            "JSONRPCResultResponse"
        } else {
            "JSONRPCResponse"
        };
        check_against(v, def, &line);

        buf.clear();
        write_error(
            &mut buf,
            Some(&RequestId::from("x")),
            &ErrorObject::invalid_params("unknown tool `nope`").with_data(json!({"tool": "nope"})),
        );
        let line: Value = serde_json::from_slice(&buf).unwrap();
        let def = if has_def(v, "JSONRPCErrorResponse") {
            "JSONRPCErrorResponse"
        } else {
            "JSONRPCError"
        };
        check_against(v, def, &line);
    }
}

#[test]
fn client_messages_deserialise() {
    let caps: ClientCapabilities = serde_json::from_value(json!({
        "roots": {"listChanged": true},
        "sampling": {"tools": {}, "context": {}},
        "elicitation": {"form": {}, "url": {}},
        "experimental": {"x": {}},
        "tasks": {"list": {}}
    }))
    .unwrap();
    assert!(caps.elicitation.as_ref().unwrap().supports_url());
    assert!(caps.other.contains_key("tasks"));
    let round: ClientCapabilities =
        serde_json::from_value(serde_json::to_value(&caps).unwrap()).unwrap();
    assert_eq!(round, caps);

    let init: InitializeRequestParams = serde_json::from_value(json!({
        "protocolVersion": "2099-01-01",
        "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"},
        "unknown": true
    }))
    .unwrap();
    assert_eq!(init.protocol_version, "2099-01-01");

    let complete: CompleteRequestParams = serde_json::from_value(json!({
        "ref": {"type": "ref/prompt", "name": "greet"},
        "argument": {"name": "name", "value": "Al"},
        "context": {"arguments": {"lang": "en"}}
    }))
    .unwrap();
    assert_eq!(
        complete.r#ref,
        CompletionReference::Prompt {
            name: "greet".into(),
            title: None
        }
    );

    let get: GetPromptRequestParams = serde_json::from_value(json!({
        "name": "greet",
        "arguments": {"name": "Ada"},
        "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}},
        "requestState": "s"
    }))
    .unwrap();
    let answer: ElicitResult =
        serde_json::from_value(get.input_responses.unwrap()["name"].clone()).unwrap();
    assert_eq!(answer.action, ElicitAction::Accept);

    let sampled: CreateMessageResult = serde_json::from_value(json!({
        "role": "assistant",
        "content": [{"type": "text", "text": "4"}, {"type": "tool_use", "id": "u1", "name": "add", "input": {"a": 2}}],
        "model": "m",
        "stopReason": "toolUse"
    }))
    .unwrap();
    assert!(matches!(sampled.content, client::SamplingContent::Multiple(ref v) if v.len() == 2));

    let listen: SubscriptionsListenRequestParams = serde_json::from_value(json!({
        "notifications": {"promptsListChanged": true},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    }))
    .unwrap();
    assert_eq!(listen.notifications.prompts_list_changed, Some(true));

    let level: SetLevelRequestParams =
        serde_json::from_value(json!({"level": "critical"})).unwrap();
    assert!(level.level > LoggingLevel::Error);
    assert!(serde_json::from_value::<SetLevelRequestParams>(json!({"level": "loud"})).is_err());
}

#[test]
fn request_meta_reads_reserved_keys() {
    let params = serde_json::value::RawValue::from_string(
        json!({
            "name": "add",
            "_meta": {
                "progressToken": "p1",
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
                "io.modelcontextprotocol/clientInfo": {"name": "client", "version": "2"},
                "io.modelcontextprotocol/logLevel": "info",
                "other": 1
            }
        })
        .to_string(),
    )
    .unwrap();
    let m = RequestMeta::from_params(Some(&params)).unwrap();
    assert_eq!(m.progress_token, Some(ProgressToken::String("p1".into())));
    assert_eq!(m.protocol_version.as_deref(), Some("2026-07-28"));
    assert!(m.client_capabilities.unwrap().elicitation.is_some());
    assert_eq!(m.client_info.unwrap().name, "client");
    assert_eq!(m.log_level, Some(LoggingLevel::Info));
    assert_eq!(m.rest.len(), 1);

    assert_eq!(
        RequestMeta::from_params(None).unwrap(),
        RequestMeta::default()
    );
    let no_meta = serde_json::value::RawValue::from_string(r#"{"_meta":null}"#.into()).unwrap();
    assert_eq!(
        RequestMeta::from_params(Some(&no_meta)).unwrap(),
        RequestMeta::default()
    );
    let bad = serde_json::value::RawValue::from_string(
        r#"{"_meta":{"io.modelcontextprotocol/logLevel":"loud"}}"#.into(),
    )
    .unwrap();
    assert!(RequestMeta::from_params(Some(&bad)).is_err());
}

fn strict_error_count(v: V, def: &str, instance: &Value) -> usize {
    let mut root = docs(v).strict.clone();
    let key = defs_key(&root);
    root["$ref"] = json!(format!("#/{key}/{def}"));
    jsonschema::validator_for(&root)
        .unwrap()
        .iter_errors(instance)
        .count()
}

#[test]
fn strict_schemas_catch_undefined_fields() {
    // Guard against a vacuous strict pass: unadapted values must fail on old revisions.
    let raw = |value: &dyn erased::Json| value.json();
    assert!(strict_error_count(V::V2024_11_05, "Tool", &raw(&tool())) > 0);
    assert!(strict_error_count(V::V2025_03_26, "Implementation", &raw(&implementation())) > 0);
    assert!(strict_error_count(V::V2024_11_05, "ServerCapabilities", &raw(&capabilities())) > 0);
    let blocks = CallToolResult::new(all_blocks());
    assert!(strict_error_count(V::V2025_03_26, "CallToolResult", &raw(&blocks)) > 0);
    let resource_v2024 =
        json!({"uri": "file:///a", "name": "a", "annotations": {"lastModified": "x"}});
    assert!(strict_error_count(V::V2024_11_05, "Resource", &resource_v2024) > 0);
    assert!(strict_error_count(V::V2026_07_28, "ListToolsResult", &json!({"tools": []})) > 0);
    assert_eq!(
        strict_error_count(V::V2026_07_28, "Tool", &raw(&tool())),
        0,
        "a full tool is valid in the newest revision"
    );
}

mod erased {
    pub trait Json {
        fn json(&self) -> serde_json::Value;
    }

    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap()
        }
    }
}
