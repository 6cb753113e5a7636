"""The same calls against the original git server and ours, compared.

Usage: diff_client.py "ORIGINAL COMMAND" PATH/TO/mcp-server-git PATH/TO/README.md

Each server gets its own temporary repository, made identically (fixed author, committer and
dates, so every hash matches), and is spoken to over stdio by the official Python SDK client in
both eras (2025-11-25 `initialize`, 2026-07-28 sessionless). Each call's isError and text (or
JSON-RPC error code) is compared after the repository's path is replaced by <REPO>; after the
sequence, the repositories themselves are compared (log of every ref, status, branches, stash).
A difference passes only when ALLOWED names it, and every ALLOWED entry must be listed, by its
label, in the server's README. One call to ours over Streamable HTTP shows the one binary
serves both transports. Prints one line per comparison; exits 1 on an unexplained difference.
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

# label -> why ours is right (each label is listed in servers/git/README.md).
ALLOWED = {
    "unknown tool message": "same code -32602; the message text is the framework's",
    "missing argument": "schema validation failure: both isError, the framework's message",
    "wrong argument type": "schema validation failure: both isError, the framework's message",
    "add no files": "both isError: the original's validator enforces minItems 1, ours lets the call reach the tool, which answers with the original's own message for an empty list",
}

ENV = {
    "GIT_AUTHOR_NAME": "Ann Author",
    "GIT_AUTHOR_EMAIL": "ann@example.com",
    "GIT_AUTHOR_DATE": "1767225600 +0100",
    "GIT_COMMITTER_NAME": "Carl Committer",
    "GIT_COMMITTER_EMAIL": "carl@example.com",
    "GIT_COMMITTER_DATE": "1767225600 +0100",
    "GIT_CONFIG_NOSYSTEM": "1",
    "LC_ALL": "C",
}

FAILED = 0
SAME = 0


def git(repo: str, *args: str, env: dict[str, str] | None = None) -> str:
    full = {**os.environ, **ENV, "HOME": os.path.dirname(repo), **(env or {})}
    return subprocess.run(["git", *args], cwd=repo, env=full, check=True, capture_output=True, text=True).stdout


def make_repo(base: str) -> str:
    repo = os.path.join(base, "repo")
    os.makedirs(os.path.join(repo, "sub"))
    git(repo, "init", "-q", "-b", "main")
    with open(os.path.join(repo, "a.txt"), "w") as f:
        f.write("one\ntwo\nthree\n")
    with open(os.path.join(repo, "sub", "b.txt"), "w") as f:
        f.write("bee\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first\n\nwith a body")
    git(repo, "checkout", "-q", "-b", "feature")
    with open(os.path.join(repo, "f.txt"), "w") as f:
        f.write("feature\n")
    git(repo, "add", "f.txt")
    git(repo, "commit", "-q", "-m", "feature work")
    git(repo, "tag", "v1")
    git(repo, "checkout", "-q", "main")
    with open(os.path.join(repo, "a.txt"), "w") as f:
        f.write("one\nTWO\nthree\n")
    for name in ("c.txt", "-dash.txt"):
        with open(os.path.join(repo, name), "w") as f:
            f.write(name + "\n")
    return repo


def state(repo: str) -> dict[str, str]:
    return {
        "log": git(repo, "log", "--all", "--format=%H %P %an %cn %s"),
        "status": git(repo, "status", "--porcelain"),
        "branches": git(repo, "branch", "-a", "-v", "--no-abbrev"),
        "head": git(repo, "rev-parse", "--symbolic-full-name", "HEAD"),
        "stash": git(repo, "stash", "list"),
    }


def calls(repo: str, other: str) -> list[tuple[str, str, dict[str, Any]]]:
    r = {"repo_path": repo}
    first = git(repo, "rev-parse", "HEAD").strip()
    return [
        ("status", "git_status", r),
        ("diff unstaged", "git_diff_unstaged", r),
        ("diff unstaged context 0", "git_diff_unstaged", {**r, "context_lines": 0}),
        ("diff staged empty", "git_diff_staged", r),
        ("add c", "git_add", {**r, "files": ["c.txt"]}),
        ("diff staged", "git_diff_staged", r),
        ("add c again", "git_add", {**r, "files": ["c.txt"]}),
        ("add outside", "git_add", {**r, "files": ["../outside.txt"]}),
        ("add absolute outside", "git_add", {**r, "files": ["/etc/passwd"]}),
        ("add missing", "git_add", {**r, "files": ["nope.txt"]}),
        ("add dash file", "git_add", {**r, "files": ["-dash.txt"]}),
        ("add no files", "git_add", {**r, "files": []}),
        ("commit", "git_commit", {**r, "message": "add c and -dash"}),
        ("commit nothing", "git_commit", {**r, "message": "empty"}),
        ("log", "git_log", r),
        ("log 1", "git_log", {**r, "max_count": 1}),
        ("log since", "git_log", {**r, "start_timestamp": "2020-01-01"}),
        ("log until past", "git_log", {**r, "end_timestamp": "2000-01-01"}),
        ("log flag", "git_log", {**r, "start_timestamp": "--all"}),
        ("create branch", "git_create_branch", {**r, "branch_name": "topic"}),
        ("create branch again", "git_create_branch", {**r, "branch_name": "topic"}),
        ("create branch flag", "git_create_branch", {**r, "branch_name": "-f"}),
        ("create branch from feature", "git_create_branch", {**r, "branch_name": "topic2", "base_branch": "feature"}),
        ("create branch from tag", "git_create_branch", {**r, "branch_name": "fromtag", "base_branch": "v1"}),
        ("create branch bad base", "git_create_branch", {**r, "branch_name": "x", "base_branch": "nope"}),
        ("create branch flag base", "git_create_branch", {**r, "branch_name": "x", "base_branch": "--orphan"}),
        ("branch local", "git_branch", {**r, "branch_type": "local"}),
        ("branch remote", "git_branch", {**r, "branch_type": "remote"}),
        ("branch all", "git_branch", {**r, "branch_type": "all"}),
        ("branch bad type", "git_branch", {**r, "branch_type": "mine"}),
        ("branch contains", "git_branch", {**r, "branch_type": "local", "contains": first}),
        ("branch not contains", "git_branch", {**r, "branch_type": "local", "not_contains": "feature"}),
        ("branch contains flag", "git_branch", {**r, "branch_type": "local", "contains": "--delete"}),
        ("branch contains unknown", "git_branch", {**r, "branch_type": "local", "contains": "nope"}),
        ("diff feature", "git_diff", {**r, "target": "feature"}),
        ("diff first context 1", "git_diff", {**r, "target": first, "context_lines": 1}),
        ("diff flag", "git_diff", {**r, "target": "--output=/tmp/x"}),
        ("diff unknown", "git_diff", {**r, "target": "nope"}),
        ("show head", "git_show", {**r, "revision": "HEAD"}),
        ("show first", "git_show", {**r, "revision": first}),
        ("show tag", "git_show", {**r, "revision": "v1"}),
        ("show tree", "git_show", {**r, "revision": "HEAD:sub"}),
        ("show root tree", "git_show", {**r, "revision": "HEAD^{tree}"}),
        ("show blob", "git_show", {**r, "revision": "HEAD:a.txt"}),
        ("show flag", "git_show", {**r, "revision": "--help"}),
        ("show unknown", "git_show", {**r, "revision": "nope"}),
        ("checkout feature", "git_checkout", {**r, "branch_name": "feature"}),
        ("checkout flag", "git_checkout", {**r, "branch_name": "-b"}),
        ("checkout unknown", "git_checkout", {**r, "branch_name": "nope"}),
        ("checkout sha", "git_checkout", {**r, "branch_name": first}),
        ("create branch detached", "git_create_branch", {**r, "branch_name": "y"}),
        ("checkout main", "git_checkout", {**r, "branch_name": "main"}),
        ("add modified", "git_add", {**r, "files": ["a.txt"]}),
        ("reset", "git_reset", r),
        ("status after reset", "git_status", r),
        ("add all", "git_add", {**r, "files": ["."]}),
        ("commit all", "git_commit", {**r, "message": "everything\n"}),
        ("status clean", "git_status", r),
        ("not a repository", "git_status", {"repo_path": other}),
        ("missing path", "git_status", {"repo_path": os.path.join(other, "missing")}),
        ("missing argument", "git_status", {}),
        ("wrong argument type", "git_log", {**r, "max_count": "ten"}),
    ]


def normalize(text: str, repo: str) -> str:
    return text.replace(os.path.dirname(repo), "<BASE>")


async def call(client: Client, name: str, args: dict[str, Any], repo: str) -> Any:
    try:
        res = await client.call_tool(name, args)
    except MCPError as e:
        return {"error": e.code}
    text = "".join(getattr(c, "text", "") for c in res.content)
    return {"isError": bool(res.is_error), "text": normalize(text, repo)}


def schema_view(tool: Any) -> Any:
    schema = tool.input_schema
    props = {}
    for key, prop in schema.get("properties", {}).items():
        view = {k: v for k, v in prop.items() if k not in ("title",)}
        if "anyOf" in view:  # pydantic's Optional[str]: a string or null, optional either way
            kinds = [a.get("type") for a in view.pop("anyOf") if a.get("type") != "null"]
            view["type"] = kinds[0] if len(kinds) == 1 else kinds
            if view.get("default", 0) is None:
                view.pop("default")
        props[key] = view
    ann = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
    return {"name": tool.name, "description": tool.description, "annotations": ann,
            "properties": props, "required": sorted(schema.get("required", []))}


async def session(target: Any, mode: str, repo: str, other: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with Client(target, mode=mode) as client:
        tools = (await client.list_tools()).tools
        out["tools/list"] = sorted((schema_view(t) for t in tools), key=lambda t: t["name"])
        for label, name, args in calls(repo, other):
            out[label] = await call(client, name, args, repo)
        try:
            await client.call_tool("git_nope", {"repo_path": repo})
            out["unknown tool"] = "no error"
        except MCPError as e:
            out["unknown tool"] = e.code
            out["unknown tool message"] = e.error.message
    out["repository state"] = state(repo)
    return out


async def confined(command: list[str], base: str) -> dict[str, Any]:
    """A server started with --repository pointing into the repository's subfolder."""
    repo = os.path.join(base, "repo")
    params = StdioServerParameters(command=command[0], args=[*command[1:], "--repository", os.path.join(repo, "sub")],
                                   env={**ENV, "HOME": base, "PATH": os.environ["PATH"]})
    out = {}
    async with Client(stdio_client(params), mode="legacy") as client:
        out["confined inside"] = await call(client, "git_status", {"repo_path": repo}, repo)
        out["confined outside"] = await call(client, "git_status", {"repo_path": base}, repo)
        out["confined traversal"] = await call(client, "git_status", {"repo_path": repo + "/../.."}, repo)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def over_http(ours: str, repo: str) -> Any:
    port = free_port()
    proc = subprocess.Popen([ours, "http", f"127.0.0.1:{port}"], env={**os.environ, **ENV},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
            return await call(client, "git_status", {"repo_path": repo}, repo)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def compare(label: str, theirs: Any, ours: Any, readme: str) -> None:
    global FAILED, SAME
    key = label.split("] ", 1)[-1]
    if theirs == ours:
        SAME += 1
        print(f"same     {label}")
    elif key in ALLOWED:
        if os.environ.get("DIFFTEST_VERBOSE"):
            print(f"  original: {json.dumps(theirs)}\n  ours:     {json.dumps(ours)}")
        print(f"allowed  {label}: {ALLOWED[key]}")
    else:
        FAILED += 1
        print(f"DIFFERS  {label}\n  original: {json.dumps(theirs)}\n  ours:     {json.dumps(ours)}")


async def main(original: str, ours: str, readme_path: str) -> None:
    global FAILED
    readme = open(readme_path, encoding="utf-8").read()
    for key in ALLOWED:
        if f"`{key}`" not in readme:
            FAILED += 1
            print(f"DIFFERS  README: the allowed difference `{key}` is not listed in {readme_path}")
    results = {}
    for who, command in (("original", shlex.split(original)), ("ours", [ours])):
        results[who] = {}
        for mode in ("legacy", "2026-07-28"):
            base = tempfile.mkdtemp(prefix=f"gitdiff-{who}-")
            repo = make_repo(base)
            other = os.path.join(base, "notrepo")
            os.mkdir(other)
            env = {**ENV, "HOME": base, "PATH": os.environ["PATH"]}
            params = StdioServerParameters(command=command[0], args=command[1:], env=env)
            got = await session(stdio_client(params), mode, repo, other)
            got["[confined]"] = await confined(command, base) if mode == "legacy" else None
            results[who][mode] = got
            if who == "ours" and mode == "legacy":
                results["http"] = await over_http(ours, repo)
                results["stdio status"] = got["status after reset"]
    for mode in ("legacy", "2026-07-28"):
        theirs, mine = results["original"][mode], results["ours"][mode]
        for label in theirs:
            if label == "[confined]" and theirs[label] is not None:
                for sub in theirs[label]:
                    compare(f"[{mode}] {sub}", theirs[label][sub], mine[label][sub], readme)
                continue
            compare(f"[{mode}] {label}", theirs[label], mine.get(label), readme)
    print(f"http     ours over Streamable HTTP: {json.dumps(results['http'])[:100]}")
    if results["http"]["isError"] or not results["http"]["text"].startswith("Repository status:"):
        FAILED += 1
        print("DIFFERS  ours over HTTP did not answer git_status")
    print(f"{SAME} same, {FAILED} unexplained differences")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    anyio.run(main, *sys.argv[1:])
    sys.exit(1 if FAILED else 0)
