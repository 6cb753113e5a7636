//! The calls and the answers each API must give through its generated tools.

use mcp_runtime::client::Client;
use mcp_runtime::serde_json;
use serde_json::{Value, json};

use crate::{Tally, seen};

async fn call(client: &Client, name: &str, args: Value) -> (Value, Value, Value) {
    match client.call_tool(name, args).await {
        Ok(result) => seen(&result),
        Err(e) => (Value::Null, json!(format!("call failed: {e}")), Value::Null),
    }
}

async fn names(client: &Client) -> Value {
    match client.list_tools().await {
        Ok(tools) => json!(tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>()),
        Err(e) => json!(e.to_string()),
    }
}

/// The FastAPI application of `tests/openapi-interop/app.py`.
pub(crate) async fn fastapi(t: &mut Tally, label: &str, client: &Client) {
    let p = format!("[{label}]");
    t.check(
        &format!("{p} tools/list"),
        &names(client).await,
        &json!([
            "echo_echo__word__get",
            "search_items",
            "create_item",
            "get_item",
            "whoami_key",
            "whoami_token"
        ]),
    );
    let hammer = json!({"id": 1, "name": "hammer", "kind": "tool", "size": {"width": 3, "height": 30}, "labels": ["steel"]});
    let (s, e, _) = call(client, "get_item", json!({"item_id": 1})).await;
    t.check(
        &format!("{p} get_item 1 (path)"),
        &json!([s, e]),
        &json!([hammer, false]),
    );
    let (_, e, text) = call(client, "get_item", json!({"item_id": 99})).await;
    t.check(
        &format!("{p} get_item 99: 404"),
        &json!([e, text]),
        &json!([true, "HTTP 404 Not Found: {\"detail\":\"no item 99\"}"]),
    );
    let (s, _, _) = call(
        client,
        "search_items",
        json!({"kind": "tool", "labels": ["steel"]}),
    )
    .await;
    t.check(
        &format!("{p} search_items (query enum and array)"),
        &s,
        &json!({"result": [hammer]}),
    );
    let (s, _, _) = call(
        client,
        "search_items",
        json!({"kind": "toy", "labels": ["steel"]}),
    )
    .await;
    t.check(
        &format!("{p} search_items none"),
        &s,
        &json!({"result": []}),
    );
    let kite = json!({"name": format!("kite {label}"), "kind": "toy", "size": {"width": 1, "height": 2}, "labels": ["a", "b"]});
    let (made, e, _) = call(client, "create_item", kite.clone()).await;
    let id = made.get("id").cloned().unwrap_or(Value::Null);
    let mut want = kite.clone();
    want["id"] = id.clone();
    t.check(
        &format!("{p} create_item (nested body): 201"),
        &json!([made, e, id.as_i64().is_some_and(|n| n > 1)]),
        &json!([want, false, true]),
    );
    let (s, _, _) = call(client, "get_item", json!({"item_id": id})).await;
    t.check(&format!("{p} get_item of the created one"), &s, &want);
    let mut bad = kite;
    bad["name"] = json!("forbidden");
    let (_, e, text) = call(client, "create_item", bad).await;
    let body: Value = text
        .as_str()
        .and_then(|t| t.strip_prefix("HTTP 422 Unprocessable Entity: "))
        .and_then(|b| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null);
    t.check(
        &format!("{p} create_item forbidden: 422"),
        &json!([e, body["detail"][0]["loc"], body["detail"][0]["msg"]]),
        &json!([
            true,
            ["body", "name"],
            "Value error, this name is not allowed"
        ]),
    );
    let (s, _, _) = call(
        client,
        "echo_echo__word__get",
        json!({"word": "a b?c&d", "times": 2}),
    )
    .await;
    t.check(
        &format!("{p} echo (escaped path)"),
        &s,
        &json!({"said": "a b?c&d a b?c&d"}),
    );
    let (s, _, _) = call(client, "whoami_key", json!({})).await;
    t.check(
        &format!("{p} whoami_key (API key header)"),
        &s,
        &json!({"user": "ada", "by": "key"}),
    );
    let (s, _, _) = call(client, "whoami_token", json!({})).await;
    t.check(
        &format!("{p} whoami_token (bearer)"),
        &s,
        &json!({"user": "grace", "by": "token"}),
    );
}

