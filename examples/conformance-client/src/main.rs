//! The client side of the official MCP conformance suite, built on `mcp_runtime::client`.
//!
//! The suite's contract: the server URL is the last argument, the scenario is named by
//! `MCP_CONFORMANCE_SCENARIO`, its data (if any) is the JSON of `MCP_CONFORMANCE_CONTEXT`, and
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` is the revision to speak. Each scenario does what a host
//! would do against the scenario's server (connect, list, call, answer questions); the suite
//! judges the wire. Exit status 0 when the scenario's steps succeeded, 1 otherwise.
//!
//! ```text
//! MCP_CONFORMANCE_SCENARIO=tools_call conformance-client http://localhost:3000/mcp
//! ```

use mcp_runtime::client::oauth::{Algorithm, FollowRedirect, OAuth};
use mcp_runtime::client::{BoxFuture, Client, ClientError, ClientHandler};
use mcp_runtime::protocol::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitAction,
    ElicitRequestParams, ElicitResult, ErrorObject, Implementation, ProtocolVersion, Tool,
};
use serde_json::{Value, json};

/// Answers every question the way a cooperative user would: elicitations are accepted (the
/// client fills in the schema's defaults), sampling answers a fixed text.
struct Cooperative;

impl ClientHandler for Cooperative {
    fn elicit(
        &self,
        request: ElicitRequestParams,
    ) -> BoxFuture<'_, Result<ElicitResult, ErrorObject>> {
        eprintln!("conformance-client: elicitation: {}", request.message);
        Box::pin(async {
            Ok(ElicitResult::new(ElicitAction::Accept).with_content(serde_json::Map::new()))
        })
    }

    fn create_message(
        &self,
        _request: CreateMessageRequestParams,
    ) -> BoxFuture<'_, Result<CreateMessageResult, ErrorObject>> {
        Box::pin(async {
            serde_json::from_value(json!({
                "role": "assistant",
                "content": {"type": "text", "text": "conformance"},
                "model": "conformance-client"
            }))
            .map_err(|e| ErrorObject::internal(e.to_string()))
        })
    }
}

const USAGE: &str = "usage: conformance-client SERVER_URL (scenario in MCP_CONFORMANCE_SCENARIO)";

/// What `--help` prints.
const HELP: &str = "\
usage: conformance-client SERVER_URL

The client side of the official MCP conformance suite: runs the scenario the suite names
against SERVER_URL (the last argument) and exits 0 when its steps succeeded, 1 otherwise.

environment:
  MCP_CONFORMANCE_SCENARIO          the scenario to run (e.g. tools_call)
  MCP_CONFORMANCE_CONTEXT           the scenario's data, as JSON
  MCP_CONFORMANCE_PROTOCOL_VERSION  the revision to speak
";

#[tokio::main]
async fn main() {
    if matches!(std::env::args().nth(1).as_deref(), Some("-h" | "--help")) {
        print!("{HELP}");
        return;
    }
    let Some(url) = std::env::args().skip(1).next_back() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
        .ok()
        .and_then(|v| ProtocolVersion::parse(&v));
    eprintln!("conformance-client: scenario {scenario:?} at {url} ({version:?})");
    match run(&scenario, &url, version, &context).await {
        Ok(()) => eprintln!("conformance-client: done"),
        Err(e) => {
            eprintln!("conformance-client: {e}");
            std::process::exit(1);
        }
    }
}

/// The OAuth client of an `auth/` scenario: the suite's authorization servers approve at once
/// ([`FollowRedirect`]); credentials come from the scenario's context when it has some.
fn oauth(scenario: &str, context: &Value) -> OAuth {
    let text = |key: &str| context.get(key).and_then(Value::as_str);
    let mut builder = OAuth::builder()
        .client_name("mcp-runtime-conformance-client")
        .redirect_uri("http://localhost:3000/callback")
        .redirect_handler(FollowRedirect::new())
        .client_metadata_url(CLIENT_METADATA_URL);
    if let Some(id) = text("client_id") {
        builder = builder.preregistered(id, text("client_secret"));
    }
    if let Some(issuer) = text("issuer") {
        builder = builder.preregistered_issuer(issuer);
    }
    if let Some(pem) = text("private_key_pem") {
        builder = builder.private_key_jwt(pem, Algorithm::ES256);
    }
    if let Some(jwt) = text("valid_jwt") {
        builder = builder.jwt_bearer(jwt);
    }
    if let (Some(endpoint), Some(id_token)) = (text("idp_token_endpoint"), text("idp_id_token")) {
        builder = builder.enterprise(endpoint, id_token, text("idp_client_id"));
    }
    if scenario.starts_with("auth/client-credentials") {
        builder = builder.client_credentials();
    }
    builder.build()
}

/// The client ID metadata document URL the suite expects (`auth/basic-cimd`).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

