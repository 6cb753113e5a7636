"""What scale-out on Redis costs (BENCHMARKS.md, "Scale-out on Redis").

Starts on 127.0.0.1 (free ports): redis-server, replicas `a` and `b` of BIN sharing it
(MCP_REDIS_URL, one MCP_REQUEST_STATE_KEYS), and `solo`, the same binary without Redis. Then:

1. Handshake era (2025-11-25), one keep-alive connection per replica, N rounds, interleaved:
   a session is created on `a` (initialize + notifications/initialized); then `tools/call` on
   `a` (a local hit: the replica that created it), on `b` (the first request there: the
   session is restored from Redis), on `b` again (now a local hit there), and on `solo` (a
   session of its own, no Redis at all). Each time is one request, from the write of its
   request to the read of its whole answer, at the client (Python's http.client: its own
   overhead is in every column alike; read the differences).
2. Stateless era (2026-07-28), throughput (run first, on fresh replicas): ApacheBench (`ab -k`,
   C connections, S seconds) with the same `tools/call` against `a` (Redis configured) and
   against `solo` (no Redis), alternating, R runs each; the medians and their ratio; and how
   many commands Redis ran meanwhile (INFO stats), the load-independent answer.

Usage: python3 bench/scale_out.py PATH/TO/everything-server [--rounds N] [--conns C] [--secs S] [--reps R]
(BIN built with the `redis` feature, in release: cargo build --release -p everything-server
--features everything-server/redis). Needs redis-server and ab (apt-get install redis-server
apache2-utils). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "test_simple_text", "arguments": {}}}
EXPECTED = "This is a simple text response for testing."
STATELESS_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def wait_http(url: str) -> None:
    for _ in range(300):
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.05)
    sys.exit(f"bench: {url} never answered")


class Conn:
    """One keep-alive HTTP/1.1 connection to a replica's /mcp."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.conn.connect()
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def post(self, message: dict, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes, float]:
        body = json.dumps(message).encode()
        all_headers = {"content-type": "application/json", "accept": "application/json, text/event-stream", **headers}
        start = time.perf_counter_ns()
        self.conn.request("POST", "/mcp", body=body, headers=all_headers)
        response = self.conn.getresponse()
        data = response.read()
        elapsed = (time.perf_counter_ns() - start) / 1000.0
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data, elapsed


def initialize(conn: Conn) -> str:
    status, headers, _, _ = conn.post(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
        },
        {},
    )
    sid = headers.get("mcp-session-id")
    if status != 200 or not sid:
        sys.exit(f"bench: initialize answered {status}")
    conn.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session(sid))
    return sid


def session(sid: str) -> dict[str, str]:
    return {"mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"}


def call(conn: Conn, sid: str) -> float:
    status, headers, data, elapsed = conn.post(CALL, session(sid))
    text = data.decode()
    if headers.get("content-type", "").startswith("text/event-stream"):
        text = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()][-1]
    got = ((json.loads(text).get("result") or {}).get("content") or [{}])[0].get("text") if status == 200 else None
    if got != EXPECTED:
        sys.exit(f"bench: tools/call answered {status}: {text[:200]}")
    return elapsed


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def ab(port: int, conns: int, secs: float, body_file: str) -> float:
    out = subprocess.run(
        [
            "ab", "-q", "-k", "-c", str(conns), "-t", str(secs), "-n", "10000000",
            "-p", body_file, "-T", "application/json",
            "-H", "Accept: application/json, text/event-stream",
            "-H", "MCP-Protocol-Version: 2026-07-28",
            "-H", "Mcp-Method: tools/call",
            "-H", "Mcp-Name: test_simple_text",
            f"http://127.0.0.1:{port}/mcp",
        ],
        capture_output=True, text=True, check=True,
    ).stdout
    failed = int(re.search(r"Failed requests:\s+(\d+)", out).group(1))
    non2xx = re.search(r"Non-2xx responses:\s+(\d+)", out)
    if failed or non2xx:
        sys.exit(f"bench: ab saw failures:\n{out}")
    return float(re.search(r"Requests per second:\s+([\d.]+)", out).group(1))


