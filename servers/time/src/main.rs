//! `mcp-server-time`: the command line of the time server (`mcp-server-time help`), with the
//! original's `--local-timezone ZONE` anywhere on it.

#[mcp_runtime::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut local = None;
    let mut i = 0;
    while i < args.len() {
        if let Some(zone) = args[i].strip_prefix("--local-timezone=") {
            local = Some(zone.to_owned());
            args.remove(i);
        } else if args[i] == "--local-timezone" {
            args.remove(i);
            if i >= args.len() {
                eprintln!("error: argument --local-timezone: expected one argument");
                std::process::exit(2);
            }
            local = Some(args.remove(i));
        } else {
            i += 1;
        }
    }
    let local = match local.filter(|z| !z.is_empty()) {
        Some(zone) => {
            if mcp_server_time::zone(&zone).is_err() {
                eprintln!(
                    "Error: invalid --local-timezone '{zone}': not a known IANA timezone name"
                );
                std::process::exit(1);
            }
            zone
        }
        None => mcp_server_time::local_zone_name(),
    };
    // The rest is the command line's, `MCP_*` settings read as `run` reads them.
    mcp_server_time::server(&local).run_with(args).await
}
