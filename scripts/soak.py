#!/usr/bin/env python3
"""Soak and memory runs against release builds of the example servers (not part of CI).

Python 3.11, standard library only. Build first:

    cargo build --release -p gift-server -p everything-server

Then run one scenario or all of them:

    scripts/soak.py stdio     # 1M tools/call over stdio (gift-server), RSS sampled
    scripts/soak.py http      # 1M tools/call over Streamable HTTP, both eras
    scripts/soak.py churn     # 10,000 sessions with DELETE, then 10,000 abandoned ones
    scripts/soak.py waiting   # memory per call waiting for the client (everything-server)
    scripts/soak.py listeners # memory per subscriptions/listen stream (everything-server)
    scripts/soak.py all

RSS is read from /proc/<pid>/status (VmRSS). "start" is taken after a warm-up (the allocator's
first growth is not a leak), "growth" is end against start. Options: --calls, --sessions,
--every (sample period), --bin-dir (where the release binaries are), --json (one line of
figures per scenario, for scripts).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "soak", "version": "1"},
}
GIFT_ARGS = {"occasion": "birthday", "budget": 60, "recipient": "a friend"}


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def growth(start: int, end: int) -> str:
    return f"{(end - start) * 100.0 / start:+.2f}%"


def report(name: str, figures: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"scenario": name, **figures}), flush=True)
        return
    print(f"== {name}", flush=True)
    for k, v in figures.items():
        print(f"   {k:<28} {v}", flush=True)


# ------------------------------------------------------------------------------------------------
# stdio


class Stdio:
    """A server process spoken to over stdin/stdout, one JSON message per line."""

    def __init__(self, binary: Path, *args: str):
        self.proc = subprocess.Popen(
            [str(binary), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=1 << 20,
        )

    def send(self, msg: dict) -> None:
        self.proc.stdin.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")

    def flush(self) -> None:
        self.proc.stdin.flush()

    def recv(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the server closed stdout")
        return json.loads(line)

    def initialize(self, caps: dict | None = None) -> None:
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": caps or {},
            "clientInfo": {"name": "soak", "version": "1"}}})
        self.flush()
        assert self.recv()["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.flush()

    def close(self) -> float:
        """Closes stdin; returns how long the process took to exit."""
        started = time.monotonic()
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        return time.monotonic() - started


def soak_stdio(bin_dir: Path, calls: int, every: int, as_json: bool) -> None:
    s = Stdio(bin_dir / "gift-server", "stdio")
    s.initialize()
    pid = s.proc.pid
    window = 256
    warmup = min(20_000, calls // 10)
    samples = []
    start_rss = None
    started = time.monotonic()
    sent = done = errors = 0
    while done < calls:
        n = min(window, calls - sent)
        for i in range(n):
            s.send({"jsonrpc": "2.0", "id": sent + i + 1, "method": "tools/call",
                    "params": {"name": "suggest_gifts", "arguments": GIFT_ARGS}})
        s.flush()
        sent += n
        for _ in range(n):
            line = s.proc.stdout.readline()
            if b'"error"' in line[:64] or b'"isError":true' in line:
                errors += 1
            done += 1
            if start_rss is None and done == warmup:
                start_rss = rss_kib(pid)
            if done % every == 0:
                samples.append(rss_kib(pid))
    end_rss = rss_kib(pid)
    elapsed = time.monotonic() - started
    exit_s = s.close()
    report("stdio: tools/call", {
        "calls": calls,
        "errors": errors,
        "seconds": f"{elapsed:.1f}",
        "calls/s": f"{calls / elapsed:.0f}",
        "RSS after warm-up (KiB)": start_rss,
        "RSS at end (KiB)": end_rss,
        "RSS max sampled (KiB)": max(samples) if samples else end_rss,
        "growth": growth(start_rss, end_rss),
        "RSS samples (KiB)": " ".join(map(str, samples)),
        "exit after EOF (s)": f"{exit_s:.3f}",
    }, as_json)


# ------------------------------------------------------------------------------------------------
# HTTP (raw sockets: keep-alive, Content-Length and chunked bodies, SSE)


class Http:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def _fill(self) -> None:
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("closed")
        self.buf += chunk

    def _line(self) -> bytes:
        while b"\r\n" not in self.buf:
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n: int) -> bytes:
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def request(self, method: str, path: str, headers: dict, body: bytes = b"") -> None:
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        self.sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)

    def head(self) -> tuple[int, dict]:
        status = int(self._line().split()[1])
        headers = {}
        while True:
            line = self._line()
            if not line:
                return status, headers
            k, v = line.decode().split(":", 1)
            headers[k.strip().lower()] = v.strip()

    def chunks(self, headers: dict):
        """The body's pieces as they arrive."""
        if headers.get("transfer-encoding") == "chunked":
            while True:
                size = int(self._line().split(b";")[0], 16)
                if size == 0:
                    self._line()
                    return
                yield self._exact(size)
                self._exact(2)
        else:
            yield self._exact(int(headers.get("content-length", "0")))

    def body(self, headers: dict) -> bytes:
        return b"".join(self.chunks(headers))

    def close(self) -> None:
        self.sock.close()


