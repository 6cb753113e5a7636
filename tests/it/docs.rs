//! The docs name everything they claim to list: every feature of `mcp-runtime/Cargo.toml` in the
//! crate docs' feature list (`mcp-runtime/src/lib.rs`) and in README.md's feature table, every
//! feature of `mcp-io` and `mcp-client` in their crate docs' feature lists, and every module of
//! `mcp-runtime/src`, `mcp-io/src` and `mcp-client/src` (each module with a file of its own,
//! found by following the `mod` declarations as `module_cycles` does) in that crate's module
//! table of ARCHITECTURE.md (the section "`<folder>`, module by module").
//!
//! A module is in the table when a row names it in its first cell (`` `http/guard` ``), or when a
//! row names one of its ancestors there (`` `http/*` ``, `` `connection` ``) and mentions it in
//! backticks by the rest of its path or more of it (`` `guard` ``, `` `session/table` ``,
//! `` `connection/flights` ``). A folder module is also in the table when a row names one of
//! its descendants in its first cell (`` `dispatch/route` `` lists `dispatch`).
//!
//! ARCHITECTURE.md's `impl Server` table is checked both ways too: a file of `mcp-runtime/src`
//! holds an `impl Server` (or `impl ServerBuilder`) exactly when its row says so, and one at most.

use std::path::Path;

use crate::module_cycles::{Crate, ModPath};

fn workspace_file(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {}: {e}", full.display()))
}

/// The features of a manifest's `[features]` table, `default` left out, in order.
fn features(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') && !line.starts_with("[\"") {
            inside = line == "[features]";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if !name.is_empty()
                && name != "default"
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            {
                out.push(name.to_owned());
            }
        }
    }
    out
}

/// The lines of the section that starts with the line `heading`, up to the next heading of the
/// same or a higher level (`#` marks, after `prefix`, which is `//! ` in crate docs).
fn section<'a>(text: &'a str, prefix: &str, heading: &str) -> Vec<&'a str> {
    let level = heading.bytes().take_while(|&b| b == b'#').count();
    let mut lines = text.lines().map(|l| {
        l.strip_prefix(prefix)
            .unwrap_or(if l == prefix.trim_end() { "" } else { l })
    });
    assert!(lines.any(|l| l == heading), "no `{heading}` section found");
    lines
        .take_while(|l| {
            let marks = l.bytes().take_while(|&b| b == b'#').count();
            !(marks > 0 && marks <= level && l.as_bytes().get(marks) == Some(&b' '))
        })
        .collect()
}

/// The features of `features` that no line of `lines` starts with `start` + the backticked name.
fn missing_features(features: &[String], lines: &[&str], start: &str) -> Vec<String> {
    features
        .iter()
        .filter(|f| {
            let item = format!("{start}`{f}`");
            !lines.iter().any(|l| l.trim_start().starts_with(&item))
        })
        .cloned()
        .collect()
}

/// The backticked names of `text` (`` `a/b` `` gives `a/b`).
fn ticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// A name of the table as a module path: `http/*` and `http` are both `["http"]`.
fn as_path(name: &str) -> ModPath {
    name.trim_end_matches("/*")
        .split('/')
        .map(str::to_owned)
        .collect()
}

/// The modules of `modules` that no row of `rows` covers (see the module docs).
fn missing_modules(rows: &[&str], modules: &[ModPath]) -> Vec<String> {
    let covered = |module: &ModPath| {
        rows.iter().any(|row| {
            let mut cells = row.trim().trim_start_matches('|').split('|');
            let first = cells.next().unwrap_or_default();
            let mentions = ticked(row);
            ticked(first).into_iter().map(as_path).any(|named| {
                if named.starts_with(module) {
                    return true;
                }
                if named.is_empty() || !module.starts_with(&named) {
                    return false;
                }
                let rest = module.len() - named.len();
                mentions.iter().any(|t| {
                    let t = as_path(t);
                    t.len() >= rest && module.ends_with(&t)
                })
            })
        })
    };
    modules
        .iter()
        .filter(|m| !covered(m))
        .map(|m| m.join("/"))
        .collect()
}

/// The rows of ARCHITECTURE.md's module table of the crate in folder `krate` (header and
/// separator left out).
fn module_rows<'a>(architecture: &'a str, krate: &str) -> Vec<&'a str> {
    section(architecture, "", &format!("## `{krate}`, module by module"))
        .into_iter()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| module |"))
        .collect()
}

/// Every module of the crate in folder `krate` with a file of its own (the root left out), as
/// paths.
fn modules_of(krate: &str) -> Vec<ModPath> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |p: &Path| std::fs::read_to_string(workspace.join(p)).ok();
    let krate = Crate::load(&read, &Path::new(krate).join("src/lib.rs"));
    let mut modules: Vec<ModPath> = krate
        .files
        .iter()
        .map(|(m, ..)| m.clone())
        .filter(|m| !m.is_empty())
        .collect();
    modules.sort();
    modules
}

