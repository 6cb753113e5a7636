"""Side-by-side numbers of two stdio MCP servers, the original and ours, in one run: start-up
(spawn to the `initialize` answer, median of 5), resident memory (VmRSS from /proc after the
handshake and 50 calls), and calls/s of one tool (sequential tools/call for 3 seconds, after 50
warm-up calls). Raw JSON-RPC lines, no SDK, so that the client costs the same for both.

Usage: python mcpbench.py TOOL ARGS_JSON -- ORIGINAL_COMMAND... -- OUR_COMMAND...
Environment: each server inherits this process's environment. Prints a Markdown table.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "mcpbench", "version": "1"},
    },
}


class Stdio:
    def __init__(self, command: list[str]):
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.next_id = 1

    def send(self, message: dict) -> None:
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    def answer(self, id_: int) -> dict:
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            message = json.loads(line)
            if message.get("id") == id_:
                return message

    def request(self, method: str, params: dict) -> dict:
        id_ = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        return self.answer(id_)

    def rss_kib(self) -> int:
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def handshake(s: Stdio) -> None:
    s.send(INIT)
    answer = s.answer(0)
    if "result" not in answer:
        raise RuntimeError(f"initialize failed: {answer}")
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def measure(command: list[str], tool: str, args: dict) -> dict:
    starts = []
    for _ in range(5):
        t0 = time.perf_counter()
        s = Stdio(command)
        s.send(INIT)
        s.answer(0)
        starts.append(time.perf_counter() - t0)
        s.close()
    s = Stdio(command)
    handshake(s)
    for _ in range(50):
        r = s.request("tools/call", {"name": tool, "arguments": args})
        if r.get("result", {}).get("isError") or "error" in r:
            raise RuntimeError(f"{tool} failed: {r}")
    rss = s.rss_kib()
    calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 3.0:
        s.request("tools/call", {"name": tool, "arguments": args})
        calls += 1
    rate = calls / (time.perf_counter() - t0)
    s.close()
    return {"start_ms": statistics.median(starts) * 1000, "rss_mib": rss / 1024, "calls_per_s": rate}


def main() -> None:
    argv = sys.argv[1:]
    if argv.count("--") != 2 or argv.index("--") != 2:
        sys.exit("usage: mcpbench.py TOOL ARGS_JSON -- ORIGINAL_COMMAND... -- OUR_COMMAND...")
    tool, args = argv[0], json.loads(argv[1])
    rest = argv[3:]
    cut = rest.index("--")
    original, ours = rest[:cut], rest[cut + 1 :]
    theirs = measure(original, tool, args)
    mine = measure(ours, tool, args)
    print(f"| `{tool}` | original | ours |")
    print("|---|---:|---:|")
    print(f"| start-up (spawn to `initialize` answer, median of 5) | {theirs['start_ms']:.0f} ms | {mine['start_ms']:.1f} ms |")
    print(f"| resident memory after 50 calls | {theirs['rss_mib']:.1f} MiB | {mine['rss_mib']:.1f} MiB |")
    print(f"| sequential calls/s over stdio | {theirs['calls_per_s']:.0f} | {mine['calls_per_s']:.0f} |")


if __name__ == "__main__":
    main()
