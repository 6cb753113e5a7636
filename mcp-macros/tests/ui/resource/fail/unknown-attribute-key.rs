use mcp_runtime::prelude::*;

#[resource(uri = "x://report", read_only, timout_ms = 100)]
async fn report() -> String {
    String::new()
}

fn main() {}
