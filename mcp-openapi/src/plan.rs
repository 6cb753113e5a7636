//! How one operation's HTTP request is built from a tool call's arguments.

use base64::Engine as _;
use serde_json::{Map, Value};

use crate::encode;
use crate::error::BuildError;
use crate::security::{ApiKeyIn, Credential, Requirement, Scheme};

/// Where a parameter goes.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, Location};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// assert_eq!(plan.params[0].location, Location::Path);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// A `{name}` of the path template.
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// The `Cookie` header.
    Cookie,
}

/// A parameter's `style` (OpenAPI 3: `simple`, `label`, `matrix` in paths; `form`,
/// `spaceDelimited`, `pipeDelimited`, `deepObject` in queries).
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, Style};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// assert_eq!((plan.params[0].style, plan.params[1].style), (Style::Simple, Style::PipeDelimited));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Style {
    /// `simple`: `1,2,3`.
    Simple,
    /// `label`: `.1.2.3`.
    Label,
    /// `matrix`: `;id=1,2,3`.
    Matrix,
    /// `form`: `id=1&id=2` (exploded) or `id=1,2`.
    Form,
    /// `spaceDelimited`: `id=1%202`.
    SpaceDelimited,
    /// `pipeDelimited`: `id=1%7C2`.
    PipeDelimited,
    /// `deepObject`: `id[a]=1&id[b]=2`.
    DeepObject,
}

/// One parameter of an operation: the tool argument it comes from and how it is sent.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, Param};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// let p: &Param = &plan.params[1];
/// assert_eq!((p.argument.as_str(), p.explode, p.required), ("ids", false, false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Param {
    /// The tool argument's name (the parameter's name, unless two locations share it).
    pub argument: String,
    /// The parameter's name on the wire.
    pub name: String,
    /// `in`.
    pub location: Location,
    /// `style` (the location's default when the document gives none).
    pub style: Style,
    /// `explode` (true for `form`, else false, when the document gives none).
    pub explode: bool,
    /// Whether the call must give it.
    pub required: bool,
}

/// How the request body is encoded.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, Media};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// assert_eq!(plan.body.as_ref().unwrap().media, Media::Json);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Media {
    /// `application/json` (or a `+json` type): the body is JSON text.
    Json,
    /// `application/x-www-form-urlencoded`: the object's members as form fields.
    Form,
}

/// Which arguments make the body.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, BodyArgs};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// assert_eq!(plan.body.as_ref().unwrap().arguments, BodyArgs::Whole("body".into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyArgs {
    /// One argument is the whole body.
    Whole(String),
    /// The body object's properties are arguments of their own (those given are sent).
    Members(Vec<String>),
}

/// The request body of an operation.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, Body};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// let body: &Body = plan.body.as_ref().unwrap();
/// assert_eq!((body.content_type.as_str(), body.required), ("application/json", false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Body {
    /// How it is encoded.
    pub media: Media,
    /// The `Content-Type` sent.
    pub content_type: String,
    /// Which arguments it is made of.
    pub arguments: BodyArgs,
    /// Whether the operation requires a body.
    pub required: bool,
}

/// Everything needed to turn a call's arguments into the operation's HTTP request.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, RequestPlan};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// let p: &RequestPlan = plan;
/// assert_eq!((p.method.as_str(), p.path.as_str(), p.wrap_output), ("POST", "/p/{id}", false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequestPlan {
    /// The HTTP method, upper case.
    pub method: String,
    /// The path template as the document writes it (`/pets/{petId}`).
    pub path: String,
    /// The parameters, in the document's order.
    pub params: Vec<Param>,
    /// The request body, if the operation takes one.
    pub body: Option<Body>,
    /// The security alternatives, in order (empty: none asked; an empty alternative: optional).
    pub security: Vec<Requirement>,
    /// Whether the success response is not an object, so `structuredContent` is
    /// `{"result": ...}`.
    pub wrap_output: bool,
}

