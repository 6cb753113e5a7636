//! A tool may fail with any error type that reads naturally: `ToolError`, a `String` or
//! `&'static str` (shown to the model), a `BoxError`, an `anyhow::Error` or any
//! `std::error::Error + Send + Sync` (masked and logged). `?` converts into `ToolError` along
//! the same line.

use std::borrow::Cow;

use mcp_runtime::prelude::*;

/// Parses a number, failing with a message.
#[tool]
fn with_string(text: String) -> Result<String, String> {
    text.parse::<u32>()
        .map(|n| n.to_string())
        .map_err(|_| format!("{text:?} is not a number"))
}

/// Fails with a fixed message.
#[tool]
fn with_str() -> Result<String, &'static str> {
    Err("not today")
}

/// Fails with a borrowed-or-owned message.
#[tool]
fn with_cow() -> Result<String, Cow<'static, str>> {
    Err(Cow::Borrowed("not today either"))
}

/// Reads a file: the I/O error is masked.
#[tool]
async fn with_box_error(path: String) -> Result<String, mcp_runtime::BoxError> {
    let n: u32 = path.parse()?;
    Ok(std::fs::read_to_string(format!("/{n}"))?)
}

/// Fails with anyhow.
#[tool]
async fn with_anyhow(text: String) -> anyhow::Result<String> {
    let n: u32 = text.parse()?;
    anyhow::ensure!(n > 0, "zero");
    Ok(n.to_string())
}

/// Fails with a std error.
#[tool]
fn with_io() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("disk"))
}

/// `?` on std errors and strings in a tool returning `ToolError`.
#[tool]
fn with_question_mark(text: String) -> Result<String, ToolError> {
    if text.is_empty() {
        return Err("give a number".into());
    }
    let n: u32 = text.parse()?;
    if n == 0 {
        Err(format!("{n} is too small"))?;
    }
    let parsed: f64 = text.parse()?;
    Ok(format!("{n} {parsed}"))
}

fn main() {
    assert_eq!(with_string("x".into()).unwrap_err(), "\"x\" is not a number");
    let err = with_question_mark("x".into()).unwrap_err();
    assert!(err.is_internal());
    assert_eq!(
        with_question_mark("0".into()).unwrap_err().message(),
        "0 is too small"
    );
    let _ = (with_str::TOOL, with_cow::TOOL, with_box_error::TOOL);
    let _ = (with_anyhow::TOOL, with_io::TOOL);
}
