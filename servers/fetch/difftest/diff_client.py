"""The same calls against the original fetch server and ours, compared.

Usage: diff_client.py "ORIGINAL COMMAND" PATH/TO/mcp-server-fetch PATH/TO/README.md

Two loopback HTTP servers in this script serve the pages: HTML, plain text, JSON, a large page
(for max_length/start_index), a 404, redirects (one onto a path robots.txt disallows, one that
loops), and robots.txt files (one disallowing paths, one answering 403). Each server under test
is started over stdio in both eras (2025-11-25 `initialize`, 2026-07-28 sessionless), with
`--allow-private-ips` (the pages are on loopback), and once more without it, with
`--ignore-robots-txt`, and with `--user-agent`. Each call's isError and text (or JSON-RPC error
code) is compared after the ports are replaced by <PORT>; so are the requests each server made
(path and User-Agent, in order), its side effect on the web. A difference passes only when
ALLOWED names it, and every ALLOWED entry must be listed, by its label, in the server's README.
One call to ours over Streamable HTTP shows the one binary serves both transports.
"""

from __future__ import annotations

import http.server
import json
import os
import shlex
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

# label -> why ours is right (each label is listed in servers/fetch/README.md).
ALLOWED = {
    "markdown page": "HTML to Markdown: readabilipy + markdownify there, htmd here; both isError false, same prefix, same text words",
    "prompt markdown page": "HTML to Markdown, as `markdown page`",
    "unknown tool message": "same code -32602; the message text is the framework's",
    "prompt without url message": "same code -32602; the message text is the framework's",
    "invalid url": "schema validation failure: both isError, the framework's message",
    "max_length 0": "schema validation failure: both isError, the framework's message",
    "raw as string": "schema validation failure: both isError, the framework's message",
    "unreachable page": "both isError with `Failed to fetch URL: ConnectError(...)`; the detail inside the parentheses is the HTTP client's",
}

ROBOTS = "User-agent: *\nDisallow: /private\n# a comment line\n\nUser-agent: CustomBot\nDisallow: /custom\n"
PAGE = (
    "<html><head><title>The page</title><style>p {color: red}</style></head><body>"
    "<article><h1>Hello</h1><p>Some <b>bold</b> text and a <a href=\"/plain.txt\">link</a>.</p>"
    "<h2>More</h2><ul><li>one</li><li>two</li></ul><p>The end of the article, with enough words "
    "in it for a readability extractor to keep this paragraph as content.</p></article>"
    "<script>var x = 1;</script></body></html>"
)
BIG = "".join(f"line {i:05d} é\n" for i in range(1000))  # 13 000 characters, some not ASCII

FAILED = 0
SAME = 0
REQUESTS: list[tuple[int, str, str]] = []


class Handler(http.server.BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, str, str, dict[str, str]]] = {}

    def do_GET(self) -> None:  # noqa: N802
        REQUESTS.append((self.server.server_port, self.path, self.headers.get("User-Agent", "")))
        status, ctype, body, extra = self.routes.get(self.path, (404, "text/plain", "not found", {}))
        data = body.encode()
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in extra.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


def serve(routes: dict[str, tuple[int, str, str, dict[str, str]]]) -> int:
    handler = type("H", (Handler,), {"routes": routes})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd.server_port


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_servers() -> tuple[int, int, int]:
    main_routes: dict[str, tuple[int, str, str, dict[str, str]]] = {
        "/robots.txt": (200, "text/plain", ROBOTS, {}),
        "/page.html": (200, "text/html; charset=utf-8", PAGE, {}),
        "/empty.html": (200, "text/html", "<html><body></body></html>", {}),
        "/plain.txt": (200, "text/plain; charset=utf-8", "plain text\nsecond line\n", {}),
        "/data.json": (200, "application/json", '{"a": [1, 2, 3]}', {}),
        "/big.txt": (200, "text/plain; charset=utf-8", BIG, {}),
        "/notype": (200, "", "<p>no content type</p>", {}),
        "/private/x": (200, "text/plain", "secret", {}),
        "/custom/x": (200, "text/plain", "custom", {}),
        "/redirect": (302, "text/plain", "", {"Location": "/plain.txt"}),
        "/redirect-private": (301, "text/plain", "", {"Location": "/private/x"}),
        "/loop": (302, "text/plain", "", {"Location": "/loop"}),
        "/server-error": (500, "text/plain", "boom", {}),
    }
    forbidding: dict[str, tuple[int, str, str, dict[str, str]]] = {
        "/robots.txt": (403, "text/plain", "no", {}),
        "/page": (200, "text/plain", "page", {}),
    }
    return serve(main_routes), serve(forbidding), free_port()


