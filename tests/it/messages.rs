//! Argument messages a model can act on, end to end: numbers out of range named with their
//! property, errors inside internally tagged enums at the field, map keys that are not numbers;
//! documented enum values in the schema; `#[arg(flatten)]`.

use std::collections::HashMap;

use mcp_runtime::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{only_text, result};

/// A shape to look for.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)] // read through `Debug` only
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Shape {
    /// A circle
    Circle {
        /// Its radius
        radius: f64,
    },
    /// A square
    Square {
        /// Its side
        side: f64,
    },
}

/// What to search for.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)] // read through `Debug` only
pub struct Filter {
    /// Shapes, any of which matches
    pub shapes: Vec<Shape>,
}

/// Searches the catalogue.
#[tool(server = "it-messages")]
async fn find(
    /// Budget in dollars
    budget: Option<f64>,
    /// How many results
    count: Option<u32>,
    /// What to look for
    filter: Option<Filter>,
    /// Stock by shelf number
    stock: Option<HashMap<u32, String>>,
) -> String {
    format!(
        "{budget:?} {count:?} {filter:?} {}",
        stock.map_or(0, |s| s.len())
    )
}

/// Which page.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Paging {
    /// The page, from 1
    pub page: u32,
    /// Items per page
    pub per_page: Option<u32>,
}

/// Lists notes, a page at a time.
#[tool(server = "it-messages")]
async fn page(
    /// Only notes with this tag
    tag: Option<String>,
    #[arg(flatten)] paging: Paging,
) -> String {
    format!("{tag:?} {} {:?}", paging.page, paging.per_page)
}

async fn client() -> mcp_runtime::transport::memory::TestClient {
    let server = Server::builder(server_info!())
        .tool(find::TOOL)
        .tool(page::TOOL)
        .build()
        .unwrap();
    let mut client = server.connect_in_memory();
    client.initialize("2025-11-25").await;
    client
}

#[track_caller]
fn error_text(response: &Value, id: usize) -> String {
    let r = result(response, json!(id));
    assert_eq!(r["isError"], true, "{r}");
    only_text(&r).to_owned()
}

#[tokio::test]
async fn each_message_names_the_property_and_what_is_wrong() {
    let mut client = client().await;
    let cases = [
        (
            r#"{"budget": 1e400}"#,
            "property 'budget': the number 1e400 is out of range: it is larger than any 64-bit floating point number",
        ),
        (
            r#"{"count": 4294967296}"#,
            "property 'count': integer 4294967296 is out of range; expected an integer from 0 to 4294967295",
        ),
        (
            r#"{"filter": {"shapes": [{"kind": "square", "side": 1}, {"kind": "circle", "radius": "big"}]}}"#,
            "property 'filter.shapes[1].radius': expected a number, got string \"big\"",
        ),
        (
            r#"{"filter": {"shapes": [{"kind": "circle"}]}}"#,
            "missing required property 'filter.shapes[0].radius'",
        ),
        (
            r#"{"filter": {"shapes": [{"kind": "hexagon"}]}}"#,
            "property 'filter.shapes[0].kind': 'hexagon' is not an allowed value; expected 'circle' or 'square'",
        ),
        (
            r#"{"stock": {"1": "pens", "x": "ink"}}"#,
            "property 'stock': key \"x\" is not an integer; the keys of this object are integers written as strings, e.g. \"1\"",
        ),
    ];
    // Sent as text: `1e400` is valid JSON that a `serde_json::Value` cannot hold.
    let mut wrong = Vec::new();
    for (n, (arguments, expected)) in cases.into_iter().enumerate() {
        let id = 100 + n;
        let text = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"find","arguments":{arguments}}}}}"#
        );
        client.send_raw(&text).await;
        let actual = error_text(&client.response(&json!(id)).await, id);
        let expected = format!("invalid arguments for tool 'find': {expected}");
        if actual != expected {
            wrong.push((arguments, expected, actual));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[tokio::test]
async fn documented_enum_values_are_listed_in_the_description() {
    let mut client = client().await;
    let list = result(&client.request("tools/list", Value::Null).await, json!(2));
    let find = &list["tools"][0];
    assert_eq!(find["name"], "find");
    // An internally tagged enum stays a `oneOf` of objects; its tag values keep their docs.
    let shapes = &find["inputSchema"]["properties"]["filter"]["properties"]["shapes"]["items"];
    assert_eq!(shapes["oneOf"][0]["description"], "A circle");
    assert_eq!(
        shapes["oneOf"][0]["properties"]["kind"],
        json!({"type": "string", "const": "circle"})
    );
}

#[tokio::test]
async fn a_flattened_struct_spreads_its_fields_as_properties() {
    let mut client = client().await;
    let list = result(&client.request("tools/list", Value::Null).await, json!(2));
    let page = &list["tools"][1];
    assert_eq!(page["name"], "page");
    assert_eq!(
        page["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "tag": {"type": "string", "description": "Only notes with this tag"},
                "page": {"type": "integer", "minimum": 0, "description": "The page, from 1"},
                "per_page": {"type": "integer", "minimum": 0, "description": "Items per page"}
            },
            "required": ["page"]
        })
    );
    let r = client
        .call_tool("page", json!({"page": 2, "per_page": 10, "tag": "x"}))
        .await;
    assert_eq!(only_text(&result(&r, json!(3))), "Some(\"x\") 2 Some(10)");
    let r = client.call_tool("page", json!({"tag": "x"})).await;
    assert_eq!(
        error_text(&r, 4),
        "invalid arguments for tool 'page': missing required property 'page'"
    );
    // The flattened fields are known properties; others are not.
    let r = client
        .call_tool("page", json!({"page": 1, "pgae": 2}))
        .await;
    assert_eq!(
        error_text(&r, 5),
        "invalid arguments for tool 'page': unknown property 'pgae' (did you mean 'page'?); allowed properties are 'page', 'per_page', 'tag'"
    );
}
