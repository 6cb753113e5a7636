"""servers/sequential-thinking against the original
@modelcontextprotocol/server-sequential-thinking (pinned in package.json/package-lock.json
beside this file): one sequence of thoughts, good and bad input (strings for booleans and
numbers included, which the original accepts), run with the official Python SDK client against
the original (stdio, 2025-11-25: the only era it speaks) and against ours over stdio in both
eras and over Streamable HTTP; the tool list and every answer are compared
(tests/reference/mcpdiff.py).

Usage: python difftest.py ORIGINAL_INDEX_JS OUR_BINARY
"""

import os
import sys

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
    "boolean-schema",
]
LIST_RULES = ALLOWED[2:]
BAD = ["validation-message"]


def t(text, n, total, more=True, **extra):
    return {"thought": text, "nextThoughtNeeded": more, "thoughtNumber": n, "totalThoughts": total, **extra}


STEPS = [
    ("a first thought", "sequentialthinking", t("List the facts", 1, 3), []),
    ("a second, past the estimate", "sequentialthinking", t("More than planned", 5, 3), []),
    ("a revision", "sequentialthinking", t("Fact 2 was wrong", 3, 5, isRevision=True, revisesThought=2), []),
    ("a branch", "sequentialthinking", t("Try another way", 4, 5, branchFromThought=2, branchId="alt"), []),
    ("a second branch", "sequentialthinking", t("Or this one", 4, 5, branchFromThought=2, branchId="b2"), []),
    ("the first branch again", "sequentialthinking", t("Back to alt", 5, 5, branchFromThought=2, branchId="alt"), []),
    ("a branch id without a branch point", "sequentialthinking", t("Orphan", 6, 6, branchId="lost"), []),
    ("strings for booleans and numbers", "sequentialthinking", t("Strings", "7", "6", "FALSE", isRevision="true", needsMoreThoughts="false"), []),
    ("unicode", "sequentialthinking", t("Ünïcödé 💭 thought", 8, 8, False), []),
    ("thought number 0", "sequentialthinking", t("Zero", 0, 3), BAD),
    ("a fractional total", "sequentialthinking", t("Half", 1, 1.5), BAD),
    ("a boolean that is not one", "sequentialthinking", t("Maybe", 1, 3, "maybe"), BAD),
    ("a number that is not one", "sequentialthinking", t("NaN", "abc", 3), BAD),
    ("no thought", "sequentialthinking", {"nextThoughtNeeded": True, "thoughtNumber": 1, "totalThoughts": 1}, BAD),
    ("a thought that is a number", "sequentialthinking", t(42, 1, 1), BAD),
    ("after the refusals", "sequentialthinking", t("Still counting", 9, 9, False), []),
    ("an unknown tool", "sequential_thinking", {}, ["unknown-tool-error"]),
]


async def session(target, mode, results, label):
    async with Client(target, mode=mode) as client:
        listed = mcpdiff.tools_by_name(await client.list_tools())
        steps = await mcpdiff.run_steps(client, STEPS)
        results[label] = (listed, steps, client.protocol_version)


async def main(original, ours):
    diff = mcpdiff.Diff(os.path.join(HERE, "..", "README.md"), ALLOWED)
    results = {}
    quiet = {"DISABLE_THOUGHT_LOGGING": "true"}
    null = open(os.devnull, "w")
    await session(mcpdiff.stdio("node", [original], quiet, null), "legacy", results, "original")
    await session(mcpdiff.stdio(ours, ["stdio"], quiet, null), "legacy", results, "ours-2025-11-25")
    await session(mcpdiff.stdio(ours, ["stdio"], quiet, null), "2026-07-28", results, "ours-2026-07-28")
    http = mcpdiff.Http(ours, quiet)
    try:
        await session(http.url, "auto", results, "ours-http")
    finally:
        http.close()

    t_list, t_steps, t_version = results["original"]
    print(f"original speaks {t_version}")
    for label in ["ours-2025-11-25", "ours-2026-07-28", "ours-http"]:
        o_list, o_steps, o_version = results[label]
        print(f"\n[{label}: {o_version}]")
        diff.check(f"{label} tool names", sorted(t_list), sorted(o_list))
        for name in sorted(t_list):
            diff.check(f"{label} tools/list {name}", t_list[name], o_list.get(name), LIST_RULES)
        for step, theirs, mine in zip(STEPS, t_steps, o_steps):
            diff.check(f"{label} {step[1]}: {step[0]}", theirs, mine, step[3])
    diff.finish()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: difftest.py ORIGINAL_INDEX_JS OUR_BINARY")
    anyio.run(main, sys.argv[1], sys.argv[2])
