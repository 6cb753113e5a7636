//! The knowledge graph and its JSONL file: one JSON object per line, entities first, then
//! relations, lines joined by `\n` with no newline at the end (the original's format, so that
//! either server reads the other's file).
//!
//! Every operation reads the file, changes the graph and writes it back under one lock
//! ([`Store::update`]), so that concurrent calls never lose each other's writes; the file is
//! replaced atomically (written next to it, then renamed over it).

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use mcp_runtime::serde::{Deserialize, Serialize};
use mcp_runtime::serde_json;

// No doc comments on the wire types below where the original has no description: a doc comment
// would become the schema's `description`.

// An entity: a node of the graph.
#[mcp_runtime::data]
#[derive(Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Entity {
    /// The name of the entity
    pub(crate) name: String,
    /// The type of the entity
    pub(crate) entity_type: String,
    /// An array of observation contents associated with the entity
    pub(crate) observations: Vec<String>,
}

// A relation: a directed, typed edge between two entities, by name.
#[mcp_runtime::data]
#[derive(Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Relation {
    /// The name of the entity where the relation starts
    pub(crate) from: String,
    /// The name of the entity where the relation ends
    pub(crate) to: String,
    /// The type of the relation
    pub(crate) relation_type: String,
}

impl Relation {
    fn same(&self, other: &Relation) -> bool {
        self.from == other.from && self.to == other.to && self.relation_type == other.relation_type
    }
}

// The whole graph, or the part of it a search or an open found.
#[mcp_runtime::data]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct KnowledgeGraph {
    pub(crate) entities: Vec<Entity>,
    pub(crate) relations: Vec<Relation>,
}

/// One line of the file as written: `{"type":"entity",…}` or `{"type":"relation",…}`.
#[derive(Serialize)]
#[serde(crate = "mcp_runtime::serde", tag = "type", rename_all = "lowercase")]
enum LineOut<'a> {
    #[serde(rename_all = "camelCase")]
    Entity {
        name: &'a str,
        entity_type: &'a str,
        observations: &'a [String],
    },
    #[serde(rename_all = "camelCase")]
    Relation {
        from: &'a str,
        to: &'a str,
        relation_type: &'a str,
    },
}

/// One line of the file as read: its `type` and the members of that kind; lines of another
/// type are skipped, as the original skips them.
#[derive(Deserialize)]
#[serde(crate = "mcp_runtime::serde")]
struct LineIn {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(flatten)]
    rest: serde_json::Map<String, serde_json::Value>,
}

/// Why the file could not be read or written; shown to the model as the tool's error.
#[derive(Debug)]
pub(crate) struct StoreError(pub(crate) String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The graph's text in the file's format.
pub(crate) fn to_jsonl(graph: &KnowledgeGraph) -> String {
    let entities = graph.entities.iter().map(|e| LineOut::Entity {
        name: &e.name,
        entity_type: &e.entity_type,
        observations: &e.observations,
    });
    let relations = graph.relations.iter().map(|r| LineOut::Relation {
        from: &r.from,
        to: &r.to,
        relation_type: &r.relation_type,
    });
    let lines: Vec<String> = entities
        .chain(relations)
        .map(|line| serde_json::to_string(&line).unwrap_or_default())
        .collect();
    lines.join("\n")
}

/// The graph in `text` (the file's format); a line that is not JSON is an error naming it.
pub(crate) fn from_jsonl(text: &str) -> Result<KnowledgeGraph, StoreError> {
    let mut graph = KnowledgeGraph::default();
    for (number, line) in text.split('\n').enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |e: serde_json::Error| {
            StoreError(format!(
                "the memory file's line {} is not a valid entry: {e}",
                number + 1
            ))
        };
        let item: LineIn = serde_json::from_str(line).map_err(bad)?;
        let value = serde_json::Value::Object(item.rest);
        match item.kind.as_deref() {
            Some("entity") => graph
                .entities
                .push(serde_json::from_value(value).map_err(bad)?),
            Some("relation") => graph
                .relations
                .push(serde_json::from_value(value).map_err(bad)?),
            _ => {}
        }
    }
    Ok(graph)
}

/// The memory file, and the lock every operation holds from its read to its write.
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    lock: Mutex<()>,
}

