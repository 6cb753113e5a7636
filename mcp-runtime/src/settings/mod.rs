//! The settings a server is built with for the layers above [`server`](crate::server): their
//! types declared here, below the server that keeps them as fields, while what they do (their
//! constructors, setters and every use) lives with the layer that reads them (`http`,
//! `http/auth`). A leaf: it names no module but the leaves `future` and `caller`.

#[cfg(feature = "auth")]
pub(crate) mod auth;
#[cfg(feature = "http")]
pub(crate) mod http;

/// What a server keeps for its HTTP endpoint (feature `http`): the builder's
/// [`HttpOptions`](crate::http::HttpOptions), whether scoped items may be served unprotected,
/// the event store a scale-out backend installed, and (feature `auth`) the authorization.
#[cfg(feature = "http")]
#[derive(Clone, Default)]
pub(crate) struct Http {
    /// `ServerBuilder::http` (the defaults otherwise).
    pub(crate) options: self::http::HttpOptions,
    /// `ServerBuilder::allow_unprotected`.
    pub(crate) unprotected: bool,
    /// The event store of a scale-out backend: used unless the options name one.
    pub(crate) events: Option<std::sync::Arc<dyn self::http::EventStore>>,
    /// `ServerBuilder::auth`, if given.
    #[cfg(feature = "auth")]
    pub(crate) auth: Option<std::sync::Arc<self::auth::Authorization>>,
}
