#[mcp_runtime::openapi::tools(path = "../bad-ref.yaml")]
mod api {}

fn main() {}
