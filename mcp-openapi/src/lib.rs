//! OpenAPI 3.0 and 3.1 documents mapped to Model Context Protocol tools.
//!
//! [`Api::from_text`] reads a document (JSON or YAML), resolves its local `$ref`s (cycles and
//! depth bounded: `refs`), and maps each operation that the [`Options`] keep to an
//! [`OpenApiTool`]: a tool name (the `operationId`, else method and path, made of the MCP
//! tool-name characters), a description (summary and description), the input schema (path,
//! query, header and cookie parameters and the JSON or form request body), the output schema
//! (the 2xx response's JSON schema, as `{"result": ...}` when it is not an object), and a
//! [`RequestPlan`]: how a call's arguments become the HTTP request, its security alternatives
//! included. Nothing here does I/O: `mcp-runtime` (feature `openapi`) sends the requests, and
//! the same mapping is meant for a compile-time macro.
//!
//! ```
//! use mcp_runtime_openapi::{Api, Options};
//!
//! let doc = r#"
//! openapi: 3.0.3
//! info: {title: Pets, version: "1"}
//! servers: [{url: "https://pets.example/v1"}]
//! paths:
//!   /pets/{petId}:
//!     get:
//!       operationId: showPetById
//!       summary: Info for a specific pet
//!       parameters:
//!         - {name: petId, in: path, required: true, schema: {type: string}}
//!       responses:
//!         "200":
//!           description: the pet
//!           content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}
//! "#;
//! let api = Api::from_text(doc, &Options::new()).unwrap();
//! assert_eq!(api.servers, ["https://pets.example/v1"]);
//! let tool = &api.tools[0];
//! assert_eq!(tool.name, "showPetById");
//! assert_eq!(tool.description.as_deref(), Some("Info for a specific pet"));
//! assert_eq!(tool.input_schema["required"], serde_json::json!(["petId"]));
//! let request = tool.plan.build(&serde_json::json!({"petId": "7"}), &api.servers[0], &|_| None).unwrap();
//! assert_eq!((request.method.as_str(), request.url.as_str()), ("GET", "https://pets.example/v1/pets/7"));
//! ```

mod encode;
mod error;
mod filter;
mod ops;
mod plan;
mod pointer;
mod refs;
mod security;

use std::collections::BTreeMap;

use serde_json::Value;

pub use error::{BuildError, OpenApiError};
pub use filter::Options;
pub use plan::{Body, BodyArgs, HttpRequest, Location, Media, Param, RequestPlan, Style};
pub use security::{ApiKeyIn, Credential, Requirement, Scheme};

/// The longest document read, in bytes.
///
/// ```
/// assert_eq!(mcp_runtime_openapi::MAX_DOCUMENT, 16 * 1024 * 1024);
/// ```
pub const MAX_DOCUMENT: usize = 16 * 1024 * 1024;
/// The most values the schemas of one document expand to (references inlined).
///
/// ```
/// assert_eq!(mcp_runtime_openapi::MAX_NODES, 1_000_000);
/// ```
pub const MAX_NODES: usize = 1_000_000;
/// The most references nested inside one another (and chained) that are followed.
///
/// ```
/// assert_eq!(mcp_runtime_openapi::MAX_REF_DEPTH, 32);
/// ```
pub const MAX_REF_DEPTH: usize = 32;

/// A document's operations as tools.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options};
///
/// let api = Api::from_text(r#"{"openapi": "3.1.0", "info": {"title": "Empty", "version": "1"}}"#, &Options::new()).unwrap();
/// assert_eq!(api.title.as_deref(), Some("Empty"));
/// assert!(api.tools.is_empty());
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Api {
    /// `info.title`.
    pub title: Option<String>,
    /// `info.version`.
    pub version: Option<String>,
    /// The `servers` URLs, their variables given their defaults (may be relative).
    pub servers: Vec<String>,
    /// The tools, by path (sorted) then method (`get`, `put`, `post`, `delete`, `options`,
    /// `head`, `patch`, `trace`).
    pub tools: Vec<OpenApiTool>,
    /// The operations that could not be mapped (only when [`Options::strict`] is off).
    pub skipped: Vec<OpenApiError>,
}

/// One operation as a tool.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/ping": {"get": {"tags": ["health"]}}}}"#;
/// let tool = &Api::from_text(doc, &Options::new()).unwrap().tools[0];
/// assert_eq!((tool.name.as_str(), tool.tags.as_slice()), ("get_ping", &["health".to_owned()][..]));
/// assert_eq!(tool.pointer, "#/paths/~1ping/get");
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct OpenApiTool {
    /// The tool name.
    pub name: String,
    /// Summary and description.
    pub description: Option<String>,
    /// The JSON Schema of the arguments (an object schema).
    pub input_schema: Value,
    /// The JSON Schema of `structuredContent` (an object schema), when the success response
    /// has a JSON schema.
    pub output_schema: Option<Value>,
    /// The operation's tags.
    pub tags: Vec<String>,
    /// The operation's `operationId`.
    pub operation_id: Option<String>,
    /// The operation's JSON pointer in the document.
    pub pointer: String,
    /// How a call becomes the HTTP request.
    pub plan: RequestPlan,
}

