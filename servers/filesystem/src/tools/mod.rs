//! The tools, by what they do: [`read`] files, [`write`] files and directories, [`list`]
//! directories. Each resolves its paths with [`valid`], then works through [`crate::fsops`].

pub mod list;
pub mod read;
pub mod write;

use crate::Roots;
use crate::errors::FsError;
use crate::paths::{self, Allowed};

/// `requested` checked against this call's allowed directories (the original's
/// `validatePath`).
fn valid(requested: &str, allowed: &Allowed, roots: &Roots) -> Result<String, FsError> {
    paths::validate(requested, allowed, roots.cwd())
}
