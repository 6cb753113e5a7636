//! Every use of a validated path, made so that what was checked is what is used.
//!
//! [`crate::paths::validate`] resolves a path and checks it; between that check and the use,
//! another process may swap a file or a directory of the path for a symbolic link out of the
//! allowed directories. So each operation here:
//!
//! - opens the file or directory with `O_NOFOLLOW` (a symbolic link in the last component is
//!   refused), non-blocking (a FIFO cannot hang the open) and without a controlling terminal;
//! - checks what it opened (`fstat`): reads and writes are of regular files only, never of a
//!   FIFO, socket or device;
//! - checks the opened descriptor's real path (`/proc/self/fd/N`) against the allowed
//!   directories' real paths, which catches a swapped parent directory;
//! - then works through the descriptor only: reads from the file descriptor; writes a
//!   temporary file with `openat(O_CREAT | O_EXCL | O_NOFOLLOW)` inside the checked parent
//!   directory's descriptor and renames it over the target with `renameat` there; moves with
//!   `renameat2(RENAME_NOREPLACE)` between two checked directories; creates directories one
//!   `mkdirat` at a time, each opened again with `O_NOFOLLOW` before the next.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

use crate::errors::{self, FsError};
use crate::paths::Allowed;

/// The largest file read whole (`read_text_file` without `head`/`tail`, `read_media_file`,
/// `read_multiple_files`, `edit_file`): 32 MiB. `head` and `tail` read at most this much too.
///
/// ```
/// assert_eq!(mcp_server_filesystem::MAX_READ, 32 * 1024 * 1024);
/// ```
pub const MAX_READ: u64 = 32 * 1024 * 1024;

/// The most entries `directory_tree` and `search_files` visit in one call.
pub const MAX_ENTRIES: usize = 200_000;

const READ_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// What a non-regular file is, for the refusal's message.
fn kind_name(t: FileType) -> &'static str {
    match t {
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Symlink => "a symbolic link",
        FileType::Directory => "a directory",
        _ => "not a regular file",
    }
}

/// Refuses a descriptor whose real path is outside the allowed directories.
fn check_fd(fd: &impl AsFd, path: &str, allowed: &Allowed) -> Result<PathBuf, FsError> {
    let link = format!("/proc/self/fd/{}", fd.as_fd().as_raw_fd());
    let real = std::fs::read_link(&link).map_err(|e| errors::node(&e, "readlink", &link))?;
    if !allowed.contains_real(&real) {
        return Err(FsError::denied(format!(
            "Access denied - {path} was opened as {}, outside the allowed directories",
            real.display()
        )));
    }
    Ok(real)
}

fn swapped(path: &str) -> FsError {
    FsError::denied(format!(
        "Access denied - {path} is a symbolic link (changed after it was checked)"
    ))
}

/// A directory, opened and checked. `syscall` names the operation in Node's messages.
///
/// The last component is first opened as a path (`O_PATH | O_NOFOLLOW`) and its type read from
/// that descriptor, so a symbolic link is told from a file without a second look-up; the
/// directory is then opened through it (`openat(fd, ".")`).
pub fn open_dir(path: &str, allowed: &Allowed, syscall: &str) -> Result<OwnedFd, FsError> {
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let at = rustix::fs::open(path, flags, Mode::empty())
        .map_err(|e| errors::errno(e, syscall, path))?;
    let st = rustix::fs::fstat(&at).map_err(|e| errors::errno(e, syscall, path))?;
    match FileType::from_raw_mode(st.st_mode) {
        FileType::Directory => {}
        FileType::Symlink => return Err(swapped(path)),
        _ => return Err(errors::errno(Errno::NOTDIR, syscall, path)),
    }
    let fd = rustix::fs::openat(&at, ".", DIR_FLAGS, Mode::empty())
        .map_err(|e| errors::errno(e, syscall, path))?;
    check_fd(&fd, path, allowed)?;
    Ok(fd)
}

