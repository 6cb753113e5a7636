"""The filesystem server against its original: one sequence of calls, both servers, compared.

Each server gets a fresh temporary directory tree made the same way (fixture below), is spawned
over stdio with that tree as its allowed directory, and receives the same calls (good and bad
input: reads with head/tail, media reads, edits with dry-run diffs, search, tree, moves,
traversal and symbolic links out of the tree). The script compares the tool lists, each call's
result (content, structuredContent, isError) or JSON-RPC error code, and the tree after the
calls (every path, file content and permission bits). Paths of the two trees are written as
$ROOT and $OUT before comparing.

A second session of each starts without directories and gets them from the client's roots
(roots/list), then from changed roots (notifications/roots/list_changed). Two last calls go to
ours alone: over Streamable HTTP (`mcp-server-filesystem DIR http 127.0.0.1:0`), and over stdio
in the stateless era (2026-07-28), which the original does not speak.

Differences that are ours on purpose are listed in ALLOWED (id -> the calls it covers); the
README's table of differences lists the same ids (checked here). Prints one line per compared
item; exits 1 on any other difference.

Usage: python difftest.py ORIGINAL_JS OURS_BIN README
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import ListRootsResult, Root

warnings.simplefilter("ignore", MCPDeprecationWarning)

# id -> labels of the compared items where ours differs on purpose (README: "Differences").
ALLOWED: dict[str, set[str]] = {
    "schema-dialect": {"tools/list schemas"},
    "server-info": {"serverInfo"},
    "validation-message": {"read_text_file missing path", "read_text_file path not a string", "read_multiple_files empty", "list_directory_with_sizes bad sortBy"},
    "fifo-refused": {"read_text_file fifo"},
    "symlink-size": {"list_directory_with_sizes root"},
    "unknown-tool": {"unknown tool"},
}

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def fixture(base: str) -> tuple[str, str]:
    """The tree: ROOT (allowed) and OUT (outside, with a sentinel)."""
    root = os.path.join(base, "root")
    out = os.path.join(base, "outside")
    os.makedirs(os.path.join(root, "sub", "deep"))
    os.makedirs(os.path.join(root, "node_modules", "pkg"))
    os.makedirs(os.path.join(root, "empty"))
    os.makedirs(out)
    files = {
        "a.txt": "alpha\nbeta\ngamma\ndelta\n",
        "b.md": "# Title\n\nsome text",
        "B.md": "upper\n",
        "crlf.txt": "one\r\ntwo\r\nthree\r\n",
        "code.py": "def f():\n    x = 1\n    return x\n",
        "ticks.md": "```\ncode\n```\n",
        "long.txt": "".join(f"line {i}\n" for i in range(1, 41)),
        "app.log": "log\n",
        "mode600.txt": "secret-ish\n",
        "sub/c.txt": "c\n",
        "sub/deep/d.txt": "d\n",
        "sub/deep/e.rs": "fn main() {}\n",
        "node_modules/pkg/index.js": "module.exports = 1;\n",
        "utf8.txt": "héllo wörld ☃\n",
        "sound.wav": "RIFF....WAVE",
        "data.bin": "\x00\x01\x02binary",
    }
    for rel, text in files.items():
        with open(os.path.join(root, rel), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    with open(os.path.join(root, "image.png"), "wb") as f:
        f.write(PNG)
    os.chmod(os.path.join(root, "mode600.txt"), 0o600)
    with open(os.path.join(out, "secret.txt"), "w") as f:
        f.write("SENTINEL\n")
    os.symlink(os.path.join(out, "secret.txt"), os.path.join(root, "link_out"))
    os.symlink(out, os.path.join(root, "dirlink_out"))
    os.symlink(os.path.join(root, "a.txt"), os.path.join(root, "link_in"))
    os.mkfifo(os.path.join(root, "fifo"))
    return root, out


def calls(root: str, out: str) -> list[tuple[str, str, dict[str, Any]]]:
    r = lambda p: os.path.join(root, p)  # noqa: E731
    return [
        ("list_allowed_directories", "list_allowed_directories", {}),
        ("read_text_file", "read_text_file", {"path": r("a.txt")}),
        ("read_text_file relative", "read_text_file", {"path": "a.txt"}),
        ("read_text_file head", "read_text_file", {"path": r("long.txt"), "head": 3}),
        ("read_text_file tail", "read_text_file", {"path": r("long.txt"), "tail": 3}),
        ("read_text_file tail crlf", "read_text_file", {"path": r("crlf.txt"), "tail": 2}),
        ("read_text_file head past end", "read_text_file", {"path": r("b.md"), "head": 10}),
        ("read_text_file head and tail", "read_text_file", {"path": r("a.txt"), "head": 1, "tail": 1}),
        ("read_text_file utf8", "read_text_file", {"path": r("utf8.txt")}),
        ("read_text_file missing", "read_text_file", {"path": r("nope.txt")}),
        ("read_text_file directory", "read_text_file", {"path": r("sub")}),
        ("read_text_file outside", "read_text_file", {"path": os.path.join(out, "secret.txt")}),
        ("read_text_file traversal", "read_text_file", {"path": r("../outside/secret.txt")}),
        ("read_text_file relative traversal", "read_text_file", {"path": "../outside/secret.txt"}),
        ("read_text_file symlink out", "read_text_file", {"path": r("link_out")}),
        ("read_text_file dir symlink out", "read_text_file", {"path": r("dirlink_out/secret.txt")}),
        ("read_text_file symlink in", "read_text_file", {"path": r("link_in")}),
        ("read_text_file windows path", "read_text_file", {"path": "C:\\Windows\\win.ini"}),
        ("read_text_file nul byte", "read_text_file", {"path": r("a.txt\u0000.png")}),
        ("read_text_file missing parent", "read_text_file", {"path": r("nodir/x.txt")}),
        ("read_text_file fifo", "read_text_file", {"path": r("fifo")}),
        ("read_text_file missing path", "read_text_file", {}),
        ("read_text_file path not a string", "read_text_file", {"path": 5}),
        ("read_file deprecated", "read_file", {"path": r("b.md")}),
        ("read_media_file png", "read_media_file", {"path": r("image.png")}),
        ("read_media_file wav", "read_media_file", {"path": r("sound.wav")}),
        ("read_media_file other", "read_media_file", {"path": r("data.bin")}),
        ("read_media_file outside", "read_media_file", {"path": r("link_out")}),
        ("read_multiple_files", "read_multiple_files", {"paths": [r("a.txt"), r("nope.txt"), "/etc/hostname", r("sub/c.txt")]}),
        ("read_multiple_files empty", "read_multiple_files", {"paths": []}),
        ("write_file new", "write_file", {"path": r("new.txt"), "content": "fresh\n"}),
        ("write_file overwrite keeps mode", "write_file", {"path": r("mode600.txt"), "content": "replaced\n"}),
        ("write_file missing parent", "write_file", {"path": r("nodir/x.txt"), "content": "x"}),
        ("write_file outside", "write_file", {"path": os.path.join(out, "new.txt"), "content": "x"}),
        ("write_file through symlink out", "write_file", {"path": r("link_out"), "content": "PWNED\n"}),
        ("write_file through dir symlink out", "write_file", {"path": r("dirlink_out/x.txt"), "content": "PWNED\n"}),
        ("write_file symlink in", "write_file", {"path": r("link_in"), "content": "alpha\nbeta\ngamma\ndelta\n"}),
        ("edit_file dry run", "edit_file", {"path": r("a.txt"), "edits": [{"oldText": "beta", "newText": "BETA"}], "dryRun": True}),
        ("edit_file", "edit_file", {"path": r("a.txt"), "edits": [{"oldText": "beta\ngamma", "newText": "b\ng\nextra"}, {"oldText": "delta", "newText": "omega"}]}),
        ("edit_file whitespace-insensitive", "edit_file", {"path": r("code.py"), "edits": [{"oldText": "x = 1\n  return x", "newText": "y = 2\n    return y"}]}),
        ("edit_file crlf", "edit_file", {"path": r("crlf.txt"), "edits": [{"oldText": "two", "newText": "2"}]}),
        ("edit_file backticks", "edit_file", {"path": r("ticks.md"), "edits": [{"oldText": "code", "newText": "more code"}], "dryRun": True}),
        ("edit_file no newline at end", "edit_file", {"path": r("b.md"), "edits": [{"oldText": "some text", "newText": "other text"}]}),
        ("edit_file far apart", "edit_file", {"path": r("long.txt"), "edits": [{"oldText": "line 2\n", "newText": "LINE 2\n"}, {"oldText": "line 30\n", "newText": ""}], "dryRun": True}),
        ("edit_file no match", "edit_file", {"path": r("a.txt"), "edits": [{"oldText": "not there", "newText": "x"}]}),
        ("edit_file outside", "edit_file", {"path": r("link_out"), "edits": [{"oldText": "SENTINEL", "newText": "PWNED"}]}),
        ("create_directory", "create_directory", {"path": r("made/deep/er")}),
        ("create_directory existing", "create_directory", {"path": r("sub")}),
        ("create_directory over file", "create_directory", {"path": r("a.txt")}),
        ("create_directory outside", "create_directory", {"path": r("dirlink_out/evil")}),
        ("list_directory", "list_directory", {"path": root}),
        ("list_directory file", "list_directory", {"path": r("a.txt")}),
        ("list_directory outside", "list_directory", {"path": r("dirlink_out")}),
        ("list_directory_with_sizes name", "list_directory_with_sizes", {"path": r("sub/deep")}),
        ("list_directory_with_sizes root", "list_directory_with_sizes", {"path": root}),
        ("list_directory_with_sizes size", "list_directory_with_sizes", {"path": r("sub/deep"), "sortBy": "size"}),
        ("list_directory_with_sizes bad sortBy", "list_directory_with_sizes", {"path": root, "sortBy": "date"}),
        ("directory_tree", "directory_tree", {"path": r("sub")}),
        ("directory_tree excludes", "directory_tree", {"path": root, "excludePatterns": ["node_modules", "*.log", "link*", "dirlink*", "fifo"]}),
        ("directory_tree outside", "directory_tree", {"path": r("dirlink_out")}),
        ("search_files deep", "search_files", {"path": root, "pattern": "**/*.txt", "excludePatterns": ["node_modules/**"]}),
        ("search_files top", "search_files", {"path": root, "pattern": "*.md"}),
        ("search_files braces", "search_files", {"path": root, "pattern": "**/*.{rs,js}"}),
        ("search_files none", "search_files", {"path": root, "pattern": "*.nothing"}),
        ("search_files outside", "search_files", {"path": out, "pattern": "*"}),
        ("move_file", "move_file", {"source": r("new.txt"), "destination": r("sub/moved.txt")}),
        ("move_file destination exists", "move_file", {"source": r("b.md"), "destination": r("B.md")}),
        ("move_file missing source", "move_file", {"source": r("gone.txt"), "destination": r("x.txt")}),
        ("move_file outside", "move_file", {"source": r("B.md"), "destination": os.path.join(out, "B.md")}),
        ("get_file_info", "get_file_info", {"path": r("sub/c.txt")}),
        ("get_file_info directory", "get_file_info", {"path": r("sub")}),
        ("get_file_info missing", "get_file_info", {"path": r("nope")}),
        ("unknown tool", "no_such_tool", {}),
    ]


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def clean(value: Any, root: str, out: str) -> Any:
    """The two trees' paths as $ROOT and $OUT; file times of get_file_info as TIME."""
    text = json.dumps(value)
    text = text.replace(root, "$ROOT").replace(out, "$OUT")
    value = json.loads(text)
    return value