def sse_messages(conn: Http, headers: dict):
    """JSON-RPC messages of an SSE body, as they arrive."""
    pending = b""
    for piece in conn.chunks(headers):
        pending += piece
        while b"\n\n" in pending:
            event, pending = pending.split(b"\n\n", 1)
            data = b"".join(l[5:].strip() for l in event.split(b"\n") if l.startswith(b"data:"))
            if data:
                yield json.loads(data)


def reply_of(conn: Http) -> tuple[int, dict, dict | None]:
    """Reads one response: its status, headers and JSON-RPC reply (the last SSE message)."""
    status, headers = conn.head()
    if headers.get("content-type", "").startswith("text/event-stream"):
        last = None
        for msg in sse_messages(conn, headers):
            last = msg
        return status, headers, last
    body = conn.body(headers)
    return status, headers, json.loads(body) if body else None


class HttpServer:
    def __init__(self, binary: Path, port: int):
        self.port = port
        self.proc = subprocess.Popen([str(binary), "http", f"127.0.0.1:{port}"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


JSON_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def initialize_http(conn: Http, caps: dict | None = None) -> str:
    body = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": caps or {},
        "clientInfo": {"name": "soak", "version": "1"}}}).encode()
    conn.request("POST", "/mcp", JSON_HEADERS, body)
    status, headers, reply = reply_of(conn)
    if status != 200:
        raise RuntimeError(f"initialize: {status} {reply}")
    sid = headers["mcp-session-id"]
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
    conn.request("POST", "/mcp", {**JSON_HEADERS, "Mcp-Session-Id": sid,
                                  "MCP-Protocol-Version": "2025-11-25"}, note)
    reply_of(conn)
    return sid


def call_session(conn: Http, sid: str, i: int) -> bool:
    body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
        "name": "suggest_gifts", "arguments": GIFT_ARGS}}).encode()
    conn.request("POST", "/mcp", {**JSON_HEADERS, "Mcp-Session-Id": sid,
                                  "MCP-Protocol-Version": "2025-11-25"}, body)
    status, _, reply = reply_of(conn)
    return status == 200 and reply is not None and "result" in reply


def call_stateless(conn: Http, i: int) -> bool:
    body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
        "name": "suggest_gifts", "arguments": GIFT_ARGS, "_meta": META}}).encode()
    conn.request("POST", "/mcp", {**JSON_HEADERS, "MCP-Protocol-Version": "2026-07-28",
                                  "Mcp-Method": "tools/call", "Mcp-Name": "suggest_gifts"}, body)
    status, _, reply = reply_of(conn)
    return status == 200 and reply is not None and "result" in reply


