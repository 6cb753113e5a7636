//! The gateway configuration file's model (`mcp-proxy --config FILE`): the servers to mount and
//! the transforms of their items, read with serde from TOML or JSON (the same members either
//! way; docs/client.md describes the format). Unknown members are refused, naming them.
//!
//! ```
//! use mcp_runtime::transform::config::GatewayConfig;
//!
//! let config = GatewayConfig::from_json(r#"{
//!     "tool": [{"name": "suggest", "rename": "ideas", "args": {"budget": {"default": 20}}}],
//!     "mount": [{"prefix": "fs", "command": ["fs-server", "--root", "/srv"],
//!                "tool": [{"name": "delete", "hide": true}]}]
//! }"#).unwrap();
//! assert_eq!(config.transforms().unwrap().len(), 1);
//! assert_eq!(config.mounts[0].command, ["fs-server", "--root", "/srv"]);
//! assert_eq!(config.mounts[0].transforms().unwrap().len(), 1);
//! ```

use std::collections::BTreeMap;

use mcp_core::{Prompt, Tool, ToolAnnotations};
use serde::Deserialize;
use serde_json::Value;

use super::{
    ArgTransform, PromptTool, PromptTransform, ResourceTool, ResourceTransform, ToolTransform,
    Transforms,
};

/// A gateway configuration file: transforms of the server given on the command line (the
/// top-level `tool`, `prompt`, `resource`, `resource_tool`, `prompt_tool` lists) and more
/// servers to mount (`mount`).
///
/// ```
/// let c = mcp_runtime::transform::config::GatewayConfig::from_json("{}").unwrap();
/// assert!(c.mounts.is_empty());
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct GatewayConfig {
    /// Tool transforms.
    #[serde(default)]
    pub tool: Vec<ToolConfig>,
    /// Prompt transforms.
    #[serde(default)]
    pub prompt: Vec<PromptConfig>,
    /// Resource transforms.
    #[serde(default)]
    pub resource: Vec<ResourceConfig>,
    /// Resources exposed as tools.
    #[serde(default)]
    pub resource_tool: Vec<ResourceToolConfig>,
    /// Prompts exposed as tools.
    #[serde(default)]
    pub prompt_tool: Vec<PromptToolConfig>,
    /// More servers to mount.
    #[serde(default, rename = "mount")]
    pub mounts: Vec<MountConfig>,
}

/// One server to mount: spawned and spoken to over stdio.
///
/// ```
/// let c = mcp_runtime::transform::config::GatewayConfig::from_json(
///     r#"{"mount": [{"prefix": "a", "command": ["srv"]}]}"#).unwrap();
/// assert_eq!(c.mounts[0].prefix, "a");
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MountConfig {
    /// The mount's prefix (empty: names as they are).
    #[serde(default)]
    pub prefix: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Tool transforms.
    #[serde(default)]
    pub tool: Vec<ToolConfig>,
    /// Prompt transforms.
    #[serde(default)]
    pub prompt: Vec<PromptConfig>,
    /// Resource transforms.
    #[serde(default)]
    pub resource: Vec<ResourceConfig>,
    /// Resources exposed as tools.
    #[serde(default)]
    pub resource_tool: Vec<ResourceToolConfig>,
    /// Prompts exposed as tools.
    #[serde(default)]
    pub prompt_tool: Vec<PromptToolConfig>,
}

/// A [`ToolTransform`] in the file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ToolConfig {
    /// The tool's name on its server.
    pub name: String,
    /// Its new name.
    pub rename: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// Hidden.
    #[serde(default)]
    pub hide: bool,
    /// Its tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Annotations over its own (`readOnlyHint`, `destructiveHint`, …).
    pub annotations: Option<ToolAnnotations>,
    /// Its arguments, by their names on the server.
    #[serde(default)]
    pub args: BTreeMap<String, ArgConfig>,
}

/// A [`PromptTransform`] in the file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PromptConfig {
    /// The prompt's name on its server.
    pub name: String,
    /// Its new name.
    pub rename: Option<String>,
    /// Its title.
    pub title: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// Hidden.
    #[serde(default)]
    pub hide: bool,
    /// Its tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Its arguments, by their names on the server.
    #[serde(default)]
    pub args: BTreeMap<String, ArgConfig>,
}

