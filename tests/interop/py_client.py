"""The official Python SDK client (PyPI `mcp`, pinned in requirements.txt) against gift-server.

Spawns the gift-server binary over stdio three times: in the SDK's default mode ("auto": it
probes `server/discover` and adopts 2026-07-28, falling back to `initialize`), in "legacy" mode
(the `initialize` handshake) and in mode "2026-07-28" (the pure stateless era: no probe and no
handshake, every request carries `_meta["io.modelcontextprotocol/protocolVersion"]`). With a
URL, it also connects to a running `gift-server http` over Streamable HTTP in the three modes.
Each run lists and calls tools, reads resources, gets the prompt and completes arguments,
asserting exact values as the client parsed them; the era's own differences (result `_meta`
serverInfo, cache hints, no ping or logging/setLevel in 2026-07-28) are asserted as well.

Every stdio server runs with MCP_LOG_MESSAGES=1 and its stderr is captured, so each run also
asserts what went over the wire: the first request (initialize, server/discover or straight
to work) and the protocol-version `_meta` every request carried. Over HTTP the same checks read
the log of the HTTP server when run.sh passes its path in MCP_INTEROP_HTTP_LOG (that server
must then run with MCP_LOG_MESSAGES=1).

Usage: python py_client.py PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]
Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
Set MCP_LOG_MESSAGES=1 to also see the stdio servers' message logs on stderr.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
import traceback
import warnings
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import PromptReference, ResourceTemplateReference

PASSED = 0
FAILED = 0


def check(name: str, actual: Any, expected: Any) -> None:
    global PASSED, FAILED
    if actual == expected:
        PASSED += 1
        print(f"ok   {name}")
    else:
        FAILED += 1
        print(f"FAIL {name}\n     expected: {json.dumps(expected, sort_keys=True)}\n     actual:   {json.dumps(actual, sort_keys=True, default=str)}")


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


CATALOG_URI = "mcp://gift-server/resources/gift_catalog"
# The gift server's skill (examples/gift-server/skills/choosing-a-gift): its files are resources.
SKILL_RESOURCES = [
    {
        "uri": "skill://choosing-a-gift/SKILL.md",
        "name": "choosing-a-gift",
        "description": "Choose a gift within a budget with the gift server's catalog and suggest_gifts tool",
        "mimeType": "text/markdown",
        "size": 954,
    },
    {"uri": "skill://choosing-a-gift/budget.md", "name": "budget.md", "mimeType": "text/markdown", "size": 301},
]
WIDGET_URI = "ui://gift-server/gift-cards.html"

INPUT_SCHEMA = {
    "type": "object",
    "properties": {
        "occasion": {
            "type": "string",
            "enum": ["birthday", "wedding", "anniversary", "graduation", "housewarming", "holiday"],
            "description": "The occasion\n- birthday: A birthday.\n- wedding: A wedding.\n- anniversary: An anniversary.\n- graduation: A graduation.\n- housewarming: A housewarming party.\n- holiday: A holiday, e.g. the end-of-year ones.",
        },
        "budget": {"type": "number", "minimum": 0, "description": "Budget in US dollars"},
        "recipient": {"type": "string", "description": 'Who the gift is for, e.g. "my sister"'},
    },
    "required": ["occasion", "budget"],
}

FIRST_GIFT = {
    "id": 24,
    "name": "Chocolate tasting box",
    "category": "food",
    "price": 12.0,
    "occasions": ["birthday", "holiday", "anniversary", "graduation"],
}

CHEFS_KNIFE = (
    '{"id":4,"name":"Chef\'s knife","category":"kitchen","price":120.0,'
    '"occasions":["wedding","housewarming","anniversary"]}'
)

PROMPT_TEXT = (
    "Write a short, formal wedding congratulation for Ann to go with a gift. "
    "Two or three sentences, no clichés, mention the gift only in passing."
)


INSTRUCTIONS = (
    "Suggests gifts for an occasion and budget. Read the gift catalog resource for what exists; "
    "use the gift_congrats_style prompt for a card text. The skill skill://choosing-a-gift/SKILL.md "
    "says how to choose within a budget."
)

# What a 2026-07-28 server stamps on every result's `_meta` (and on server/discover's).
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
SERVER_INFO_STAMP = {
    "name": "gift-server",
    "version": "0.1.0",
    "description": "Gift ideas for any occasion: the MCP example server of mcp-runtime",
    "title": "Gift ideas",
    "websiteUrl": "https://github.com/mcp-runtime/mcp-runtime/tree/main/examples/gift-server",
}
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
MODERN = "2026-07-28"


def stamp(result: Any) -> Any:
    """The serverInfo stamp in a result's `_meta` (None when there is none)."""
    return (result.meta or {}).get(SERVER_INFO_KEY)


