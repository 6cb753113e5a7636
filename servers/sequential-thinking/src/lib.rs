//! `mcp-server-sequential-thinking`: the MCP reference sequential-thinking server, rebuilt on
//! mcp-runtime. One tool, `sequentialthinking`, records each thought of a reflective
//! problem-solving process (revisions and branches included) and answers with where the
//! process stands. Each thought is also drawn in a box on stderr, unless
//! `DISABLE_THOUGHT_LOGGING=true`.
//!
//! ```standalone_crate
//! # #[mcp_runtime::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = mcp_server_sequential_thinking::server(false).build().unwrap();
//! let session = mcp_runtime::testing::connect(&server).await.unwrap();
//! let args = mcp_runtime::serde_json::json!({
//!     "thought": "First, list the facts", "nextThoughtNeeded": true,
//!     "thoughtNumber": 1, "totalThoughts": 3
//! });
//! let text = session.call_text("sequentialthinking", args).await.unwrap();
//! assert!(text.contains("\"thoughtHistoryLength\": 1"));
//! # }
//! ```

mod coerce;

use std::collections::BTreeMap;
use std::sync::Mutex;

use mcp_runtime::prelude::*;
use mcp_runtime::serde_json;

pub use coerce::{Flag, Number};

/// At most this many thoughts are kept (the original keeps every one, without bound); the
/// oldest go first. The count reported is the number recorded, not the number kept.
pub const MAX_THOUGHTS: usize = 10_000;
/// At most this many branches are kept; a thought on a new branch past it is recorded without
/// its branch.
///
/// ```
/// assert_eq!(mcp_server_sequential_thinking::MAX_BRANCHES, 1_000);
/// ```
pub const MAX_BRANCHES: usize = 1_000;

/// One thought as recorded.
#[derive(Debug, Clone)]
struct Thought {
    number: u64,
    total: u64,
    text: String,
    revision: bool,
    revises: Option<u64>,
    branch_from: Option<u64>,
    branch_id: Option<String>,
}

#[derive(Debug, Default)]
struct History {
    thoughts: std::collections::VecDeque<Thought>,
    recorded: u64,
    // Branch ids in the order they were first seen, with their thoughts.
    order: Vec<String>,
    branches: BTreeMap<String, Vec<Thought>>,
}

/// The thoughts of the process so far, shared by every call (as the original keeps them for
/// the life of its process).
#[derive(Debug)]
pub struct Thinking {
    history: Mutex<History>,
    log: bool,
}

impl Thinking {
    /// An empty history; `log` draws each thought on stderr.
    ///
    /// ```
    /// let thinking = mcp_server_sequential_thinking::Thinking::new(false);
    /// # let _ = thinking;
    /// ```
    pub fn new(log: bool) -> Self {
        Self {
            history: Mutex::new(History::default()),
            log,
        }
    }

    fn record(&self, t: Thought) -> (Vec<String>, u64) {
        let mut h = self.history.lock().unwrap_or_else(|e| e.into_inner());
        if let (Some(_), Some(id)) = (t.branch_from, &t.branch_id) {
            if !h.branches.contains_key(id) && h.branches.len() < MAX_BRANCHES {
                h.order.push(id.clone());
                h.branches.insert(id.clone(), Vec::new());
            }
            if let Some(branch) = h.branches.get_mut(id) {
                branch.push(t.clone());
                if branch.len() > MAX_THOUGHTS {
                    branch.remove(0);
                }
            }
        }
        h.thoughts.push_back(t);
        if h.thoughts.len() > MAX_THOUGHTS {
            h.thoughts.pop_front();
        }
        h.recorded += 1;
        (h.order.clone(), h.recorded)
    }
}

/// The thought drawn in a box, as the original draws it on stderr (without its colours).
fn boxed(t: &Thought) -> String {
    let (prefix, context) = if t.revision {
        (
            "🔄 Revision",
            format!(" (revising thought {})", opt(t.revises)),
        )
    } else if let Some(from) = t.branch_from {
        let id = t.branch_id.as_deref().unwrap_or("undefined");
        ("🌿 Branch", format!(" (from thought {from}, ID: {id})"))
    } else {
        ("💭 Thought", String::new())
    };
    let header = format!("{prefix} {}/{}{context}", t.number, t.total);
    // Widths in UTF-16 units, as the original's `length` and `padEnd` count them.
    let units = |s: &str| s.encode_utf16().count();
    let width = units(&header).max(units(&t.text)) + 4;
    let border = "─".repeat(width);
    let pad = width.saturating_sub(2).saturating_sub(units(&t.text));
    format!(
        "\n┌{border}┐\n│ {header} │\n├{border}┤\n│ {}{} │\n└{border}┘",
        t.text,
        " ".repeat(pad)
    )
}

fn opt(n: Option<u64>) -> String {
    n.map_or_else(|| "undefined".to_owned(), |n| n.to_string())
}

// Where the process stands after a thought. The counts are `number`s in the output schema, as
// the original declares them (their values are whole).
#[mcp_runtime::data]
#[serde(rename_all = "camelCase")]
struct Progress {
    #[schemars(with = "f64")]
    thought_number: u64,
    #[schemars(with = "f64")]
    total_thoughts: u64,
    next_thought_needed: bool,
    branches: Vec<String>,
    #[schemars(with = "f64")]
    thought_history_length: u64,
}

