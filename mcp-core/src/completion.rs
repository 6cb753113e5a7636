//! Argument completion: `completion/complete`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::content::title_for;
use crate::discover::{ResultType, result_type_for};
use crate::meta::Meta;
use crate::version::{ForVersion, ProtocolVersion};

/// What is being completed: a prompt's argument or a resource template's variable.
///
/// ```
/// use mcp_runtime_core::CompletionReference;
///
/// let r: CompletionReference =
///     serde_json::from_str(r#"{"type":"ref/resource","uri":"gifts://item/{id}"}"#).unwrap();
/// assert_eq!(r, CompletionReference::Resource { uri: "gifts://item/{id}".into() });
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum CompletionReference {
    /// `ref/prompt`: an argument of the named prompt.
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// The prompt name.
        name: String,
        /// A display name (2025-06-18+).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    /// `ref/resource`: a variable of the resource template (or URI).
    #[serde(rename = "ref/resource")]
    Resource {
        /// The URI template.
        uri: String,
    },
}

impl ForVersion for CompletionReference {
    fn for_version(&mut self, v: ProtocolVersion) {
        if let Self::Prompt { title, .. } = self {
            title_for(v, title);
        }
    }
}

/// The argument being completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompletionArgument {
    /// The argument name.
    pub name: String,
    /// What the user typed so far.
    pub value: String,
}

/// Arguments already resolved (2025-06-18+).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompletionContext {
    /// Values of the other arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
}

/// The params of `completion/complete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompleteRequestParams {
    /// The prompt or resource template.
    pub r#ref: CompletionReference,
    /// The argument and its partial value.
    pub argument: CompletionArgument,
    /// Other arguments already given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
    /// Request `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The completion values.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Completion {
    /// Up to 100 values, most relevant first.
    pub values: Vec<String>,
    /// The total number of matches, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether more values exist than were returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

impl Completion {
    /// The most values a result may carry.
    pub const MAX_VALUES: usize = 100;

    /// Values, truncated to [`Completion::MAX_VALUES`] with `total` and `hasMore` set
    /// when truncation happened.
    #[must_use]
    pub fn new(mut values: Vec<String>) -> Self {
        let total = values.len();
        if total > Self::MAX_VALUES {
            values.truncate(Self::MAX_VALUES);
            Self {
                values,
                total: u64::try_from(total).ok(),
                has_more: Some(true),
            }
        } else {
            Self {
                values,
                total: None,
                has_more: None,
            }
        }
    }
}

/// The result of `completion/complete`.
///
/// ```
/// use mcp_runtime_core::CompleteResult;
///
/// let r = CompleteResult::new(vec!["red".into(), "green".into()]);
/// assert_eq!(
///     serde_json::to_string(&r).unwrap(),
///     r#"{"completion":{"values":["red","green"]}}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CompleteResult {
    /// The values.
    pub completion: Completion,
    /// `complete` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result `_meta`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl CompleteResult {
    /// A result from values (see [`Completion::new`]).
    #[must_use]
    pub fn new(values: Vec<String>) -> Self {
        Self::from_completion(Completion::new(values))
    }

    /// A result from a completion.
    #[must_use]
    pub fn from_completion(completion: Completion) -> Self {
        Self {
            completion,
            result_type: None,
            meta: None,
        }
    }

    with_options! {
        with_meta => meta: Meta,
    }
}

impl ForVersion for CompleteResult {
    fn for_version(&mut self, v: ProtocolVersion) {
        result_type_for(v, &mut self.result_type);
    }
}
