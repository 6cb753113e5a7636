//! `mcp-server-memory`: the MCP reference memory server, rebuilt on mcp-runtime. A knowledge
//! graph of entities, relations and observations, kept in a JSONL file (`MEMORY_FILE_PATH`),
//! with the original's nine tools and its `memory://knowledge-graph` resource.
//!
//! The binary runs [`server`]'s command line: stdio by default, `http [ADDR]` for Streamable
//! HTTP, `list`, `call NAME JSON` and the rest (`mcp-server-memory help`).
//!
//! ```standalone_crate
//! # #[mcp_runtime::main(flavor = "current_thread")]
//! # async fn main() {
//! let dir = std::env::temp_dir().join(format!("memory-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let server = mcp_server_memory::server(dir.join("memory.jsonl")).build().unwrap();
//! let session = mcp_runtime::testing::connect(&server).await.unwrap();
//! let text = session
//!     .call_text("create_entities", mcp_runtime::serde_json::json!({
//!         "entities": [{"name": "Ann", "entityType": "person", "observations": []}]
//!     }))
//!     .await
//!     .unwrap();
//! assert!(text.starts_with("[\n  {\n    \"name\": \"Ann\""));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # }
//! ```

mod graph;

use std::path::{Path, PathBuf};

use graph::{Entity, KnowledgeGraph, Relation, StoreError};
use mcp_runtime::prelude::*;
use mcp_runtime::serde_json;

pub use graph::Store;

/// The resource that shows the whole graph.
///
/// ```
/// assert_eq!(mcp_server_memory::GRAPH_URI, "memory://knowledge-graph");
/// ```
pub const GRAPH_URI: &str = "memory://knowledge-graph";

impl From<StoreError> for ToolError {
    fn from(e: StoreError) -> Self {
        ToolError::new(e.0)
    }
}

/// `value` as JSON indented by two spaces, as the original's text blocks are.
fn pretty<T: mcp_runtime::serde::Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Tells the subscribers of the graph resource that it changed.
fn changed(ctx: &Context) {
    ctx.server().notify_resource_updated(GRAPH_URI);
}

// The structured results. Their members carry no doc comment where the original's output schema
// has no description.
#[mcp_runtime::data]
struct Entities {
    entities: Vec<Entity>,
}

#[mcp_runtime::data]
struct Relations {
    relations: Vec<Relation>,
}

#[mcp_runtime::data]
#[serde(rename_all = "camelCase")]
struct Added {
    entity_name: String,
    added_observations: Vec<String>,
}

#[mcp_runtime::data]
struct AddedAll {
    results: Vec<Added>,
}

#[mcp_runtime::data]
struct Done {
    success: bool,
    message: String,
}

fn done(message: &str) -> Structured<Done> {
    Json(Done {
        success: true,
        message: message.to_owned(),
    })
    .text(message)
}

#[mcp_runtime::data]
#[serde(rename_all = "camelCase")]
struct NewObservations {
    /// The name of the entity to add the observations to
    entity_name: String,
    /// An array of observation contents to add
    contents: Vec<String>,
}

#[mcp_runtime::data]
#[serde(rename_all = "camelCase")]
struct Deletion {
    /// The name of the entity containing the observations
    entity_name: String,
    /// An array of observations to delete
    observations: Vec<String>,
}

/// Create multiple new entities in the knowledge graph
#[tool(
    title = "Create Entities",
    read_only = false,
    destructive = false,
    idempotent = false,
    open_world = false
)]
async fn create_entities(
    store: State<Store>,
    ctx: Context,
    entities: Vec<Entity>,
) -> Result<Structured<Entities>, ToolError> {
    let added = store.update(|g| Ok(graph::create_entities(g, entities)))?;
    changed(&ctx);
    let text = pretty(&added);
    Ok(Json(Entities { entities: added }).text(text))
}

/// Create multiple new relations between entities in the knowledge graph. Relations should be in active voice
#[tool(
    title = "Create Relations",
    read_only = false,
    destructive = false,
    idempotent = false,
    open_world = false
)]
async fn create_relations(
    store: State<Store>,
    ctx: Context,
    relations: Vec<Relation>,
) -> Result<Structured<Relations>, ToolError> {
    let added = store.update(|g| Ok(graph::create_relations(g, relations)))?;
    changed(&ctx);
    let text = pretty(&added);
    Ok(Json(Relations { relations: added }).text(text))
}

/// Add new observations to existing entities in the knowledge graph
#[tool(
    title = "Add Observations",
    read_only = false,
    destructive = false,
    idempotent = false,
    open_world = false
)]
async fn add_observations(
    store: State<Store>,
    ctx: Context,
    observations: Vec<NewObservations>,
) -> Result<Structured<AddedAll>, ToolError> {
    let results = store.update(|g| {
        let mut results = Vec::with_capacity(observations.len());
        for o in observations {
            let Some(entity) = g.entities.iter_mut().find(|e| e.name == o.entity_name) else {
                let why = format!("Entity with name {} not found", o.entity_name);
                return Err(StoreError(why));
            };
            let mut added: Vec<String> = Vec::new();
            for content in o.contents {
                if !entity.observations.contains(&content) {
                    added.push(content);
                }
            }
            entity.observations.extend(added.iter().cloned());
            results.push(Added {
                entity_name: o.entity_name,
                added_observations: added,
            });
        }
        Ok(results)
    })?;
    changed(&ctx);
    let text = pretty(&results);
    Ok(Json(AddedAll { results }).text(text))
}

