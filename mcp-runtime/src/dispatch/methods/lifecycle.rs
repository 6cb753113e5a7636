//! `initialize`, `server/discover` and `logging/setLevel` (told to the mounts).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use mcp_core::{
    DiscoverResult, EmptyResult, ErrorObject, ForVersion, InitializeRequestParams,
    InitializeResult, ProtocolVersion, SetLevelRequestParams,
};

use crate::dispatch::call::MethodCall;
use crate::dispatch::reply::Payload;
use crate::dispatch::scope::Negotiated;

/// `initialize`: opens the connection's handshake-era session at a revision both sides speak.
pub(super) fn initialize(call: &MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let p: InitializeRequestParams = call.params()?;
    // Echo a supported handshake revision; otherwise answer the newest one (never an error).
    let version = ProtocolVersion::parse(&p.protocol_version)
        .filter(|v| !v.is_stateless())
        .unwrap_or(ProtocolVersion::LATEST_HANDSHAKE);
    let server = call.server;
    let mut result = InitializeResult::new(
        version,
        server.live().capabilities.clone(),
        server.info.clone(),
    );
    result.instructions.clone_from(&server.instructions);
    result.for_version(version);
    tracing::info!(client = %p.client_info.name, version = %version, "session initialized");
    call.link.open(Negotiated {
        version,
        client_info: Arc::new(p.client_info),
        client_caps: Arc::new(p.capabilities),
    });
    call.result(&result)
}

/// `server/discover`: the stateless era's revisions, capabilities and instructions.
pub(super) fn discover(call: &MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let server = call.server;
    let mut r = DiscoverResult::new(
        vec![ProtocolVersion::V2026_07_28.as_str().to_owned()],
        server.live().capabilities.clone(),
    )
    .with_cache(server.options.ttl_ms, mcp_core::CacheScope::Public);
    r.instructions.clone_from(&server.instructions);
    r.meta = Some(server.server_info_meta.clone());
    r.for_version(call.scope.version);
    call.result(&r)
}

/// `logging/setLevel`: the session's minimum level for `notifications/message`.
pub(super) fn set_level(call: &MethodCall<'_>) -> Result<Payload, ErrorObject> {
    let p: SetLevelRequestParams = call.params()?;
    call.link
        .log_level
        .store(p.level.severity(), Ordering::Relaxed);
    call.link.log_set.store(true, Ordering::Relaxed);
    call.server.log_levels_changed();
    call.result(&EmptyResult::new().into_version(call.scope.version))
}
