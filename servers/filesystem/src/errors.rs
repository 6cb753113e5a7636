//! What a refused or failed operation tells the client: the original's messages, and Node's
//! wording of system errors (`ENOENT: no such file or directory, open '/x'`) so that a client
//! written against the original reads the same text.

use std::fmt;
use std::io;

use mcp_runtime::ToolError;

/// A failed filesystem operation, as the text the tool returns with `isError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsError {
    message: String,
    not_found: bool,
}

impl FsError {
    /// A refusal of the safety checks.
    pub fn denied(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            not_found: false,
        }
    }

    /// Any other failure.
    pub fn other(message: impl Into<String>) -> Self {
        Self::denied(message)
    }

    /// Whether the error is `ENOENT`.
    pub fn is_not_found(&self) -> bool {
        self.not_found
    }

    /// The text.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<FsError> for ToolError {
    fn from(e: FsError) -> Self {
        ToolError::new(e.message)
    }
}

/// Node's code and description of an `errno`.
fn describe(errno: i32) -> (&'static str, &'static str) {
    match errno {
        1 => ("EPERM", "operation not permitted"),
        2 => ("ENOENT", "no such file or directory"),
        5 => ("EIO", "i/o error"),
        6 => ("ENXIO", "no such device or address"),
        9 => ("EBADF", "bad file descriptor"),
        13 => ("EACCES", "permission denied"),
        16 => ("EBUSY", "resource busy or locked"),
        17 => ("EEXIST", "file already exists"),
        18 => ("EXDEV", "cross-device link not permitted"),
        20 => ("ENOTDIR", "not a directory"),
        21 => ("EISDIR", "illegal operation on a directory"),
        22 => ("EINVAL", "invalid argument"),
        24 => ("EMFILE", "too many open files"),
        27 => ("EFBIG", "file too large"),
        28 => ("ENOSPC", "no space left on device"),
        30 => ("EROFS", "read-only file system"),
        36 => ("ENAMETOOLONG", "name too long"),
        39 => ("ENOTEMPTY", "directory not empty"),
        40 => ("ELOOP", "too many symbolic links encountered"),
        _ => ("EUNKNOWN", "unknown error"),
    }
}

/// An I/O error as Node words it: `CODE: description, syscall 'path'`.
pub fn node(e: &io::Error, syscall: &str, path: &str) -> FsError {
    match e.raw_os_error() {
        Some(errno) => {
            let (code, text) = describe(errno);
            FsError {
                message: format!("{code}: {text}, {syscall} '{path}'"),
                not_found: errno == 2,
            }
        }
        None => FsError::other(e.to_string()),
    }
}

/// An errno of `rustix` as Node words it.
pub fn errno(e: rustix::io::Errno, syscall: &str, path: &str) -> FsError {
    node(&io::Error::from(e), syscall, path)
}

/// `CODE: description, syscall` (Node's reads and writes on a descriptor name no path).
pub fn bare(e: rustix::io::Errno, syscall: &str) -> FsError {
    let (code, text) = describe(e.raw_os_error());
    FsError {
        message: format!("{code}: {text}, {syscall}"),
        not_found: e == rustix::io::Errno::NOENT,
    }
}

/// A rename's error: `CODE: description, rename 'from' -> 'to'`.
pub fn rename(e: rustix::io::Errno, from: &str, to: &str) -> FsError {
    let (code, text) = describe(e.raw_os_error());
    FsError {
        message: format!("{code}: {text}, rename '{from}' -> '{to}'"),
        not_found: e == rustix::io::Errno::NOENT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_errors_as_node_does() {
        let e = io::Error::from_raw_os_error(2);
        let err = node(&e, "open", "/x");
        assert_eq!(
            err.message(),
            "ENOENT: no such file or directory, open '/x'"
        );
        assert!(err.is_not_found());
        let err = rename(rustix::io::Errno::EXIST, "/a", "/b");
        assert_eq!(
            err.message(),
            "EEXIST: file already exists, rename '/a' -> '/b'"
        );
    }
}
