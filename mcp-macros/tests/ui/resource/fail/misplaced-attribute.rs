use mcp_runtime::prelude::*;

#[resource(uri = "x://y")]
enum Kind {
    A,
}

fn main() {}
