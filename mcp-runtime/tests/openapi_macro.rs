//! `#[openapi::tools]` (compile time) against `ServerBuilder::openapi` (run time) for the same
//! document (`tests/openapi-macro/pets.yaml`): the same tools listed, byte for byte, and the
//! same results from the same API; the typed client and argument structs.
#![cfg(all(feature = "openapi", feature = "macros", feature = "client"))]

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use mcp_runtime::client::Client;
use mcp_runtime::openapi::{OpenApi, Options};
use mcp_runtime::prelude::*;
use serde_json::{Value, json};

/// The generated module.
#[mcp_runtime::openapi::tools(path = "tests/openapi-macro/pets.yaml")]
pub mod pets {}

/// Only the store's operations.
#[mcp_runtime::openapi::tools(path = "./openapi-macro/pets.yaml", include_tags = ["store"])]
mod store {}

const DOC: &str = include_str!("openapi-macro/pets.yaml");

/// A JSON answer (axum's `json` feature is not on here).
fn json_reply(status: StatusCode, value: Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

/// What the API was asked, in order.
type Seen = Arc<Mutex<Vec<String>>>;

/// The pet store on loopback: each answer tells what the request was, so that both paths are
/// seen to send the same request.
async fn api() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let app = Router::new()
        .route(
            "/v1/pets",
            get(|State(s): State<Seen>, RawQuery(q): RawQuery| async move {
                let q = q.unwrap_or_default();
                s.lock().unwrap().push(format!("GET /v1/pets?{q}"));
                json_reply(
                    StatusCode::OK,
                    json!([{"id": 1, "name": q, "status": "sold"}]),
                )
            })
            .post(
                |State(s): State<Seen>, headers: HeaderMap, body: String| async move {
                    let body: Value = serde_json::from_str(&body).unwrap();
                    let id = headers
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    s.lock().unwrap().push(format!("POST /v1/pets {id} {body}"));
                    let mut pet = body;
                    pet["id"] = json!(7);
                    json_reply(StatusCode::CREATED, pet)
                },
            ),
        )
        .route(
            "/v1/pets/{id}",
            get(|State(s): State<Seen>, Path(id): Path<String>| async move {
                s.lock().unwrap().push(format!("GET /v1/pets/{id}"));
                if id == "1" {
                    json_reply(
                        StatusCode::OK,
                        json!({"id": 1, "name": "Rex", "owner": null}),
                    )
                } else if id == "2" {
                    // Off the document's schema: `id` is an integer and `name` required.
                    json_reply(StatusCode::OK, json!({"id": "two"}))
                } else {
                    (StatusCode::NOT_FOUND, "no pet with this id").into_response()
                }
            })
            .delete(|State(s): State<Seen>, Path(id): Path<String>| async move {
                s.lock().unwrap().push(format!("DELETE /v1/pets/{id}"));
                StatusCode::NO_CONTENT
            }),
        )
        .route(
            "/v1/store/inventory",
            get(|State(s): State<Seen>| async move {
                s.lock().unwrap().push("GET /v1/store/inventory".into());
                json_reply(StatusCode::OK, json!({"available": 2, "sold": 1}))
            }),
        )
        .with_state(Arc::clone(&seen));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, seen)
}

async fn run_time(base: &str) -> Client {
    let api = OpenApi::from_text(DOC, &Options::new().strict(true))
        .unwrap()
        .with_base_url(base);
    let server = Server::builder(server_info!())
        .openapi("", api)
        .build()
        .unwrap();
    server.connect_client(Client::builder()).await.unwrap()
}

async fn compile_time(base: &str) -> Client {
    let mut builder = Server::builder(server_info!());
    for tool in pets::TOOLS {
        builder = builder.tool(*tool);
    }
    let api = pets::Api::connect(&pets::Api::document().unwrap().with_base_url(base)).unwrap();
    let server = builder.state(api).build().unwrap();
    server.connect_client(Client::builder()).await.unwrap()
}

async fn listed(client: &Client) -> Vec<Value> {
    let mut tools: Vec<Value> = client
        .list_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    tools.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    tools
}

#[tokio::test]
async fn the_two_paths_list_the_same_tools() {
    let (base, _) = api().await;
    let (run, compiled) = (
        listed(&run_time(&base).await).await,
        listed(&compile_time(&base).await).await,
    );
    let names: Vec<&str> = compiled
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "addPet",
            "deletePet",
            "getInventory",
            "listPets",
            "showPetById"
        ]
    );
    for (r, c) in run.iter().zip(&compiled) {
        assert_eq!(r, c, "{}", c["name"]);
    }
    assert_eq!(run.len(), compiled.len());
    // What a model reads, spelled out once.
    let show = &compiled[4];
    assert_eq!(show["description"], "Info for a specific pet");
    assert_eq!(
        show["inputSchema"],
        json!({"type": "object", "properties": {"petId": {"type": "integer", "description": "The pet's id"}}, "required": ["petId"]})
    );
    assert_eq!(show["annotations"]["readOnlyHint"], true);
    assert_eq!(compiled[1]["annotations"]["idempotentHint"], true);
    assert_eq!(
        compiled[2]["outputSchema"],
        json!({"type": "object", "additionalProperties": {"type": "integer"}})
    );
    assert_eq!(compiled[3]["outputSchema"]["required"], json!(["result"]));
}