def redis_commands(port: int) -> int:
    """Redis's `total_commands_processed` (INFO stats), over a plain socket."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"INFO stats\r\n")
        data = b""
        while b"total_commands_processed:" not in data or not data.endswith(b"\r\n"):
            data += sock.recv(65536)
    return int(re.search(rb"total_commands_processed:(\d+)", data).group(1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--conns", type=int, default=16)
    parser.add_argument("--secs", type=float, default=5.0)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    for tool in ("redis-server", "ab"):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} is missing (apt-get install redis-server apache2-utils)")

    tmp = tempfile.mkdtemp(prefix="mcp-scale-bench-")
    redis_port, port_a, port_b, port_solo = free_ports(4)
    keys = secrets.token_hex(32)
    procs: list[subprocess.Popen] = []
    try:
        procs.append(subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "", "--appendonly", "no", "--dir", tmp],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))
        for _ in range(100):  # Redis up before the replicas
            try:
                redis_commands(redis_port)
                break
            except OSError:
                time.sleep(0.05)
        base = {k: v for k, v in os.environ.items() if not k.startswith("MCP_")}
        for name, port, redis in (("a", port_a, True), ("b", port_b, True), ("solo", port_solo, False)):
            env = dict(base, MCP_NODE_ID=name, MCP_REQUEST_STATE_KEYS=keys)
            if redis:
                env["MCP_REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/"
            log = open(os.path.join(tmp, f"{name}.log"), "w")
            procs.append(subprocess.Popen([args.bin, "http", f"127.0.0.1:{port}"], env=env, stdout=log, stderr=log))
        for port in (port_a, port_b, port_solo):
            wait_http(f"http://127.0.0.1:{port}/healthz")

        # 1. Stateless era (on fresh replicas): throughput with Redis configured and without.
        body_file = os.path.join(tmp, "call.json")
        with open(body_file, "w") as f:
            json.dump({**CALL, "params": {**CALL["params"], "_meta": STATELESS_META}}, f)
        with_redis, without = [], []
        commands_before = redis_commands(redis_port)
        for rep in range(args.reps):  # alternating, and which goes first alternates too
            if rep % 2 == 0:
                with_redis.append(ab(port_a, args.conns, args.secs, body_file))
                without.append(ab(port_solo, args.conns, args.secs, body_file))
            else:
                without.append(ab(port_solo, args.conns, args.secs, body_file))
                with_redis.append(ab(port_a, args.conns, args.secs, body_file))
        # Every command Redis ran meanwhile, from any replica (the INFO calls themselves excluded).
        commands = redis_commands(redis_port) - commands_before - 1
        mw, mo = statistics.median(with_redis), statistics.median(without)
        print(f"\nStateless era (2026-07-28), `tools/call`, ab -k -c {args.conns}, {args.secs:g} s × {args.reps} alternating (req/s):\n")
        print("| | runs | median | ratio |")
        print("|---|---|--:|--:|")
        print(f"| no Redis | {', '.join(f'{x:.0f}' for x in without)} | {mo:.0f} | 1.00× |")
        print(f"| Redis configured | {', '.join(f'{x:.0f}' for x in with_redis)} | {mw:.0f} | {mw / mo:.2f}× |")
        served = sum(with_redis) * args.secs
        print(f"\nRedis commands run during the Redis-configured runs (about {served:.0f} requests): {commands}")

        # 2. Handshake era: restore on a replica that has not seen the session, against local hits.
        a, b, solo = Conn(port_a), Conn(port_b), Conn(port_solo)
        for _ in range(50):  # warm-up
            sid = initialize(a)
            call(a, sid), call(b, sid), call(b, sid)
            call(solo, initialize(solo))
        times: dict[str, list[float]] = {"a": [], "b1": [], "b2": [], "solo": []}
        commands_before = redis_commands(redis_port)
        for _ in range(args.rounds):
            sid = initialize(a)
            times["a"].append(call(a, sid))
            times["b1"].append(call(b, sid))
            times["b2"].append(call(b, sid))
            times["solo"].append(call(solo, initialize(solo)))
        per_session = (redis_commands(redis_port) - commands_before - 1) / args.rounds
        rows = [
            ("no Redis (`solo`): local session", "solo"),
            ("Redis: on the replica that created the session (local hit)", "a"),
            ("Redis: first request on another replica (restored from Redis)", "b1"),
            ("Redis: next request there (local hit)", "b2"),
        ]
        base50, base99 = pct(times["solo"], 50), pct(times["solo"], 99)
        print(f"\nHandshake era, `tools/call` at 1 connection per replica, {args.rounds} sessions (µs, at the client):\n")
        print("| request | p50 µs | p99 µs | p50 − no Redis | p99 − no Redis |")
        print("|---|--:|--:|--:|--:|")
        for label, key in rows:
            p50, p99 = pct(times[key], 50), pct(times[key], 99)
            print(f"| {label} | {p50:.0f} | {p99:.0f} | {p50 - base50:+.0f} | {p99 - base99:+.0f} |")
        print(f"\nRedis commands per session of the Redis replicas (initialize and notifications/initialized on a, a call on a, two on b): {per_session:.2f}")

    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