/// Delete multiple entities and their associated relations from the knowledge graph
#[tool(
    title = "Delete Entities",
    rename_all = "camelCase",
    read_only = false,
    destructive,
    idempotent,
    open_world = false
)]
async fn delete_entities(
    store: State<Store>,
    ctx: Context,
    /// An array of entity names to delete
    entity_names: Vec<String>,
) -> Result<Structured<Done>, ToolError> {
    store.update(|g| {
        graph::delete_entities(g, &entity_names);
        Ok(())
    })?;
    changed(&ctx);
    Ok(done("Entities deleted successfully"))
}

/// Delete specific observations from entities in the knowledge graph
#[tool(
    title = "Delete Observations",
    read_only = false,
    destructive,
    idempotent,
    open_world = false
)]
async fn delete_observations(
    store: State<Store>,
    ctx: Context,
    deletions: Vec<Deletion>,
) -> Result<Structured<Done>, ToolError> {
    store.update(|g| {
        for d in &deletions {
            if let Some(entity) = g.entities.iter_mut().find(|e| e.name == d.entity_name) {
                entity.observations.retain(|o| !d.observations.contains(o));
            }
        }
        Ok(())
    })?;
    changed(&ctx);
    Ok(done("Observations deleted successfully"))
}

/// Delete multiple relations from the knowledge graph
#[tool(
    title = "Delete Relations",
    read_only = false,
    destructive,
    idempotent,
    open_world = false
)]
async fn delete_relations(
    store: State<Store>,
    ctx: Context,
    /// An array of relations to delete
    relations: Vec<Relation>,
) -> Result<Structured<Done>, ToolError> {
    store.update(|g| {
        graph::delete_relations(g, &relations);
        Ok(())
    })?;
    changed(&ctx);
    Ok(done("Relations deleted successfully"))
}

fn graph_result(graph: KnowledgeGraph) -> Structured<KnowledgeGraph> {
    let text = pretty(&graph);
    Json(graph).text(text)
}

/// Read the entire knowledge graph
#[tool(
    title = "Read Graph",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
async fn read_graph(store: State<Store>) -> Result<Structured<KnowledgeGraph>, ToolError> {
    Ok(graph_result(store.read()?))
}

/// Search for nodes in the knowledge graph based on a query
#[tool(
    title = "Search Nodes",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
async fn search_nodes(
    store: State<Store>,
    /// The search query to match against entity names, types, and observation content
    query: String,
) -> Result<Structured<KnowledgeGraph>, ToolError> {
    let query = query.to_lowercase();
    let found = graph::subgraph(store.read()?, |e| {
        e.name.to_lowercase().contains(&query)
            || e.entity_type.to_lowercase().contains(&query)
            || e.observations
                .iter()
                .any(|o| o.to_lowercase().contains(&query))
    });
    Ok(graph_result(found))
}

/// Open specific nodes in the knowledge graph by their names
#[tool(
    title = "Open Nodes",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
async fn open_nodes(
    store: State<Store>,
    /// An array of entity names to retrieve
    names: Vec<String>,
) -> Result<Structured<KnowledgeGraph>, ToolError> {
    let found = graph::subgraph(store.read()?, |e| names.contains(&e.name));
    Ok(graph_result(found))
}

/// The full knowledge graph with all entities and relations
#[resource(
    uri = "memory://knowledge-graph",
    name = "knowledge-graph",
    title = "Knowledge Graph",
    mime = "application/json"
)]
async fn knowledge_graph(store: State<Store>) -> Result<String, ResourceError> {
    let graph = store.read().map_err(|e| ResourceError::other(e.0))?;
    Ok(pretty(&graph))
}

/// The memory server, keeping its graph in the JSONL file at `path`.
///
/// ```
/// let server = mcp_server_memory::server("/tmp/memory.jsonl").build().unwrap();
/// assert_eq!(server.info().name, "mcp-server-memory");
/// ```
pub fn server(path: impl Into<PathBuf>) -> mcp_runtime::ServerBuilder {
    Server::from_registry(server_info!()).state(Store::new(path))
}

/// Where the graph is kept: `MEMORY_FILE_PATH` (`configured`) when it is set, an absolute path
/// as it is and a relative one from `home`; else `memory.jsonl` in `home`. The original's
/// `home` is the folder of its script; ours is the binary's folder. Without `MEMORY_FILE_PATH`,
/// a `memory.json` left by older versions is renamed to `memory.jsonl` when there is none.
///
/// ```
/// use std::path::Path;
/// use mcp_server_memory::memory_file_path;
/// let home = Path::new("/opt/memory");
/// assert_eq!(memory_file_path(Some("/data/g.jsonl".as_ref()), home), Path::new("/data/g.jsonl"));
/// assert_eq!(memory_file_path(Some("g.jsonl".as_ref()), home), Path::new("/opt/memory/g.jsonl"));
/// ```
pub fn memory_file_path(configured: Option<&std::ffi::OsStr>, home: &Path) -> PathBuf {
    if let Some(path) = configured.filter(|p| !p.is_empty()) {
        let path = Path::new(path);
        return if path.is_absolute() {
            path.to_path_buf()
        } else {
            home.join(path)
        };
    }
    let new = home.join("memory.jsonl");
    let old = home.join("memory.json");
    if old.exists() && !new.exists() {
        eprintln!(
            "DETECTED: Found legacy memory.json file, migrating to memory.jsonl for JSONL format compatibility"
        );
        if std::fs::rename(&old, &new).is_ok() {
            eprintln!("COMPLETED: Successfully migrated memory.json to memory.jsonl");
        }
    }
    new
}
