//! `skills!("dir")`: a skills directory read while compiling, checked by the extension's rules
//! (those of `mcp_core::skills`), hashed, and embedded (`include_bytes!`, so that cargo rebuilds
//! when a file changes) as a `Skills` value made from static data.

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::quote;
use sha2::{Digest, Sha256};
use syn::LitStr;

use mcp_core::skills;

/// Most files read from one skills directory.
const MAX_FILES: usize = 65_536;

pub(crate) fn run(input: TokenStream) -> TokenStream {
    let lit: LitStr = match syn::parse2(input) {
        Ok(lit) => lit,
        Err(e) => return e.to_compile_error(),
    };
    match expand(&lit) {
        Ok(tokens) => tokens,
        Err(errors) => {
            let errors = errors.iter().map(syn::Error::to_compile_error);
            // Still a `Skills` value, so that the rest of the crate type-checks.
            quote! {{ #(#errors)* ::mcp_runtime::skills::Skills::default() }}
        }
    }
}

/// Where the directory is (see [`resolve`]).
fn root(lit: &LitStr) -> Result<PathBuf, syn::Error> {
    resolve(&lit.value()).ok_or_else(|| {
        syn::Error::new(
            lit.span(),
            "`skills!` needs CARGO_MANIFEST_DIR (build with cargo)",
        )
    })
}

/// Where a path a macro reads is: relative to the invoking file's directory when it starts
/// with `./` or `../` (as `include_bytes!` resolves), else to `CARGO_MANIFEST_DIR` (`None`
/// when that is not set). `skills!` and `#[openapi::tools]` read their files by it.
pub(crate) fn resolve(given: &str) -> Option<PathBuf> {
    let path = Path::new(given);
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    if given.starts_with("./") || given.starts_with("../") {
        let file = proc_macro::Span::call_site().local_file();
        if let Some(dir) = file.as_deref().and_then(Path::parent) {
            return Some(dir.join(path));
        }
    }
    std::env::var_os("CARGO_MANIFEST_DIR").map(|manifest| PathBuf::from(manifest).join(path))
}

/// The files under `root`, by their `/`-separated paths (dot-files skipped).
fn walk(root: &Path, span: Span) -> Result<Vec<(String, PathBuf)>, syn::Error> {
    let fail = |what: &Path, e: std::io::Error| {
        syn::Error::new(span, format!("cannot read `{}`: {e}", what.display()))
    };
    let mut files = Vec::new();
    let mut pending = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, rel)) = pending.pop() {
        let entries: Result<Vec<_>, _> = std::fs::read_dir(&dir)
            .map_err(|e| fail(&dir, e))?
            .collect();
        let mut entries = entries.map_err(|e| fail(&dir, e))?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let kind = entry.file_type().map_err(|e| fail(&entry.path(), e))?;
            if kind.is_symlink() {
                return Err(syn::Error::new(
                    span,
                    format!("skill file {path}: symbolic links are not served"),
                ));
            } else if kind.is_dir() {
                pending.push((entry.path(), path));
            } else if files.len() == MAX_FILES {
                return Err(syn::Error::new(
                    span,
                    format!("more than {MAX_FILES} files"),
                ));
            } else {
                files.push((path, entry.path()));
            }
        }
    }
    files.sort();
    Ok(files)
}

fn expand(lit: &LitStr) -> Result<TokenStream, Vec<syn::Error>> {
    let span = lit.span();
    let root = root(lit).map_err(|e| vec![e])?;
    // Absolute, so that `include_bytes!` finds each file wherever the invocation is.
    let root = std::fs::canonicalize(&root).map_err(|e| {
        vec![syn::Error::new(
            span,
            format!("cannot read `{}`: {e}", root.display()),
        )]
    })?;
    let files = walk(&root, span).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let mut error = |path: &str, reason: String| {
        errors.push(syn::Error::new(
            span,
            format!("skill file {path}: {reason}"),
        ));
    };
    let mut read = Vec::new();
    for (path, full) in files {
        match std::fs::read(&full) {
            Ok(bytes) => read.push((path, full, bytes)),
            Err(e) => error(&path, format!("cannot be read: {e}")),
        }
    }
    let listed: Vec<(&str, &[u8])> = read.iter().map(|(p, _, b)| (p.as_str(), &b[..])).collect();
    if let Err(problems) = skills::layout::check(&listed) {
        for p in problems {
            error(&p.path, p.reason);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let entries = read.iter().map(|(path, full, bytes)| {
        let full = full.to_string_lossy();
        let digest = skills::digest_text(&Sha256::digest(bytes).into());
        quote! { (#path, ::core::include_bytes!(#full), #digest) }
    });
    Ok(quote! {{
        const FILES: &[(&str, &[u8], &str)] = &[#(#entries),*];
        ::mcp_runtime::skills::Skills::from_static(FILES)
    }})
}
