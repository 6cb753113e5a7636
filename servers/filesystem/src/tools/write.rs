//! The writing tools: `write_file`, `edit_file`, `create_directory`, `move_file`.

use mcp_runtime::prelude::*;

use super::valid;
use crate::output::Text;
use crate::{Roots, diff, edit, fsops, text};

/// Create a new file or completely overwrite an existing file with new content. Use with
/// caution as it will overwrite existing files without warning. Handles text content with
/// proper encoding. Only works within allowed directories.
#[tool(
    description = "Create a new file or completely overwrite an existing file with new content. Use \
     with caution as it will overwrite existing files without warning. Handles text \
     content with proper encoding. Only works within allowed directories.",
    title = "Write File",
    read_only = false,
    idempotent,
    destructive,
    open_world = false
)]
pub async fn write_file(
    ctx: Context,
    roots: State<Roots>,
    path: String,
    content: String,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    fsops::write_atomic(&real, content.as_bytes(), &allowed)?;
    Ok(Text(format!("Successfully wrote to {path}")))
}

/// One replacement of `edit_file`.
#[mcp_runtime::data]
#[serde(rename_all = "camelCase")]
pub struct EditOperation {
    /// Text to search for - must match exactly
    pub old_text: String,
    /// Text to replace with
    pub new_text: String,
}

/// Make line-based edits to a text file. Each edit replaces exact line sequences with new
/// content. Returns a git-style diff showing the changes made. Only works within allowed
/// directories.
#[tool(
    description = "Make line-based edits to a text file. Each edit replaces exact line sequences \
     with new content. Returns a git-style diff showing the changes made. Only works \
     within allowed directories.",
    title = "Edit File",
    read_only = false,
    idempotent = false,
    destructive,
    open_world = false
)]
pub async fn edit_file(
    ctx: Context,
    roots: State<Roots>,
    path: String,
    edits: Vec<EditOperation>,
    /// Preview changes using git-style diff format
    #[arg(rename = "dryRun", default = false)]
    dry_run: bool,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    let original = text::normalize_line_endings(&text::decode(&fsops::read_all(&real, &allowed)?));
    let edits: Vec<edit::Edit> = edits
        .into_iter()
        .map(|e| edit::Edit {
            old_text: e.old_text,
            new_text: e.new_text,
        })
        .collect();
    let modified = edit::apply(&original, &edits).map_err(ToolError::new)?;
    let patch = edit::fenced(&diff::unified(&real, &original, &modified));
    if !dry_run {
        fsops::write_atomic(&real, modified.as_bytes(), &allowed)?;
    }
    Ok(Text(patch))
}

/// Create a new directory or ensure a directory exists. Can create multiple nested
/// directories in one operation. If the directory already exists, this operation will succeed
/// silently. Perfect for setting up directory structures for projects or ensuring required
/// paths exist. Only works within allowed directories.
#[tool(
    description = "Create a new directory or ensure a directory exists. Can create multiple nested \
     directories in one operation. If the directory already exists, this operation \
     will succeed silently. Perfect for setting up directory structures for projects \
     or ensuring required paths exist. Only works within allowed directories.",
    title = "Create Directory",
    read_only = false,
    idempotent,
    destructive = false,
    open_world = false
)]
pub async fn create_directory(
    ctx: Context,
    roots: State<Roots>,
    path: String,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    fsops::create_dir_all(&real, &allowed)?;
    Ok(Text(format!("Successfully created directory {path}")))
}

/// Move or rename files and directories. Can move files between directories and rename them
/// in a single operation. If the destination exists, the operation will fail. Works across
/// different directories and can be used for simple renaming within the same directory. Both
/// source and destination must be within allowed directories.
#[tool(
    description = "Move or rename files and directories. Can move files between directories and \
     rename them in a single operation. If the destination exists, the operation will \
     fail. Works across different directories and can be used for simple renaming \
     within the same directory. Both source and destination must be within allowed \
     directories.",
    title = "Move File",
    read_only = false,
    idempotent = false,
    destructive,
    open_world = false
)]
pub async fn move_file(
    ctx: Context,
    roots: State<Roots>,
    source: String,
    destination: String,
) -> Result<Text, ToolError> {
    let allowed = roots.current(&ctx).await;
    let from = valid(&source, &allowed, &roots)?;
    let to = valid(&destination, &allowed, &roots)?;
    fsops::rename_new(&from, &to, &allowed)?;
    Ok(Text(format!(
        "Successfully moved {source} to {destination}"
    )))
}
