// A client written when `suggest_gifts` took a whole-dollar `budget: u32`, had no `recipient`
// and returned a list of names. The definitions changed; this client no longer builds.

use mcp_runtime::client::Client;
use typed_calls::{Occasion, SuggestGiftsArgs};

async fn stale(client: &Client) {
    let names: Vec<String> = client
        .call(SuggestGiftsArgs {
            occasion: Occasion::Birthday,
            budget: 40u32,
        })
        .await
        .unwrap();
    let _ = names;
}

fn main() {
    let _ = stale;
}