def soak_http(bin_dir: Path, calls: int, every: int, as_json: bool) -> None:
    server = HttpServer(bin_dir / "gift-server", free_port())
    pid = server.proc.pid
    threads = 4
    per_thread = calls // threads
    warmup = min(20_000, calls // 10)
    lock = threading.Lock()
    state = {"done": 0, "errors": 0, "start_rss": None, "samples": []}

    def worker(k: int) -> None:
        conn = Http(server.port)
        sid = initialize_http(conn) if k % 2 == 0 else None
        for i in range(per_thread):
            ok = call_session(conn, sid, i) if sid else call_stateless(conn, i)
            with lock:
                state["done"] += 1
                state["errors"] += 0 if ok else 1
                if state["done"] == warmup:
                    state["start_rss"] = rss_kib(pid)
                if state["done"] % every == 0:
                    state["samples"].append(rss_kib(pid))
        conn.close()

    started = time.monotonic()
    workers = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.monotonic() - started
    end_rss = rss_kib(pid)
    server.stop()
    report("http: tools/call (2 session connections, 2 stateless)", {
        "calls": state["done"],
        "errors": state["errors"],
        "seconds": f"{elapsed:.1f}",
        "calls/s": f"{state['done'] / elapsed:.0f}",
        "RSS after warm-up (KiB)": state["start_rss"],
        "RSS at end (KiB)": end_rss,
        "RSS max sampled (KiB)": max(state["samples"] or [end_rss]),
        "growth": growth(state["start_rss"], end_rss),
        "RSS samples (KiB)": " ".join(map(str, state["samples"])),
    }, as_json)


def soak_churn(bin_dir: Path, sessions: int, as_json: bool) -> None:
    server = HttpServer(bin_dir / "gift-server", free_port())
    pid = server.proc.pid
    conn = Http(server.port)
    figures = {"RSS idle (KiB)": rss_kib(pid)}

    def phase(name: str, delete: bool) -> None:
        statuses: dict[int, int] = {}
        started = time.monotonic()
        nonlocal conn
        for i in range(sessions):
            try:
                sid = initialize_http(conn)
            except RuntimeError as e:
                code = int(str(e).split()[1])
                statuses[code] = statuses.get(code, 0) + 1
                continue
            statuses[200] = statuses.get(200, 0) + 1
            call_session(conn, sid, 1)
            if delete:
                conn.request("DELETE", "/mcp", {"Mcp-Session-Id": sid,
                                                "MCP-Protocol-Version": "2025-11-25"})
                reply_of(conn)
        figures[f"{name}: seconds"] = f"{time.monotonic() - started:.1f}"
        figures[f"{name}: initialize statuses"] = statuses
        figures[f"{name}: RSS (KiB)"] = rss_kib(pid)

    phase("churn with DELETE", True)
    phase("churn with DELETE again", True)
    phase("abandoned (no DELETE)", False)
    # A new client after the abandoned ones.
    fresh = Http(server.port)
    started = time.monotonic()
    try:
        initialize_http(fresh)
        figures["new client after abandoned"] = f"initialized in {time.monotonic() - started:.3f} s"
    except RuntimeError as e:
        figures["new client after abandoned"] = f"refused: {e}"
    figures["per abandoned session (B)"] = round(
        (figures["abandoned (no DELETE): RSS (KiB)"]
         - figures["churn with DELETE again: RSS (KiB)"]) * 1024 / sessions)
    conn.close()
    fresh.close()
    server.stop()
    report(f"http: {sessions} sessions churned", figures, as_json)


# ------------------------------------------------------------------------------------------------
# Memory per waiting call and per listener (everything-server)


def soak_waiting(bin_dir: Path, as_json: bool) -> None:
    binary = bin_dir / "everything-server"
    figures = {}
    # stdio: one session, calls waiting for elicitation answers that never come.
    s = Stdio(binary, "stdio")
    s.initialize({"elicitation": {}})
    n = 32
    time.sleep(0.2)
    before = rss_kib(s.proc.pid)
    for i in range(n):
        s.send({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {
            "name": "test_elicitation", "arguments": {"message": f"form {i}"}}})
    s.flush()
    asked = 0
    refused = 0
    while asked + refused < n:
        msg = s.recv()
        if msg.get("method") == "elicitation/create":
            asked += 1
        elif "id" in msg:
            refused += 1
    time.sleep(0.2)
    after = rss_kib(s.proc.pid)
    figures["stdio: waiting calls"] = asked
    figures["stdio: per waiting call (B)"] = round((after - before) * 1024 / max(asked, 1))
    figures["stdio: exit after EOF (s)"] = f"{s.close():.3f}"

    # HTTP: sessions whose clients leave after the question arrives (the SSE stream closes,
    # the call keeps waiting: the client could resume).
    server = HttpServer(binary, free_port())
    pid = server.proc.pid
    sessions, per_session = 20, 32
    sids = []
    conn = Http(server.port)
    for _ in range(sessions):
        sids.append(initialize_http(conn, {"elicitation": {}}))
    conn.close()
    time.sleep(0.2)
    before = rss_kib(pid)
    asked = refused = 0
    for sid in sids:
        for i in range(per_session):
            c = Http(server.port)
            body = json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {
                "name": "test_elicitation", "arguments": {"message": f"form {i}"}}}).encode()
            c.request("POST", "/mcp", {**JSON_HEADERS, "Mcp-Session-Id": sid,
                                       "MCP-Protocol-Version": "2025-11-25"}, body)
            status, headers = c.head()
            if headers.get("content-type", "").startswith("text/event-stream"):
                for msg in sse_messages(c, headers):
                    if msg.get("method") == "elicitation/create":
                        asked += 1
                    else:
                        refused += 1
                    break
            else:
                c.body(headers)
                refused += 1
            c.close()
    time.sleep(0.5)
    after = rss_kib(pid)
    figures["http: waiting calls"] = asked
    figures["http: refused (busy)"] = refused
    figures["http: RSS before (KiB)"] = before
    figures["http: RSS after (KiB)"] = after
    figures["http: per waiting call (B)"] = round((after - before) * 1024 / max(asked, 1))
    server.stop()
    report("calls waiting for the client", figures, as_json)


