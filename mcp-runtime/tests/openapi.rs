//! Generated tools (`ServerBuilder::openapi`) against a loopback HTTP API: the request each
//! call makes (method, path, query, headers, cookies, body, credentials), and the results:
//! `structuredContent` for JSON (wrapped when not an object), `isError` with the status and
//! the body for other statuses, the response size bound, redirects not followed, the prefix,
//! transforms and tags of mounted items, and the document fetched from a URL.
#![cfg(all(feature = "openapi", feature = "client"))]

use axum::Router;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::routing::{any, get};
use mcp_runtime::client::Client;
use mcp_runtime::openapi::{Credential, OpenApi, Options};
use mcp_runtime::prelude::*;
use mcp_runtime::transform::{MountOptions, ToolTransform};
use serde_json::{Value, json};

/// The API: `/echo/...` answers with what it was sent, the others with fixed answers.
async fn api() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let echo = |method: Method, uri: Uri, headers: HeaderMap, body: String| async move {
        let h = |n: &str| headers.get(n).map(|v| v.to_str().unwrap().to_owned());
        let seen = json!({"method": method.as_str(), "uri": uri.to_string(),
            "type": h("content-type"), "key": h("x-api-key"), "auth": h("authorization"),
            "cookie": h("cookie"), "trace": h("x-trace"), "body": body});
        ([("content-type", "application/json")], seen.to_string())
    };
    let app = Router::new()
        .route("/echo/{*rest}", any(echo))
        .route(
            "/list",
            get(|| async { ([("content-type", "application/json")], "[1,2,3]") }),
        )
        .route(
            "/missing",
            get(|| async {
                (
                    StatusCode::NOT_FOUND,
                    [("content-type", "application/json")],
                    r#"{"detail":"Not Found"}"#,
                )
            }),
        )
        .route(
            "/big",
            get(|| async {
                (
                    [("content-type", "application/json")],
                    format!("\"{}\"", "x".repeat(5000)),
                )
            }),
        )
        .route(
            "/moved",
            get(|| async { (StatusCode::FOUND, [("location", "/list")], "") }),
        )
        .route("/plain", get(|| async { "just text" }))
        .route(
            "/doc.json",
            get(|| async { DOC.replace("\"servers\": [{\"url\": \"http://placeholder\"}],", "") }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://127.0.0.1:{port}")
}

const DOC: &str = r#"{"openapi": "3.1.0", "info": {"title": "Echo", "version": "1"},
  "servers": [{"url": "http://placeholder"}],
  "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                                      "token": {"type": "http", "scheme": "bearer"}}},
  "paths": {
    "/echo/items/{id}": {"put": {"operationId": "put_item", "tags": ["items"], "security": [{"key": []}],
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
        {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object"}},
        {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
        {"name": "session", "in": "cookie", "schema": {"type": "string"}}],
      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",
        "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}, "required": ["name"]}}}}}},
    "/echo/login": {"post": {"operationId": "login", "security": [{"token": []}],
      "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object",
        "properties": {"user": {"type": "string"}, "roles": {"type": "array"}}}}}}}},
    "/list": {"get": {"operationId": "numbers", "responses": {"200": {"description": "ok",
      "content": {"application/json": {"schema": {"type": "array", "items": {"type": "integer"}}}}}}}},
    "/missing": {"get": {"operationId": "missing"}},
    "/big": {"get": {"operationId": "big"}},
    "/moved": {"get": {"operationId": "moved"}},
    "/plain": {"get": {"operationId": "plain", "tags": ["text"]}}}}"#;

async fn serve(base: &str, prefix: &str, options: MountOptions) -> Client {
    let api = OpenApi::from_text(DOC, &Options::new())
        .unwrap()
        .with_base_url(base)
        .credential("key", Credential::secret("k-1"))
        .credential("token", Credential::secret("t-2"))
        .max_response(4096);
    let server = Server::builder(server_info!())
        .openapi_with(prefix, api, options)
        .build()
        .unwrap();
    server.mounted().await;
    server.connect_client(Client::builder()).await.unwrap()
}

fn structured(result: &mcp_runtime::protocol::CallToolResult) -> Option<Value> {
    result
        .structured_content
        .as_ref()
        .map(|raw| serde_json::to_value(raw).unwrap())
}

fn text(result: &mcp_runtime::protocol::CallToolResult) -> &str {
    result.content[0].as_text().unwrap()
}

