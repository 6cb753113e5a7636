//! Support for the code that `#[tool]`, `#[resource]` and `#[prompt]` generate. Not public API.

use std::str::FromStr;
use std::sync::OnceLock;

pub use ::inventory;
pub use ::schemars;
pub use ::serde;
pub use ::serde_json;
pub use mcp_core::tasks::TaskSupport;
pub use mcp_core::{CacheScope, CallToolResult, GetPromptResult, ResourceContents};
pub use serde_json::value::RawValue;

pub use crate::apps::{
    Html, IntoHtml, MIME_TYPE as APPS_MIME_TYPE, SKYBRIDGE_MIME_TYPE as APPS_SKYBRIDGE_MIME_TYPE,
    ToolUi, Visibility, Widget, contents as widget_contents,
};
pub use crate::completion::{CompletionHook, CompletionRequest};
pub use crate::data::parse_args;
pub use crate::error::HandlerError;
pub use crate::future::BoxFuture;
pub use crate::handler::context::{Context, FromContext, StateNeeds};
pub use crate::registry::ToolArgumentFns;
pub use crate::registry::{
    CacheHint, CompletionRecord, IconRecord, InputSchema, Location, PromptArgRecord,
    PromptArguments, PromptRecord, ResourceRecord, ResourceRequest, ToolHints, ToolRecord,
};
pub use crate::result::{IntoPromptResult, IntoResourceContents, IntoToolResult};
pub use crate::typed::ToolArguments;

/// A completion hook of a checked shape, ready to run or to declare its state needs.
///
/// Both uses in the generated code go through [`hook`], so a hook of no supported shape is
/// reported once.
pub struct Hook<H> {
    hook: H,
    complete: RunHook<H>,
    state_needs: fn(H, &mut StateNeeds),
}

/// How a [`Hook`] runs its hook.
type RunHook<H> =
    fn(H, Context, CompletionRequest) -> BoxFuture<'static, Result<Vec<String>, HandlerError>>;

/// Checks that `hook` is a completion hook (the one place the bound is asked).
pub fn hook<M, H: CompletionHook<M>>(hook: H) -> Hook<H> {
    Hook {
        hook,
        complete: <H as CompletionHook<M>>::complete,
        state_needs: <H as CompletionHook<M>>::state_needs,
    }
}

impl<H> Hook<H> {
    /// Runs the hook.
    pub fn complete(
        self,
        ctx: Context,
        request: CompletionRequest,
    ) -> BoxFuture<'static, Result<Vec<String>, HandlerError>> {
        (self.complete)(self.hook, ctx, request)
    }

    /// Declares the state the hook's injected parameters need.
    pub fn state_needs(self, needs: &mut StateNeeds) {
        (self.state_needs)(self.hook, needs);
    }
}

/// Numbers a `min`/`max` check applies to.
#[diagnostic::on_unimplemented(
    message = "`min` and `max` apply to numbers, and `{Self}` is not one",
    label = "not a number type",
    note = "use `min`/`max` on an integer or float parameter (or an `Option` of one); for strings, use `pattern`"
)]
pub trait AsNumber {
    /// The value, if present.
    fn as_number(&self) -> Option<f64>;
}

macro_rules! as_number {
    ($($t:ty),*) => {$(
        impl AsNumber for $t {
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn as_number(&self) -> Option<f64> { Some(*self as f64) }
        }
    )*};
}
as_number!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

impl<T: AsNumber> AsNumber for Option<T> {
    fn as_number(&self) -> Option<f64> {
        self.as_ref().and_then(AsNumber::as_number)
    }
}

/// Checks a `#[arg(min, max)]` range.
pub fn check_range<N: AsNumber>(
    value: &N,
    path: &'static str,
    min: Option<f64>,
    max: Option<f64>,
) -> Result<(), HandlerError> {
    let Some(v) = value.as_number() else {
        return Ok(());
    };
    let below = min.is_some_and(|m| v < m);
    let above = max.is_some_and(|m| v > m);
    if below || above {
        let range = match (min, max) {
            (Some(lo), Some(hi)) => format!("between {lo} and {hi}"),
            (Some(lo), None) => format!("at least {lo}"),
            (None, Some(hi)) => format!("at most {hi}"),
            (None, None) => unreachable!("a range check has a bound"),
        };
        return Err(HandlerError::InvalidArguments(format!(
            "property '{path}': must be {range}, got {v}"
        )));
    }
    Ok(())
}

/// A regular expression compiled on first use.
#[derive(Debug)]
pub struct LazyPattern {
    source: &'static str,
    compiled: OnceLock<Option<regex_lite::Regex>>,
}

impl LazyPattern {
    /// A pattern from its source.
    pub const fn new(source: &'static str) -> Self {
        Self {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// `None` when the pattern itself is not a valid regular expression (a server bug).
    fn is_match(&self, text: &str) -> Option<bool> {
        let compiled = self
            .compiled
            .get_or_init(|| regex_lite::Regex::new(self.source).ok());
        compiled.as_ref().map(|re| re.is_match(text))
    }
}

/// Strings a `pattern` check applies to.
#[diagnostic::on_unimplemented(
    message = "`pattern` applies to strings, and `{Self}` is not one",
    label = "not `String` or `Option<String>`",
    note = "use `pattern` on a `String` (or `Option<String>`) parameter; for numbers, use `min`/`max`"
)]
pub trait AsText {
    /// The text, if present.
    fn as_text(&self) -> Option<&str>;
}

