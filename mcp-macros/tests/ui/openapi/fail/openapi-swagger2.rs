#[mcp_runtime::openapi::tools(path = "../swagger2.yaml")]
mod api {}

fn main() {}
