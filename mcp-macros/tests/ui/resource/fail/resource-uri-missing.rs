use mcp_runtime::prelude::*;

#[resource(mime = "text/plain")]
async fn readme() -> String {
    String::new()
}

fn main() {}
