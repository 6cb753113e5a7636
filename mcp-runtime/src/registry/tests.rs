//! The catalog's unit tests, and the records they and other registry tests are built from.

use mcp_core::{GetPromptResult, ResourceContents};

use super::*;
use crate::error::HandlerError;
use crate::future::BoxFuture;
use crate::handler::context::Context;

fn read(
    _: Context,
    _: ResourceRequest,
) -> BoxFuture<'static, Result<Vec<ResourceContents>, HandlerError>> {
    Box::pin(async { Ok(Vec::new()) })
}

fn get(
    _: Context,
    _: PromptArguments,
) -> BoxFuture<'static, Result<GetPromptResult, HandlerError>> {
    Box::pin(async { Ok(GetPromptResult::new(Vec::new())) })
}

const HERE: Location = Location::new(file!(), 1, 1);

fn resource(name: &'static str, uri: &'static str, max_concurrency: Option<u32>) -> ResourceRecord {
    let record = ResourceRecord::new(name, uri, read)
        .with_timeout_ms(100)
        .with_location(HERE);
    match max_concurrency {
        Some(max) => record.with_max_concurrency(max),
        None => record,
    }
}

pub(super) fn prompt(name: &'static str, max_concurrency: Option<u32>) -> PromptRecord {
    let record = PromptRecord::new(name, get).with_location(HERE);
    match max_concurrency {
        Some(max) => record.with_max_concurrency(max),
        None => record,
    }
}

fn permits(limit: Option<&Arc<Semaphore>>) -> Option<usize> {
    limit.map(|s| s.available_permits())
}

#[test]
fn resources_templates_and_prompts_get_their_limit() {
    let meta = mcp_core::Meta::new();
    let settings = CatalogSettings {
        skills: None,
        profile: SchemaProfile::default(),
        page_size: 10,
        ttl_ms: 0,
        server_info_meta: &meta,
        state: &StateMap::new(),
        allow_unknown_args: false,
        validate_output: true,
        apps: crate::apps::AppsOptions::new(),
        transforms: &crate::transform::Transforms::new(),
    };
    let catalog = Catalog::build(
        Vec::new(),
        vec![
            resource("fixed", "x://fixed", Some(2)),
            resource("free", "x://free", None),
            resource("template", "x://t/{id}", Some(1)),
        ],
        vec![prompt("limited", Some(3)), prompt("unlimited", None)],
        &[],
        &settings,
    )
    .unwrap();

    let (record, _, limit) = catalog.find_resource("x://fixed").unwrap();
    assert_eq!((record.name, permits(limit)), ("fixed", Some(2)));
    let (record, _, limit) = catalog.find_resource("x://free").unwrap();
    assert_eq!((record.name, permits(limit)), ("free", None));
    let (record, request, limit) = catalog.find_resource("x://t/7").unwrap();
    assert_eq!((record.name, permits(limit)), ("template", Some(1)));
    assert_eq!(request.var("id"), Some("7"));
    // One semaphore per template, whatever URI matched it.
    let (_, _, again) = catalog.find_resource("x://t/8").unwrap();
    assert!(Arc::ptr_eq(limit.unwrap(), again.unwrap()));
    assert_eq!(record.timeout_ms, Some(100));

    let limited = &catalog.prompts[catalog.prompt_index["limited"]];
    assert_eq!(permits(limited.limit.as_ref()), Some(3));
    let unlimited = &catalog.prompts[catalog.prompt_index["unlimited"]];
    assert!(unlimited.limit.is_none());
}