def calls(p: int, forbid: int, closed: int) -> list[tuple[str, str, dict[str, Any]]]:
    u = f"http://127.0.0.1:{p}"
    return [
        ("markdown page", "fetch", {"url": f"{u}/page.html"}),
        ("raw page", "fetch", {"url": f"{u}/page.html", "raw": True}),
        ("empty page", "fetch", {"url": f"{u}/empty.html"}),
        ("plain text", "fetch", {"url": f"{u}/plain.txt"}),
        ("json", "fetch", {"url": f"{u}/data.json"}),
        ("no content type", "fetch", {"url": f"{u}/notype", "raw": True}),
        ("big first 1000", "fetch", {"url": f"{u}/big.txt", "max_length": 1000}),
        ("big next 1000", "fetch", {"url": f"{u}/big.txt", "max_length": 1000, "start_index": 1000}),
        ("big last chars", "fetch", {"url": f"{u}/big.txt", "start_index": 12990}),
        ("big exact end", "fetch", {"url": f"{u}/big.txt", "max_length": 10, "start_index": 12990}),
        ("big past end", "fetch", {"url": f"{u}/big.txt", "start_index": 13000}),
        ("big default", "fetch", {"url": f"{u}/big.txt"}),
        ("not found", "fetch", {"url": f"{u}/missing"}),
        ("server error", "fetch", {"url": f"{u}/server-error"}),
        ("redirect", "fetch", {"url": f"{u}/redirect"}),
        ("redirect onto disallowed", "fetch", {"url": f"{u}/redirect-private"}),
        ("disallowed", "fetch", {"url": f"{u}/private/x"}),
        ("disallowed with query", "fetch", {"url": f"{u}/private?x=1"}),
        ("custom agent path allowed", "fetch", {"url": f"{u}/custom/x"}),
        ("redirect loop", "fetch", {"url": f"{u}/loop"}),
        ("robots 403", "fetch", {"url": f"http://127.0.0.1:{forbid}/page"}),
        ("robots unreachable", "fetch", {"url": f"http://127.0.0.1:{closed}/page"}),
        ("invalid url", "fetch", {"url": "not a url"}),
        ("max_length 0", "fetch", {"url": f"{u}/plain.txt", "max_length": 0}),
        ("raw as string", "fetch", {"url": f"{u}/plain.txt", "raw": "yes"}),
    ]


def normalize(text: str, ports: tuple[int, ...]) -> str:
    for i, port in enumerate(ports):
        text = text.replace(str(port), f"<PORT{i}>")
    return text


async def call(client: Client, name: str, args: dict[str, Any], ports: tuple[int, ...]) -> Any:
    try:
        res = await client.call_tool(name, args)
    except MCPError as e:
        return {"error": e.code}
    text = "".join(getattr(c, "text", "") for c in res.content)
    return {"isError": bool(res.is_error), "text": normalize(text, ports)}


async def prompt(client: Client, args: dict[str, Any], ports: tuple[int, ...], name: str = "fetch") -> Any:
    try:
        got = await client.get_prompt(name, args)
    except MCPError as e:
        return {"error": e.code, "message": e.error.message}
    return [{"role": m.role, "text": normalize(getattr(m.content, "text", ""), ports)} for m in got.messages]


def tool_view(tool: Any) -> Any:
    props = {k: {kk: vv for kk, vv in v.items() if kk != "title"} for k, v in tool.input_schema.get("properties", {}).items()}
    ann = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
    return {"name": tool.name, "description": tool.description, "annotations": ann,
            "properties": props, "required": sorted(tool.input_schema.get("required", []))}


def words(result: Any) -> Any:
    """A markdown result reduced to what both converters must keep: the flag and the words."""
    if not isinstance(result, dict) or "text" not in result:
        return result
    kept = "".join(c if c.isalnum() or c.isspace() else " " for c in result["text"])
    return {"isError": result["isError"], "words": [w for w in kept.split() if w not in ("p", "color", "red")]}