#[tokio::test]
async fn a_call_sends_its_arguments_where_the_document_says() {
    let base = api().await;
    let client = serve(&base, "api", MountOptions::new()).await;
    let args = json!({"id": "a/b", "tags": ["x", "y z"], "filter": {"kind": "dog"}, "X-Trace": "t1",
        "session": "s 1", "name": "Rex", "size": 3});
    let result = client.call_tool("api.put_item", args).await.unwrap();
    assert_eq!(result.is_error, None);
    assert_eq!(
        structured(&result),
        Some(json!({"method": "PUT",
        "uri": "/echo/items/a%2Fb?tags=x&tags=y%20z&filter%5Bkind%5D=dog", "type": "application/json",
        "key": "k-1", "auth": null, "cookie": "session=s%201", "trace": "t1",
        "body": r#"{"name":"Rex","size":3}"#}))
    );
    let login = client
        .call_tool("api.login", json!({"user": "ada", "roles": ["a", "b"]}))
        .await
        .unwrap();
    let seen = structured(&login).unwrap();
    assert_eq!(
        (&seen["type"], &seen["auth"], &seen["body"]),
        (
            &json!("application/x-www-form-urlencoded"),
            &json!("Bearer t-2"),
            &json!("roles=a&roles=b&user=ada")
        )
    );
}

#[tokio::test]
async fn results_are_structured_wrapped_errors_or_text() {
    let base = api().await;
    let client = serve(&base, "", MountOptions::new()).await;
    let list = client.call_tool("numbers", json!({})).await.unwrap();
    assert_eq!(
        (structured(&list), text(&list)),
        (Some(json!({"result": [1, 2, 3]})), "[1,2,3]")
    );
    let missing = client.call_tool("missing", json!({})).await.unwrap();
    assert_eq!(
        (missing.is_error, text(&missing)),
        (Some(true), r#"HTTP 404 Not Found: {"detail":"Not Found"}"#)
    );
    let big = client.call_tool("big", json!({})).await.unwrap();
    assert_eq!(
        (big.is_error, text(&big)),
        (
            Some(true),
            "HTTP 200 OK: the response is longer than 4096 bytes"
        )
    );
    let moved = client.call_tool("moved", json!({})).await.unwrap();
    assert_eq!(
        (moved.is_error, text(&moved)),
        (Some(true), "HTTP 302 Found: ")
    );
    let plain = client.call_tool("plain", json!({})).await.unwrap();
    assert_eq!((structured(&plain), text(&plain)), (None, "just text"));
    let bad = client
        .call_tool("put_item", json!({"name": "x"}))
        .await
        .unwrap();
    assert_eq!(
        (bad.is_error, text(&bad)),
        (
            Some(true),
            "invalid arguments for tool 'put_item': missing required argument 'id'"
        )
    );
}

#[tokio::test]
async fn tools_are_listed_with_schemas_and_transformed_like_mounted_ones() {
    let base = api().await;
    let options = MountOptions::new()
        .transform(ToolTransform::new("numbers").rename("count"))
        .transform(ToolTransform::new("big").hide());
    let client = serve(&base, "api", options).await;
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "api.put_item",
            "api.login",
            "api.count",
            "api.missing",
            "api.moved",
            "api.plain"
        ]
    );
    assert_eq!(
        tools[2].output_schema,
        Some(json!({"type": "object",
        "properties": {"result": {"type": "array", "items": {"type": "integer"}}}, "required": ["result"]}))
    );
    assert_eq!(tools[0].input_schema["required"], json!(["id", "name"]));
    assert_eq!(
        tools[5].meta.as_ref().unwrap()["_fastmcp"],
        json!({"tags": ["text"]})
    );
    let count = client.call_tool("api.count", json!({})).await.unwrap();
    assert_eq!(structured(&count), Some(json!({"result": [1, 2, 3]})));
}

#[tokio::test]
async fn a_document_from_a_url_is_served_by_its_origin_and_credentials_apply() {
    let base = api().await;
    let api = OpenApi::load(
        &format!("{base}/doc.json"),
        &Options::new().include_tag("items"),
    )
    .await
    .unwrap()
    .credential("key", Credential::secret("from-config"));
    assert_eq!(api.tools().len(), 1);
    let server = Server::builder(server_info!())
        .openapi("e", api)
        .build()
        .unwrap();
    let client = server.connect_client(Client::builder()).await.unwrap();
    let result = client
        .call_tool("e.put_item", json!({"id": "1", "name": "n"}))
        .await
        .unwrap();
    let seen: Value = structured(&result).unwrap();
    assert_eq!(
        (&seen["uri"], &seen["key"]),
        (&json!("/echo/items/1"), &json!("from-config"))
    );
    let none = OpenApi::from_text(
        r#"{"openapi": "3.1.0", "servers": [{"url": "/v1"}]}"#,
        &Options::new(),
    )
    .unwrap();
    let err = Server::builder(server_info!())
        .openapi("x", none)
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("no absolute server URL"), "{err}");
}

#[cfg(feature = "http")]
#[tokio::test]
async fn the_mcp_clients_authorization_is_never_sent_to_the_api() {
    let base = api().await;
    let doc = DOC.replace("http://placeholder", &base);
    // No credential configured: the operation's security finds none and sends none.
    let api = OpenApi::from_text(&doc, &Options::new()).unwrap();
    let server = Server::builder(server_info!())
        .openapi("", api)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    let client = Client::builder()
        .header("Authorization", "Bearer the-mcp-clients-own")
        .connect_http(&format!("http://127.0.0.1:{port}/mcp"))
        .await
        .unwrap();
    let login = client
        .call_tool("login", json!({"user": "ada"}))
        .await
        .unwrap();
    let seen = structured(&login).unwrap();
    assert_eq!(
        (&seen["auth"], &seen["key"], &seen["body"]),
        (&Value::Null, &Value::Null, &json!("user=ada"))
    );
}
