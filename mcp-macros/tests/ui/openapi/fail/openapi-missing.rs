#[mcp_runtime::openapi::tools(path = "../nowhere.yaml")]
mod api {}

fn main() {}
