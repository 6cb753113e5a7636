#[mcp_runtime::openapi::tools(path = "../clash.yaml")]
mod api {}

fn main() {}