async def rpc_error(call: Any) -> Any:
    """[code, message] of the JSON-RPC error a call ends in, or the result it returned."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            return dump(await call())
    except MCPError as e:
        return [e.code, e.error.message]


async def run(target: Any, p: str, mode: str, version: str, not_found_code: int) -> None:
    modern = version == MODERN  # the stateless era, reached by probing ("auto") or directly
    pure = mode == MODERN  # adopted without any probe: the client knows nothing of the server yet
    async with Client(target, mode=mode) as client:
        check(f"{p} negotiated version", client.protocol_version, version)
        info = client.server_info
        caps = client.server_capabilities
        if pure:
            # No server/discover, no initialize: server info, instructions and capabilities are
            # what the client synthesized (nothing), until it asks (server/discover below).
            check(
                f"{p} no handshake: server info, instructions, capabilities unknown",
                [info, client.instructions, dump(caps)],
                [None, None, {}],
            )
        else:
            check(f"{p} server name", info.name if info else None, "gift-server")
            check(f"{p} server version", info.version if info else None, "0.1.0")
            check(f"{p} instructions", client.instructions, INSTRUCTIONS)
            check(f"{p} capabilities", [caps.tools is not None, caps.resources is not None, caps.prompts is not None], [True, True, True])

        listed = await client.list_tools()
        if modern:
            check(f"{p} tools/list result _meta serverInfo", stamp(listed), SERVER_INFO_STAMP)
            check(
                f"{p} tools/list cache hints",
                [listed.result_type, listed.ttl_ms, listed.cache_scope],
                ["complete", 300000, "public"],
            )
        tools = listed.tools
        check(f"{p} tools/list names", [t.name for t in tools], ["more_like_this", "suggest_gifts"])
        tool = next(t for t in tools if t.name == "suggest_gifts")
        check(f"{p} suggest_gifts widget (_meta.ui)", (tool.meta or {}).get("ui"), {"resourceUri": WIDGET_URI})
        check(f"{p} suggest_gifts title", tool.title, "Gift ideas generator")
        check(f"{p} suggest_gifts description", tool.description, "Suggests gift ideas for a given occasion and budget.")
        check(f"{p} suggest_gifts inputSchema", tool.input_schema, INPUT_SCHEMA)
        check(f"{p} suggest_gifts outputSchema required", (tool.output_schema or {}).get("required"), ["gifts", "summary"])
        check(
            f"{p} suggest_gifts annotations",
            dump(tool.annotations) if tool.annotations else None,
            {"title": "Gift ideas generator", "readOnlyHint": True, "openWorldHint": False},
        )

        r = await client.call_tool("suggest_gifts", {"occasion": "birthday", "budget": 50, "recipient": "my sister"})
        check(f"{p} call: isError", r.is_error, False)
        sc = r.structured_content or {}
        check(f"{p} call: summary", sc.get("summary"), "8 gift ideas for my sister within $50")
        check(f"{p} call: first gift", (sc.get("gifts") or [None])[0], FIRST_GIFT)
        check(f"{p} call: text mirror", json.loads(r.content[0].text), sc)
        if modern:
            check(f"{p} call: result _meta serverInfo", stamp(r), SERVER_INFO_STAMP)

        r = await client.call_tool("suggest_gifts", {"occasion": "wedding", "budget": 5})
        check(
            f"{p} call: business error",
            dump(r)["content"] if r.is_error else None,
            [{"type": "text", "text": "no wedding gift fits a budget of $5; the cheapest is Cast-iron skillet at $55"}],
        )

        r = await client.call_tool("suggest_gifts", {"occasion": "birthday"})
        check(
            f"{p} call: missing budget is a tool error naming it",
            [r.is_error, r.content[0].text],
            [True, "invalid arguments for tool 'suggest_gifts': missing required property 'budget'"],
        )

        try:
            await client.call_tool("suggest_gift", {})
            check(f"{p} call: unknown tool", "no error", -32602)
        except MCPError as e:
            check(f"{p} call: unknown tool", [e.code, str(e.error.message)], [-32602, "unknown tool 'suggest_gift'"])

        resources = (await client.list_resources()).resources
        check(
            f"{p} resources/list",
            [dump(r) for r in resources],
            [
                {
                    "uri": WIDGET_URI,
                    "name": "gift_cards",
                    "description": 'Gift ideas as cards, each with a "More ideas like this" button (MCP Apps widget; hosts\nwithout apps show the tools\' text instead).',
                    "mimeType": "text/html;profile=mcp-app",
                    "_meta": {"ui": {"prefersBorder": True}},
                },
                {
                    "uri": CATALOG_URI,
                    "name": "gift_catalog",
                    "description": "Base catalog of gifts with categories and prices",
                    "mimeType": "application/json",
                },
                *SKILL_RESOURCES,
            ],
        )
        templates = (await client.list_resource_templates()).resource_templates
        check(
            f"{p} resources/templates/list",
            [dump(t) for t in templates],
            [
                {
                    "uriTemplate": "gifts://item/{id}",
                    "name": "gift",
                    "description": "One gift of the catalog, by id",
                    "mimeType": "application/json",
                }
            ],
        )
        read = await client.read_resource(CATALOG_URI)
        if modern:
            check(f"{p} read catalog: result _meta serverInfo", stamp(read), SERVER_INFO_STAMP)
        catalog = read.contents
        check(f"{p} read catalog: one text item", [len(catalog), catalog[0].mime_type], [1, "application/json"])
        gifts = json.loads(catalog[0].text)["gifts"]
        check(f"{p} read catalog: 24 gifts", len(gifts), 24)
        check(f"{p} read catalog: ids in order", [g["id"] for g in gifts], list(range(1, 25)))

        item = (await client.read_resource("gifts://item/4")).contents
        check(
            f"{p} read template gifts://item/4",
            [dump(c) for c in item],
            [{"uri": "gifts://item/4", "mimeType": "application/json", "text": CHEFS_KNIFE}],
        )
        try:
            await client.read_resource("gifts://item/99")
            check(f"{p} read missing gift", "no error", not_found_code)
        except MCPError as e:
            check(f"{p} read missing gift", [e.code, e.error.data], [not_found_code, {"uri": "gifts://item/99"}])

        prompts = (await client.list_prompts()).prompts
        check(
            f"{p} prompts/list",
            [dump(x) for x in prompts],
            [
                {
                    "name": "gift_congrats_style",
                    "title": "Congratulations style",
                    "description": "Style guide for congratulations that go with a gift",
                    "arguments": [
                        {"name": "name", "description": "Who is congratulated", "required": True},
                        {"name": "occasion", "description": "The occasion", "required": False},
                        {"name": "tone", "description": "Tone: warm, formal or funny", "required": False},
                    ],
                }
            ],
        )
        got = await client.get_prompt("gift_congrats_style", {"name": "Ann", "occasion": "wedding", "tone": "formal"})
        if modern:
            check(f"{p} prompts/get result _meta serverInfo", stamp(got), SERVER_INFO_STAMP)
        check(
            f"{p} prompts/get",
            [got.description, [dump(m) for m in got.messages]],
            [
                "Style guide for congratulations that go with a gift",
                [{"role": "user", "content": {"type": "text", "text": PROMPT_TEXT}}],
            ],
        )

        c = await client.complete(PromptReference(name="gift_congrats_style"), {"name": "tone", "value": "f"})
        check(f"{p} complete prompt argument", c.completion.values, ["formal", "funny"])
        c = await client.complete(ResourceTemplateReference(uri="gifts://item/{id}"), {"name": "id", "value": "1"})
        check(f"{p} complete template variable", c.completion.values, ["1", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"])

        # ping and logging/setLevel exist only in the handshake era; 2026-07-28 removed both.
        if modern:
            check(f"{p} ping is gone", await rpc_error(client.send_ping), [-32601, "Method not found: ping"])
            check(
                f"{p} logging/setLevel is gone",
                await rpc_error(lambda: client.set_logging_level("debug")),
                [-32601, "Method not found: logging/setLevel"],
            )
        else:
            check(f"{p} ping", await rpc_error(client.send_ping), {})
            check(f"{p} logging/setLevel", await rpc_error(lambda: client.set_logging_level("debug")), {})

        if pure:
            # What auto mode learned by probing, asked for afterwards: still one stateless request.
            d = await client.session.send_discover(MODERN)
            check(
                f"{p} server/discover on demand",
                [d.get("supportedVersions"), d.get("instructions"), sorted(d.get("capabilities", {})), (d.get("_meta") or {}).get(SERVER_INFO_KEY)],
                [[MODERN], INSTRUCTIONS, ["completions", "extensions", "logging", "prompts", "resources", "tools"], SERVER_INFO_STAMP],
            )
            check(f"{p} server/discover declares MCP Apps and skills", d.get("capabilities", {}).get("extensions"), {"io.modelcontextprotocol/skills": {"directoryRead": True}, "io.modelcontextprotocol/ui": {}})
            check(f"{p} server/discover cache hints", [d.get("resultType"), d.get("ttlMs"), d.get("cacheScope")], ["complete", 300000, "public"])


def sent_messages(log: str) -> list[dict[str, Any]]:
    """The client's messages as the server logged them (`--> {json}` lines, MCP_LOG_MESSAGES=1)."""
    out = []
    for line in log.splitlines():
        if line.startswith("--> "):
            try:
                out.append(json.loads(line[4:]))
            except json.JSONDecodeError:
                pass
    return out


