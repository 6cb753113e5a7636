use mcp_runtime::prelude::*;



#[resource(uri = "gifts://item/{id}/{tags}")]
async fn gift(#[arg(min = 1)] id: u32, tags: Vec<String>) -> String {
    let _ = (id, tags);
    String::new()
}

fn main() {}
