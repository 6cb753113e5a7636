//! A client-only build compiles no server code and no HTTP server stack: `cargo tree` of
//! `mcp-runtime-client` (every feature, its OAuth included) and of `mcp-call` (a program on the
//! client crate alone) has no `mcp-runtime` (so none of its server modules), no `axum`,
//! `axum-core` or `matchit`, and `hyper` and `hyper-util` without their `server` features.
//! `mcp-runtime` with `client` (or `client-oauth`) alone pulls no `axum` or `matchit` either
//! (it is the server crate, so its own modules are compiled there).
//!
//! `tower-service` is not on the list: it is the `Service` trait, which `reqwest`'s HTTP client
//! stack (`hyper-util`'s client, `tower`) uses too, and no server comes with it.
//!
//! The trees are read offline (`cargo tree --offline`: the workspace's dependencies are fetched
//! by the build of this test), each within a time limit.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long one `cargo tree` may take.
const LIMIT: Duration = Duration::from_secs(120);

/// One package of a tree: its name and its features.
#[derive(Debug)]
struct Package {
    name: String,
    features: Vec<String>,
}

/// `cargo tree --offline -e normal --prefix none -f '{p} {f}'` with `args`, one package a line.
fn tree(args: &[&str]) -> Vec<Package> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut child = Command::new(cargo)
        .current_dir(&workspace)
        .args(["tree", "--offline", "-e", "normal", "--prefix", "none"])
        .args(["-f", "{p} {f}"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cargo runs");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let (mut text, mut errors) = (String::new(), String::new());
        let _ = out.read_to_string(&mut text);
        let _ = err.read_to_string(&mut errors);
        let _ = tx.send((text, errors));
    });
    let Ok((text, errors)) = rx.recv_timeout(LIMIT) else {
        let _ = child.kill();
        panic!("cargo tree {args:?} took more than {LIMIT:?}");
    };
    let status = child.wait().expect("cargo tree ends");
    assert!(status.success(), "cargo tree {args:?} failed: {errors}");
    text.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next()?.to_owned();
            // `{p}` is `name vX.Y.Z` (and a path for the workspace's own); `{f}` comes last.
            let features = line
                .rsplit_once(' ')
                .map(|(_, last)| last)
                .filter(|last| {
                    !last.starts_with('v') && !last.starts_with('(') && !last.starts_with("(*")
                })
                .map(|last| last.split(',').map(str::to_owned).collect())
                .unwrap_or_default();
            Some(Package { name, features })
        })
        .collect()
}

/// What a tree must not hold: the packages of the server side, and any `server` feature of
/// hyper's crates.
fn server_side(packages: &[Package]) -> Vec<String> {
    let mut found = Vec::new();
    for p in packages {
        let banned = matches!(
            p.name.as_str(),
            "mcp-runtime" | "mcp-runtime-macros" | "axum" | "axum-core" | "matchit"
        );
        if banned {
            found.push(p.name.clone());
        }
        if matches!(p.name.as_str(), "hyper" | "hyper-util") {
            for f in &p.features {
                if f.starts_with("server") {
                    found.push(format!("{} feature {f}", p.name));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

fn names(packages: &[Package]) -> Vec<&str> {
    packages.iter().map(|p| p.name.as_str()).collect()
}

#[test]
fn the_client_crate_pulls_no_server_code() {
    let packages = tree(&["-p", "mcp-runtime-client", "--all-features"]);
    let names = names(&packages);
    // The tree was read: the client, its HTTP client and its OAuth's crypto are in it.
    for wanted in [
        "mcp-runtime-client",
        "mcp-runtime-io",
        "mcp-runtime-core",
        "reqwest",
        "p256",
    ] {
        assert!(names.contains(&wanted), "no {wanted} in {names:?}");
    }
    let hyper = packages.iter().find(|p| p.name == "hyper").expect("hyper");
    assert!(hyper.features.iter().any(|f| f == "client"), "{hyper:?}");
    assert_eq!(server_side(&packages), Vec::<String>::new(), "{names:?}");
}

#[test]
fn a_client_only_program_pulls_no_server_code() {
    let packages = tree(&["-p", "mcp-call"]);
    assert!(names(&packages).contains(&"mcp-runtime-client"));
    assert_eq!(server_side(&packages), Vec::<String>::new());
}

#[test]
fn the_runtime_s_client_features_pull_no_http_server() {
    for features in ["client", "client-oauth"] {
        let packages = tree(&[
            "-p",
            "mcp-runtime",
            "--no-default-features",
            "--features",
            features,
        ]);
        let names = names(&packages);
        assert!(
            names.contains(&"mcp-runtime-client"),
            "{features}: {names:?}"
        );
        for banned in ["axum", "axum-core", "matchit"] {
            assert!(
                !names.contains(&banned),
                "{features} pulls {banned}: {names:?}"
            );
        }
        let hyper_server: Vec<&Package> = packages
            .iter()
            .filter(|p| matches!(p.name.as_str(), "hyper" | "hyper-util"))
            .filter(|p| p.features.iter().any(|f| f.starts_with("server")))
            .collect();
        assert!(hyper_server.is_empty(), "{features}: {hyper_server:?}");
    }
}

#[test]
fn the_package_lines_are_read_with_their_features() {
    // The shapes `cargo tree -f '{p} {f}'` prints.
    let line = "hyper v1.12.0 client,default,http1";
    let last = line.rsplit_once(' ').map(|(_, l)| l).unwrap();
    assert_eq!(last, "client,default,http1");
    let p = [
        Package {
            name: "hyper".into(),
            features: vec!["server".into(), "http1".into()],
        },
        Package {
            name: "axum".into(),
            features: vec![],
        },
        Package {
            name: "reqwest".into(),
            features: vec!["server-ish".into()],
        },
    ];
    assert_eq!(server_side(&p), ["axum", "hyper feature server"]);
}
