//! Completion hooks for prompt arguments and resource template variables.
//!
//! A hook is a plain function attached with `#[arg(complete = hook)]`. It takes the
//! [`CompletionRequest`] first and then, like a handler, any injected parameters (`Context`,
//! `State<T>`, any [`FromContext`] type); it may be `async`:
//!
//! | hook | shape |
//! |---|---|
//! | synchronous | `fn(&CompletionRequest, injected..) -> R` |
//! | asynchronous | `async fn(CompletionRequest, injected..) -> R` (the request by value) |
//!
//! where `R` is `Vec<String>` or `Result<Vec<String>, E>` with `E` any error a handler may
//! return (see [`IntoHandlerError`]). Up to six injected parameters are supported.
//!
//! ```standalone_crate
//! use mcp_runtime::prelude::*;
//! use std::sync::Mutex;
//!
//! #[derive(Default)]
//! struct Store(Mutex<Vec<u32>>);
//!
//! /// The ids of the notes in the store that start with what was typed.
//! async fn note_ids(req: CompletionRequest, store: State<Store>) -> Vec<String> {
//!     let ids = store.0.lock().unwrap();
//!     ids.iter().map(u32::to_string).filter(|id| id.starts_with(req.value())).collect()
//! }
//!
//! /// One note by id
//! #[resource(uri = "notes://note/{id}")]
//! async fn note(#[arg(complete = note_ids)] id: u32, store: State<Store>) -> Result<String, ResourceError> {
//!     let ids = store.0.lock().unwrap();
//!     ids.contains(&id).then(|| format!("note {id}")).ok_or(ResourceError::NotFound)
//! }
//!
//! let server = Server::builder(server_info!()).resource(note::RESOURCE).state(Store::default());
//! # let _ = server;
//! ```

use std::collections::BTreeMap;
use std::future::Future;

use crate::error::{HandlerError, IntoHandlerError};
use crate::future::BoxFuture;
use crate::handler::context::{Context, FromContext, StateNeeds};

/// What a completion hook receives: the argument being completed, its partial value, and the
/// other arguments the client already filled in.
///
/// A hook is a function attached with `#[arg(complete = hook)]` (see the [module
/// docs](crate::completion) for the shapes it may take); the runtime trims the answer to the
/// spec's 100 values and reports `total`/`hasMore`.
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

/// What a completion hook may return: `Vec<String>`, or `Result<Vec<String>, E>` with `E` any
/// error a handler may return.
///
/// ```
/// use mcp_runtime::completion::IntoCompletion;
/// let values = vec!["a".to_string()].into_completion().unwrap();
/// assert_eq!(values, ["a"]);
/// let failed: Result<Vec<String>, std::io::Error> = Err(std::io::Error::other("offline"));
/// assert!(failed.into_completion().is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned by a completion hook",
    label = "not a list of completions",
    note = "a completion hook returns `Vec<String>` or `Result<Vec<String>, E>`"
)]
pub trait IntoCompletion {
    /// The candidate values, or why there are none.
    fn into_completion(self) -> Result<Vec<String>, HandlerError>;
}

impl IntoCompletion for Vec<String> {
    fn into_completion(self) -> Result<Vec<String>, HandlerError> {
        Ok(self)
    }
}

impl<E: IntoHandlerError> IntoCompletion for Result<Vec<String>, E> {
    fn into_completion(self) -> Result<Vec<String>, HandlerError> {
        self.map_err(IntoHandlerError::into_handler_error)
    }
}

/// Marks the hooks that take `&CompletionRequest` and return at once.
#[derive(Debug)]
pub enum Immediate {}

/// Marks the `async` hooks, which take `CompletionRequest` by value.
#[derive(Debug)]
pub enum Awaited {}

/// A function usable as a completion hook: see the [module docs](crate::completion).
///
/// `M` tells the shapes apart (synchronous or `async`, and the injected parameter types); it is
/// always inferred.
///
/// ```
/// use mcp_runtime::completion::{CompletionHook, CompletionRequest};
/// use mcp_runtime::{State, StateNeeds};
///
/// struct Colors(Vec<&'static str>);
///
/// fn colors(req: &CompletionRequest, colors: State<Colors>) -> Vec<String> {
///     colors.0.iter().filter(|c| c.starts_with(req.value())).map(|c| c.to_string()).collect()
/// }
///
/// fn needs_of<M>(hook: impl CompletionHook<M>) -> Vec<&'static str> {
///     let mut needs = StateNeeds::new();
///     hook.state_needs(&mut needs);
///     needs.type_names().collect()
/// }
/// assert_eq!(needs_of(colors), [std::any::type_name::<Colors>()]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a completion hook",
    label = "not a completion hook",
    note = "a hook is `fn(&CompletionRequest, ..) -> Vec<String>` or `async fn(CompletionRequest, ..) -> Vec<String>` (the request by value), where `..` are injected parameters such as `State<T>` or `Context`, and the result may be a `Result<Vec<String>, E>`"
)]
pub trait CompletionHook<M>: Copy + Send + Sync + 'static {
    /// Runs the hook for `request`, extracting its injected parameters from `ctx`.
    fn complete(
        self,
        ctx: Context,
        request: CompletionRequest,
    ) -> BoxFuture<'static, Result<Vec<String>, HandlerError>>;

    /// Declares the application state its injected parameters read.
    fn state_needs(self, needs: &mut StateNeeds);
}

macro_rules! hooks {
    ($($T:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<F, R, $($T,)*> CompletionHook<(Immediate, $($T,)*)> for F
        where
            F: Fn(&CompletionRequest, $($T,)*) -> R + Copy + Send + Sync + 'static,
            R: IntoCompletion,
            $($T: FromContext + Send,)*
        {
            #[allow(non_snake_case, unused_variables)]
            fn complete(self, ctx: Context, request: CompletionRequest) -> BoxFuture<'static, Result<Vec<String>, HandlerError>> {
                Box::pin(async move {
                    $(let $T = $T::from_context(&ctx)?;)*
                    self(&request, $($T,)*).into_completion()
                })
            }

            #[allow(unused_variables)]
            fn state_needs(self, needs: &mut StateNeeds) {
                $($T::state_needs(needs);)*
            }
        }

        #[diagnostic::do_not_recommend]
        impl<F, Fut, $($T,)*> CompletionHook<(Awaited, $($T,)*)> for F
        where
            F: Fn(CompletionRequest, $($T,)*) -> Fut + Copy + Send + Sync + 'static,
            Fut: Future + Send + 'static,
            Fut::Output: IntoCompletion,
            $($T: FromContext + Send,)*
        {
            #[allow(non_snake_case, unused_variables)]
            fn complete(self, ctx: Context, request: CompletionRequest) -> BoxFuture<'static, Result<Vec<String>, HandlerError>> {
                Box::pin(async move {
                    $(let $T = $T::from_context(&ctx)?;)*
                    self(request, $($T,)*).await.into_completion()
                })
            }

            #[allow(unused_variables)]
            fn state_needs(self, needs: &mut StateNeeds) {
                $($T::state_needs(needs);)*
            }
        }
    };
}

hooks!();
hooks!(T1);
hooks!(T1, T2);
hooks!(T1, T2, T3);
hooks!(T1, T2, T3, T4);
hooks!(T1, T2, T3, T4, T5);
hooks!(T1, T2, T3, T4, T5, T6);
