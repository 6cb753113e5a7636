use mcp_runtime::prelude::*;

#[tool]
async fn by_ref(ctx: &Context) -> String {
    let _ = ctx;
    String::new()
}

#[tool]
async fn with_arg(#[ctx] #[arg(rename = "x")] ctx: Context) -> String {
    let _ = ctx;
    String::new()
}

/// Documented, so that only the rule of this test is reported.
#[tool]
async fn not_from_context(#[ctx] name: String) -> String {
    name
}

fn main() {}
