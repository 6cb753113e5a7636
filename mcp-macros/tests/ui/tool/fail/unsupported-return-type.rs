use mcp_runtime::prelude::*;

#[tool]
async fn opaque() -> impl std::fmt::Display {
    1
}

#[tool]
async fn pair() -> (String, u32) {
    (String::new(), 1)
}

/// Documented, so that only the rule of this test is reported.
#[tool]
async fn number() -> u32 {
    1
}

fn main() {}
