use mcp_runtime::prelude::*;

#[prompt]
static GREETING: &str = "hi";

fn main() {}
