//! The reading tools: `read_text_file` (and the deprecated `read_file`), `read_media_file`,
//! `read_multiple_files`, `get_file_info`.

use base64::Engine;
use mcp_runtime::prelude::*;
use mcp_runtime::protocol::ContentBlock;

use super::valid;
use crate::errors::FsError;
use crate::output::{Media, Text};
use crate::paths::Allowed;
use crate::{Roots, fsops, text};

fn read_text(path: &str, allowed: &Allowed) -> Result<String, FsError> {
    Ok(text::decode(&fsops::read_all(path, allowed)?))
}

async fn read_text_impl(
    ctx: &Context,
    roots: &Roots,
    path: &str,
    head: Option<f64>,
    tail: Option<f64>,
) -> Result<Text, ToolError> {
    let allowed = roots.current(ctx).await;
    let real = valid(path, &allowed, roots)?;
    let head = head.filter(|&n| n != 0.0 && !n.is_nan());
    let tail = tail.filter(|&n| n != 0.0 && !n.is_nan());
    if head.is_some() && tail.is_some() {
        return Err(ToolError::new(
            "Cannot specify both head and tail parameters simultaneously",
        ));
    }
    let content = match (head, tail) {
        (_, Some(n)) => {
            let (file, size) = fsops::open_file(&real, &allowed)?;
            text::tail(&file, size, &real, n)?
        }
        (Some(n), None) => {
            let (file, _) = fsops::open_file(&real, &allowed)?;
            text::head(&file, &real, n)?
        }
        (None, None) => read_text(&real, &allowed)?,
    };
    Ok(Text(content))
}

/// Read the complete contents of a file from the file system as text. Handles various text
/// encodings and provides detailed error messages if the file cannot be read. Use this tool
/// when you need to examine the contents of a single file. Use the 'head' parameter to read
/// only the first N lines of a file, or the 'tail' parameter to read only the last N lines of
/// a file. Operates on the file as text regardless of extension. Only works within allowed
/// directories.
#[tool(
    description = "Read the complete contents of a file from the file system as text. Handles \
     various text encodings and provides detailed error messages if the file cannot \
     be read. Use this tool when you need to examine the contents of a single file. \
     Use the 'head' parameter to read only the first N lines of a file, or the 'tail' \
     parameter to read only the last N lines of a file. Operates on the file as text \
     regardless of extension. Only works within allowed directories.",
    title = "Read Text File",
    read_only,
    open_world = false
)]
pub async fn read_text_file(
    ctx: Context,
    roots: State<Roots>,
    path: String,
    /// If provided, returns only the last N lines of the file
    tail: Option<f64>,
    /// If provided, returns only the first N lines of the file
    head: Option<f64>,
) -> Result<Text, ToolError> {
    read_text_impl(&ctx, &roots, &path, head, tail).await
}

/// Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.
#[tool(
    description = "Read the complete contents of a file as text. DEPRECATED: Use read_text_file \
     instead.",
    title = "Read File (Deprecated)",
    read_only,
    open_world = false
)]
pub async fn read_file(
    ctx: Context,
    roots: State<Roots>,
    path: String,
    /// If provided, returns only the last N lines of the file
    tail: Option<f64>,
    /// If provided, returns only the first N lines of the file
    head: Option<f64>,
) -> Result<Text, ToolError> {
    read_text_impl(&ctx, &roots, &path, head, tail).await
}

/// The original's MIME types by extension.
fn mime_of(path: &str) -> &'static str {
    let ext = std::path::Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "bmp" => "image/bmp",
        "svg" => "image/svg+xml",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "flac" => "audio/flac",
        _ => "application/octet-stream",
    }
}

/// `pathToFileURL(path).href`.
fn file_url(path: &str) -> String {
    let mut out = String::from("file://");
    for &b in path.as_bytes() {
        let keep = b.is_ascii_alphanumeric() || b"/-_.~!$&'()*+,;=:@".contains(&b);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Read a file and return it as a base64-encoded content block with its MIME type. Image and
/// audio files are returned as image/audio content; any other file type is returned as an
/// embedded resource. Only works within allowed directories.
#[tool(
    description = "Read a file and return it as a base64-encoded content block with its MIME type. \
     Image and audio files are returned as image/audio content; any other file type \
     is returned as an embedded resource. Only works within allowed directories.",
    title = "Read Media File",
    read_only,
    open_world = false
)]
pub async fn read_media_file(
    ctx: Context,
    roots: State<Roots>,
    path: String,
) -> Result<Media, ToolError> {
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    let mime = mime_of(&real);
    let bytes = fsops::read_all(&real, &allowed)?;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    let block = if mime.starts_with("image/") {
        ContentBlock::image(data, mime)
    } else if mime.starts_with("audio/") {
        ContentBlock::audio(data, mime)
    } else {
        let contents = serde_json::json!({"uri": file_url(&real), "mimeType": mime, "blob": data});
        let resource = serde_json::json!({"type": "resource", "resource": contents});
        serde_json::from_value(resource).map_err(|e| ToolError::new(e.to_string()))?
    };
    Ok(Media(block))
}