/// The metadata of `path` (a file or directory, not followed if it became a link), read from a
/// descriptor whose real path was checked.
pub fn metadata(path: &str, allowed: &Allowed) -> Result<std::fs::Metadata, FsError> {
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd =
        rustix::fs::open(path, flags, Mode::empty()).map_err(|e| errors::errno(e, "stat", path))?;
    let st = rustix::fs::fstat(&fd).map_err(|e| errors::errno(e, "stat", path))?;
    if FileType::from_raw_mode(st.st_mode) == FileType::Symlink {
        return Err(swapped(path));
    }
    check_fd(&fd, path, allowed)?;
    File::from(fd)
        .metadata()
        .map_err(|e| errors::node(&e, "stat", path))
}

fn kind_at(path: &str) -> Option<FileType> {
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = rustix::fs::open(path, flags, Mode::empty()).ok()?;
    rustix::fs::fstat(&fd)
        .ok()
        .map(|st| FileType::from_raw_mode(st.st_mode))
}

/// A regular file opened for reading and checked, with its size.
pub fn open_file(path: &str, allowed: &Allowed) -> Result<(File, u64), FsError> {
    let fd = match rustix::fs::open(path, READ_FLAGS, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::LOOP) => return Err(swapped(path)),
        // A socket cannot be opened; say what it is.
        Err(Errno::NXIO) if kind_at(path) == Some(FileType::Socket) => {
            return Err(FsError::denied(format!(
                "Access denied - {path} is a socket, not a regular file"
            )));
        }
        Err(e) => return Err(errors::errno(e, "open", path)),
    };
    let st = rustix::fs::fstat(&fd).map_err(|e| errors::errno(e, "fstat", path))?;
    let kind = FileType::from_raw_mode(st.st_mode);
    if kind == FileType::Directory {
        return Err(errors::bare(Errno::ISDIR, "read"));
    }
    if kind != FileType::RegularFile {
        return Err(FsError::denied(format!(
            "Access denied - {path} is {}, not a regular file",
            kind_name(kind)
        )));
    }
    check_fd(&fd, path, allowed)?;
    Ok((File::from(fd), u64::try_from(st.st_size).unwrap_or(0)))
}

/// The whole file, at most [`MAX_READ`] bytes.
pub fn read_all(path: &str, allowed: &Allowed) -> Result<Vec<u8>, FsError> {
    let (file, size) = open_file(path, allowed)?;
    if size > MAX_READ {
        return Err(too_large(path, size));
    }
    let mut out = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_READ + 1)
        .read_to_end(&mut out)
        .map_err(|e| errors::node(&e, "read", path))?;
    if out.len() as u64 > MAX_READ {
        return Err(too_large(path, out.len() as u64));
    }
    Ok(out)
}

fn too_large(path: &str, size: u64) -> FsError {
    FsError::other(format!(
        "File too large: {path} is {size} bytes, more than the {MAX_READ} bytes read at once; \
         use head or tail to read part of it"
    ))
}

/// The parent directory of `path`, opened and checked, and the last component's name.
fn open_parent<'p>(path: &'p str, allowed: &Allowed) -> Result<(OwnedFd, &'p str), FsError> {
    let (parent, name) = match path.rsplit_once('/') {
        Some(("", name)) => ("/", name),
        Some((parent, name)) => (parent, name),
        None => return Err(FsError::other(format!("not an absolute path: {path}"))),
    };
    if name.is_empty() || name == "." || name == ".." {
        return Err(FsError::other(format!("not a file path: {path}")));
    }
    match open_dir(parent, allowed, "open") {
        Ok(dir) => Ok((dir, name)),
        Err(e) if e.is_not_found() => Err(errors::errno(Errno::NOENT, "open", path)),
        Err(e) => Err(e),
    }
}

fn temp_name(name: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{name}.{:x}{nanos:x}{n:x}.tmp", std::process::id())
}

