"""Side-by-side numbers of a reference server and its original: start-up, resident memory and
calls/s of one representative tool, in one run on one machine.

Usage: fixturebench.py git|fetch "ORIGINAL COMMAND" PATH/TO/OURS [CALLS]

The bench of the servers whose calls need a fixture (a repository, a loopback site); the others
use mcpbench.py.

Speaks raw newline-delimited JSON-RPC over stdio (no SDK in the loop): start-up is the time
from spawning the process to the answer of `initialize`; RSS is VmRSS after the calls; calls/s
is CALLS sequential `tools/call`s (git_status of a small repository; fetch of a loopback page,
with robots.txt checked as by default). Prints a Markdown table.
"""

from __future__ import annotations

import http.server
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import time


def rpc(proc: subprocess.Popen, msg_id: int, method: str, params: dict) -> dict:
    proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}) + "\n").encode())
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("server closed stdout")
        msg = json.loads(line)
        if msg.get("id") == msg_id:
            return msg


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def measure(command: list[str], tool: str, args: dict, calls: int, env: dict) -> tuple[float, float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    init = rpc(proc, 1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                       "clientInfo": {"name": "bench", "version": "1"}})
    startup_ms = (time.perf_counter() - start) * 1000
    assert "result" in init, init
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    proc.stdin.flush()
    first = rpc(proc, 2, "tools/call", {"name": tool, "arguments": args})
    assert not first["result"].get("isError"), first
    t0 = time.perf_counter()
    for i in range(calls):
        r = rpc(proc, 3 + i, "tools/call", {"name": tool, "arguments": args})
        assert not r["result"].get("isError"), r
    per_s = calls / (time.perf_counter() - t0)
    rss = rss_kib(proc.pid) / 1024
    proc.stdin.close()
    proc.wait(timeout=10)
    return startup_ms, rss, per_s


def main() -> None:
    kind, original, ours = sys.argv[1], shlex.split(sys.argv[2]), [sys.argv[3]]
    calls = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    env = {"PATH": os.environ["PATH"], "HOME": tempfile.mkdtemp()}
    if kind == "git":
        repo = tempfile.mkdtemp(prefix="bench-repo-")
        for cmd in (["init", "-q"], ["-c", "user.name=B", "-c", "user.email=b@x", "commit", "-q", "--allow-empty", "-m", "x"]):
            subprocess.run(["git", *cmd], cwd=repo, check=True)
        tool, args, flags = "git_status", {"repo_path": repo}, []
    else:
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802
                body = b"User-agent: *\nDisallow: /private\n" if self.path == "/robots.txt" else b"<html><body><h1>Hi</h1><p>text</p></body></html>"
                ctype = "text/plain" if self.path == "/robots.txt" else "text/html"
                # One write: headers and body in separate small writes meet the client's
                # delayed ACK (Nagle), a 40 ms stall per request that would measure TCP.
                head = f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n\r\n"
                self.wfile.write(head.encode() + body)

            def log_message(self, *a: object) -> None:
                pass
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        tool, args, flags = "fetch", {"url": f"http://127.0.0.1:{httpd.server_port}/page.html"}, ["--allow-private-ips"]
    rows = []
    for who, command in (("original", original + flags), ("ours", ours + flags)):
        rows.append((who, *measure(command, tool, args, calls, env)))
    print(f"| {kind} server | start-up (ms) | RSS after {calls} calls (MiB) | {tool} calls/s |")
    print("|---|---:|---:|---:|")
    for who, startup, rss, per_s in rows:
        print(f"| {who} | {startup:.0f} | {rss:.1f} | {per_s:.1f} |")


if __name__ == "__main__":
    main()
