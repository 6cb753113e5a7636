//! The one boxed future of the crate (a leaf): what the seams' traits return, what the registry's
//! records store, what the runtime spawns.

/// A boxed, `Send` future borrowing for `'a`: what every trait of the runtime that returns a
/// future returns ([`TaskStore`](crate::tasks::TaskStore), `EventStore`, `TokenVerifier`,
/// [`SessionStore`](crate::scale::SessionStore), [`Bus`](crate::scale::Bus)), and, with
/// `'static`, what the records of `#[tool]`, `#[resource]` and `#[prompt]` call.
///
/// It is the same type as `futures::future::BoxFuture<'a, T>`: `Box::pin(async move { .. })`
/// makes one.
///
/// ```
/// use mcp_runtime::BoxFuture;
///
/// fn double(n: &u32) -> BoxFuture<'_, u32> {
///     Box::pin(async move { n * 2 })
/// }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// assert_eq!(double(&21).await, 42);
/// # });
/// ```
pub use mcp_io::BoxFuture;