def check_wire(p: str, mode: str, log: str) -> None:
    """What the server saw: which request came first, and the era every request was stamped with."""
    sent = sent_messages(log)
    requests = [m for m in sent if "id" in m and "method" in m]
    notifications = [m["method"] for m in sent if "id" not in m and "method" in m]
    stamped = sorted({str(((m.get("params") or {}).get("_meta") or {}).get(PROTOCOL_VERSION_KEY)) for m in requests})
    first = requests[0]["method"] if requests else None
    if mode == "legacy":
        check(f"{p} wire: initialize first, then notifications/initialized", [first, notifications[:1]], ["initialize", ["notifications/initialized"]])
        check(f"{p} wire: no request carries a protocolVersion _meta", stamped, ["None"])
    else:
        check(f"{p} wire: first request", first, "server/discover" if mode == "auto" else "tools/list")
        check(f"{p} wire: no initialize, no client notifications", ["initialize" in [m["method"] for m in requests], notifications], [False, []])
        check(
            f"{p} wire: every request (of {len(requests)}) carries _meta protocolVersion 2026-07-28",
            [len(requests) > 10, stamped],
            [True, [MODERN]],
        )
        check(
            f"{p} wire: every request carries _meta clientCapabilities",
            all("io.modelcontextprotocol/clientCapabilities" in ((m.get("params") or {}).get("_meta") or {}) for m in requests),
            True,
        )