impl Store {
    /// The graph kept in the JSONL file at `path` (made at the first change).
    ///
    /// ```
    /// let store = mcp_server_memory::Store::new("/tmp/memory.jsonl");
    /// assert_eq!(store.path(), std::path::Path::new("/tmp/memory.jsonl"));
    /// ```
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            lock: Mutex::new(()),
        }
    }

    /// The file's path.
    ///
    /// ```
    /// let store = mcp_server_memory::Store::new("graph.jsonl");
    /// assert_eq!(store.path().to_str(), Some("graph.jsonl"));
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn load(&self) -> Result<KnowledgeGraph, StoreError> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) => from_jsonl(&text),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(KnowledgeGraph::default()),
            Err(e) => Err(StoreError(format!("cannot read the memory file: {e}"))),
        }
    }

    fn save(&self, graph: &KnowledgeGraph) -> Result<(), StoreError> {
        let dir = self
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let file = self.path.file_name().unwrap_or_default().to_string_lossy();
        // Unique among this process's writes (they hold the lock) and among processes.
        let temporary = dir.join(format!("{file}.{}.tmp", std::process::id()));
        let written = std::fs::write(&temporary, to_jsonl(graph))
            .and_then(|()| std::fs::rename(&temporary, &self.path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(StoreError(format!("cannot write the memory file: {e}")));
        }
        Ok(())
    }

    /// Reads the graph under the lock.
    pub(crate) fn read(&self) -> Result<KnowledgeGraph, StoreError> {
        let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.load()
    }

    /// Reads the graph, lets `change` change it and writes it back, all under the lock; an
    /// `Err` from `change` writes nothing.
    pub(crate) fn update<R>(
        &self,
        change: impl FnOnce(&mut KnowledgeGraph) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let mut graph = self.load()?;
        let out = change(&mut graph)?;
        self.save(&graph)?;
        Ok(out)
    }
}

/// The entities of `new` whose names the graph does not have yet, added to it (the first of
/// several with one name, like the original's filter against the graph as it was).
pub(crate) fn create_entities(graph: &mut KnowledgeGraph, new: Vec<Entity>) -> Vec<Entity> {
    let added: Vec<Entity> = new
        .into_iter()
        .filter(|e| !graph.entities.iter().any(|g| g.name == e.name))
        .collect();
    graph.entities.extend(added.iter().cloned());
    added
}

/// The relations of `new` the graph does not have yet, added to it.
pub(crate) fn create_relations(graph: &mut KnowledgeGraph, new: Vec<Relation>) -> Vec<Relation> {
    let added: Vec<Relation> = new
        .into_iter()
        .filter(|r| !graph.relations.iter().any(|g| g.same(r)))
        .collect();
    graph.relations.extend(added.iter().cloned());
    added
}

/// Removes the entities named and every relation from or to them.
pub(crate) fn delete_entities(graph: &mut KnowledgeGraph, names: &[String]) {
    graph.entities.retain(|e| !names.contains(&e.name));
    graph
        .relations
        .retain(|r| !names.contains(&r.from) && !names.contains(&r.to));
}

/// Removes the relations given.
pub(crate) fn delete_relations(graph: &mut KnowledgeGraph, gone: &[Relation]) {
    graph.relations.retain(|r| !gone.iter().any(|g| g.same(r)));
}

/// The entities `keep` selects, with every relation that touches one of them.
pub(crate) fn subgraph(graph: KnowledgeGraph, keep: impl Fn(&Entity) -> bool) -> KnowledgeGraph {
    let entities: Vec<Entity> = graph.entities.into_iter().filter(|e| keep(e)).collect();
    let touches = |name: &String| entities.iter().any(|e| &e.name == name);
    let relations = graph
        .relations
        .into_iter()
        .filter(|r| touches(&r.from) || touches(&r.to))
        .collect();
    KnowledgeGraph {
        entities,
        relations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entity(name: &str) -> Entity {
        Entity {
            name: name.into(),
            entity_type: "t".into(),
            observations: vec!["o \"q\"\n".into()],
        }
    }

    #[test]
    fn the_file_format_is_the_originals() {
        let graph = KnowledgeGraph {
            entities: vec![entity("a")],
            relations: vec![Relation {
                from: "a".into(),
                to: "b".into(),
                relation_type: "knows".into(),
            }],
        };
        let text = to_jsonl(&graph);
        assert_eq!(
            text,
            "{\"type\":\"entity\",\"name\":\"a\",\"entityType\":\"t\",\"observations\":[\"o \\\"q\\\"\\n\"]}\n\
             {\"type\":\"relation\",\"from\":\"a\",\"to\":\"b\",\"relationType\":\"knows\"}"
        );
        assert_eq!(from_jsonl(&text).unwrap(), graph);
    }

    #[test]
    fn blank_lines_and_other_types_are_skipped_and_bad_lines_named() {
        let graph = from_jsonl("\n{\"type\":\"note\"}\n  \n").unwrap();
        assert_eq!(graph, KnowledgeGraph::default());
        let err = from_jsonl("{\"type\":\"entity\",\"name\":\"a\"}\nnot json").unwrap_err();
        assert!(
            err.0.starts_with(
                "the memory file's line 1 is not a valid entry: missing field `entityType`"
            ),
            "{err}"
        );
    }

    #[test]
    fn duplicates_are_not_added_twice() {
        let mut graph = KnowledgeGraph::default();
        assert_eq!(create_entities(&mut graph, vec![entity("a")]).len(), 1);
        assert_eq!(
            create_entities(&mut graph, vec![entity("a"), entity("b")]),
            vec![entity("b")]
        );
        assert_eq!(graph.entities.len(), 2);
    }
}