def mask_times(value: Any) -> Any:
    text = json.dumps(value)
    text = re.sub(r"(created|modified|accessed): [^\\\"]*", r"\1: TIME", text)
    return json.loads(text)


def snapshot(root: str, out: str) -> dict[str, Any]:
    """Every path under the two trees: kind, permission bits, content."""
    tree: dict[str, Any] = {}
    for base, name in ((root, "$ROOT"), (out, "$OUT")):
        for dirpath, dirnames, filenames in os.walk(base):
            for n in sorted(dirnames + filenames):
                p = os.path.join(dirpath, n)
                rel = name + p[len(base):]
                st = os.lstat(p)
                if os.path.islink(p):
                    tree[rel] = ["link", os.readlink(p).replace(root, "$ROOT").replace(out, "$OUT")]
                elif os.path.isdir(p):
                    tree[rel] = ["dir", oct(st.st_mode & 0o777)]
                elif n == "fifo":
                    tree[rel] = ["fifo"]
                else:
                    with open(p, "rb") as f:
                        tree[rel] = ["file", oct(st.st_mode & 0o777), f.read().decode("utf-8", "replace")]
    return dict(sorted(tree.items()))


def tool_view(tool: Any) -> dict[str, Any]:
    """What a model reads of a tool. `annotations.title` (which ours repeats from `title`, for
    clients of 2025-03-26) and the schemas' dialect are compared in "tools/list schemas"."""
    t = dump(tool)
    schema = t.get("inputSchema", {})
    annotations = {k: v for k, v in t.get("annotations", {}).items() if k != "title"}
    return {
        "name": t["name"],
        "title": t.get("title"),
        "description": t.get("description"),
        "annotations": annotations,
        "properties": {k: [v.get("type"), v.get("description")] for k, v in schema.get("properties", {}).items()},
        "required": sorted(schema.get("required", [])),
        "outputSchema": t.get("outputSchema", {}).get("properties", {}).keys().__len__() > 0,
    }