/// The same application without credentials: the API refuses.
pub(crate) async fn fastapi_unauthorized(t: &mut Tally, client: &Client) {
    let (_, e, text) = call(client, "whoami_key", json!({})).await;
    t.check(
        "[no credentials] whoami_key: 401",
        &json!([e, text]),
        &json!([true, "HTTP 401 Unauthorized: {\"detail\":\"bad key\"}"]),
    );
    let (_, e, text) = call(client, "whoami_token", json!({})).await;
    t.check(
        "[no credentials] whoami_token: 401",
        &json!([e, text]),
        &json!([true, "HTTP 401 Unauthorized: {\"detail\":\"bad token\"}"]),
    );
}

/// The Petstore without credentials: the mock refuses what needs them.
pub(crate) async fn petstore_unauthorized(t: &mut Tally, client: &Client) {
    let (_, e, text) = call(client, "getInventory", json!({})).await;
    let status = text
        .as_str()
        .map(|t| t.split(':').next().unwrap_or_default().to_owned());
    t.check(
        "[no credentials] getInventory: 401",
        &json!([e, status]),
        &json!([true, "HTTP 401 Unauthorized"]),
    );
}

/// The Swagger Petstore 3 document served by the Prism mock (its examples, statically).
pub(crate) async fn petstore(t: &mut Tally, label: &str, client: &Client) {
    let p = format!("[{label}]");
    t.check(
        &format!("{p} tools/list"),
        &names(client).await,
        &json!([
            "updatePet",
            "addPet",
            "findPetsByStatus",
            "findPetsByTags",
            "getPetById",
            "updatePetWithForm",
            "deletePet",
            "getInventory",
            "placeOrder",
            "getOrderById",
            "deleteOrder",
            "createUser",
            "createUsersWithListInput",
            "loginUser",
            "logoutUser",
            "getUserByName",
            "updateUser",
            "deleteUser"
        ]),
    );
    let pet = json!({"id": 10, "name": "doggie", "category": {"id": 1, "name": "Dogs"}, "photoUrls": ["string"],
        "tags": [{"id": -9007199254740991_i64, "name": "string"}], "status": "available"});
    let (s, e, _) = call(client, "getPetById", json!({"petId": 10})).await;
    t.check(
        &format!("{p} getPetById"),
        &json!([s, e]),
        &json!([pet, false]),
    );
    let (s, _, _) = call(client, "findPetsByStatus", json!({"status": "sold"})).await;
    t.check(
        &format!("{p} findPetsByStatus (wrapped array)"),
        &s,
        &json!({"result": [pet]}),
    );
    let (s, _, _) = call(client, "findPetsByTags", json!({"tags": ["a", "b"]})).await;
    t.check(
        &format!("{p} findPetsByTags (query array)"),
        &s,
        &json!({"result": [pet]}),
    );
    let (s, e, _) = call(
        client,
        "addPet",
        json!({"name": "doggie", "photoUrls": ["u"], "status": "pending"}),
    )
    .await;
    t.check(
        &format!("{p} addPet (JSON body)"),
        &json!([s, e]),
        &json!([pet, false]),
    );
    let (s, _, _) = call(client, "getInventory", json!({})).await;
    t.check(
        &format!("{p} getInventory (API key)"),
        &s,
        &json!({"property1": -2147483648_i64, "property2": -2147483648_i64}),
    );
    let (s, _, _) = call(client, "getOrderById", json!({"orderId": 10})).await;
    t.check(
        &format!("{p} getOrderById"),
        &s,
        &json!({"id": 10, "petId": 198772, "quantity": 7,
        "shipDate": "2019-08-24T14:15:22Z", "status": "placed", "complete": true}),
    );
    let (s, _, _) = call(client, "getUserByName", json!({"username": "theUser"})).await;
    t.check(&format!("{p} getUserByName"), &s, &json!({"id": 10, "username": "theUser", "firstName": "John",
        "lastName": "James", "email": "john@email.com", "password": "12345", "phone": "12345", "userStatus": 1}));
    let (_, e, text) = call(client, "getPetById", json!({"petId": "not a number"})).await;
    let status = text
        .as_str()
        .map(|t| t.split(':').next().unwrap_or_default().to_owned());
    t.check(
        &format!("{p} getPetById with a bad id: the mock's 400"),
        &json!([e, status]),
        &json!([true, "HTTP 400 Bad Request"]),
    );
}
