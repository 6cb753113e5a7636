//! Generated tools in front of real HTTP APIs: what `tests/openapi-interop/run.sh` runs.
//!
//! `openapi_check (fastapi|petstore) MCP-PROXY DOC BASE_URL` serves the OpenAPI document DOC
//! (a URL or a file) twice: with `ServerBuilder::openapi` in this process (credentials given
//! to `OpenApi::credential`) and with `mcp-proxy --openapi DOC --base-url BASE_URL stdio`
//! spawned (credentials in `MCP_OPENAPI_<SCHEME>`). Our client calls the same tools on each and
//! compares the answers with the API's data (`checks`). One line per check; the last line is
//! `N passed, M failed`; exit 1 if one failed.

mod checks;

use std::process::ExitCode;

use mcp_runtime::client::Client;
use mcp_runtime::openapi::{Credential, OpenApi, Options};
use mcp_runtime::protocol::CallToolResult;
use mcp_runtime::{Server, serde_json, tokio};
use serde_json::Value;

/// The checks' tally.
#[derive(Default)]
pub(crate) struct Tally {
    passed: usize,
    failed: usize,
}

impl Tally {
    /// One check: `got` must equal `want`.
    pub(crate) fn check(&mut self, label: &str, got: &Value, want: &Value) {
        if got == want {
            self.passed += 1;
            println!("ok   {label}");
        } else {
            self.failed += 1;
            println!("FAIL {label}\n     got:  {got}\n     want: {want}");
        }
    }
}

/// A result as JSON (`structuredContent`, `isError` and the first text block).
pub(crate) fn seen(result: &CallToolResult) -> (Value, Value, Value) {
    let structured = result
        .structured_content
        .as_ref()
        .map(|raw| serde_json::to_value(raw).unwrap_or(Value::Null))
        .unwrap_or(Value::Null);
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map_or(Value::Null, |t| Value::String(t.into()));
    (structured, Value::Bool(result.is_error == Some(true)), text)
}

/// The credentials of each API's security schemes, by scheme name.
pub(crate) fn credentials(api: &str) -> Vec<(&'static str, Credential)> {
    match api {
        "fastapi" => vec![
            ("APIKeyHeader", Credential::secret("k-123")),
            ("HTTPBearer", Credential::secret("t-456")),
        ],
        _ => vec![
            ("api_key", Credential::secret("special-key")),
            ("petstore_auth", Credential::secret("a-token")),
        ],
    }
}

async fn in_process(
    api: &str,
    doc: &str,
    base: &str,
    with_credentials: bool,
) -> Result<Client, String> {
    let mut loaded = OpenApi::load(doc, &Options::new())
        .await
        .map_err(|e| e.to_string())?
        .with_base_url(base);
    if with_credentials {
        for (scheme, credential) in credentials(api) {
            loaded = loaded.credential(scheme, credential);
        }
    }
    let server = Server::builder(mcp_runtime::protocol::Implementation::new("check", "1"))
        .openapi("", loaded)
        .build()
        .map_err(|e| e.to_string())?;
    server
        .connect_client(Client::builder())
        .await
        .map_err(|e| e.to_string())
}

async fn proxied(api: &str, proxy: &str, doc: &str, base: &str) -> Result<Client, String> {
    let mut command = tokio::process::Command::new(proxy);
    command.args(["--openapi", doc, "--base-url", base, "stdio"]);
    for (scheme, credential) in credentials(api) {
        if let Credential::Secret(s) = credential {
            command.env(format!("MCP_OPENAPI_{}", scheme.to_ascii_uppercase()), s);
        }
    }
    Client::builder()
        .connect_stdio(command)
        .await
        .map_err(|e| e.to_string())
}

#[tokio::main]
async fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let [api, proxy, doc, base] = argv.as_slice() else {
        eprintln!("usage: openapi_check (fastapi|petstore) MCP-PROXY DOC BASE_URL");
        return ExitCode::from(2);
    };
    let mut tally = Tally::default();
    for (label, client) in [
        ("in process", in_process(api, doc, base, true).await),
        ("mcp-proxy stdio", proxied(api, proxy, doc, base).await),
    ] {
        let client = match client {
            Ok(c) => c,
            Err(e) => {
                tally.check(
                    &format!("[{label}] connects"),
                    &Value::String(e),
                    &Value::Null,
                );
                continue;
            }
        };
        match api.as_str() {
            "fastapi" => checks::fastapi(&mut tally, label, &client).await,
            _ => checks::petstore(&mut tally, label, &client).await,
        }
    }
    match in_process(api, doc, base, false).await {
        Ok(client) if api == "fastapi" => checks::fastapi_unauthorized(&mut tally, &client).await,
        Ok(client) => checks::petstore_unauthorized(&mut tally, &client).await,
        Err(e) => tally.check("[no credentials] connects", &Value::String(e), &Value::Null),
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
