"""servers/time against the original mcp-server-time (PyPI, pinned with the official Python SDK
client in requirements.txt beside this file): one sequence of calls, good and bad input, run
with the official Python SDK client against the original and against ours over stdio in both
eras (the original speaks both), and against ours over Streamable HTTP; tool lists (with the
local zone given by --local-timezone, and found from TZ) and every answer are compared
(tests/reference/mcpdiff.py). convert_time takes fixed times; get_current_time is compared
with the clock masked (its zone, offset, shape and text format are compared).

Usage: python difftest.py ORIGINAL_BINARY OUR_BINARY
"""

import json
import os
import re
import sys

import anyio
from mcp import Client

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "reference"))
import mcpdiff  # noqa: E402

# The differences allowed, each explained in ../README.md (same ids).
ALLOWED = [
    "validation-message",
    "rpc-error-message",
    "zone-directory",
    "schema-titles",
    "inlined-definitions",
]
LIST_RULES = ["schema-titles", "inlined-definitions"]
BAD = ["validation-message"]

# A directory of the tz database: the original reports the OS error with its path.
mcpdiff.RULES["zone-directory"] = lambda theirs, ours: (
    (ours, ours)
    if "Is a directory" in json.dumps(theirs) and "No time zone found with key" in json.dumps(ours)
    else (theirs, ours)
)

CLOCK = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def masked(outcome):
    """get_current_time's answer without the clock reading (date and time of day): the zone,
    the offset, the fields and the text's layout stay."""
    return json.loads(CLOCK.sub("<now>", json.dumps(outcome)).replace('"Saturday"', '"<day>"')
                      .replace('"Sunday"', '"<day>"').replace('"Monday"', '"<day>"')
                      .replace('"Tuesday"', '"<day>"').replace('"Wednesday"', '"<day>"')
                      .replace('"Thursday"', '"<day>"').replace('"Friday"', '"<day>"'))


def now(zone, allowed=None):
    return (f"now in {zone!r}", "get_current_time", {"timezone": zone}, allowed or [])


def conv(src, time, dst, allowed=None):
    label = f"{time} from {src!r} to {dst!r}"
    return (label, "convert_time", {"source_timezone": src, "time": time, "target_timezone": dst}, allowed or [])


STEPS = [
    now("Europe/London"),
    now("UTC"),
    now("Asia/Kathmandu"),
    now("America/Argentina/Buenos_Aires"),
    now("europe/london"),
    now("Mars/Olympus_Mons"),
    now(""),
    now("../etc/passwd"),
    now("/etc/passwd"),
    now("Europe/./London"),
    now("America", ["zone-directory"]),
    ("now without a zone", "get_current_time", {}, BAD),
    ("now with a number", "get_current_time", {"timezone": 3}, BAD),
    conv("UTC", "12:00", "Asia/Tokyo"),
    conv("America/New_York", "09:30", "Asia/Kathmandu"),
    conv("Europe/London", "23:59", "Australia/Adelaide"),
    conv("Asia/Kolkata", "00:00", "America/St_Johns"),
    conv("Pacific/Kiritimati", "06:15", "Pacific/Niue"),
    conv("UTC", "9:5", "Europe/Paris"),
    conv("UTC", "24:00", "Europe/Paris"),
    conv("UTC", "12:60", "Europe/Paris"),
    conv("UTC", "12:00pm", "Europe/Paris"),
    conv("UTC", "1200", "Europe/Paris"),
    conv("UTC", " 12:00", "Europe/Paris"),
    conv("Nowhere/City", "12:00", "Europe/Paris"),
    conv("UTC", "12:00", "Nowhere/City"),
    conv("", "12:00", "Europe/Paris"),
    conv("UTC", "12:00", ""),
    conv("Nowhere/City", "bad", ""),
    ("convert without a time", "convert_time", {"source_timezone": "UTC", "target_timezone": "UTC"}, BAD),
    ("an unknown tool", "get_time", {}, ["rpc-error-message"]),
]


async def session(target, mode, results, label):
    async with Client(target, mode=mode) as client:
        listed = mcpdiff.tools_by_name(await client.list_tools())
        steps = await mcpdiff.run_steps(client, STEPS)
        steps = [masked(o) if s[1] == "get_current_time" else o for s, o in zip(STEPS, steps)]
        results[label] = (listed, steps, client.protocol_version)


async def lists(target):
    async with Client(target, mode="legacy") as client:
        return mcpdiff.tools_by_name(await client.list_tools())


async def main(original, ours):
    diff = mcpdiff.Diff(os.path.join(HERE, "..", "README.md"), ALLOWED)
    null = open(os.devnull, "w")
    flag = ["--local-timezone", "Europe/Paris"]
    results = {}
    for mode in ["legacy", "2026-07-28"]:
        await session(mcpdiff.stdio(original, flag, {}, null), mode, results, f"original-{mode}")
        await session(mcpdiff.stdio(ours, [*flag, "stdio"], {}, null), mode, results, f"ours-{mode}")
    http = mcpdiff.Http(ours, {}, flag)
    try:
        await session(http.url, "auto", results, "ours-http")
    finally:
        http.close()

    pairs = [
        ("original-legacy", "ours-legacy"),
        ("original-2026-07-28", "ours-2026-07-28"),
        ("original-2026-07-28", "ours-http"),
    ]
    for theirs_label, ours_label in pairs:
        t_list, t_steps, t_version = results[theirs_label]
        o_list, o_steps, o_version = results[ours_label]
        label = f"{ours_label}"
        print(f"\n[{ours_label} ({o_version}) against {theirs_label} ({t_version})]")
        diff.check(f"{label} negotiated revision", t_version, o_version)
        diff.check(f"{label} tool names", sorted(t_list), sorted(o_list))
        for name in sorted(t_list):
            diff.check(f"{label} tools/list {name}", t_list[name], o_list.get(name), LIST_RULES)
        for step, theirs, mine in zip(STEPS, t_steps, o_steps):
            diff.check(f"{label} {step[1]}: {step[0]}", theirs, mine, step[3])

    print("\n[the local zone from TZ, no --local-timezone]")
    tz = {"TZ": "America/Sao_Paulo"}
    t_list = await lists(mcpdiff.stdio(original, [], tz, null))
    o_list = await lists(mcpdiff.stdio(ours, ["stdio"], tz, null))
    for name in sorted(t_list):
        diff.check(f"TZ tools/list {name}", t_list[name], o_list.get(name), LIST_RULES)
    diff.finish()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: difftest.py ORIGINAL_BINARY OUR_BINARY")
    anyio.run(main, sys.argv[1], sys.argv[2])
