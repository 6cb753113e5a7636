//! A prompt may fail with a `String` (-32602 with the text), any std error (masked), and `?`
//! converts into `PromptError` along the same line.

use mcp_runtime::prelude::*;

/// Says hello a number of times.
#[prompt]
async fn hello(times: String) -> Result<String, PromptError> {
    let n: u32 = times.parse()?;
    if n > 3 {
        return Err("at most 3 times".into());
    }
    Ok("hello ".repeat(n as usize))
}

/// Fails with a message.
#[prompt]
async fn refuse() -> Result<String, &'static str> {
    Err("not now")
}

fn main() {
    let _ = (hello::PROMPT, refuse::PROMPT);
}
