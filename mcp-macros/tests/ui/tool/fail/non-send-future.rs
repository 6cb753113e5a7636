use mcp_runtime::prelude::*;
use std::rc::Rc;

async fn tick() {}

#[tool]
async fn counter() -> String {
    let shared = Rc::new(1);
    tick().await;
    shared.to_string()
}

fn main() {}
