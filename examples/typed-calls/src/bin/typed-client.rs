//! Calls the shared definitions' tools with their Rust types: `typed-client PATH/TO/typed-server`.

use mcp_runtime::client::{Client, ClientError};
use mcp_runtime::tokio::process::Command;
use typed_calls::{GreetArgs, Ideas, Occasion, SuggestGiftsArgs};

/// What `--help` prints.
const HELP: &str = "\
usage: typed-client [SERVER]

Spawns SERVER (default: typed-server on the PATH) and calls its tools with their Rust types.
";

#[tokio::main]
async fn main() -> Result<(), ClientError> {
    if matches!(std::env::args().nth(1).as_deref(), Some("-h" | "--help")) {
        print!("{HELP}");
        return Ok(());
    }
    let server = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "typed-server".into());
    let client = Client::builder()
        .connect_stdio(Command::new(server))
        .await?;

    let ideas: Ideas = client
        .call(SuggestGiftsArgs {
            occasion: Occasion::Birthday,
            budget: 40.0,
            recipient: Some("Ann".into()),
        })
        .await?;
    println!("{}", ideas.summary);
    for idea in &ideas.ideas {
        println!("- {} (${})", idea.name, idea.price);
    }

    let greeting: String = client.call(GreetArgs { name: "Ada".into() }).await?;
    println!("{greeting}");

    let refused = client
        .call(SuggestGiftsArgs {
            occasion: Occasion::Wedding,
            budget: 5.0,
            recipient: None,
        })
        .await;
    match refused {
        Err(ClientError::Tool(text)) => println!("refused: {text}"),
        other => println!("unexpected: {other:?}"),
    }
    client.close().await;
    Ok(())
}
