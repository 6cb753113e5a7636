//! A `pattern` is compiled when the tool is: an invalid one is an error at the literal, not an
//! internal error on every call.

use mcp_runtime::prelude::*;

/// Looks a word up.
#[tool]
async fn lookup(#[arg(pattern = "[a-z")] word: String) -> String {
    word
}

fn main() {}