impl OpenApiTool {
    /// The tool's `_meta`: its tags as FastMCP writes them (`{"_fastmcp": {"tags": [..]}}`), or
    /// `None` without tags; the same on both paths (run time and `#[openapi::tools]`).
    ///
    /// ```
    /// use mcp_runtime_openapi::{Api, Options};
    /// let doc = r#"{"openapi": "3.1.0", "paths": {"/a": {"get": {"tags": ["pets"]}, "put": {}}}}"#;
    /// let api = Api::from_text(doc, &Options::new()).unwrap();
    /// assert_eq!(api.tools[0].meta(), Some(serde_json::json!({"_fastmcp": {"tags": ["pets"]}})));
    /// assert_eq!(api.tools[1].meta(), None);
    /// ```
    pub fn meta(&self) -> Option<Value> {
        (!self.tags.is_empty()).then(|| serde_json::json!({"_fastmcp": {"tags": self.tags}}))
    }
}

/// The document's text as JSON: JSON when it starts with `{`, else YAML.
///
/// ```
/// let v = mcp_runtime_openapi::parse("openapi: 3.1.0\n").unwrap();
/// assert_eq!(v["openapi"], "3.1.0");
/// ```
pub fn parse(text: &str) -> Result<Value, OpenApiError> {
    if text.len() > MAX_DOCUMENT {
        return Err(OpenApiError::TooLarge {
            pointer: "#".into(),
            what: format!("more than {MAX_DOCUMENT} bytes"),
        });
    }
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') {
        serde_json::from_str(trimmed).map_err(|e| OpenApiError::Parse {
            format: "JSON",
            message: e.to_string(),
        })
    } else {
        serde_norway::from_str(trimmed).map_err(|e| OpenApiError::Parse {
            format: "YAML",
            message: e.to_string(),
        })
    }
}

impl Api {
    /// Reads and maps a document's text (JSON or YAML).
    ///
    /// ```
    /// use mcp_runtime_openapi::{Api, Options};
    /// assert!(Api::from_text("openapi: [", &Options::new()).is_err());
    /// ```
    pub fn from_text(text: &str, options: &Options) -> Result<Self, OpenApiError> {
        Self::from_value(&parse(text)?, options)
    }

    /// Maps a document already read as JSON.
    ///
    /// ```
    /// use mcp_runtime_openapi::{Api, Options};
    /// let doc = serde_json::json!({"openapi": "3.0.0", "paths": {"/a": {"post": {}}}});
    /// assert_eq!(Api::from_value(&doc, &Options::new()).unwrap().tools[0].name, "post_a");
    /// ```
    pub fn from_value(doc: &Value, options: &Options) -> Result<Self, OpenApiError> {
        let version = doc
            .get("openapi")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let v30 = version.starts_with("3.0");
        if !v30 && !version.starts_with("3.1") {
            let found = match doc.get("swagger").and_then(Value::as_str) {
                // Swagger 2.0 names its version under `swagger`.
                Some(swagger) if version.is_empty() => format!("swagger {swagger}"),
                _ => version.to_owned(),
            };
            return Err(OpenApiError::Version { found });
        }
        let info = |k: &str| {
            doc.pointer(&format!("/info/{k}"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let mut api = Api {
            title: info("title"),
            version: info("version"),
            servers: servers(doc),
            tools: Vec::new(),
            skipped: Vec::new(),
        };
        let mut resolver = refs::Resolver::new(doc, v30);
        let global_security = doc.get("security");
        let Some(Value::Object(paths)) = doc.get("paths") else {
            return Ok(api);
        };
        let mut keys: Vec<&String> = paths.keys().collect();
        keys.sort();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for path in keys {
            let item_at = pointer::join("#/paths", path);
            let (item, item_at) = resolver.object(&paths[path.as_str()], &item_at)?;
            for method in ops::METHODS {
                let Some(op) = item.get(method) else { continue };
                let at = pointer::join(&item_at, method);
                if !options.keeps(op, method, path) {
                    continue;
                }
                let op = ops::Op {
                    path,
                    method,
                    item,
                    op,
                    at,
                };
                match ops::map(&mut resolver, &op, options, global_security) {
                    Ok(mut tool) => {
                        let n = seen.entry(tool.name.clone()).or_insert(0);
                        *n += 1;
                        if *n > 1 {
                            tool.name = format!("{}_{n}", tool.name);
                        }
                        api.tools.push(tool);
                    }
                    Err(e @ OpenApiError::TooLarge { .. }) => return Err(e),
                    Err(e) if options.strict => return Err(e),
                    Err(e) => api.skipped.push(e),
                }
            }
        }
        Ok(api)
    }
}

/// `servers[].url`, each `{variable}` replaced by its default.
fn servers(doc: &Value) -> Vec<String> {
    let Some(Value::Array(list)) = doc.get("servers") else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|s| {
            let mut url = s.get("url")?.as_str()?.to_owned();
            if let Some(Value::Object(vars)) = s.get("variables") {
                for (k, v) in vars {
                    if let Some(d) = v.get("default").and_then(Value::as_str) {
                        url = url.replace(&format!("{{{k}}}"), d);
                    }
                }
            }
            Some(url)
        })
        .collect()
}
