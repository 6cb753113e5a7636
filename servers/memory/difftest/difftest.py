"""servers/memory against the original @modelcontextprotocol/server-memory (pinned in
package.json/package-lock.json beside this file): one sequence of calls, good and bad input,
run with the official Python SDK client against the original (stdio, 2025-11-25: the only era
it speaks) and against ours over stdio in both eras and over Streamable HTTP; tool lists, the
resource, every answer and the JSONL file left behind are compared (tests/reference/mcpdiff.py).
Then 20 concurrent create_entities calls on each: ours must keep all 20.

Usage: python difftest.py ORIGINAL_INDEX_JS OUR_BINARY
"""

import json
import os
import sys
import tempfile

import anyio
from mcp import Client

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "reference"))
import mcpdiff  # noqa: E402

# The differences allowed, each explained in ../README.md (same ids).
ALLOWED = [
    "unknown-tool-error",
    "validation-message",
    "schema-dialect",
    "additional-properties",
    "annotations-title",
    "execution-forbidden",
    "no-arguments-schema",
]
LIST_RULES = ALLOWED[2:]
BAD = ["validation-message"]


def entity(name, kind, *obs):
    return {"name": name, "entityType": kind, "observations": list(obs)}


def rel(a, b, kind):
    return {"from": a, "to": b, "relationType": kind}


STEPS = [
    ("create two entities", "create_entities", {"entities": [entity("Ann", "person", "lives in Oslo"), entity("Bob", "person")]}, []),
    ("create a duplicate and a new one", "create_entities", {"entities": [entity("Ann", "robot"), entity("Café", "place", "serves \"tea\"\nand cake")]}, []),
    ("create without observations", "create_entities", {"entities": [{"name": "X", "entityType": "t"}]}, BAD),
    ("create with entities not an array", "create_entities", {"entities": "Ann"}, BAD),
    ("create with no arguments", "create_entities", {}, BAD),
    ("relate", "create_relations", {"relations": [rel("Ann", "Bob", "knows"), rel("Bob", "Café", "visits"), rel("Ann", "Zed", "awaits")]}, []),
    ("relate again", "create_relations", {"relations": [rel("Ann", "Bob", "knows"), rel("Bob", "Ann", "knows")]}, []),
    ("relate with a number", "create_relations", {"relations": [{"from": "Ann", "to": 3, "relationType": "x"}]}, BAD),
    ("observe", "add_observations", {"observations": [{"entityName": "Ann", "contents": ["likes tea", "lives in Oslo"]}, {"entityName": "Bob", "contents": []}]}, []),
    ("observe an unknown entity", "add_observations", {"observations": [{"entityName": "Ann", "contents": ["never saved"]}, {"entityName": "Zed", "contents": ["x"]}]}, []),
    ("read", "read_graph", {}, []),
    ("search by observation", "search_nodes", {"query": "TEA"}, []),
    ("search by type", "search_nodes", {"query": "plac"}, []),
    ("search for nothing", "search_nodes", {"query": "zzz"}, []),
    ("search without a query", "search_nodes", {}, BAD),
    ("open", "open_nodes", {"names": ["Bob", "Nobody"]}, []),
    ("open nothing", "open_nodes", {"names": []}, []),
    ("unobserve", "delete_observations", {"deletions": [{"entityName": "Ann", "observations": ["likes tea", "absent"]}, {"entityName": "Zed", "observations": ["x"]}]}, []),
    ("unrelate", "delete_relations", {"relations": [rel("Bob", "Ann", "knows"), rel("No", "One", "x")]}, []),
    ("delete", "delete_entities", {"entityNames": ["Bob", "Nobody"]}, []),
    ("delete with a string", "delete_entities", {"entityNames": "Bob"}, BAD),
    ("read again", "read_graph", {}, []),
    ("an unknown tool", "no_such_tool", {}, ["unknown-tool-error"]),
]


async def session(target, mode, path_note, diff, label, results):
    async with Client(target, mode=mode) as client:
        listed = mcpdiff.tools_by_name(await client.list_tools())
        steps = await mcpdiff.run_steps(client, STEPS)
        read = await client.read_resource("memory://knowledge-graph")
        resource = mcpdiff.dump(read)["contents"]
        resources = [mcpdiff.dump(r) for r in (await client.list_resources()).resources]
        results[label] = (listed, steps, resource, resources, client.protocol_version)


async def concurrent(target):
    async with Client(target, mode="legacy") as client:
        async with anyio.create_task_group() as tg:
            for i in range(20):
                tg.start_soon(client.call_tool, "create_entities", {"entities": [entity(f"E{i}", "t")]})
        r = mcpdiff.dump(await client.call_tool("read_graph", {}))
        return len(r["structuredContent"]["entities"])


async def main(original, ours):
    diff = mcpdiff.Diff(os.path.join(HERE, "..", "README.md"), ALLOWED)
    tmp = tempfile.mkdtemp(prefix="memory-difftest-")
    files = {}
    results = {}

    def target(label, command, args):
        files[label] = os.path.join(tmp, f"{label}.jsonl")
        return mcpdiff.stdio(command, args, {"MEMORY_FILE_PATH": files[label]}, open(os.devnull, "w"))

    await session(target("original", "node", [original]), "legacy", None, diff, "original", results)
    await session(target("ours-2025-11-25", ours, ["stdio"]), "legacy", None, diff, "ours-2025-11-25", results)
    await session(target("ours-2026-07-28", ours, ["stdio"]), "2026-07-28", None, diff, "ours-2026-07-28", results)
    files["ours-http"] = os.path.join(tmp, "ours-http.jsonl")
    http = mcpdiff.Http(ours, {"MEMORY_FILE_PATH": files["ours-http"]})
    try:
        await session(http.url, "auto", None, diff, "ours-http", results)
    finally:
        http.close()

    t_list, t_steps, t_res, t_resources, t_version = results["original"]
    print(f"original speaks {t_version}")
    for label in ["ours-2025-11-25", "ours-2026-07-28", "ours-http"]:
        o_list, o_steps, o_res, o_resources, o_version = results[label]
        print(f"\n[{label}: {o_version}]")
        diff.check(f"{label} tool names", sorted(t_list), sorted(o_list))
        for name in sorted(t_list):
            diff.check(f"{label} tools/list {name}", t_list[name], o_list.get(name), LIST_RULES)
        for (step, t, o) in zip(STEPS, t_steps, o_steps):
            diff.check(f"{label} {step[1]}: {step[0]}", t, o, step[3])
        diff.check(f"{label} resources/list", t_resources, o_resources)
        diff.check(f"{label} resources/read memory://knowledge-graph", t_res, o_res)
        with open(files["original"], encoding="utf-8") as f:
            theirs = f.read()
        with open(files[label], encoding="utf-8") as f:
            mine = f.read()
        diff.check(f"{label} the JSONL file after the sequence", theirs, mine)

    print("\n[20 concurrent create_entities calls]")
    kept_theirs = await concurrent(target("original-concurrent", "node", [original]))
    kept_ours = await concurrent(target("ours-concurrent", ours, ["stdio"]))
    print(f"       the original kept {kept_theirs} of 20 entities; ours kept {kept_ours}")
    diff.fact("ours keeps every entity of 20 concurrent calls", kept_ours == 20, f"kept {kept_ours}")
    diff.finish()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: difftest.py ORIGINAL_INDEX_JS OUR_BINARY")
    anyio.run(main, sys.argv[1], sys.argv[2])
