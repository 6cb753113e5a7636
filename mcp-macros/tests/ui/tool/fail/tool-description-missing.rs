//! A tool without a description gets a warning on its name (here denied, to show it): a model
//! picks tools by their descriptions. A doc comment or `description = ".."` silences it.

#![deny(deprecated)]

use mcp_runtime::prelude::*;

#[tool]
async fn mystery(x: u32) -> String {
    x.to_string()
}

/// Documented: no warning.
#[tool]
async fn known(x: u32) -> String {
    x.to_string()
}

#[tool(description = "Described in the attribute: no warning.")]
async fn described(x: u32) -> String {
    x.to_string()
}

fn main() {}
