//! Who the client is at an authorization server, and what a refresh needs.

use std::collections::HashMap;

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    None,
    Basic,
    Post,
    PrivateKeyJwt,
}

/// A client identity at one authorization server.
#[derive(Debug, Clone)]
pub(crate) struct Registered {
    pub(crate) client_id: String,
    pub(crate) secret: Option<String>,
    pub(crate) method: Method,
}

/// What a refresh needs.
#[derive(Debug, Clone)]
pub(crate) struct Refresh {
    pub(crate) token: String,
    pub(crate) issuer: String,
    pub(crate) token_endpoint: String,
    pub(crate) resource: Option<String>,
    pub(crate) client: Registered,
    pub(crate) dpop: bool,
}

/// Registrations per authorization server issuer, bounded like the token store.
#[derive(Debug, Default)]
pub(crate) struct Registrations(HashMap<String, Registered>);

impl Registrations {
    pub(crate) fn get(&self, issuer: &str) -> Option<&Registered> {
        self.0.get(issuer)
    }

    pub(crate) fn insert(&mut self, issuer: &str, registered: Registered) {
        if self.0.len() >= MAX_REGISTRATIONS && !self.0.contains_key(issuer) {
            self.0.clear();
        }
        self.0.insert(issuer.to_owned(), registered);
    }
}

/// How many authorization servers' registrations are remembered.
const MAX_REGISTRATIONS: usize = 64;
