use mcp_runtime::prelude::*;

#[resource(uri = "files:///{path")]
async fn file(path: String) -> String {
    path
}

#[resource(uri = "files:///{pa th}")]
async fn spaced(path: String) -> String {
    path
}

fn main() {}
