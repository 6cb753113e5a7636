//! Text reads: a whole file, its first lines, its last lines, each bounded by
//! [`MAX_READ`](crate::fsops::MAX_READ) bytes read, whatever the file's size.

use std::fs::File;
use std::os::unix::fs::FileExt;

use crate::errors::{self, FsError};
use crate::fsops::MAX_READ;

/// UTF-8 text, invalid sequences replaced (as Node decodes).
pub fn decode(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `\r\n` as `\n`.
pub fn normalize_line_endings(text: &str) -> String {
    text.replace("\r\n", "\n")
}

const CHUNK: usize = 64 * 1024;

fn line_limit(path: &str) -> FsError {
    FsError::other(format!(
        "File too large: the lines asked of {path} span more than the {MAX_READ} bytes read at once"
    ))
}

/// The first `n` lines (the original's `headFile`): lines are joined by `\n`, a last line
/// without a newline is included.
pub fn head(file: &File, path: &str, n: f64) -> Result<String, FsError> {
    if n.is_nan() || n <= 0.0 {
        return Ok(String::new());
    }
    let want = n.ceil();
    let mut bytes = Vec::new();
    let mut newlines = 0.0;
    let mut chunk = vec![0u8; CHUNK];
    let mut offset = 0u64;
    while newlines < want {
        let read = file
            .read_at(&mut chunk, offset)
            .map_err(|e| errors::node(&e, "read", path))?;
        if read == 0 {
            break;
        }
        offset += read as u64;
        newlines += chunk[..read].iter().filter(|&&b| b == b'\n').count() as f64;
        bytes.extend_from_slice(&chunk[..read]);
        if bytes.len() as u64 > MAX_READ {
            return Err(line_limit(path));
        }
    }
    let text = decode(&bytes);
    let mut segments: Vec<&str> = text.split('\n').collect();
    let partial = segments.pop().unwrap_or_default();
    let mut lines: Vec<&str> = segments.into_iter().take(want as usize).collect();
    if !partial.is_empty() && (lines.len() as f64) < want && newlines < want {
        lines.push(partial);
    }
    Ok(lines.join("\n"))
}

/// The last `n` lines (the original's `tailFile`): the file read backwards until it has `n`
/// newlines, line endings normalised, its last `n` `\n`-separated pieces.
pub fn tail(file: &File, size: u64, path: &str, n: f64) -> Result<String, FsError> {
    if size == 0 || n.is_nan() || n <= 0.0 {
        return Ok(String::new());
    }
    let want = n.ceil();
    let keep = n.trunc() as usize;
    let mut position = size;
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let mut total = 0u64;
    let mut newlines = 0.0;
    while position > 0 && newlines < want {
        let len = CHUNK.min(usize::try_from(position).unwrap_or(CHUNK));
        position -= len as u64;
        let mut chunk = vec![0u8; len];
        let read = file
            .read_at(&mut chunk, position)
            .map_err(|e| errors::node(&e, "read", path))?;
        if read == 0 {
            break;
        }
        chunk.truncate(read);
        newlines += chunk.iter().filter(|&&b| b == b'\n').count() as f64;
        total += read as u64;
        parts.push(chunk);
        if total > MAX_READ {
            return Err(line_limit(path));
        }
    }
    let bytes: Vec<u8> = parts.into_iter().rev().flatten().collect();
    let text = normalize_line_endings(&decode(&bytes));
    let pieces: Vec<&str> = text.split('\n').collect();
    let from = if keep == 0 {
        0
    } else {
        pieces.len().saturating_sub(keep)
    };
    Ok(pieces[from..].join("\n"))
}