/// An HTTP request ready to send.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options, HttpRequest};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {"/p/{id}": {"post": {"parameters": [
///   {"name": "id", "in": "path", "required": true}, {"name": "ids", "in": "query", "style": "pipeDelimited"}],
///   "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}}}}}"#;
/// let plan = &Api::from_text(doc, &Options::new()).unwrap().tools[0].plan;
/// let r: HttpRequest = plan.build(&serde_json::json!({"id": 1, "ids": [2, 3]}), "http://h", &|_| None).unwrap();
/// assert_eq!((r.url.as_str(), r.body), ("http://h/p/1?ids=2%7C3", None));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpRequest {
    /// The method, upper case.
    pub method: String,
    /// The full URL.
    pub url: String,
    /// Header names and values, in order (credentials included).
    pub headers: Vec<(String, String)>,
    /// The body's bytes (its `Content-Type` is among the headers).
    pub body: Option<Vec<u8>>,
}

impl RequestPlan {
    /// Whether the method only reads (GET, HEAD, OPTIONS): the tool's `readOnlyHint`, on both
    /// paths (run time and `#[openapi::tools]`).
    ///
    /// ```
    /// use mcp_runtime_openapi::{Api, Options};
    /// let api = Api::from_text(r#"{"openapi": "3.1.0", "paths": {"/a": {"get": {}, "put": {}}}}"#, &Options::new()).unwrap();
    /// assert_eq!((api.tools[0].plan.read_only(), api.tools[0].plan.idempotent()), (true, false));
    /// assert_eq!((api.tools[1].plan.read_only(), api.tools[1].plan.idempotent()), (false, true));
    /// ```
    pub fn read_only(&self) -> bool {
        matches!(self.method.as_str(), "GET" | "HEAD" | "OPTIONS")
    }

    /// Whether the method is idempotent and not read-only (PUT, DELETE): the tool's
    /// `idempotentHint` (see [`read_only`](Self::read_only)).
    pub fn idempotent(&self) -> bool {
        matches!(self.method.as_str(), "PUT" | "DELETE")
    }

    /// The request for `arguments` against `base_url` (its trailing `/` ignored), with the
    /// credentials of the first security alternative that `credential` has every scheme of
    /// (looked up by scheme name); none when no alternative is covered.
    ///
    /// ```
    /// use mcp_runtime_openapi::{Api, Options};
    ///
    /// let doc = r#"{"openapi": "3.1.0", "paths": {"/pets/{id}": {"get": {"operationId": "getPet",
    ///   "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
    ///                  {"name": "tags", "in": "query", "schema": {"type": "array"}}]}}}}"#;
    /// let api = Api::from_text(doc, &Options::new()).unwrap();
    /// let args = serde_json::json!({"id": "a b", "tags": ["x", "y"]});
    /// let request = api.tools[0].plan.build(&args, "http://127.0.0.1:8000/", &|_| None).unwrap();
    /// assert_eq!(request.url, "http://127.0.0.1:8000/pets/a%20b?tags=x&tags=y");
    /// ```
    pub fn build(
        &self,
        arguments: &Value,
        base_url: &str,
        credential: &dyn Fn(&str) -> Option<Credential>,
    ) -> Result<HttpRequest, BuildError> {
        let empty = Map::new();
        let args = match arguments {
            Value::Object(map) => map,
            Value::Null => &empty,
            _ => return Err(BuildError::NotObject),
        };
        let mut path = self.path.clone();
        let mut query = Vec::new();
        let mut headers = Vec::new();
        let mut cookies = Vec::new();
        for p in &self.params {
            let Some(value) = args.get(&p.argument).filter(|v| !v.is_null()) else {
                if p.required {
                    return Err(BuildError::Missing {
                        argument: p.argument.clone(),
                    });
                }
                continue;
            };
            match p.location {
                Location::Path => {
                    let text = encode::path(&p.name, value, p.style, p.explode);
                    path = path.replace(&format!("{{{}}}", p.name), &text);
                }
                Location::Query => query.extend(encode::query(&p.name, value, p.style, p.explode)),
                Location::Header => {
                    let text =
                        encode::header(value, p.explode).ok_or_else(|| BuildError::Invalid {
                            argument: p.argument.clone(),
                            reason: "a header value cannot hold control characters".into(),
                        })?;
                    headers.push((p.name.clone(), text));
                }
                Location::Cookie => cookies.push(encode::cookie(&p.name, value)),
            }
        }
        let body = match &self.body {
            Some(body) => self.body(body, args, &mut headers)?,
            None => None,
        };
        self.authorize(credential, &mut query, &mut headers, &mut cookies);
        if !cookies.is_empty() {
            headers.push(("Cookie".into(), cookies.join("; ")));
        }
        let mut url = format!("{}{path}", base_url.trim_end_matches('/'));
        if !query.is_empty() {
            url.push('?');
            url.push_str(&query.join("&"));
        }
        Ok(HttpRequest {
            method: self.method.clone(),
            url,
            headers,
            body,
        })
    }