#[tokio::test]
async fn the_two_paths_send_the_same_requests_and_answer_the_same() {
    let (base, seen) = api().await;
    let calls = [
        (
            "listPets",
            json!({"status": ["available", "sold"], "limit": 2}),
        ),
        (
            "addPet",
            json!({"name": "Tom", "owner": {"name": "Ann", "phones": ["1"]}, "X-Request-Id": "r1"}),
        ),
        ("showPetById", json!({"petId": 1})),
        ("showPetById", json!({"petId": 5})),
        ("deletePet", json!({"petId": 3})),
        ("getInventory", json!({})),
    ];
    let mut answers = Vec::new();
    for client in [run_time(&base).await, compile_time(&base).await] {
        let mut mine = Vec::new();
        for (name, args) in &calls {
            mine.push(serde_json::to_value(client.call_tool(name, args).await.unwrap()).unwrap());
        }
        answers.push(mine);
    }
    assert_eq!(answers[0], answers[1]);
    let seen = seen.lock().unwrap().clone();
    let once = [
        "GET /v1/pets?status=available,sold&limit=2",
        r#"POST /v1/pets r1 {"name":"Tom","owner":{"name":"Ann","phones":["1"]}}"#,
        "GET /v1/pets/1",
        "GET /v1/pets/5",
        "DELETE /v1/pets/3",
        "GET /v1/store/inventory",
    ];
    assert_eq!(seen, [once, once].concat());
    let a = &answers[1];
    assert_eq!(
        a[0]["structuredContent"],
        json!({"result": [{"id": 1, "name": "status=available,sold&limit=2", "status": "sold"}]})
    );
    assert_eq!(
        a[2]["structuredContent"],
        json!({"id": 1, "name": "Rex", "owner": null})
    );
    assert_eq!(a[3]["isError"], true);
    assert_eq!(
        a[3]["content"][0]["text"],
        "HTTP 404 Not Found: no pet with this id"
    );
}

#[tokio::test]
async fn the_typed_client_and_argument_structs() {
    let (base, seen) = api().await;
    let api = pets::Api::connect(&pets::Api::document().unwrap().with_base_url(&base)).unwrap();
    let args = pets::ListPetsArgs {
        status: Some(vec![pets::ListPetsStatusItem::Pending]),
        limit: None,
    };
    let response = api.list_pets(&args).await.unwrap();
    assert_eq!(
        (response.status, response.content_type.as_str()),
        (200, "application/json")
    );
    let pets: Vec<Value> = response.json().unwrap();
    assert_eq!(pets[0]["name"], "status=pending");
    let new = pets::AddPetArgs {
        name: "Tom".into(),
        status: Some(pets::AddPetStatus::Available),
        owner: Some(pets::AddPetOwner {
            name: None,
            phones: Some(vec!["2".into()]),
        }),
        tags: None,
        x_request_id: None,
    };
    let added = api.add_pet(&new).await.unwrap();
    assert_eq!(added.status, 201);
    assert_eq!(
        added.json::<Value>().unwrap(),
        json!({"id": 7, "name": "Tom", "status": "available", "owner": {"phones": ["2"]}})
    );
    let missing = api
        .show_pet_by_id(&pets::ShowPetByIdArgs { pet_id: 9 })
        .await
        .unwrap();
    assert_eq!(
        (missing.status, missing.text().as_ref()),
        (404, "no pet with this id")
    );
    assert_eq!(
        seen.lock().unwrap().clone(),
        [
            "GET /v1/pets?status=pending",
            r#"POST /v1/pets - {"name":"Tom","owner":{"phones":["2"]},"status":"available"}"#,
            "GET /v1/pets/9",
        ]
    );
    // Arguments are read into the struct: a wrong type is refused before any request.
    let client = compile_time(&base).await;
    let refused = client
        .call_tool("showPetById", json!({"petId": "one"}))
        .await;
    let refused = refused.unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(
        refused.content[0].as_text(),
        Some(
            "invalid arguments for tool 'showPetById': property '.petId': expected an integer, got string \"one\""
        )
    );
    assert_eq!(seen.lock().unwrap().len(), 3);
    // The filters of the attribute.
    let names: Vec<&str> = store::TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(names, ["getInventory"]);
    assert!(pets::DOCUMENT.starts_with("# A small pet store"));
}

#[tokio::test]
async fn an_answer_off_the_documents_schema_is_an_error_on_both_paths() {
    let (base, seen) = api().await;
    for client in [run_time(&base).await, compile_time(&base).await] {
        let err = client
            .call_tool("showPetById", json!({"petId": 2}))
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the server answered error -32603: tool 'showPetById' returned a result that does not conform to its outputSchema: structuredContent at /id fails \"type\": \"two\" is not of type \"integer\""
        );
    }
    assert_eq!(seen.lock().unwrap().len(), 2);
    // Turned off for the mount: the answer passes as it came.
    let api = OpenApi::from_text(DOC, &Options::new())
        .unwrap()
        .with_base_url(&base);
    let unchecked = mcp_runtime::transform::MountOptions::new().validate_output(false);
    let server = Server::builder(server_info!())
        .openapi_with("", api, unchecked)
        .build()
        .unwrap();
    let client = server.connect_client(Client::builder()).await.unwrap();
    let passed = client
        .call_tool("showPetById", json!({"petId": 2}))
        .await
        .unwrap();
    assert_eq!(passed.structured_content.unwrap().get(), r#"{"id":"two"}"#);
}
