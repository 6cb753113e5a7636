use mcp_runtime::prelude::*;

#[tool]
struct Weather {
    city: String,
}

#[tool]
const LIMIT: u32 = 3;

fn main() {}
