//! `min`/`max` bound numbers and `pattern` matches strings: on another type, the key is refused
//! where it is written (and, for a type the macro cannot tell by its name, the trait error says
//! the same).

use mcp_runtime::prelude::*;

type Name = String;

/// Greets.
#[tool]
async fn greet(
    #[arg(max = 100)] name: String,
    #[arg(min = 1, pattern = "^[0-9]+$")] times: Option<u32>,
    #[arg(min = 0)] tags: Vec<String>,
) -> String {
    format!("{name} {times:?} {tags:?}")
}

/// Greets by alias.
#[tool]
async fn greet_alias(#[arg(max = 100)] name: Name) -> String {
    name
}

fn main() {}
