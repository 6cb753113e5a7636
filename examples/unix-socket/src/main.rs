//! `unix-socket PATH`: serves MCP on a Unix domain socket at PATH (clients connect with any
//! newline-delimited JSON-RPC client, e.g. `socat - UNIX-CONNECT:PATH`).

#[cfg(unix)]
#[tokio::main]
async fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: unix-socket PATH");
        std::process::exit(2);
    };
    let served = async {
        let server = unix_socket::server().build()?;
        let listener = tokio::net::UnixListener::bind(&path)?;
        eprintln!("unix-socket: serving MCP at {path}");
        unix_socket::serve_unix(&server, listener).await?;
        Ok::<(), Box<dyn std::error::Error>>(())
    };
    if let Err(err) = served.await {
        eprintln!("unix-socket: {err}");
        std::process::exit(5);
    }
}

#[cfg(not(unix))]
fn main() {
    eprintln!("unix-socket: Unix domain sockets need a Unix system");
    std::process::exit(2);
}
