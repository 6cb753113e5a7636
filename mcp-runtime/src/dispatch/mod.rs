//! The protocol: routes parsed from method names, the scope (era, revision, client) of each
//! request, typed replies, and one module per method family.

pub(crate) mod call;
#[cfg(feature = "http")]
pub(crate) mod headers;
pub(crate) mod link;
pub(crate) mod meta_memo;
pub(crate) mod methods;
pub(crate) mod params;
pub(crate) mod reply;
pub(crate) mod route;
pub(crate) mod scope;