    fn body(
        &self,
        body: &Body,
        args: &Map<String, Value>,
        headers: &mut Vec<(String, String)>,
    ) -> Result<Option<Vec<u8>>, BuildError> {
        let value = match &body.arguments {
            BodyArgs::Whole(name) => args.get(name).filter(|v| !v.is_null()).cloned(),
            BodyArgs::Members(names) => {
                let members: Map<String, Value> = names
                    .iter()
                    .filter_map(|n| args.get(n).map(|v| (n.clone(), v.clone())))
                    .collect();
                (!members.is_empty() || body.required).then_some(Value::Object(members))
            }
        };
        let Some(value) = value else {
            if body.required {
                let argument = match &body.arguments {
                    BodyArgs::Whole(name) => name.clone(),
                    BodyArgs::Members(_) => "body".into(),
                };
                return Err(BuildError::Missing { argument });
            }
            return Ok(None);
        };
        headers.push(("Content-Type".into(), body.content_type.clone()));
        let bytes = match body.media {
            Media::Json => value.to_string().into_bytes(),
            Media::Form => {
                let Value::Object(map) = &value else {
                    return Err(BuildError::Invalid {
                        argument: "body".into(),
                        reason: "a form body must be an object".into(),
                    });
                };
                let fields: Vec<String> = map
                    .iter()
                    .filter(|(_, v)| !v.is_null())
                    .flat_map(|(k, v)| encode::query(k, v, Style::Form, true))
                    .collect();
                fields.join("&").into_bytes()
            }
        };
        Ok(Some(bytes))
    }

    /// The credentials of the first covered alternative, where their schemes put them.
    fn authorize(
        &self,
        credential: &dyn Fn(&str) -> Option<Credential>,
        query: &mut Vec<String>,
        headers: &mut Vec<(String, String)>,
        cookies: &mut Vec<String>,
    ) {
        for alternative in &self.security {
            let found: Option<Vec<(&Scheme, Credential)>> = alternative
                .iter()
                .map(|(name, scheme)| credential(name).map(|c| (scheme, c)))
                .collect();
            let Some(found) = found else { continue };
            for (scheme, cred) in found {
                let secret = match &cred {
                    Credential::Secret(s) => s.clone(),
                    Credential::Basic { user, password } => format!("{user}:{password}"),
                };
                match scheme {
                    Scheme::ApiKey { location, name } => match location {
                        ApiKeyIn::Header => headers.push((name.clone(), secret)),
                        ApiKeyIn::Query => {
                            query.push(format!(
                                "{}={}",
                                encode::escape(name),
                                encode::escape(&secret)
                            ));
                        }
                        ApiKeyIn::Cookie => {
                            cookies.push(format!("{name}={}", encode::escape(&secret)))
                        }
                    },
                    Scheme::Bearer => {
                        headers.push(("Authorization".into(), format!("Bearer {secret}")))
                    }
                    Scheme::Basic => {
                        let b64 = base64::engine::general_purpose::STANDARD.encode(secret);
                        headers.push(("Authorization".into(), format!("Basic {b64}")));
                    }
                }
            }
            return;
        }
    }
}