/// A detailed tool for dynamic and reflective problem-solving through thoughts.
/// This tool helps analyze problems through a flexible thinking process that can adapt and evolve.
/// Each thought can build on, question, or revise previous insights as understanding deepens.
///
/// When to use this tool:
/// - Breaking down complex problems into steps
/// - Planning and design with room for revision
/// - Analysis that might need course correction
/// - Problems where the full scope might not be clear initially
/// - Problems that require a multi-step solution
/// - Tasks that need to maintain context over multiple steps
/// - Situations where irrelevant information needs to be filtered out
///
/// Key features:
/// - You can adjust total_thoughts up or down as you progress
/// - You can question or revise previous thoughts
/// - You can add more thoughts even after reaching what seemed like the end
/// - You can express uncertainty and explore alternative approaches
/// - Not every thought needs to build linearly - you can branch or backtrack
/// - Generates a solution hypothesis
/// - Verifies the hypothesis based on the Chain of Thought steps
/// - Repeats the process until satisfied
/// - Provides a correct answer
///
/// Parameters explained:
/// - thought: Your current thinking step, which can include:
///   * Regular analytical steps
///   * Revisions of previous thoughts
///   * Questions about previous decisions
///   * Realizations about needing more analysis
///   * Changes in approach
///   * Hypothesis generation
///   * Hypothesis verification
/// - nextThoughtNeeded: True if you need more thinking, even if at what seemed like the end
/// - thoughtNumber: Current number in sequence (can go beyond initial total if needed)
/// - totalThoughts: Current estimate of thoughts needed (can be adjusted up/down)
/// - isRevision: A boolean indicating if this thought revises previous thinking
/// - revisesThought: If is_revision is true, which thought number is being reconsidered
/// - branchFromThought: If branching, which thought number is the branching point
/// - branchId: Identifier for the current branch (if any)
/// - needsMoreThoughts: If reaching end but realizing more thoughts needed
///
/// You should:
/// 1. Start with an initial estimate of needed thoughts, but be ready to adjust
/// 2. Feel free to question or revise previous thoughts
/// 3. Don't hesitate to add more thoughts if needed, even at the "end"
/// 4. Express uncertainty when present
/// 5. Mark thoughts that revise previous thinking or branch into new paths
/// 6. Ignore information that is irrelevant to the current step
/// 7. Generate a solution hypothesis when appropriate
/// 8. Verify the hypothesis based on the Chain of Thought steps
/// 9. Repeat the process until satisfied with the solution
/// 10. Provide a single, ideally correct answer as the final output
/// 11. Only set nextThoughtNeeded to false when truly done and a satisfactory answer is reached
#[tool(
    title = "Sequential Thinking",
    rename_all = "camelCase",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
#[allow(clippy::too_many_arguments)]
async fn sequentialthinking(
    thinking: State<Thinking>,
    /// Your current thinking step
    thought: String,
    /// Whether another thought step is needed
    next_thought_needed: Flag,
    /// Current thought number (numeric value, e.g., 1, 2, 3)
    thought_number: Number,
    /// Estimated total thoughts needed (numeric value, e.g., 5, 10)
    total_thoughts: Number,
    /// Whether this revises previous thinking
    is_revision: Option<Flag>,
    /// Which thought is being reconsidered
    revises_thought: Option<Number>,
    /// Branching point thought number
    branch_from_thought: Option<Number>,
    /// Branch identifier
    branch_id: Option<String>,
    /// If more thoughts are needed
    needs_more_thoughts: Option<Flag>,
) -> Structured<Progress> {
    let _ = needs_more_thoughts;
    let number = thought_number.0;
    let t = Thought {
        number,
        total: total_thoughts.0.max(number),
        text: thought,
        revision: is_revision.is_some_and(|f| f.0),
        revises: revises_thought.map(|n| n.0),
        branch_from: branch_from_thought.map(|n| n.0),
        branch_id: branch_id.filter(|id| !id.is_empty()),
    };
    if thinking.log {
        eprintln!("{}", boxed(&t));
    }
    let total = t.total;
    let (branches, recorded) = thinking.record(t);
    let progress = Progress {
        thought_number: number,
        total_thoughts: total,
        next_thought_needed: next_thought_needed.0,
        branches,
        thought_history_length: recorded,
    };
    let text = serde_json::to_string_pretty(&progress).unwrap_or_default();
    Json(progress).text(text)
}

/// The sequential-thinking server; `log` draws each thought on stderr (the binary's default,
/// off with `DISABLE_THOUGHT_LOGGING=true`).
///
/// ```
/// let server = mcp_server_sequential_thinking::server(false).build().unwrap();
/// assert_eq!(server.info().name, "mcp-server-sequential-thinking");
/// ```
pub fn server(log: bool) -> mcp_runtime::ServerBuilder {
    Server::from_registry(server_info!()).state(Thinking::new(log))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thought(text: &str) -> Thought {
        Thought {
            number: 2,
            total: 3,
            text: text.into(),
            revision: false,
            revises: None,
            branch_from: None,
            branch_id: None,
        }
    }

    #[test]
    fn the_box_fits_the_longer_of_header_and_thought() {
        assert_eq!(
            boxed(&thought("ab")),
            // Widths in UTF-16 units, as the original counts them: the emoji is two.
            "\n┌──────────────────┐\n│ 💭 Thought 2/3 │\n├──────────────────┤\n│ ab               │\n└──────────────────┘"
        );
        let mut t = thought("a thought longer than its header");
        t.revision = true;
        t.revises = Some(1);
        assert!(boxed(&t).contains("│ 🔄 Revision 2/3 (revising thought 1) │"));
    }

    #[test]
    fn branches_are_bounded() {
        let thinking = Thinking::new(false);
        for i in 0..MAX_BRANCHES + 5 {
            let mut t = thought("x");
            t.branch_from = Some(1);
            t.branch_id = Some(format!("b{i}"));
            thinking.record(t);
        }
        let (branches, recorded) = thinking.record(thought("y"));
        assert_eq!(
            (branches.len(), recorded),
            (MAX_BRANCHES, MAX_BRANCHES as u64 + 6)
        );
        assert_eq!(branches[0], "b0");
    }
}