def soak_listeners(bin_dir: Path, as_json: bool) -> None:
    binary = bin_dir / "everything-server"
    server = HttpServer(binary, free_port())
    pid = server.proc.pid
    n = 1000
    open_streams = []
    warm = Http(server.port)
    warm.close()
    time.sleep(0.2)
    before = rss_kib(pid)
    acked = 0
    for i in range(n):
        c = Http(server.port)
        body = json.dumps({"jsonrpc": "2.0", "id": f"sub-{i}", "method": "subscriptions/listen",
                           "params": {"notifications": {"toolsListChanged": True},
                                      "_meta": META}}).encode()
        c.request("POST", "/mcp", {**JSON_HEADERS, "MCP-Protocol-Version": "2026-07-28",
                                   "Mcp-Method": "subscriptions/listen"}, body)
        status, headers = c.head()
        if status == 200 and headers.get("content-type", "").startswith("text/event-stream"):
            for msg in sse_messages(c, headers):
                if msg.get("method") == "notifications/subscriptions/acknowledged":
                    acked += 1
                break
        open_streams.append(c)
    time.sleep(0.5)
    after = rss_kib(pid)
    for c in open_streams:
        c.close()
    time.sleep(0.5)
    closed = rss_kib(pid)
    server.stop()
    report("subscriptions/listen streams (HTTP)", {
        "listeners acknowledged": acked,
        "RSS before (KiB)": before,
        "RSS with listeners (KiB)": after,
        "RSS after closing (KiB)": closed,
        "per listener (B)": round((after - before) * 1024 / max(acked, 1)),
    }, as_json)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", choices=["stdio", "http", "churn", "waiting", "listeners", "all"])
    p.add_argument("--calls", type=int, default=1_000_000)
    p.add_argument("--sessions", type=int, default=10_000)
    p.add_argument("--every", type=int, default=50_000, help="RSS sample period, in calls")
    p.add_argument("--bin-dir", type=Path, default=Path(os.environ.get(
        "CARGO_TARGET_DIR", ROOT / "target")) / "release")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    for name in ["gift-server", "everything-server"]:
        if not (a.bin_dir / name).exists():
            print(f"missing {a.bin_dir / name}: cargo build --release -p {name}", file=sys.stderr)
            return 2
    run = {
        "stdio": lambda: soak_stdio(a.bin_dir, a.calls, a.every, a.json),
        "http": lambda: soak_http(a.bin_dir, a.calls, a.every, a.json),
        "churn": lambda: soak_churn(a.bin_dir, a.sessions, a.json),
        "waiting": lambda: soak_waiting(a.bin_dir, a.json),
        "listeners": lambda: soak_listeners(a.bin_dir, a.json),
    }
    for name in (run if a.scenario == "all" else [a.scenario]):
        run[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
