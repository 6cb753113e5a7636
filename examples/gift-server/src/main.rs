//! `gift-server`: the command line of the gift server (`gift-server help` lists the commands).

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    gift_server::server().run().await
}
