//! Hostile paths against the filesystem server: traversal, symbolic links out of the allowed
//! directory, device files, FIFOs and sockets, huge files, and races between the check and the
//! use. Every case is refused with its exact message, and a sentinel file outside the allowed
//! directory keeps its content.

use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use mcp_runtime::testing::{self, Session};
use serde_json::{Value, json};

const SENTINEL: &str = "SENTINEL\n";

/// A fresh tree: `root` (allowed) and `out` (outside, holding `secret.txt`).
struct Tree {
    base: PathBuf,
    root: String,
    out: String,
}

impl Tree {
    fn new(name: &str) -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let tmp = std::fs::canonicalize(std::env::temp_dir()).unwrap();
        let base = tmp.join(format!("fs-hostile-{}-{name}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("root")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/secret.txt"), SENTINEL).unwrap();
        std::fs::write(base.join("root/a.txt"), "inside\n").unwrap();
        let s = |p: &str| base.join(p).to_string_lossy().into_owned();
        Self {
            root: s("root"),
            out: s("outside"),
            base,
        }
    }

    fn r(&self, rel: &str) -> String {
        format!("{}/{rel}", self.root)
    }

    fn o(&self, rel: &str) -> String {
        format!("{}/{rel}", self.out)
    }

    fn secret_unchanged(&self) {
        assert_eq!(
            std::fs::read_to_string(self.o("secret.txt")).unwrap(),
            SENTINEL
        );
        let names: Vec<String> = std::fs::read_dir(&self.out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["secret.txt"], "nothing was created outside");
    }

    fn outside_msg(&self, path: &str) -> String {
        format!(
            "Access denied - path outside allowed directories: {path} not in {}",
            self.root
        )
    }

    fn symlink_msg(&self, target: &str) -> String {
        format!(
            "Access denied - symlink target outside allowed directories: {target} not in {}",
            self.root
        )
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

async fn session(dirs: &[&str]) -> Session {
    let args: Vec<String> = dirs.iter().map(|d| (*d).to_owned()).collect();
    let found = mcp_server_filesystem::roots::from_args(&args, "/");
    let server = mcp_server_filesystem::server(found.dirs).build().unwrap();
    testing::connect(&server).await.unwrap()
}

/// The call's `isError` and its text, within a bound far above what any call takes (a FIFO
/// that blocked the read would hang here instead).
async fn call(s: &Session, tool: &str, args: Value) -> (bool, String) {
    let result = tokio::time::timeout(Duration::from_secs(60), s.client().call_tool(tool, args))
        .await
        .expect("the call returned")
        .unwrap();
    let text: Vec<&str> = result.content.iter().filter_map(|c| c.as_text()).collect();
    (result.is_error == Some(true), text.join("\n"))
}

async fn refused(s: &Session, tool: &str, args: Value, message: &str) {
    assert_eq!(
        call(s, tool, args.clone()).await,
        (true, message.to_owned()),
        "{tool} {args}"
    );
}

#[tokio::test]
async fn traversal_is_refused() {
    let t = Tree::new("traversal");
    let s = session(&[&t.root]).await;
    let secret = t.o("secret.txt");
    for path in [
        secret.clone(),
        t.r("../outside/secret.txt"),
        t.r("sub/../../outside/secret.txt"),
        format!("{}//..//outside/secret.txt", t.root),
    ] {
        refused(
            &s,
            "read_text_file",
            json!({ "path": path }),
            &t.outside_msg(&secret),
        )
        .await;
    }
    // Relative paths resolve against the allowed directory.
    let rel = json!({ "path": "../outside/secret.txt" });
    refused(&s, "read_text_file", rel, &t.outside_msg(&secret)).await;
    // A root's name as a prefix is not the root.
    let sibling = format!("{}kit/x", t.root);
    refused(
        &s,
        "read_text_file",
        json!({ "path": sibling }),
        &t.outside_msg(&sibling),
    )
    .await;
    // Encoded tricks are names, not traversal: nothing outside is read.
    for name in [
        "%2e%2e/outside/secret.txt",
        "..\\outside\\secret.txt",
        "\u{ff0e}\u{ff0e}/outside/secret.txt",
    ] {
        let path = t.r(name);
        let msg = format!("ENOENT: no such file or directory, open '{path}'");
        refused(&s, "read_text_file", json!({ "path": path }), &msg).await;
    }
    // NUL bytes: never inside.
    let nul = t.r("a.txt\u{0}.png");
    refused(
        &s,
        "read_text_file",
        json!({ "path": nul }),
        &t.outside_msg(&nul),
    )
    .await;
    refused(
        &s,
        "write_file",
        json!({ "path": nul, "content": "x" }),
        &t.outside_msg(&nul),
    )
    .await;
    let win = "C:\\Windows\\win.ini";
    let msg = format!("Access denied - Windows-style path received on a POSIX host: {win}");
    refused(&s, "read_text_file", json!({ "path": win }), &msg).await;
    // Writes, moves and directories outside.
    let target = t.o("new.txt");
    let args = json!({ "path": target, "content": "PWNED" });
    refused(&s, "write_file", args, &t.outside_msg(&target)).await;
    let args = json!({ "source": t.r("a.txt"), "destination": t.r("../outside/a.txt") });
    refused(&s, "move_file", args, &t.outside_msg(&t.o("a.txt"))).await;
    let args = json!({ "path": t.r("../outside/made") });
    refused(&s, "create_directory", args, &t.outside_msg(&t.o("made"))).await;
    let args = json!({ "path": t.out, "pattern": "*" });
    refused(&s, "search_files", args, &t.outside_msg(&t.out)).await;
    t.secret_unchanged();
}

#[tokio::test]
async fn symbolic_links_out_of_the_root_are_refused() {
    let t = Tree::new("symlinks");
    let secret = t.o("secret.txt");
    symlink(&secret, t.r("file_link")).unwrap();
    symlink(&t.out, t.r("dir_link")).unwrap();
    symlink(t.r("chain2"), t.r("chain1")).unwrap();
    symlink(t.r("dir_link/secret.txt"), t.r("chain2")).unwrap();
    std::fs::create_dir(t.r("sub")).unwrap();
    symlink("../../outside", t.r("sub/up")).unwrap();
    symlink(t.o("missing.txt"), t.r("dangling")).unwrap();
    let s = session(&[&t.root]).await;
    let deny = t.symlink_msg(&secret);
    for path in [
        t.r("file_link"),
        t.r("dir_link/secret.txt"),
        t.r("chain1"),
        t.r("sub/up/secret.txt"),
    ] {
        refused(&s, "read_text_file", json!({ "path": path }), &deny).await;
        refused(
            &s,
            "read_text_file",
            json!({ "path": path, "tail": 1 }),
            &deny,
        )
        .await;
        refused(&s, "read_media_file", json!({ "path": path }), &deny).await;
        refused(&s, "get_file_info", json!({ "path": path }), &deny).await;
        let args = json!({ "path": path, "content": "PWNED\n" });
        refused(&s, "write_file", args, &deny).await;
        let edits = json!([{ "oldText": "SENTINEL", "newText": "PWNED" }]);
        refused(
            &s,
            "edit_file",
            json!({ "path": path, "edits": edits }),
            &deny,
        )
        .await;
    }
    let out_deny = t.symlink_msg(&t.out);
    refused(
        &s,
        "list_directory",
        json!({ "path": t.r("dir_link") }),
        &out_deny,
    )
    .await;
    refused(
        &s,
        "directory_tree",
        json!({ "path": t.r("dir_link") }),
        &out_deny,
    )
    .await;
    let args = json!({ "path": t.r("dir_link/new.txt"), "content": "PWNED" });
    refused(&s, "write_file", args, &out_deny).await;
    refused(
        &s,
        "create_directory",
        json!({ "path": t.r("sub/up/evil") }),
        &out_deny,
    )
    .await;
    let args = json!({ "source": t.r("a.txt"), "destination": t.r("dir_link/a.txt") });
    refused(&s, "move_file", args, &out_deny).await;
    // A dangling link is no way to create a file outside.
    let msg = format!("Parent directory does not exist: {}", t.root);
    let args = json!({ "path": t.r("dangling"), "content": "PWNED" });
    refused(&s, "write_file", args, &msg).await;
    // read_multiple_files refuses each link and reads the rest.
    let paths = json!([t.r("file_link"), t.r("a.txt")]);
    let (is_error, text) = call(&s, "read_multiple_files", json!({ "paths": paths })).await;
    let want = format!(
        "{}: Error - {deny}\n---\n{}:\ninside\n\n",
        t.r("file_link"),
        t.r("a.txt")
    );
    assert_eq!((is_error, text), (false, want));
    // Searches and trees never follow a link out.
    let args = json!({ "path": t.root, "pattern": "**/secret.txt" });
    assert_eq!(
        call(&s, "search_files", args).await,
        (false, "No matches found".to_owned())
    );
    assert!(std::fs::symlink_metadata(t.o("missing.txt")).is_err());
    t.secret_unchanged();
}

#[tokio::test]
async fn devices_fifos_and_sockets_are_refused() {
    let t = Tree::new("devices");
    let s = session(&["/dev"]).await;
    for dev in ["/dev/zero", "/dev/urandom"] {
        let msg = format!("Access denied - {dev} is a character device, not a regular file");
        refused(&s, "read_text_file", json!({ "path": dev }), &msg).await;
        refused(
            &s,
            "read_text_file",
            json!({ "path": dev, "head": 1 }),
            &msg,
        )
        .await;
        refused(&s, "read_media_file", json!({ "path": dev }), &msg).await;
    }
    let msg = "Access denied - /dev/null is a character device, not a regular file";
    refused(
        &s,
        "write_file",
        json!({ "path": "/dev/null", "content": "x" }),
        msg,
    )
    .await;

    let status = std::process::Command::new("mkfifo")
        .arg(t.r("fifo"))
        .status()
        .unwrap();
    assert!(status.success());
    let _listener = std::os::unix::net::UnixListener::bind(t.r("sock")).unwrap();
    symlink("/dev/zero", t.r("zero")).unwrap();
    let s = session(&[&t.root]).await;
    let fifo = format!(
        "Access denied - {} is a FIFO, not a regular file",
        t.r("fifo")
    );
    refused(&s, "read_text_file", json!({ "path": t.r("fifo") }), &fifo).await;
    refused(
        &s,
        "read_text_file",
        json!({ "path": t.r("fifo"), "tail": 3 }),
        &fifo,
    )
    .await;
    refused(&s, "read_media_file", json!({ "path": t.r("fifo") }), &fifo).await;
    let edits = json!([{ "oldText": "a", "newText": "b" }]);
    refused(
        &s,
        "edit_file",
        json!({ "path": t.r("fifo"), "edits": edits }),
        &fifo,
    )
    .await;
    refused(
        &s,
        "write_file",
        json!({ "path": t.r("fifo"), "content": "x" }),
        &fifo,
    )
    .await;
    let sock = format!(
        "Access denied - {} is a socket, not a regular file",
        t.r("sock")
    );
    refused(&s, "read_text_file", json!({ "path": t.r("sock") }), &sock).await;
    let zero = t.symlink_msg("/dev/zero");
    refused(&s, "read_text_file", json!({ "path": t.r("zero") }), &zero).await;
    // The FIFO is still a FIFO: nothing replaced it.
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(t.r("fifo"))
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

#[tokio::test]
async fn huge_files_are_bounded() {
    let t = Tree::new("huge");
    let big = t.r("sparse.bin");
    let size: u64 = 8 * 1024 * 1024 * 1024;
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(size).unwrap();
    drop(file);
    let lines = t.r("lines.bin");
    {
        use std::os::unix::fs::FileExt;
        let file = std::fs::File::create(&lines).unwrap();
        file.write_all_at(b"first\nsecond\nthird\n", 0).unwrap();
        file.write_all_at(b"\nnext to last\nlast", size - 18)
            .unwrap();
    }
    let s = session(&[&t.root]).await;
    let limit = mcp_server_filesystem::MAX_READ;
    let too_large = |p: &str| {
        format!(
            "File too large: {p} is {size} bytes, more than the {limit} bytes read at once; \
             use head or tail to read part of it"
        )
    };
    refused(
        &s,
        "read_text_file",
        json!({ "path": big }),
        &too_large(&big),
    )
    .await;
    refused(
        &s,
        "read_media_file",
        json!({ "path": big }),
        &too_large(&big),
    )
    .await;
    let edits = json!([{ "oldText": "a", "newText": "b" }]);
    let args = json!({ "path": big, "edits": edits, "dryRun": true });
    refused(&s, "edit_file", args, &too_large(&big)).await;
    let (is_error, text) = call(&s, "read_multiple_files", json!({ "paths": [big] })).await;
    assert_eq!(
        (is_error, text),
        (false, format!("{big}: Error - {}", too_large(&big)))
    );
    // head and tail read only what they need.
    let head = json!({ "path": lines, "head": 2 });
    assert_eq!(
        call(&s, "read_text_file", head).await,
        (false, "first\nsecond".to_owned())
    );
    let tail = json!({ "path": lines, "tail": 2 });
    assert_eq!(
        call(&s, "read_text_file", tail).await,
        (false, "next to last\nlast".to_owned())
    );
    // Lines longer than the limit: refused after reading the limit, not the file.
    let msg = format!(
        "File too large: the lines asked of {big} span more than the {limit} bytes read at once"
    );
    refused(
        &s,
        "read_text_file",
        json!({ "path": big, "head": 1 }),
        &msg,
    )
    .await;
    refused(
        &s,
        "read_text_file",
        json!({ "path": big, "tail": 1 }),
        &msg,
    )
    .await;
}

/// Swaps `root/swap` between a real directory (holding `f.txt` = "inside") and a symbolic
/// link to the outside directory (holding `f.txt` = the sentinel), until stopped.
fn swapper(t: &Tree, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    std::fs::create_dir(t.r("real")).unwrap();
    std::fs::write(t.r("real/f.txt"), "inside\n").unwrap();
    std::fs::write(t.o("f.txt"), SENTINEL).unwrap();
    symlink(&t.out, t.r("link")).unwrap();
    let (real, link, swap) = (t.r("real"), t.r("link"), t.r("swap"));
    std::thread::spawn(move || {
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            for held in [&real, &link] {
                std::fs::rename(held, &swap).unwrap();
                std::fs::rename(&swap, held).unwrap();
                swaps += 1;
            }
        }
        swaps
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swaps_between_check_and_use_never_reach_outside() {
    let t = Tree::new("race");
    let s = session(&[&t.root]).await;
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(&t, stop.clone());
    let target = t.r("swap/f.txt");
    let reads = [
        t.symlink_msg(&t.o("f.txt")),
        t.symlink_msg(&t.out),
        format!("ENOENT: no such file or directory, open '{target}'"),
        format!("Parent directory does not exist: {}", t.r("swap")),
        format!(
            "Access denied - {target} was opened as {}, outside the allowed directories",
            t.o("f.txt")
        ),
    ];
    let writes = [
        t.symlink_msg(&t.o("f.txt")),
        t.symlink_msg(&t.out),
        format!("ENOENT: no such file or directory, open '{target}'"),
        format!("Parent directory does not exist: {}", t.r("swap")),
        format!(
            "Access denied - {} is a symbolic link (changed after it was checked)",
            t.r("swap")
        ),
        format!(
            "Access denied - {} was opened as {}, outside the allowed directories",
            t.r("swap"),
            t.out
        ),
    ];
    let lists = [
        t.symlink_msg(&t.out),
        format!("Parent directory does not exist: {}", t.root),
        format!(
            "ENOENT: no such file or directory, scandir '{}'",
            t.r("swap")
        ),
        format!(
            "Access denied - {} is a symbolic link (changed after it was checked)",
            t.r("swap")
        ),
    ];
    let (mut read_ok, mut write_ok) = (0, 0);
    for _ in 0..400 {
        let (is_error, text) = call(&s, "read_text_file", json!({ "path": target })).await;
        if is_error {
            assert!(reads.contains(&text), "unexpected read refusal: {text}");
        } else {
            assert_eq!(text, "inside\n");
            read_ok += 1;
        }
        let args = json!({ "path": target, "content": "inside\n" });
        let (is_error, text) = call(&s, "write_file", args).await;
        if is_error {
            assert!(writes.contains(&text), "unexpected write refusal: {text}");
        } else {
            assert_eq!(text, format!("Successfully wrote to {target}"));
            write_ok += 1;
        }
        let (is_error, text) = call(&s, "list_directory", json!({ "path": t.r("swap") })).await;
        if is_error {
            assert!(lists.contains(&text), "unexpected list refusal: {text}");
        } else {
            assert_eq!(text, "[FILE] f.txt");
        }
        assert_eq!(std::fs::read_to_string(t.o("f.txt")).unwrap(), SENTINEL);
    }
    stop.store(true, Ordering::Relaxed);
    assert!(swaps.join().unwrap() > 0);
    // Whatever the interleaving, the outside file never changed and nothing was added there.
    assert_eq!(std::fs::read_to_string(t.o("f.txt")).unwrap(), SENTINEL);
    let mut names: Vec<String> = std::fs::read_dir(&t.out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["f.txt", "secret.txt"]);
    assert_eq!(
        std::fs::read_to_string(t.r("real/f.txt")).unwrap(),
        "inside\n"
    );
    // Calls that found the real directory succeeded (it holds `swap` a quarter of the time).
    assert!(read_ok + write_ok > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_swapped_for_a_link_is_never_followed() {
    let t = Tree::new("file-race");
    let s = session(&[&t.root]).await;
    std::fs::write(t.r("plain"), "inside\n").unwrap();
    symlink(t.o("secret.txt"), t.r("evil")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let (plain, evil, swapped) = (t.r("plain"), t.r("evil"), t.r("target"));
    let target = swapped.clone();
    let flag = stop.clone();
    let swapper = std::thread::spawn(move || {
        while !flag.load(Ordering::Relaxed) {
            for held in [&plain, &evil] {
                std::fs::rename(held, &swapped).unwrap();
                std::fs::rename(&swapped, held).unwrap();
            }
        }
    });
    let allowed = [
        t.symlink_msg(&t.o("secret.txt")),
        format!("ENOENT: no such file or directory, open '{target}'"),
        format!("Access denied - {target} is a symbolic link (changed after it was checked)"),
        format!("Parent directory does not exist: {}", t.root),
    ];
    for _ in 0..400 {
        let (is_error, text) = call(&s, "read_text_file", json!({ "path": target })).await;
        assert!(!text.contains("SENTINEL"), "read outside: {text}");
        if is_error {
            assert!(allowed.contains(&text), "unexpected read refusal: {text}");
        } else {
            assert_eq!(text, "inside\n");
        }
        let edits = json!([{ "oldText": "inside", "newText": "inside" }]);
        let (is_error, text) =
            call(&s, "edit_file", json!({ "path": target, "edits": edits })).await;
        if is_error {
            let edit_ok =
                allowed.contains(&text) || text == "Could not find exact match for edit:\ninside";
            assert!(edit_ok, "unexpected edit refusal: {text}");
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    t.secret_unchanged();
    // A write that won the race replaced the link itself (rename), never what it points to.
    for held in ["plain", "evil"] {
        let meta = std::fs::symlink_metadata(t.r(held)).unwrap();
        if !meta.file_type().is_symlink() {
            assert_eq!(std::fs::read_to_string(t.r(held)).unwrap(), "inside\n");
        }
    }
}
