use mcp_runtime::prelude::*;

fn complete_city(_req: &CompletionRequest) -> Vec<String> {
    Vec::new()
}

#[tool]
async fn weather(#[arg(complete = complete_city)] city: String) -> String {
    city
}

fn main() {}