/// Replaces (or creates) the regular file `path` with `content`: a temporary file in the
/// checked parent directory, renamed over it; an existing file keeps its permission bits.
pub fn write_atomic(path: &str, content: &[u8], allowed: &Allowed) -> Result<(), FsError> {
    let (dir, name) = open_parent(path, allowed)?;
    let mode = match rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => {
            let kind = FileType::from_raw_mode(st.st_mode);
            if kind == FileType::Symlink {
                return Err(swapped(path));
            }
            if kind == FileType::Directory {
                return Err(errors::errno(Errno::ISDIR, "open", path));
            }
            if kind != FileType::RegularFile {
                return Err(FsError::denied(format!(
                    "Access denied - {path} is {}, not a regular file",
                    kind_name(kind)
                )));
            }
            Some(Mode::from_raw_mode(st.st_mode & 0o777))
        }
        Err(Errno::NOENT) => None,
        Err(e) => return Err(errors::errno(e, "open", path)),
    };
    let temp = temp_name(name);
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(&dir, temp.as_str(), flags, Mode::from_raw_mode(0o666))
        .map_err(|e| errors::errno(e, "open", path))?;
    let written = (|| {
        if let Some(mode) = mode {
            rustix::fs::fchmod(&fd, mode).map_err(|e| errors::errno(e, "chmod", path))?;
        }
        let mut file = File::from(fd);
        file.write_all(content)
            .map_err(|e| errors::node(&e, "write", path))?;
        rustix::fs::renameat(&dir, temp.as_str(), &dir, name)
            .map_err(|e| errors::rename(e, &temp, path))
    })();
    if written.is_err() {
        let _ = rustix::fs::unlinkat(&dir, temp.as_str(), AtFlags::empty());
    }
    written
}

/// `mkdir -p`: the deepest existing directory opened and checked, then each missing
/// component made and opened again (never through a symbolic link) before the next.
pub fn create_dir_all(path: &str, allowed: &Allowed) -> Result<(), FsError> {
    let mut existing = Path::new(path);
    let mut missing: Vec<&str> = Vec::new();
    while std::fs::symlink_metadata(existing).is_err() {
        let Some(name) = existing.file_name().and_then(|n| n.to_str()) else {
            break;
        };
        missing.push(name);
        let Some(parent) = existing.parent() else {
            break;
        };
        existing = parent;
    }
    let base = existing.to_string_lossy();
    let mut dir = match open_dir(&base, allowed, "mkdir") {
        Ok(fd) => fd,
        Err(e) if e.message().starts_with("ENOTDIR") => {
            return Err(errors::errno(Errno::EXIST, "mkdir", path));
        }
        Err(e) => return Err(e),
    };
    for name in missing.into_iter().rev() {
        match rustix::fs::mkdirat(&dir, name, Mode::from_raw_mode(0o777)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(e) => return Err(errors::errno(e, "mkdir", path)),
        }
        dir = match rustix::fs::openat(&dir, name, DIR_FLAGS, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::LOOP) => return Err(swapped(path)),
            Err(Errno::NOTDIR) => return Err(errors::errno(Errno::EXIST, "mkdir", path)),
            Err(e) => return Err(errors::errno(e, "mkdir", path)),
        };
        check_fd(&dir, path, allowed)?;
    }
    Ok(())
}

/// Renames `from` to `to`, refusing an existing destination atomically.
pub fn rename_new(from: &str, to: &str, allowed: &Allowed) -> Result<(), FsError> {
    let (src_dir, src) = open_parent(from, allowed)?;
    let (dst_dir, dst) = open_parent(to, allowed)?;
    match rustix::fs::renameat_with(&src_dir, src, &dst_dir, dst, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(()),
        Err(Errno::EXIST) => Err(FsError::other(format!("Destination already exists: {to}"))),
        Err(e) => Err(errors::rename(e, from, to)),
    }
}

/// One entry of a directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its name.
    pub name: String,
    /// Whether it is a directory itself (a symbolic link to one is not).
    pub is_dir: bool,
    /// Its size (not followed through a symbolic link), 0 when unknown.
    pub size: u64,
}

