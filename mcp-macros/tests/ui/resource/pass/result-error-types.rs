//! A resource may fail with a `String` (-32602 with the text), any std error (masked), and `?`
//! converts into `ResourceError` along the same line.

use mcp_runtime::prelude::*;

/// A year's report.
#[resource(uri = "reports://{year}")]
async fn report(year: String) -> Result<String, String> {
    if year.len() != 4 {
        return Err(format!("{year} is not a year"));
    }
    Ok(format!("report {year}"))
}

/// A file.
#[resource(uri = "files://{name}")]
async fn file(name: String) -> Result<String, ResourceError> {
    if name.is_empty() {
        return Err("a name, please".into());
    }
    let n: u32 = name.parse()?;
    Ok(std::fs::read_to_string(format!("/{n}"))?)
}

fn main() {
    let _ = (report::RESOURCE, file::RESOURCE);
}
