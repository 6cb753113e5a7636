//! `unix-socket PATH`: serves MCP on a Unix domain socket at PATH (clients connect with any
//! newline-delimited JSON-RPC client, e.g. `socat - UNIX-CONNECT:PATH`).

/// What `--help` prints.
const HELP: &str = "\
usage: unix-socket PATH

Serves MCP on a Unix domain socket at PATH, one connection per client (newline-delimited
JSON-RPC, e.g. `socat - UNIX-CONNECT:PATH`).

Exit codes: 0 stopped, 2 bad usage, 5 the socket could not be served.
";

/// `-h` or `--help` as the first argument.
fn asks_for_help() -> bool {
    matches!(std::env::args().nth(1).as_deref(), Some("-h" | "--help"))
}

#[cfg(unix)]
#[tokio::main]
async fn main() {
    if asks_for_help() {
        print!("{HELP}");
        return;
    }
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
    if asks_for_help() {
        print!("{HELP}");
        return;
    }
    eprintln!("unix-socket: Unix domain sockets need a Unix system");
    std::process::exit(2);
}