/// The entries of the directory `path` (checked), in byte order of their names as Node's
/// `readdir` gives them; at most `limit`.
pub fn list(path: &str, allowed: &Allowed, limit: usize) -> Result<Vec<Entry>, FsError> {
    let fd = open_dir(path, allowed, "scandir")?;
    let dir = Dir::read_from(&fd).map_err(|e| errors::errno(e, "scandir", path))?;
    let mut out = Vec::new();
    for entry in dir {
        let entry = entry.map_err(|e| errors::errno(e, "scandir", path))?;
        let bytes = entry.file_name().to_bytes();
        if bytes == b"." || bytes == b".." {
            continue;
        }
        let name = String::from_utf8_lossy(bytes).into_owned();
        let (kind, size) =
            match rustix::fs::statat(&fd, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) => (
                    FileType::from_raw_mode(st.st_mode),
                    u64::try_from(st.st_size).unwrap_or(0),
                ),
                Err(_) => (entry.file_type(), 0),
            };
        out.push(Entry {
            name,
            is_dir: kind == FileType::Directory,
            size,
        });
        if out.len() > limit {
            return Err(FsError::other(format!(
                "Too many entries: {path} has more than {limit}"
            )));
        }
    }
    out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `root/a/b/f.txt` inside and `outside/b/f.txt`, then `root/a` swapped for a link to
    /// `outside`: what a check of the path made before the swap would have let through.
    fn swapped_tree(name: &str) -> (PathBuf, Allowed, String) {
        let base = std::env::temp_dir().join(format!("fs-fsops-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let base = {
            std::fs::create_dir_all(&base).unwrap();
            std::fs::canonicalize(&base).unwrap()
        };
        std::fs::create_dir_all(base.join("root/a/b")).unwrap();
        std::fs::create_dir_all(base.join("outside/b")).unwrap();
        std::fs::write(base.join("root/a/b/f.txt"), "inside").unwrap();
        std::fs::write(base.join("outside/b/f.txt"), "SENTINEL").unwrap();
        let allowed = Allowed::new(vec![base.join("root").to_string_lossy().into_owned()]);
        std::fs::remove_dir_all(base.join("root/a")).unwrap();
        std::os::unix::fs::symlink(base.join("outside"), base.join("root/a")).unwrap();
        let file = base.join("root/a/b/f.txt").to_string_lossy().into_owned();
        (base, allowed, file)
    }

    #[test]
    fn a_parent_swapped_for_a_link_is_caught_on_the_descriptor() {
        let (base, allowed, file) = swapped_tree("read");
        let out = base.join("outside/b");
        let err = open_file(&file, &allowed).unwrap_err();
        let want = format!(
            "Access denied - {file} was opened as {}/f.txt, outside the allowed directories",
            out.display()
        );
        assert_eq!(err.message(), want);
        assert_eq!(metadata(&file, &allowed).unwrap_err().message(), want);
        let err = write_atomic(&file, b"PWNED", &allowed).unwrap_err();
        let dir = base.join("root/a/b").to_string_lossy().into_owned();
        let want = format!(
            "Access denied - {dir} was opened as {}, outside the allowed directories",
            out.display()
        );
        assert_eq!(err.message(), want);
        let err = list(&dir, &allowed, 10).unwrap_err();
        assert_eq!(err.message(), want);
        let made = base.join("root/a/b/new").to_string_lossy().into_owned();
        assert_eq!(create_dir_all(&made, &allowed).unwrap_err().message(), want);
        assert_eq!(
            std::fs::read_to_string(out.join("f.txt")).unwrap(),
            "SENTINEL"
        );
        assert!(!out.join("new").exists());
        std::fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn a_last_component_swapped_for_a_link_is_named() {
        let (base, allowed, _) = swapped_tree("last");
        let link = base.join("root/a").to_string_lossy().into_owned();
        let want =
            format!("Access denied - {link} is a symbolic link (changed after it was checked)");
        assert_eq!(
            open_dir(&link, &allowed, "scandir").unwrap_err().message(),
            want
        );
        let err = write_atomic(&link, b"PWNED", &allowed).unwrap_err();
        assert_eq!(err.message(), want);
        std::fs::remove_dir_all(base).unwrap();
    }
}
