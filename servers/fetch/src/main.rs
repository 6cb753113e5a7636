//! `mcp-server-fetch [--user-agent UA] [--ignore-robots-txt] [--proxy-url URL]
//! [--allow-private-ips]`, then a command of the mcp-runtime command line (`stdio` by default,
//! `http ADDR`, `list`, `call`, `install`, …). Each flag has a variable standing for it, so that
//! `install CLIENT --env …` can set it: `MCP_FETCH_USER_AGENT`, `MCP_FETCH_PROXY_URL`, and
//! `MCP_FETCH_IGNORE_ROBOTS_TXT=1`, `MCP_FETCH_ALLOW_PRIVATE_IPS=1`; a flag wins.

use mcp_server_fetch::{Settings, server};

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let mut settings = Settings::new()
        .user_agent(var("MCP_FETCH_USER_AGENT"))
        .proxy_url(var("MCP_FETCH_PROXY_URL"))
        .ignore_robots_txt(var("MCP_FETCH_IGNORE_ROBOTS_TXT").is_some_and(|v| v == "1"))
        .allow_private_ips(var("MCP_FETCH_ALLOW_PRIVATE_IPS").is_some_and(|v| v == "1"));
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
    // The MCP_* settings of the runtime are read too (ServerBuilder::run_with).
    server(settings).run_with(rest).await
}