/// An [`ArgTransform`] in the file: at most one of `default` and `fixed`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ArgConfig {
    /// Its new name.
    pub rename: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// Its default.
    pub default: Option<Value>,
    /// Its fixed value.
    pub fixed: Option<Value>,
}

/// A [`ResourceTransform`] in the file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ResourceConfig {
    /// The resource's URI (or template) on its server.
    pub uri: String,
    /// Its title.
    pub title: Option<String>,
    /// Its description.
    pub description: Option<String>,
    /// Hidden.
    #[serde(default)]
    pub hide: bool,
    /// Its tags.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// A [`ResourceTool`] in the file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ResourceToolConfig {
    /// The tool's name.
    pub tool: String,
    /// The resource's URI on its server.
    pub uri: String,
    /// The tool's description.
    pub description: Option<String>,
    /// Its tags.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// A [`PromptTool`] in the file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PromptToolConfig {
    /// The tool's name.
    pub tool: String,
    /// The prompt's name on its server.
    pub prompt: String,
    /// The tool's description.
    pub description: Option<String>,
    /// Its tags.
    #[serde(default)]
    pub tags: Vec<String>,
}

impl GatewayConfig {
    /// The configuration in a JSON text; `Err` with serde's message (the member and the line).
    ///
    /// ```
    /// use mcp_runtime::transform::config::GatewayConfig;
    /// let err = GatewayConfig::from_json(r#"{"tools": []}"#).unwrap_err();
    /// assert!(err.starts_with("unknown field `tools`"), "{err}");
    /// ```
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The transforms of the server given on the command line.
    ///
    /// ```
    /// let c = mcp_runtime::transform::config::GatewayConfig::from_json(
    ///     r#"{"tool": [{"name": "a", "args": {"x": {"default": 1, "fixed": 2}}}]}"#).unwrap();
    /// assert_eq!(c.transforms().unwrap_err(), "tool `a`, argument `x`: give `default` or `fixed`, not both");
    /// ```
    pub fn transforms(&self) -> Result<Transforms, String> {
        transforms(
            &self.tool,
            &self.prompt,
            &self.resource,
            &self.resource_tool,
            &self.prompt_tool,
        )
    }
}

impl MountConfig {
    /// The transforms of this mount's items.
    ///
    /// ```
    /// let c = mcp_runtime::transform::config::GatewayConfig::from_json(
    ///     r#"{"mount": [{"command": ["s"], "prompt": [{"name": "p", "hide": true}]}]}"#).unwrap();
    /// assert_eq!(c.mounts[0].transforms().unwrap().len(), 1);
    /// ```
    pub fn transforms(&self) -> Result<Transforms, String> {
        transforms(
            &self.tool,
            &self.prompt,
            &self.resource,
            &self.resource_tool,
            &self.prompt_tool,
        )
    }
}

fn arg(kind: &str, item: &str, name: &str, a: &ArgConfig) -> Result<ArgTransform, String> {
    let mut t = match (&a.default, &a.fixed) {
        (Some(_), Some(_)) => {
            return Err(format!(
                "{kind} `{item}`, argument `{name}`: give `default` or `fixed`, not both"
            ));
        }
        (None, Some(v)) => ArgTransform::fixed(v.clone()),
        (Some(v), None) => ArgTransform::new().default(v.clone()),
        (None, None) => ArgTransform::new(),
    };
    t.rename.clone_from(&a.rename);
    t.description.clone_from(&a.description);
    Ok(t)
}

