#[mcp_runtime::openapi::tools(path = "../pets.yaml", include_tag = ["pets"])]
mod typo {}

#[mcp_runtime::openapi::tools(include_tags = ["pets"])]
mod no_path {}

#[mcp_runtime::openapi::tools(path = "../pets.yaml")]
fn not_a_module() {}

#[mcp_runtime::openapi::tools(path = "../pets.yaml", include_tags = ["none"])]
mod nothing_left {}

fn main() {}