#[test]
fn every_feature_is_in_the_crate_docs_and_the_readme() {
    let features = features(&workspace_file("mcp-runtime/Cargo.toml"));
    assert!(
        features.len() >= 7 && features.iter().any(|f| f == "legacy-sse"),
        "{features:?}"
    );
    let lib = workspace_file("mcp-runtime/src/lib.rs");
    let lib_list = section(&lib, "//! ", "# Cargo features");
    let readme = workspace_file("README.md");
    let readme_table = section(&readme, "", "### Cargo features");
    let in_lib = missing_features(&features, &lib_list, "- ");
    let in_readme = missing_features(&features, &readme_table, "| ");
    assert!(
        in_lib.is_empty() && in_readme.is_empty(),
        "features of mcp-runtime/Cargo.toml missing from lib.rs's `# Cargo features` list: \
         {in_lib:?}; from README.md's `### Cargo features` table: {in_readme:?}"
    );
    // And nothing listed that is not a feature.
    for (name, lines, start) in [
        ("lib.rs", &lib_list, "- `"),
        ("README.md", &readme_table, "| `"),
    ] {
        for line in lines.iter().map(|l| l.trim_start()) {
            if let Some(rest) = line.strip_prefix(start) {
                let listed = rest.split('`').next().unwrap_or_default();
                assert!(
                    features.iter().any(|f| f == listed),
                    "{name} lists `{listed}`, which is not a feature of mcp-runtime"
                );
            }
        }
    }
}

/// The features of the crate in folder `krate` that its crate docs' `# Cargo features` list
/// leaves out, and the names that list gives that are not features.
fn undocumented_features(krate: &str) -> (Vec<String>, Vec<String>) {
    let features = features(&workspace_file(&format!("{krate}/Cargo.toml")));
    let lib = workspace_file(&format!("{krate}/src/lib.rs"));
    let list = section(&lib, "//! ", "# Cargo features");
    let missing = missing_features(&features, &list, "- ");
    let unknown = list
        .iter()
        .filter_map(|l| l.trim_start().strip_prefix("- `"))
        .map(|rest| rest.split('`').next().unwrap_or_default().to_owned())
        .filter(|listed| !features.contains(listed))
        .collect();
    (missing, unknown)
}

#[test]
fn every_feature_of_the_io_and_client_crates_is_in_their_crate_docs() {
    for (krate, one) in [("mcp-io", "fetch"), ("mcp-client", "oauth")] {
        assert!(
            features(&workspace_file(&format!("{krate}/Cargo.toml"))).contains(&one.to_owned()),
            "{krate} has no feature {one}"
        );
        let (missing, unknown) = undocumented_features(krate);
        assert!(
            missing.is_empty() && unknown.is_empty(),
            "{krate}/src/lib.rs's `# Cargo features` list leaves out {missing:?} and lists \
             {unknown:?}, which are not features"
        );
    }
}

#[test]
fn every_module_is_in_the_architecture_table() {
    let architecture = workspace_file("ARCHITECTURE.md");
    for (krate, one) in [
        ("mcp-runtime", &["http", "auth", "gate"][..]),
        ("mcp-io", &["fetch"][..]),
        ("mcp-client", &["oauth", "flow"][..]),
    ] {
        let modules = modules_of(krate);
        assert!(modules.iter().any(|m| m == one), "{krate}: {modules:?}");
        let missing = missing_modules(&module_rows(&architecture, krate), &modules);
        assert!(
            missing.is_empty(),
            "modules of {krate}/src missing from ARCHITECTURE.md's module table: {missing:?}"
        );
    }
}

/// The types whose `impl` blocks ARCHITECTURE.md places file by file.
const PLACED: [&str; 2] = ["Server", "ServerBuilder"];

/// How many inherent `impl` blocks of each of [`PLACED`] `items` hold (inline modules
/// included, test-only ones left out).
fn impl_blocks(items: &[syn::Item], counts: &mut [usize; 2]) {
    for item in items {
        match item {
            syn::Item::Impl(block) if block.trait_.is_none() => {
                if let syn::Type::Path(ty) = &*block.self_ty {
                    let name = ty.path.segments.last().map(|s| s.ident.to_string());
                    if let Some(i) = PLACED.iter().position(|p| Some(*p) == name.as_deref()) {
                        counts[i] += 1;
                    }
                }
            }
            syn::Item::Mod(module) => {
                let test_only = module.attrs.iter().any(|a| {
                    a.path().is_ident("cfg")
                        && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
                });
                if let (false, Some((_, items))) = (test_only, &module.content) {
                    impl_blocks(items, counts);
                }
            }
            _ => {}
        }
    }
}