MODES = [
    # mode, negotiated version, code of "resource not found"
    ("auto", MODERN, -32602),
    ("legacy", "2025-11-25", -32002),
    (MODERN, MODERN, -32602),
]


async def guarded(label: str, body: Any) -> None:
    """Runs body() (awaiting what it returns, if anything); a crash is counted and printed."""
    global FAILED
    try:
        result = body()
        if inspect.isawaitable(result):
            await result
    except Exception:  # a crash is a failure, and the other runs still happen
        FAILED += 1
        print(f"FAIL {label} crashed:")
        traceback.print_exc(file=sys.stdout)


async def main(binary: str, url: str | None) -> None:
    show_log = os.environ.get("MCP_LOG_MESSAGES", "") not in ("", "0")
    env = {"MCP_LOG_MESSAGES": "1"}
    if "RUST_LOG" in os.environ:
        env["RUST_LOG"] = os.environ["RUST_LOG"]
    params = StdioServerParameters(command=binary, args=["stdio"], env=env)
    for mode, version, not_found in MODES:
        label = f"[stdio {mode}]"
        with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as errlog:
            await guarded(label, lambda: run(stdio_client(params, errlog=errlog), label, mode, version, not_found))
            errlog.seek(0)
            log = errlog.read()
        if show_log:
            sys.stderr.write(log)
        await guarded(label, lambda: check_wire(label, mode, log))

    if not url:
        return
    http_log = os.environ.get("MCP_INTEROP_HTTP_LOG")
    for mode, version, not_found in MODES:
        label = f"[http {mode}]"
        start = os.path.getsize(http_log) if http_log else 0
        await guarded(label, lambda: run(url, label, mode, version, not_found))
        if http_log:
            await anyio.sleep(0.1)  # the server logs a message before it answers; a margin all the same
            with open(http_log, "rb") as f:
                f.seek(start)
                log = f.read().decode("utf-8", errors="replace")
            await guarded(label, lambda: check_wire(label, mode, log))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: py_client.py PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]")
    anyio.run(main, sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
    print(f"{PASSED} passed, {FAILED} failed")
    sys.exit(1 if FAILED else 0)
