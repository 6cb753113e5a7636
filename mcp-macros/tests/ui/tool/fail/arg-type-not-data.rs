use mcp_runtime::prelude::*;

struct Plain {
    city: String,
}

#[derive(mcp_runtime::serde::Deserialize)]
#[serde(crate = "mcp_runtime::serde")]
struct NoSchema {
    radius: f64,
}

/// Each type that is not an argument is reported once, on the parameter list, naming the fix.
#[tool]
async fn search(area: Plain, near: NoSchema, limit: u32) -> String {
    format!("{} {} {limit}", area.city, near.radius)
}

fn main() {}