fn transforms(
    tools: &[ToolConfig],
    prompts: &[PromptConfig],
    resources: &[ResourceConfig],
    resource_tools: &[ResourceToolConfig],
    prompt_tools: &[PromptToolConfig],
) -> Result<Transforms, String> {
    let mut out = Transforms::new();
    for c in tools {
        if out.tool(&c.name).is_some() {
            return Err(format!("tool `{}` is given twice", c.name));
        }
        let mut t = ToolTransform::new(&c.name).tags(c.tags.iter().cloned());
        t.rename.clone_from(&c.rename);
        t.title.clone_from(&c.title);
        t.description.clone_from(&c.description);
        t.annotations.clone_from(&c.annotations);
        t.hidden = c.hide;
        for (name, a) in &c.args {
            t.args.push((name.clone(), arg("tool", &c.name, name, a)?));
        }
        out.tools.push(t);
    }
    for c in prompts {
        if out.prompt(&c.name).is_some() {
            return Err(format!("prompt `{}` is given twice", c.name));
        }
        let mut t = PromptTransform::new(&c.name).tags(c.tags.iter().cloned());
        t.rename.clone_from(&c.rename);
        t.title.clone_from(&c.title);
        t.description.clone_from(&c.description);
        t.hidden = c.hide;
        for (name, a) in &c.args {
            t.args
                .push((name.clone(), arg("prompt", &c.name, name, a)?));
        }
        out.prompts.push(t);
    }
    for c in resources {
        let mut t = ResourceTransform::new(&c.uri).tags(c.tags.iter().cloned());
        t.title.clone_from(&c.title);
        t.description.clone_from(&c.description);
        t.hidden = c.hide;
        out.resources.push(t);
    }
    for c in resource_tools {
        let mut t = ResourceTool::new(&c.tool, &c.uri).tags(c.tags.iter().cloned());
        t.description.clone_from(&c.description);
        out.resource_tools.push(t);
    }
    for c in prompt_tools {
        let mut t = PromptTool::new(&c.tool, &c.prompt).tags(c.tags.iter().cloned());
        t.description.clone_from(&c.description);
        out.prompt_tools.push(t);
    }
    Ok(out)
}

impl Transforms {
    /// What does not fit in these transforms, given the items of the server they apply to: a
    /// transform naming an item the server does not have, or not fitting it (an argument it does
    /// not have, a fixed value of the wrong type). One line each; none when everything fits.
    ///
    /// ```
    /// use mcp_runtime::protocol::Tool;
    /// use mcp_runtime::serde_json::json;
    /// use mcp_runtime::transform::{ArgTransform, ToolTransform, Transforms};
    ///
    /// let tools = [Tool::new("echo", json!({"type": "object", "properties": {"text": {"type": "string"}}}))];
    /// let t = Transforms::new()
    ///     .with(ToolTransform::new("echo").arg("txt", ArgTransform::rename("t")))
    ///     .with(ToolTransform::new("ping").hide());
    /// assert_eq!(t.problems(&tools, &[], &[]), [
    ///     "tool `echo`: it has no argument `txt`",
    ///     "tool `ping`: the server has no such tool",
    /// ]);
    /// ```
    pub fn problems(&self, tools: &[Tool], prompts: &[Prompt], uris: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for t in &self.tools {
            match tools.iter().find(|d| d.name == t.name) {
                None => out.push(format!("tool `{}`: the server has no such tool", t.name)),
                Some(d) => {
                    if let Err(e) = super::apply::tool(d.clone(), Some(t)) {
                        out.push(format!("tool `{}`: {e}", t.name));
                    }
                }
            }
        }
        for t in &self.prompts {
            match prompts.iter().find(|d| d.name == t.name) {
                None => out.push(format!(
                    "prompt `{}`: the server has no such prompt",
                    t.name
                )),
                Some(d) => {
                    if let Err(e) = super::apply::prompt(d.clone(), Some(t)) {
                        out.push(format!("prompt `{}`: {e}", t.name));
                    }
                }
            }
        }
        let resources = self.resources.iter().map(|r| &r.uri);
        for uri in resources.chain(self.resource_tools.iter().map(|r| &r.uri)) {
            if !uris.contains(&uri.as_str()) {
                out.push(format!("resource `{uri}`: the server has no such resource"));
            }
        }
        for t in &self.prompt_tools {
            if !prompts.iter().any(|p| p.name == t.prompt) {
                out.push(format!(
                    "prompt `{}`: the server has no such prompt",
                    t.prompt
                ));
            }
        }
        out
    }
}
