use mcp_runtime::prelude::*;

#[resource(uri = "gifts://item/{id}/{variant}")]
async fn gift(id: u32) -> String {
    id.to_string()
}

fn main() {}