/// Read the contents of multiple files simultaneously. This is more efficient than reading
/// files one by one when you need to analyze or compare multiple files. Each file's content is
/// returned with its path as a reference. Failed reads for individual files won't stop the
/// entire operation. Only works within allowed directories.
#[tool(
    description = "Read the contents of multiple files simultaneously. This is more efficient than \
     reading files one by one when you need to analyze or compare multiple files. \
     Each file's content is returned with its path as a reference. Failed reads for \
     individual files won't stop the entire operation. Only works within allowed \
     directories.",
    title = "Read Multiple Files",
    read_only,
    open_world = false
)]
pub async fn read_multiple_files(
    ctx: Context,
    roots: State<Roots>,
    /// Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.
    paths: Vec<String>,
) -> Result<Text, ToolError> {
    if paths.is_empty() {
        return Err(ToolError::new(
            "Input validation error: paths: Array must contain at least 1 element(s)",
        ));
    }
    if paths.len() > 1000 {
        return Err(ToolError::new("Too many paths: at most 1000 per call"));
    }
    let allowed = roots.current(&ctx).await;
    let mut total = 0u64;
    let results: Vec<String> = paths
        .iter()
        .map(|p| {
            let read = valid(p, &allowed, &roots).and_then(|real| {
                if total > fsops::MAX_READ {
                    return Err(FsError::other(format!(
                        "the files read before this one already hold {} bytes",
                        fsops::MAX_READ
                    )));
                }
                read_text(&real, &allowed)
            });
            match read {
                Ok(content) => {
                    total += content.len() as u64;
                    format!("{p}:\n{content}\n")
                }
                Err(e) => format!("{p}: Error - {e}"),
            }
        })
        .collect();
    Ok(Text(results.join("\n---\n")))
}

/// A time as JavaScript's `Date.prototype.toString` writes it, in UTC.
pub fn js_date(time: std::time::SystemTime) -> String {
    let secs = match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    };
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{} {} {day:02} {year:04} {:02}:{:02}:{:02} GMT+0000 (Coordinated Universal Time)",
        WEEKDAYS[days.rem_euclid(7) as usize],
        MONTHS[(month - 1) as usize],
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Retrieve detailed metadata about a file or directory. Returns comprehensive information
/// including size, creation time, last modified time, permissions, and type. This tool is
/// perfect for understanding file characteristics without reading the actual content. Only
/// works within allowed directories.
#[tool(
    description = "Retrieve detailed metadata about a file or directory. Returns comprehensive \
     information including size, creation time, last modified time, permissions, and \
     type. This tool is perfect for understanding file characteristics without \
     reading the actual content. Only works within allowed directories.",
    title = "Get File Info",
    read_only,
    open_world = false
)]
pub async fn get_file_info(
    ctx: Context,
    roots: State<Roots>,
    path: String,
) -> Result<Text, ToolError> {
    use std::os::unix::fs::PermissionsExt;
    let allowed = roots.current(&ctx).await;
    let real = valid(&path, &allowed, &roots)?;
    let meta = fsops::metadata(&real, &allowed)?;
    let epoch = std::time::UNIX_EPOCH;
    let mode = format!("{:o}", meta.permissions().mode());
    let text = [
        format!("size: {}", meta.len()),
        format!("created: {}", js_date(meta.created().unwrap_or(epoch))),
        format!("modified: {}", js_date(meta.modified().unwrap_or(epoch))),
        format!("accessed: {}", js_date(meta.accessed().unwrap_or(epoch))),
        format!("isDirectory: {}", meta.is_dir()),
        format!("isFile: {}", meta.is_file()),
        format!("permissions: {}", &mode[mode.len().saturating_sub(3)..]),
    ];
    Ok(Text(text.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_javascript_writes_them() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_796_409_547);
        assert_eq!(
            js_date(t),
            "Fri Dec 04 2026 18:39:07 GMT+0000 (Coordinated Universal Time)"
        );
        assert_eq!(
            js_date(std::time::UNIX_EPOCH),
            "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"
        );
    }

    #[test]
    fn urls_and_mime_types() {
        assert_eq!(file_url("/a b/c#d.bin"), "file:///a%20b/c%23d.bin");
        assert_eq!(mime_of("/x/Y.PNG"), "image/png");
        assert_eq!(mime_of("/x/y"), "application/octet-stream");
    }
}
