"""The official Python SDK client (PyPI mcp, pinned in requirements.txt) calls the tools that
`mcp-proxy --openapi DOC` generates from the FastAPI application's own document (app.py), over
stdio and over Streamable HTTP, and gets the API's data.

usage: check.py PATH/TO/mcp-proxy http://127.0.0.1:PORT/openapi.json
Prints one line per check and `N passed, M failed`; exits 1 if one failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

PASSED = 0
FAILED = 0
ENV = {"MCP_OPENAPI_APIKEYHEADER": "k-123", "MCP_OPENAPI_HTTPBEARER": "t-456"}
HAMMER = {"id": 1, "name": "hammer", "kind": "tool", "size": {"width": 3, "height": 30}, "labels": ["steel"]}


def check(label: str, got: Any, want: Any) -> None:
    global PASSED, FAILED
    if got == want:
        PASSED += 1
        print(f"ok   {label}")
    else:
        FAILED += 1
        print(f"FAIL {label}\n     got:  {got!r}\n     want: {want!r}")


async def run(target: Any, p: str) -> None:
    async with Client(target) as client:
        tools = (await client.list_tools()).tools
        check(f"{p} tools/list", [t.name for t in tools],
              ["echo_echo__word__get", "search_items", "create_item", "get_item", "whoami_key", "whoami_token"])
        get_item = next(t for t in tools if t.name == "get_item")
        check(f"{p} get_item inputSchema", get_item.input_schema,
              {"type": "object", "properties": {"item_id": {"type": "integer", "title": "Item Id"}}, "required": ["item_id"]})
        r = await client.call_tool("get_item", {"item_id": 1})
        check(f"{p} get_item 1", [r.is_error, r.structured_content, json.loads(r.content[0].text)], [False, HAMMER, HAMMER])
        r = await client.call_tool("get_item", {"item_id": 404})
        check(f"{p} get_item 404", [r.is_error, r.content[0].text], [True, 'HTTP 404 Not Found: {"detail":"no item 404"}'])
        r = await client.call_tool("search_items", {"kind": "tool", "labels": ["steel"], "limit": 1})
        check(f"{p} search_items", r.structured_content, {"result": [HAMMER]})
        r = await client.call_tool("echo_echo__word__get", {"word": "héllo wörld", "times": 2})
        check(f"{p} echo", r.structured_content, {"said": "héllo wörld héllo wörld"})
        r = await client.call_tool("whoami_key", {})
        check(f"{p} whoami_key", r.structured_content, {"user": "ada", "by": "key"})
        r = await client.call_tool("whoami_token", {})
        check(f"{p} whoami_token", r.structured_content, {"user": "grace", "by": "token"})


async def guarded(label: str, body: Any) -> None:
    global FAILED
    try:
        await body()
    except Exception:
        FAILED += 1
        print(f"FAIL {label} crashed:")
        traceback.print_exc(file=sys.stdout)


async def main(proxy: str, doc: str) -> None:
    env = dict(os.environ, **ENV)
    params = StdioServerParameters(command=proxy, args=["--openapi", doc, "stdio"], env=env)
    await guarded("[stdio]", lambda: run(stdio_client(params), "[stdio]"))
    served = subprocess.Popen([proxy, "--openapi", doc, "http", "127.0.0.1:0"], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        line = served.stdout.readline() if served.stdout else ""
        if not line.startswith("listening on "):
            check("[http] mcp-proxy listens", line, "listening on http://.../mcp")
            return
        url = line.removeprefix("listening on ").strip()
        await guarded("[http]", lambda: run(url, "[http]"))
    finally:
        served.terminate()
        served.wait(timeout=10)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: check.py PATH/TO/mcp-proxy http://127.0.0.1:PORT/openapi.json")
    anyio.run(main, sys.argv[1], sys.argv[2])
    print(f"{PASSED} passed, {FAILED} failed")
    sys.exit(1 if FAILED else 0)