async def call(client: Client, tool: str, args: dict[str, Any]) -> Any:
    try:
        result = await asyncio.wait_for(client.call_tool(tool, args), 5)
    except MCPError as e:
        return {"error": e.code}
    except asyncio.TimeoutError:
        return {"timeout": True}
    r = dump(result)
    return {k: r[k] for k in ("content", "structuredContent", "isError") if k in r}


async def run_sequence(command: list[str], base: str) -> dict[str, Any]:
    root, out = fixture(base)
    params = StdioServerParameters(command=command[0], args=[*command[1:], root], env={"TZ": "UTC", "PATH": os.environ["PATH"]})
    results: dict[str, Any] = {}
    with open(os.path.join(base, "stderr.log"), "w") as errlog:
        async with Client(params, mode="legacy", read_timeout_seconds=30) as client:
            info = client.server_info
            results["serverInfo"] = [info.name, info.version] if info else None
            listed = await client.list_tools()
            results["tools/list"] = sorted((tool_view(t) for t in listed.tools), key=lambda t: t["name"])
            results["tools/list schemas"] = {
                t.name: [dump(t).get("annotations"), t.input_schema, t.output_schema] for t in listed.tools
            }
            for label, tool, args in calls(root, out):
                results[label] = await call(client, tool, args)
    results["tree after"] = snapshot(root, out)
    return clean(results, root, out)


