use mcp_runtime::prelude::*;

#[resource(uri = "gifts://item/{id}")]
async fn gift(id: u32, lang: String) -> String {
    format!("{id} {lang}")
}

#[resource(uri = "gifts://catalog")]
async fn catalog(page: u32) -> String {
    page.to_string()
}

fn main() {}
