//! Which operations become tools, and under which names.

use std::collections::BTreeMap;

use serde_json::Value;

/// What [`Api::from_text`](crate::Api::from_text) keeps and how it names it. An operation is
/// kept when it passes every include list that is not empty and no exclude list. A path
/// pattern is a path as the document writes it (`/pets/{petId}`), or a prefix ending in `*`
/// (`/store/*`); methods are matched without case.
///
/// ```
/// use mcp_runtime_openapi::{Api, Options};
///
/// let doc = r#"{"openapi": "3.1.0", "paths": {
///   "/pets": {"get": {"operationId": "listPets", "tags": ["pets"]}, "post": {"operationId": "createPet", "tags": ["pets"]}},
///   "/store/inventory": {"get": {"operationId": "getInventory", "tags": ["store"]}}}}"#;
/// let options = Options::new().include_tag("pets").exclude_method("post").rename("listPets", "pets_list");
/// let names: Vec<String> = Api::from_text(doc, &options).unwrap().tools.into_iter().map(|t| t.name).collect();
/// assert_eq!(names, ["pets_list"]);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Options {
    pub(crate) include_tags: Vec<String>,
    pub(crate) exclude_tags: Vec<String>,
    pub(crate) include_paths: Vec<String>,
    pub(crate) exclude_paths: Vec<String>,
    pub(crate) include_methods: Vec<String>,
    pub(crate) exclude_methods: Vec<String>,
    pub(crate) names: BTreeMap<String, String>,
    pub(crate) strict: bool,
}

macro_rules! setter {
    ($(#[$doc:meta])* $name:ident, $field:ident) => {
        $(#[$doc])*
        pub fn $name(mut self, value: impl Into<String>) -> Self {
            self.$field.push(value.into());
            self
        }
    };
}

impl Options {
    /// Every operation, named by its `operationId` (else method and path).
    ///
    /// ```
    /// let options = mcp_runtime_openapi::Options::new();
    /// # let _ = options;
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    setter!(
        /// Keeps only operations with this tag (any of the tags given).
        ///
        /// ```
        /// let o = mcp_runtime_openapi::Options::new().include_tag("pets");
        /// # let _ = o;
        /// ```
        include_tag, include_tags);
    setter!(
        /// Leaves out operations with this tag.
        ///
        /// ```
        /// let o = mcp_runtime_openapi::Options::new().exclude_tag("admin");
        /// # let _ = o;
        /// ```
        exclude_tag, exclude_tags);
    setter!(
        /// Keeps only operations on this path (or under this prefix, ending in `*`).
        ///
        /// ```
        /// let o = mcp_runtime_openapi::Options::new().include_path("/pets*");
        /// # let _ = o;
        /// ```
        include_path, include_paths);
    setter!(
        /// Leaves out operations on this path (or under this prefix, ending in `*`).
        ///
        /// ```
        /// let o = mcp_runtime_openapi::Options::new().exclude_path("/admin/*");
        /// # let _ = o;
        /// ```
        exclude_path, exclude_paths);
    setter!(
        /// Keeps only operations of this HTTP method.
        ///
        /// ```
        /// let o = mcp_runtime_openapi::Options::new().include_method("GET");
        /// # let _ = o;
        /// ```
        include_method, include_methods);
    setter!(
        /// Leaves out operations of this HTTP method.
        ///
        /// ```
        /// let o = mcp_runtime_openapi::Options::new().exclude_method("delete");
        /// # let _ = o;
        /// ```
        exclude_method, exclude_methods);

    /// Names the tool of the operation whose `operationId` (or generated name) is `from`
    /// `to` (used as given).
    ///
    /// ```
    /// let o = mcp_runtime_openapi::Options::new().rename("showPetById", "get_pet");
    /// # let _ = o;
    /// ```
    pub fn rename(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.names.insert(from.into(), to.into());
        self
    }

    /// Fails on the first operation that cannot be mapped, instead of leaving it out (and
    /// listing it in [`Api::skipped`](crate::Api::skipped)).
    ///
    /// ```
    /// let o = mcp_runtime_openapi::Options::new().strict(true);
    /// # let _ = o;
    /// ```
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Whether the operation `op` (`method` on `path`) passes the filters.
    pub(crate) fn keeps(&self, op: &Value, method: &str, path: &str) -> bool {
        let tags: Vec<&str> = match op.get("tags") {
            Some(Value::Array(t)) => t.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let tagged = |list: &[String]| list.iter().any(|t| tags.contains(&t.as_str()));
        let pathed = |list: &[String]| {
            list.iter().any(|p| match p.strip_suffix('*') {
                Some(prefix) => path.starts_with(prefix),
                None => p == path,
            })
        };
        let method_in = |list: &[String]| list.iter().any(|m| m.eq_ignore_ascii_case(method));
        (self.include_tags.is_empty() || tagged(&self.include_tags))
            && (self.include_paths.is_empty() || pathed(&self.include_paths))
            && (self.include_methods.is_empty() || method_in(&self.include_methods))
            && !tagged(&self.exclude_tags)
            && !pathed(&self.exclude_paths)
            && !method_in(&self.exclude_methods)
    }
}
