use mcp_runtime::prelude::*;

struct Id;

#[resource(uri = "gifts://item/{id}")]
async fn gift(id: Id) -> String {
    let _ = id;
    String::new()
}

fn main() {}
