use mcp_runtime::prelude::*;
use std::rc::Rc;

async fn tick() {}

/// Documented, so that only the rule of this test is reported.
#[tool]
async fn counter() -> String {
    let shared = Rc::new(1);
    tick().await;
    shared.to_string()
}

fn main() {}