async fn connect(
    url: &str,
    version: Option<ProtocolVersion>,
    oauth: Option<OAuth>,
) -> Result<Client, ClientError> {
    let capabilities: ClientCapabilities = serde_json::from_value(json!({
        "roots": {"listChanged": false},
        "sampling": {},
        "elicitation": {"form": {}},
        "extensions": {"io.modelcontextprotocol/skills": {}}
    }))
    .expect("the capabilities are valid");
    let mut builder = Client::builder()
        .info(Implementation::new(
            "mcp-runtime-conformance-client",
            env!("CARGO_PKG_VERSION"),
        ))
        .capabilities(capabilities)
        .handler(Cooperative);
    if let Some(oauth) = oauth {
        builder = builder.oauth(oauth);
    }
    if let Some(v) = version {
        builder = builder.protocol_version(v);
    }
    builder.connect_http(url).await
}

async fn run(
    scenario: &str,
    url: &str,
    version: Option<ProtocolVersion>,
    context: &Value,
) -> Result<(), ClientError> {
    let auth = scenario
        .starts_with("auth/")
        .then(|| oauth(scenario, context));
    let client = connect(url, version, auth).await?;
    let outcome = steps(&client, scenario, context).await;
    client.close().await;
    outcome
}

async fn steps(client: &Client, scenario: &str, context: &Value) -> Result<(), ClientError> {
    let tools = client.list_tools().await?;
    let named = |name: &str| tools.iter().find(|t| t.name == name);
    match scenario {
        "tools_call" => {
            let r = client
                .call_tool("add_numbers", json!({"a": 5, "b": 3}))
                .await?;
            eprintln!(
                "conformance-client: {:?}",
                r.content.first().and_then(|c| c.as_text())
            );
        }
        "elicitation-sep1034-client-defaults" => {
            client
                .call_tool("test_client_elicitation_defaults", json!({}))
                .await?;
        }
        "sse-retry" => {
            client.call_tool("test_reconnection", json!({})).await?;
        }
        "sep-2322-client-request-state" => {
            for name in [
                "test_mrtr_echo_state",
                "test_mrtr_unrelated",
                "test_mrtr_no_state",
                "test_mrtr_no_result_type",
            ] {
                let r = client.call_tool(name, json!({})).await?;
                eprintln!(
                    "conformance-client: {name}: {:?}",
                    r.content.first().and_then(|c| c.as_text())
                );
            }
        }
        "http-standard-headers" => {
            for tool in &tools {
                client.call_tool(&tool.name, json!({})).await?;
            }
            for resource in client.list_resources().await? {
                client.read_resource(&resource.uri).await?;
            }
            for prompt in client.list_prompts().await? {
                client.get_prompt(&prompt.name, json!({})).await?;
            }
        }
        "http-custom-headers" => {
            let calls = context
                .get("toolCalls")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for call in calls {
                let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
                let args = call.get("arguments").cloned().unwrap_or(json!({}));
                client.call_tool(name, args).await?;
            }
        }
        "http-invalid-tool-headers" => {
            // Only the tools that survived the x-mcp-header checks are listed.
            for tool in &tools {
                client.call_tool(&tool.name, sample_arguments(tool)).await?;
            }
        }
        "json-schema-2020-12-preservation" => {
            let focal = named("json_schema_2020_12_tool").ok_or(ClientError::Unsupported(
                "the tool json_schema_2020_12_tool",
            ))?;
            let schema = focal.input_schema.clone();
            client
                .call_tool("json_schema_echo", json!({"schema": schema}))
                .await?;
        }
        "sep-2640-client-no-prefetch" => {
            // Listing is all a host does before a skill is needed: no file is fetched.
            let skills = client.list_skills().await?;
            eprintln!("conformance-client: {} skill(s) listed", skills.len());
        }
        s if s.starts_with("sep-2640-client-verify-") => {
            for entry in client.list_skills().await? {
                match client.load_skill(&entry).await {
                    Ok(skill) => {
                        for file in entry
                            .resources
                            .files()
                            .iter()
                            .filter(|f| f.uri != entry.uri)
                        {
                            client.read_skill_file(&skill, &file.uri).await?;
                        }
                    }
                    Err(e) => eprintln!("conformance-client: skill {} rejected: {e}", entry.uri),
                }
            }
        }
        s if s.starts_with("auth/") => {
            // Calling a tool is what asks for more scope in the step-up scenarios.
            if let Some(tool) = tools.first() {
                client.call_tool(&tool.name, json!({})).await?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Arguments that satisfy a tool's required string, integer and boolean properties.
fn sample_arguments(tool: &Tool) -> Value {
    let mut args = serde_json::Map::new();
    let props = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object);
    let required = tool.input_schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let ty = props
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str);
        let value = match ty {
            Some("integer" | "number") => json!(1),
            Some("boolean") => json!(true),
            _ => json!("us-west1"),
        };
        args.insert(name.to_owned(), value);
    }
    Value::Object(args)
}