async def session(command: list[str], flags: list[str], mode: str, ports: tuple[int, int, int],
                  which: list[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    params = StdioServerParameters(command=command[0], args=[*command[1:], *flags], env={"PATH": os.environ["PATH"]})
    out: dict[str, Any] = {}
    async with Client(stdio_client(params), mode=mode) as client:
        if not which:
            return out
        tools = (await client.list_tools()).tools
        out["tools/list"] = [tool_view(t) for t in tools]
        prompts = (await client.list_prompts()).prompts
        out["prompts/list"] = [p.model_dump(by_alias=True, mode="json", exclude_none=True) for p in prompts]
        for label, name, args in which:
            out[label] = await call(client, name, args, ports)
        u = f"http://127.0.0.1:{ports[0]}"
        out["prompt markdown page"] = await prompt(client, {"url": f"{u}/page.html"}, ports)
        out["prompt plain text"] = await prompt(client, {"url": f"{u}/plain.txt"}, ports)
        out["prompt disallowed path"] = await prompt(client, {"url": f"{u}/private/x"}, ports)
        out["prompt not found"] = await prompt(client, {"url": f"{u}/missing"}, ports)
        missing = await prompt(client, {}, ports)
        out["prompt without url"] = missing.get("error") if isinstance(missing, dict) else missing
        out["prompt without url message"] = missing.get("message") if isinstance(missing, dict) else None
        unknown = await prompt(client, {"url": u}, ports, name="nope")
        out["unknown prompt"] = unknown.get("error") if isinstance(unknown, dict) else unknown
        try:
            await client.call_tool("fetch_nope", {"url": u})
            out["unknown tool"] = "no error"
        except MCPError as e:
            out["unknown tool"] = e.code
            out["unknown tool message"] = e.error.message
    return out


async def single(command: list[str], flags: list[str], label: str, args: dict[str, Any], ports: tuple[int, ...]) -> Any:
    params = StdioServerParameters(command=command[0], args=[*command[1:], *flags], env={"PATH": os.environ["PATH"]})
    async with Client(stdio_client(params), mode="legacy") as client:
        return await call(client, "fetch", args, ports)


async def over_http(ours: str, url: str, ports: tuple[int, ...]) -> Any:
    port = free_port()
    proc = subprocess.Popen([ours, "--allow-private-ips", "http", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
            return await call(client, "fetch", {"url": url}, ports)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def compare(label: str, theirs: Any, ours: Any) -> None:
    global FAILED, SAME
    key = label.split("] ", 1)[-1]
    if theirs == ours:
        SAME += 1
        print(f"same     {label}")
    elif key in ALLOWED:
        if key.endswith("markdown page") and words(theirs if isinstance(theirs, dict) else {"isError": False, "text": theirs[0]["text"]}) != words(ours if isinstance(ours, dict) else {"isError": False, "text": ours[0]["text"]}):
            FAILED += 1
            print(f"DIFFERS  {label}: not even the words match\n  original: {json.dumps(theirs)}\n  ours:     {json.dumps(ours)}")
            return
        print(f"allowed  {label}: {ALLOWED[key]}")
        if os.environ.get("DIFFTEST_VERBOSE"):
            print(f"  original: {json.dumps(theirs)}\n  ours:     {json.dumps(ours)}")
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
    ports = start_servers()
    u = f"http://127.0.0.1:{ports[0]}"
    results: dict[str, dict[str, Any]] = {}
    for who, command in (("original", shlex.split(original)), ("ours", [ours])):
        res: dict[str, Any] = {}
        for mode in ("legacy", "2026-07-28"):
            REQUESTS.clear()
            got = await session(command, ["--allow-private-ips"], mode, ports, calls(*ports))
            for k, v in got.items():
                res[f"[{mode}] {k}"] = v
            res[f"[{mode}] requests made"] = [(normalize(str(p), ports), path, ua) for p, path, ua in REQUESTS]
        res["[flags] private address refused"] = await single(command, [], "", {"url": f"{u}/plain.txt"}, ports)
        res["[flags] ignore robots"] = await single(command, ["--allow-private-ips", "--ignore-robots-txt"], "", {"url": f"{u}/private/x"}, ports)
        res["[flags] unreachable page"] = await single(command, ["--allow-private-ips", "--ignore-robots-txt"], "", {"url": f"http://127.0.0.1:{ports[2]}/x"}, ports)
        REQUESTS.clear()
        res["[flags] custom user agent refused"] = await single(command, ["--allow-private-ips", "--user-agent", "CustomBot/2.0"], "", {"url": f"{u}/custom/x"}, ports)
        res["[flags] custom user agent requests"] = [(path, ua) for _, path, ua in REQUESTS]
        results[who] = res
    for label, theirs in results["original"].items():
        compare(label, theirs, results["ours"].get(label))
    via_http = await over_http(ours, f"{u}/plain.txt", ports)
    print(f"http     ours over Streamable HTTP: {json.dumps(via_http)[:100]}")
    if via_http != results["ours"]["[legacy] plain text"]:
        FAILED += 1
        print("DIFFERS  ours over HTTP answered otherwise than over stdio")
    print(f"{SAME} same, {FAILED} unexplained differences")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    anyio.run(main, *sys.argv[1:])
    sys.exit(1 if FAILED else 0)