async def run_roots(command: list[str], base: str) -> dict[str, Any]:
    """No directories on the command line: the client's roots, then changed roots."""
    one, two = os.path.join(base, "one"), os.path.join(base, "two")
    for d, text in ((one, "first\n"), (two, "second\n")):
        os.makedirs(d)
        with open(os.path.join(d, "f.txt"), "w") as f:
            f.write(text)
    current = [one]

    async def list_roots(_context: Any) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=f"file://{d}", name="r") for d in current])

    params = StdioServerParameters(command=command[0], args=command[1:], env={"TZ": "UTC", "PATH": os.environ["PATH"]})
    results: dict[str, Any] = {}
    async with Client(params, mode="legacy", list_roots_callback=list_roots, read_timeout_seconds=30) as client:
        await asyncio.sleep(0.5)  # the original asks for roots after `initialized`
        results["roots: allowed"] = await call(client, "list_allowed_directories", {})
        results["roots: read"] = await call(client, "read_text_file", {"path": os.path.join(one, "f.txt")})
        results["roots: other refused"] = await call(client, "read_text_file", {"path": os.path.join(two, "f.txt")})
        current[:] = [two]
        await client.send_roots_list_changed()
        await asyncio.sleep(0.5)
        results["roots changed: allowed"] = await call(client, "list_allowed_directories", {})
        results["roots changed: read"] = await call(client, "read_text_file", {"path": os.path.join(two, "f.txt")})
        results["roots changed: old refused"] = await call(client, "read_text_file", {"path": os.path.join(one, "f.txt")})
    text = json.dumps(results).replace(one, "$ONE").replace(two, "$TWO")
    return json.loads(text)


