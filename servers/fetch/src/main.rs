//! `mcp-server-fetch [--user-agent UA] [--ignore-robots-txt] [--proxy-url URL]
//! [--allow-private-ips]`, then a command of the mcp-runtime command line (`stdio` by default,
//! `http ADDR`, `list`, `call`, `install`, …).

use mcp_server_fetch::{Settings, server};

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut settings = Settings::new();
    let mut rest = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        match flag.as_str() {
            "--ignore-robots-txt" => settings = settings.ignore_robots_txt(true),
            "--allow-private-ips" => settings = settings.allow_private_ips(true),
            "--user-agent" | "--proxy-url" => {
                let Some(value) = inline.or_else(|| args.next()) else {
                    eprintln!("mcp-server-fetch: {flag} needs a value");
                    std::process::exit(2);
                };
                settings = if flag == "--user-agent" {
                    settings.user_agent(Some(value))
                } else {
                    settings.proxy_url(Some(value))
                };
            }
            _ => rest.push(arg),
        }
    }
    let built = server(settings).build()?;
    mcp_runtime::cli::Cli::new(&built).run_with(rest).await
}