/// The table of `## `impl Server` and `impl ServerBuilder`, file by file`: each file, as a
/// module path, with whether it may hold an `impl` of each of [`PLACED`].
fn placed_rows(architecture: &str) -> Vec<(ModPath, [bool; 2])> {
    section(
        architecture,
        "",
        "## `impl Server` and `impl ServerBuilder`, file by file",
    )
    .into_iter()
    .filter(|l| l.starts_with("| `"))
    .map(|l| {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        let file = cells[1].trim_matches('`');
        let module = as_path(file.strip_suffix("/mod").unwrap_or(file));
        (module, [cells[2] != "—", cells[3] != "—"])
    })
    .collect()
}

#[test]
fn server_and_builder_impls_are_where_the_architecture_table_says() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |p: &Path| std::fs::read_to_string(workspace.join(p)).ok();
    let krate = Crate::load(&read, Path::new("mcp-runtime/src/lib.rs"));
    let rows = placed_rows(&workspace_file("ARCHITECTURE.md"));
    assert!(rows.len() > 5, "{rows:?}");
    let mut wrong = Vec::new();
    for (module, path, file) in &krate.files {
        let mut counts = [0; 2];
        impl_blocks(&file.items, &mut counts);
        let allowed = rows
            .iter()
            .find(|(m, _)| m == module)
            .map_or([false; 2], |(_, a)| *a);
        for (i, ty) in PLACED.iter().enumerate() {
            match (counts[i], allowed[i]) {
                (0, false) | (1, true) => {}
                (0, true) => wrong.push(format!(
                    "{}: the table says it has an `impl {ty}`, it has none",
                    path.display()
                )),
                (n, _) => wrong.push(format!(
                    "{}: {n} `impl {ty}` blocks (the table allows {})",
                    path.display(),
                    usize::from(allowed[i])
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's `impl Server` table and the code disagree:\n{}",
        wrong.join("\n")
    );
}

/// The checks themselves, on made-up documents.
mod checker {
    use super::*;

    fn paths(names: &[&str]) -> Vec<ModPath> {
        names.iter().map(|n| as_path(n)).collect()
    }

    #[test]
    fn features_are_read_from_the_features_table_only() {
        let manifest = "[package]\nname = \"x\"\n[features]\ndefault = [\"a\"]\na = []\n## doc\nb-c = [\n  \"dep:y\",\n]\n[dependencies]\nz = \"1\"\n";
        assert_eq!(features(manifest), ["a", "b-c"]);
    }

    #[test]
    fn a_feature_left_out_of_a_list_is_named() {
        let lib = "//! # Cargo features\n//!\n//! - `a` (default): one\n//!   `b` is mentioned, not listed\n//!\n//! # Next\n//! - `b`: too late\n";
        let lines = section(lib, "//! ", "# Cargo features");
        let features = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(missing_features(&features, &lines, "- "), ["b"]);
        let readme = "### Cargo features\n\n| feature | default |\n|---|---|\n| `b` | no |\n## Later\n| `a` | yes |\n";
        let lines = section(readme, "", "### Cargo features");
        assert_eq!(missing_features(&features, &lines, "| "), ["a"]);
    }

    #[test]
    fn a_module_is_covered_by_its_row_or_its_ancestors_row() {
        let rows = [
            "| `registry/record` | records |",
            "| `http/*` | `guard` (Host), `session` (a session; `session/table`: the LRU) |",
            "| `connection` | one connection; `connection/flights` bounds them |",
            "| `schema`, `wire` | leaves |",
            "| `cli/*` | the command line: `run`, table (not ticked) |",
        ];
        let modules = paths(&[
            "registry/record",
            "registry/seen",
            "http",
            "http/guard",
            "http/session",
            "http/session/table",
            "http/session/other",
            "connection",
            "connection/flights",
            "connection/spare",
            "wire",
            "cli/run",
            "cli/table",
            "registry",
            "tasks",
            "tasks/store",
        ]);
        assert_eq!(
            missing_modules(&rows, &modules),
            [
                "registry/seen",
                "http/session/other",
                "connection/spare",
                "cli/table",
                "tasks",
                "tasks/store"
            ]
        );
    }

    #[test]
    fn the_module_table_is_the_section_s_table_only() {
        let doc = "# A\n| `x` | before |\n## `mcp-runtime`, module by module\ntext\n\n| module | owns |\n|---|---|\n| `y` | in |\n\nafter\n## Next\n| `z` | other table |\n";
        assert_eq!(module_rows(doc, "mcp-runtime"), ["| `y` | in |"]);
    }
}
