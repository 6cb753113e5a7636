//! The error of a returned `Result` must be something the runtime can report: a type that is
//! none of them gets a note naming the accepted ones, on the return type.

use mcp_runtime::prelude::*;

/// Fails with a number.
#[tool]
async fn code() -> Result<String, i32> {
    Err(7)
}

/// Fails with an error that cannot cross threads.
#[tool]
async fn local() -> Result<String, Box<dyn std::error::Error>> {
    Err("no".into())
}

fn main() {}