impl AsText for String {
    fn as_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl AsText for Option<String> {
    fn as_text(&self) -> Option<&str> {
        self.as_deref()
    }
}

/// Checks a `#[arg(pattern)]`.
pub fn check_pattern<S: AsText>(
    value: &S,
    path: &'static str,
    pattern: &LazyPattern,
) -> Result<(), HandlerError> {
    let Some(text) = value.as_text() else {
        return Ok(());
    };
    match pattern.is_match(text) {
        Some(true) => Ok(()),
        Some(false) => Err(HandlerError::InvalidArguments(format!(
            "property '{path}': {:?} does not match the pattern {:?}",
            crate::validation::shown(text),
            pattern.source
        ))),
        None => Err(HandlerError::internal(format!(
            "the `pattern` of parameter '{path}' is not a valid regular expression: {:?}",
            pattern.source
        ))),
    }
}

/// The generated checks of one call's arguments (`#[arg(min, max, pattern)]`), run after the
/// parse: every check runs, and the call is refused with all the problems found, not the first.
#[derive(Debug, Default)]
pub struct Checks {
    first: Option<HandlerError>,
    more: bool,
}

impl Checks {
    /// No problem yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one check's outcome.
    pub fn add(&mut self, outcome: Result<(), HandlerError>) {
        if let Err(e) = outcome {
            match (&self.first, &e) {
                (None, _) => self.first = Some(e),
                // A server bug outranks the caller's mistakes.
                (Some(HandlerError::InvalidArguments(_)), HandlerError::InvalidArguments(_)) => {
                    self.more = true
                }
                (Some(HandlerError::InvalidArguments(_)), _) => self.first = Some(e),
                _ => {}
            }
        }
    }

    /// `Ok` when every check passed; else the problem, or every problem of the arguments'
    /// `text` with the running call's bounds when more than one check failed.
    pub fn finish(self, arguments: Option<&RawValue>) -> Result<(), HandlerError> {
        match self.first {
            None => Ok(()),
            Some(HandlerError::InvalidArguments(one)) if self.more => {
                let text = arguments.map_or("{}", RawValue::get);
                Err(HandlerError::InvalidArguments(
                    crate::validation::bound_problems(text).unwrap_or(one),
                ))
            }
            Some(e) => Err(e),
        }
    }
}

fn parse_str<T: FromStr>(what: &str, name: &str, raw: &str) -> Result<T, HandlerError> {
    raw.parse::<T>().map_err(|_| {
        HandlerError::InvalidArguments(format!(
            "{what} '{name}': cannot read {:?} as {}",
            crate::validation::shown(raw),
            crate::validation::friendly_type(std::any::type_name::<T>())
        ))
    })
}

/// A required URI template variable; a value of the wrong type (`abc` for a `u32`) is invalid
/// params naming the variable, not "not found".
pub fn required_var<T: FromStr>(
    req: &ResourceRequest,
    name: &'static str,
) -> Result<T, HandlerError> {
    match req.var(name) {
        Some(raw) => parse_str("variable", name, raw),
        None => Err(HandlerError::ResourceNotFound),
    }
}

/// An optional URI template variable (query parameters).
pub fn optional_var<T: FromStr>(
    req: &ResourceRequest,
    name: &'static str,
) -> Result<Option<T>, HandlerError> {
    req.var(name)
        .map(|raw| parse_str("variable", name, raw))
        .transpose()
}

/// A required prompt argument.
pub fn required_prompt_arg<T: FromStr>(
    args: &PromptArguments,
    name: &'static str,
) -> Result<T, HandlerError> {
    match args.get(name) {
        Some(raw) => parse_str("argument", name, raw),
        None => Err(HandlerError::InvalidArguments(format!(
            "missing required argument '{name}'"
        ))),
    }
}

/// An optional prompt argument.
pub fn optional_prompt_arg<T: FromStr>(
    args: &PromptArguments,
    name: &'static str,
) -> Result<Option<T>, HandlerError> {
    args.get(name)
        .map(|raw| parse_str("argument", name, raw))
        .transpose()
}

/// Prompt arguments and URI variables: parsed from a string.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be parsed from a string",
    label = "prompt arguments and URI variables arrive as strings",
    note = "use `String`, a number, or a type that implements `FromStr`"
)]
pub trait FromStrParam {}
impl<T: FromStr> FromStrParam for T {}

/// Compile-time check: an injected parameter type.
pub fn assert_from_context<T: FromContext>() {}
/// Compile-time check: a tool return type.
pub fn assert_tool_return<T: IntoToolResult>() {}
/// Compile-time check: a resource return type.
pub fn assert_resource_return<T: IntoResourceContents>() {}
/// Compile-time check: a prompt return type.
pub fn assert_prompt_return<T: IntoPromptResult>() {}
/// Compile-time check: a string-parsed parameter type.
pub fn assert_from_str<T: FromStrParam>() {}
/// Compile-time check: a handler future is `Send`.
pub fn assert_send<T: Send>(_: &T) {}

/// `serverInfo` from the calling crate's package metadata (see `server_info!`).
pub fn server_info(name: &str, version: &str, description: &str) -> mcp_core::Implementation {
    let mut info = mcp_core::Implementation::new(name, version);
    if !description.is_empty() {
        info.description = Some(description.to_owned());
    }
    info
}
