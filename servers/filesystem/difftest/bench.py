"""Start-up, resident memory and read_text_file calls/s: the original and ours, side by side.

Both servers are spawned over stdio by the official Python SDK client, in the same run, on the
same small file (about 1 KiB) in a fresh directory:

- start-up: from spawning the process to the `initialize` answer (median of RUNS);
- RSS: the server process's VmRSS (/proc/PID/status) after the calls;
- calls/s: CALLS sequential `read_text_file` calls, one client, after 50 warm-up calls.

Prints a Markdown table. Usage: python bench.py ORIGINAL_JS OURS_BIN [CALLS]
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters

RUNS = 5


def children() -> list[int]:
    me = str(os.getpid())
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me:
            out.append(int(pid))
    return out


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def measure(command: list[str], root: str, calls: int) -> tuple[float, float, float]:
    path = os.path.join(root, "file.txt")
    params = StdioServerParameters(command=command[0], args=[*command[1:], root], env={"PATH": os.environ["PATH"]})
    starts = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        async with Client(params, mode="legacy") as client:
            starts.append(time.perf_counter() - t0)
            await client.list_tools()
    async with Client(params, mode="legacy") as client:
        for _ in range(50):
            await client.call_tool("read_text_file", {"path": path})
        t0 = time.perf_counter()
        for _ in range(calls):
            r = await client.call_tool("read_text_file", {"path": path})
            assert not r.is_error
        rate = calls / (time.perf_counter() - t0)
        pids = children()
        rss = max(rss_mib(p) for p in pids) if pids else float("nan")
    return statistics.median(starts) * 1000, rss, rate


async def main(original: str, ours: str, calls: int) -> None:
    root = tempfile.mkdtemp(prefix="fs-bench-")
    try:
        with open(os.path.join(root, "file.txt"), "w") as f:
            f.write("".join(f"line {i} of the benchmark file\n" for i in range(36)))
        rows = []
        for name, cmd in (("original (Node, 2026.8.31)", ["node", original]), ("ours (mcp-server-filesystem)", [ours])):
            start, rss, rate = await measure(cmd, root, calls)
            rows.append((name, start, rss, rate))
        print("| server | start-up (ms, median of 5) | RSS after calls (MiB) | read_text_file calls/s |")
        print("|---|---|---|---|")
        for name, start, rss, rate in rows:
            print(f"| {name} | {start:.0f} | {rss:.1f} | {rate:.0f} |")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2000))
