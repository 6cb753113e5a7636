//! `gift-server`: the command line of the gift server (`stdio`, `http [ADDR]`, `list`, `call`).

#[tokio::main]
async fn main() {
    if let Err(err) = gift_server::server().run().await {
        eprintln!("gift-server: {err}");
        std::process::exit(2);
    }
}
