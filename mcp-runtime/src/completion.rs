//! Completion hooks for prompt arguments and resource template variables.

use std::collections::BTreeMap;

/// What a completion hook receives: the argument being completed, its partial value, and the
/// other arguments the client already filled in.
///
/// A hook is a plain `fn(&CompletionRequest) -> Vec<String>`, attached with
/// `#[arg(complete = hook)]`; the runtime trims the answer to the spec's 100 values and reports
/// `total`/`hasMore`.
///
/// ```
/// use mcp_runtime::CompletionRequest;
///
/// fn complete_tone(req: &CompletionRequest) -> Vec<String> {
///     ["warm", "formal", "funny"]
///         .into_iter()
///         .filter(|t| t.starts_with(req.value()))
///         .map(String::from)
///         .collect()
/// }
///
/// let req = CompletionRequest::new("tone", "f");
/// assert_eq!(complete_tone(&req), ["formal", "funny"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompletionRequest {
    /// The argument or variable name.
    pub argument: String,
    /// The partial value typed so far.
    pub value: String,
    /// Other arguments already given (`context.arguments`).
    pub context: BTreeMap<String, String>,
}

impl CompletionRequest {
    /// A request to complete `argument` from `value`.
    pub fn new(argument: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            argument: argument.into(),
            value: value.into(),
            context: BTreeMap::new(),
        }
    }

    /// Adds an already-given argument.
    #[must_use]
    pub fn with_context(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.context.insert(name.into(), value.into());
        self
    }

    /// The partial value.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Another argument's value, if the client sent it.
    pub fn argument(&self, name: &str) -> Option<&str> {
        self.context.get(name).map(String::as_str)
    }
}