async def run_http(ours: str, base: str) -> list[str]:
    """Ours over Streamable HTTP: the same binary, `http 127.0.0.1:0`."""
    root, out = fixture(base)
    proc = subprocess.Popen([ours, root, "http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    try:
        url = None
        for line in proc.stderr:  # type: ignore[union-attr]
            m = re.search(r"http://[^ ]*/mcp", line)
            if m:
                url = m.group(0)
                break
        if url is None:
            return ["FAIL ours over HTTP: no URL announced"]
        async with Client(url, read_timeout_seconds=30) as client:
            got = await call(client, "read_text_file", {"path": os.path.join(root, "a.txt"), "head": 2})
            version = client.protocol_version
        want = {"content": [{"type": "text", "text": "alpha\nbeta"}], "structuredContent": {"content": "alpha\nbeta"}}
        got.pop("isError", None)  # `false` is written in the stateless era
        lines = []
        if got == want:
            lines.append("same     ours over Streamable HTTP (read_text_file head 2, protocol " + version + ")")
        else:
            lines.append(f"FAIL ours over HTTP: {json.dumps(got)}")
        # And the stateless era over stdio (the original speaks only the handshake era).
        params = StdioServerParameters(command=ours, args=[root], env={"PATH": os.environ["PATH"]})
        async with Client(params, mode="2026-07-28", read_timeout_seconds=30) as client:
            got = await call(client, "read_text_file", {"path": os.path.join(root, "a.txt"), "head": 2})
            version = client.protocol_version
        got.pop("isError", None)
        if got == want:
            lines.append("same     ours over stdio in the stateless era (protocol " + version + ")")
        else:
            lines.append(f"FAIL ours over stdio, stateless era: {json.dumps(got)}")
        return lines
    finally:
        proc.terminate()
        proc.wait(10)


def readme_ids(readme: str) -> set[str]:
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Differences", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.M))


async def main(original: str, ours: str, readme: str) -> int:
    failed = 0
    ids = readme_ids(readme)
    if ids != set(ALLOWED):
        print(f"FAIL allowed differences: script {sorted(ALLOWED)} != README {sorted(ids)}")
        failed += 1
    work = tempfile.mkdtemp(prefix="fs-difftest-")
    try:
        orig_cmd = ["node", original]
        got: dict[str, dict[str, Any]] = {}
        for name, cmd in (("original", orig_cmd), ("ours", [ours])):
            base = os.path.join(work, name)
            os.makedirs(base)
            seq = await run_sequence(cmd, os.path.join(base, "seq"))
            seq.update(await run_roots(cmd, os.path.join(base, "roots")))
            got[name] = seq
        allowed_of = {label: key for key, labels in ALLOWED.items() for label in labels}
        for label in got["original"]:
            a, b = got["original"][label], got["ours"].get(label)
            if label.startswith("get_file_info"):
                a, b = mask_times(a), mask_times(b)
            if a == b:
                print(f"same     {label}")
            elif label in allowed_of:
                print(f"allowed  {label} ({allowed_of[label]})")
                if os.environ.get("DIFFTEST_VERBOSE"):
                    print(f"  original: {json.dumps(a)}\n  ours:     {json.dumps(b)}")
            else:
                failed += 1
                if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
                    a, b = next((x, y) for x, y in zip(a, b) if x != y)
                print(f"DIFF     {label}\n  original: {json.dumps(a)}\n  ours:     {json.dumps(b)}")
        for line in await run_http(ours, os.path.join(work, "http")):
            print(line)
            failed += line.startswith("FAIL")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'no difference outside the documented list' if failed == 0 else f'{failed} difference(s)'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3])))
