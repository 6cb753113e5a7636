//! A plain (non-`async`) function is a tool too; it runs inside the call's future.

use mcp_runtime::prelude::*;

/// Adds two numbers.
#[tool]
fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Nothing to return.
#[tool(name = "noop")]
fn nothing() {}

fn main() {
    assert_eq!(add(2, 3), "5");
    assert_eq!(add::TOOL.name, "add");
    // The declaration site is the function's name.
    assert_eq!((add::TOOL.location.line, add::TOOL.location.column), (7, 4));
    assert_eq!(nothing::TOOL.name, "noop");
    nothing();
}
