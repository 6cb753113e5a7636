use mcp_runtime::prelude::*;

#[tool]
async fn borrowed(name: &str, bytes: &[u8], shown: impl std::fmt::Display) -> String {
    format!("{name} {bytes:?} {shown}")
}

struct NotDeserialize;

/// Documented, so that only the rule of this test is reported.
#[tool]
async fn opaque(value: NotDeserialize) -> String {
    let _ = value;
    String::new()
}

fn main() {}
