"""The official Python SDK client (PyPI `mcp`, pinned in requirements.txt) against gift-server.

Spawns the gift-server binary over stdio twice: in the SDK's default mode ("auto": it probes
`server/discover` and adopts 2026-07-28, falling back to `initialize`) and in "legacy" mode
(the `initialize` handshake). With a URL, it also connects to a running `gift-server http`
over Streamable HTTP in both modes. Each run lists and calls tools, reads resources, gets the
prompt and completes arguments, asserting exact values as the client parsed them.

Usage: python py_client.py PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]
Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
Set MCP_LOG_MESSAGES=1 to have the server log every message on stderr.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
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

INPUT_SCHEMA = {
    "type": "object",
    "properties": {
        "occasion": {
            "type": "string",
            "enum": ["birthday", "wedding", "anniversary", "graduation", "housewarming", "holiday"],
            "description": "The occasion, e.g. birthday or wedding",
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


async def run(target: StdioServerParameters | str, p: str, mode: str, version: str, not_found_code: int) -> None:
    async with Client(target, mode=mode) as client:
        check(f"{p} negotiated version", client.protocol_version, version)
        info = client.server_info
        check(f"{p} server name", info.name if info else None, "gift-server")
        check(f"{p} server version", info.version if info else None, "0.1.0")
        check(
            f"{p} instructions",
            client.instructions,
            "Suggests gifts for an occasion and budget. Read the gift catalog resource for what exists; "
            "use the gift_congrats_style prompt for a card text.",
        )
        caps = client.server_capabilities
        check(f"{p} capabilities", [caps.tools is not None, caps.resources is not None, caps.prompts is not None], [True, True, True])

        tools = (await client.list_tools()).tools
        check(f"{p} tools/list names", [t.name for t in tools], ["suggest_gifts"])
        tool = tools[0]
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
                    "uri": CATALOG_URI,
                    "name": "gift_catalog",
                    "description": "Base catalog of gifts with categories and prices",
                    "mimeType": "application/json",
                }
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
        catalog = (await client.read_resource(CATALOG_URI)).contents
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


async def main(binary: str, url: str | None) -> None:
    global FAILED
    env = {k: v for k, v in os.environ.items() if k in ("MCP_LOG_MESSAGES", "RUST_LOG")}
    targets: list[tuple[str, StdioServerParameters | str]] = [
        ("stdio", StdioServerParameters(command=binary, args=["stdio"], env=env or None))
    ]
    if url:
        targets.append(("http", url))
    for transport, target in targets:
        for mode, version, not_found in [("auto", "2026-07-28", -32602), ("legacy", "2025-11-25", -32002)]:
            label = f"[{transport} {mode}]"
            try:
                await run(target, label, mode, version, not_found)
            except Exception:  # a crash is a failure, and the other runs still happen
                FAILED += 1
                print(f"FAIL {label} crashed:")
                traceback.print_exc(file=sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: py_client.py PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]")
    anyio.run(main, sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
    print(f"{PASSED} passed, {FAILED} failed")
    sys.exit(1 if FAILED else 0)
