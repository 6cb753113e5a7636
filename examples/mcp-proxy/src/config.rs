//! The gateway configuration file (`--config FILE`): TOML, or JSON when the name ends in
//! `.json`; its members are `mcp_runtime::transform::config::GatewayConfig`'s (docs/client.md).

use mcp_runtime::client::{Client, ErrorChain};
use mcp_runtime::transform::Transforms;
use mcp_runtime::transform::config::GatewayConfig;

use crate::Failure;

/// The file at `path`, read and parsed; `Err` names the file and what is wrong in it.
pub(crate) fn read(path: &str) -> Result<GatewayConfig, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let parsed = if path.ends_with(".json") {
        GatewayConfig::from_json(&text)
    } else {
        toml::from_str::<GatewayConfig>(&text).map_err(|e| e.to_string())
    };
    let config = parsed.map_err(|e| format!("{path}: {}", e.trim_end()))?;
    // Every transform made once here, so that a bad one is told before anything starts.
    config.transforms().map_err(|e| format!("{path}: {e}"))?;
    for m in &config.mounts {
        m.transforms()
            .map_err(|e| format!("{path}: mount `{}`: {e}", m.prefix))?;
    }
    Ok(config)
}

/// What does not fit in `transforms`, given the lists of the server `client` is connected to.
pub(crate) async fn problems(
    client: &Client,
    transforms: &Transforms,
) -> Result<Vec<String>, Failure> {
    let caps = client.server_capabilities();
    let failed = |e: mcp_runtime::client::ClientError| {
        Failure::Serve(format!("could not read the lists: {}", ErrorChain(&e)))
    };
    let tools = match caps.tools {
        Some(_) => client.list_tools().await.map_err(failed)?,
        None => Vec::new(),
    };
    let prompts = match caps.prompts {
        Some(_) => client.list_prompts().await.map_err(failed)?,
        None => Vec::new(),
    };
    let mut uris = Vec::new();
    if caps.resources.is_some() {
        let resources = client.list_resources().await.map_err(failed)?;
        let templates = client.list_resource_templates().await.map_err(failed)?;
        uris.extend(resources.into_iter().map(|r| r.uri));
        uris.extend(templates.into_iter().map(|t| t.uri_template));
    }
    let uris: Vec<&str> = uris.iter().map(String::as_str).collect();
    Ok(transforms.problems(&tools, &prompts, &uris))
}
