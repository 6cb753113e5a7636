use mcp_runtime::prelude::*;

#[resource(uri = "numbers://one")]
async fn one() -> u32 {
    1
}

fn main() {}
