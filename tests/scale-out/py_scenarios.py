"""The scale-out scenarios with the official Python SDK client (PyPI `mcp`, pinned in
tests/interop/requirements.txt), in both eras: "legacy" (the initialize handshake, 2025-11-25:
sessions) and "2026-07-28" (stateless), against three replicas (a, b, c) of everything-server
behind haproxy (deploy/replicas.sh, started by run.sh).

Every request goes through haproxy. An httpx event hook adds the test-only `X-Replica` header
chosen per kind of message (requests, MRTR retries, notifications, answers to the server's
requests, the GET stream) and records which replica served it (haproxy's `X-Served-By`), so each
check also asserts that the hop between replicas really happened. Scenario 8 also speaks raw
HTTP, to assert the exact status and headers of a session request while Redis is down.

Scenarios (numbers as in issue 12; 2 and 4 are handshake-era only: in 2026-07-28 there is no
resumption, and a cancellation is the closing of the request's own stream, local by
construction; 6 is 2026-07-28 only, over raw HTTP, since the Python SDK has no tasks client and
the TypeScript client covers 2025-11-25):
  1 session on a serves b and c; 2 resumption on b of a stream cut on a; 3 elicitation on a
  answered via b (2026-07-28: the MRTR retry goes to b); 4 cancellation via c stops a; 5
  list_changed from a reaches listeners on b and c; 6 a task started on a, polled and its
  result read on b; 7 a killed; 8 Redis stopped and restarted.

Usage: python py_scenarios.py LB_URL   (MCP_REPLICAS_DIR: the topology's state directory)
Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import subprocess
import sys
import time
import traceback
from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

URL = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: py_scenarios.py http://127.0.0.1:PORT/mcp")
REPLICAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy", "replicas.sh")
# Debugging the harness itself: SCALE_OUT_ONLY=a sends everything to one replica.
ONLY = os.environ.get("SCALE_OUT_ONLY") or None
MODERN = "2026-07-28"
LEGACY = "legacy"
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}

PASSED = 0
FAILED = 0
LABEL = ""


def check(name: str, actual: Any, expected: Any) -> None:
    global PASSED, FAILED
    name = f"{LABEL} {name}"
    if actual == expected:
        PASSED += 1
        print(f"ok   {name}")
    else:
        FAILED += 1
        print(f"FAIL {name}\n     expected: {json.dumps(expected, sort_keys=True, default=str)}\n     actual:   {json.dumps(actual, sort_keys=True, default=str)}")


def topology(*args: str) -> None:
    subprocess.run([REPLICAS, *args], check=True, stdin=subprocess.DEVNULL)


async def until(probe: Any, seconds: float = 5.0) -> Any:
    """Calls probe() (awaiting what it returns, if anything) until it returns a truthy value or `seconds` elapse; returns its last value."""
    end = time.monotonic() + seconds
    while True:
        value = probe()
        if inspect.isawaitable(value):
            value = await value
        if value or time.monotonic() >= end:
            return value
        await anyio.sleep(0.05)


class Routed:
    """Routes one client's HTTP requests by kind: request, retry (an MRTR retry: a request
    carrying inputResponses or requestState; default: request), notification (default:
    request), answer (to a server's request; default: request) and get (the GET stream;
    default: request). `log` has one entry per HTTP request."""

    def __init__(self, **route: str | None) -> None:
        self.route = route
        self.log: list[dict[str, Any]] = []
        self._pending: dict[int, dict[str, Any]] = {}

    async def _on_request(self, request: httpx2.Request) -> None:
        kind = request.method.lower()
        method = None
        if request.method == "POST":
            body = json.loads(request.content)
            msg = body[0] if isinstance(body, list) else body
            method = msg.get("method")
            if method is None:
                kind = "answer"
            elif "id" not in msg:
                kind = "notification"
            elif {"inputResponses", "requestState"} & set(msg.get("params") or {}):
                kind = "retry"
            else:
                kind = "request"
        target = self.route.get(kind) or self.route.get("request")
        if ONLY or target:
            request.headers["x-replica"] = ONLY or target
        entry = {"kind": kind, "method": method, "replica": None, "status": None, "resumed": "last-event-id" in request.headers}
        self.log.append(entry)
        self._pending[id(request)] = entry

    async def _on_response(self, response: httpx2.Response) -> None:
        entry = self._pending.pop(id(response.request), None)
        if entry is not None:
            entry["replica"] = response.headers.get("x-served-by")
            entry["status"] = response.status_code

    def served(self, **match: Any) -> list[str | None]:
        return [e["replica"] for e in self.log if all(e.get(k) == v for k, v in match.items())]

    @contextlib.asynccontextmanager
    async def client(self, mode: str, **options: Any):
        http = httpx2.AsyncClient(
            timeout=httpx2.Timeout(30.0, read=300.0),
            event_hooks={"request": [self._on_request], "response": [self._on_response]},
        )
        async with http:
            async with Client(streamable_http_client(URL, http_client=http), mode=mode, **options) as client:
                yield client


def text(result: Any) -> str:
    return " ".join(c.text for c in result.content)


async def whoami(client: Client) -> str:
    return text(await client.call_tool("scale_whoami", {}))


async def scenario(era: str, name: str, body: Any) -> None:
    global LABEL, FAILED
    LABEL = f"[py {era} {name}]"
    try:
        with anyio.fail_after(60):
            await body()
    except Exception as e:
        FAILED += 1
        print(f"FAIL {LABEL} crashed: {'; '.join(leaves(e))}")
        if os.environ.get("SCALE_OUT_TRACEBACKS"):
            traceback.print_exc(file=sys.stdout)


def leaves(e: BaseException) -> list[str]:
    """The innermost exceptions of an exception group (or the exception itself), one line each."""
    if isinstance(e, BaseExceptionGroup):
        return [line for inner in e.exceptions for line in leaves(inner)]
    return [f"{type(e).__name__}: {e}"]


# 1. A session created on A serves tools/call on B and C.
async def s1_legacy() -> None:
    r = Routed(request="a", get="a")
    async with r.client(LEGACY) as client:
        check("initialize served by a", r.served(method="initialize"), ["a"])
        r.route["request"] = "b"
        check("tools/call on b", await whoami(client), "replica b")
        r.route["request"] = "c"
        check("tools/call on c", await whoami(client), "replica c")
        check("one initialize; calls served by b then c", [r.served(method="initialize"), r.served(method="tools/call")], [["a"], ["b", "c"]])


async def s1_modern() -> None:
    # No session in this era: each call stands alone on whichever replica gets it.
    r = Routed(request="a")
    async with r.client(MODERN) as client:
        got = []
        for name in ("a", "b", "c"):
            r.route["request"] = name
            got.append(await whoami(client))
        check("calls on a, b, c", got, ["replica a", "replica b", "replica c"])
        check("no initialize", r.served(method="initialize"), [])


# 2. An SSE stream cut on A resumes with Last-Event-ID on B: nothing lost or duplicated.
async def s2_legacy() -> None:
    r = Routed(request="a", get="a")
    async with r.client(LEGACY) as client:
        r.route["get"] = "b"
        progress: list[float] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append(value)

        result = await client.call_tool("scale_progress_cut", {"steps": 6, "cut_after": 2}, progress_callback=on_progress)
        check("result from the handler on a", text(result), "6 steps on replica a")
        check("progress 1..6, each once, in order", progress, [1, 2, 3, 4, 5, 6])
        check("the call went to a", r.served(method="tools/call"), ["a"])
        check("resumed (GET + Last-Event-ID) on b", r.served(kind="get", resumed=True), ["b"])


# 3. An elicitation from a handler on A is answered through B.
ANSWER = {"username": "ann", "email": "ann@example.com"}
ANSWERED = "User response: accepted username=ann, email=ann@example.com"


async def elicit(context: Any, params: Any) -> types.ElicitResult:
    ASKED.append(params.message)
    return types.ElicitResult(action="accept", content=ANSWER)


ASKED: list[str] = []


async def s3_legacy() -> None:
    ASKED.clear()
    r = Routed(request="a", get="a", answer="b")
    async with r.client(LEGACY, elicitation_callback=elicit) as client:
        result = await client.call_tool("test_elicitation", {"message": "Who are you?"})
        check("asked once", ASKED, ["Who are you?"])
        check("the handler on a got the answer", text(result), ANSWERED)
        await until(lambda: any(e["kind"] == "answer" and e["status"] for e in r.log))
        check("the answer was posted to b (202)", [(e["replica"], e["status"]) for e in r.log if e["kind"] == "answer"], [("b", 202)])


async def s3_modern() -> None:
    # MRTR: the question comes back as input_required with a sealed requestState from a; the
    # retry carrying the answer goes to b, which must open a's state (the shared key ring).
    ASKED.clear()
    r = Routed(request="a", retry="b")
    async with r.client(MODERN, elicitation_callback=elicit) as client:
        result = await client.call_tool("test_elicitation", {"message": "Who are you?"})
        check("asked once", ASKED, ["Who are you?"])
        check("b finished the call with the answer", text(result), ANSWERED)
        check("first round on a, retry on b", [r.served(kind="request", method="tools/call"), r.served(kind="retry")], [["a"], ["b"]])


# 4. notifications/cancelled sent to C stops the handler on A.
async def s4_legacy() -> None:
    r = Routed(request="a", get="a")
    async with r.client(LEGACY) as client:

        async def stats() -> dict[str, Any]:
            return (await client.call_tool("scale_stats", {})).structured_content or {}

        before = await stats()
        check("stats from a", before.get("node"), "a")
        r.route["notification"] = "c"
        started = anyio.Event()

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            started.set()

        outcome = "answered"
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as tg:

                async def call() -> None:
                    await client.call_tool("scale_slow", {"duration_ms": 20000}, progress_callback=on_progress)

                tg.start_soon(call)
                await started.wait()
                outcome = "given up"
                scope.cancel()
        check("the client gave up", outcome, "given up")

        async def stopped() -> dict[str, Any] | None:
            s = await stats()
            return s if s.get("cancelled", 0) > before.get("cancelled", 0) else None

        after = await until(stopped, 5.0)
        check(
            "a: the handler stopped (cancelled +1, completed +0)",
            after and [after["node"], after["cancelled"] - before["cancelled"], after["completed"] - before["completed"]],
            ["a", 1, 0],
        )
        # The handler may stop before this side has read the notification's 202: wait for that answer.
        async def answered() -> bool:
            return any(e["method"] == "notifications/cancelled" and e["status"] is not None for e in r.log)

        await until(answered, 5.0)
        check("notifications/cancelled went to c", r.served(method="notifications/cancelled"), ["c"])


# 5. list_changed after adding a tool on A reaches listeners on B and C.
async def s5_legacy() -> None:
    admin = Routed(request="a", get="a")
    async with admin.client(LEGACY) as boss:
        check("scale_added absent on a", text(await boss.call_tool("scale_remove_tool", {})).endswith("on replica a"), True)
        got: dict[str, list[str]] = {"b": [], "c": []}

        def handler(name: str) -> Any:
            async def on_message(message: Any) -> None:
                method = getattr(message, "method", None) or getattr(getattr(message, "root", None), "method", None)
                if method == "notifications/tools/list_changed":
                    got[name].append(method)

            return on_message

        rb, rc = Routed(request="b", get="b"), Routed(request="c", get="c")
        async with rb.client(LEGACY, message_handler=handler("b")), rc.client(LEGACY, message_handler=handler("c")):
            opened = await until(lambda: all(any(e["kind"] == "get" and e["status"] == 200 for e in x.log) for x in (rb, rc)))
            check("GET streams open, held by b and c", [bool(opened), rb.served(kind="get"), rc.served(kind="get")], [True, ["b"], ["c"]])
            await anyio.sleep(0.2)
            check("scale_added added on a", text(await boss.call_tool("scale_add_tool", {})), "scale_added added on replica a")
            await until(lambda: (got["b"] and got["c"]))
            await anyio.sleep(0.3)
            check("b's listener got tools/list_changed once", got["b"], ["notifications/tools/list_changed"])
            check("c's listener got tools/list_changed once", got["c"], ["notifications/tools/list_changed"])


async def s5_modern() -> None:
    admin = Routed(request="a")
    async with admin.client(MODERN) as boss:
        check("scale_added absent on a", text(await boss.call_tool("scale_remove_tool", {})).endswith("on replica a"), True)
        rb, rc = Routed(request="b"), Routed(request="c")
        async with rb.client(MODERN) as lb, rc.client(MODERN) as lc:
            async with lb.listen(tools_list_changed=True) as sb, lc.listen(tools_list_changed=True) as sc:
                check("listen acknowledged by b and c", [rb.served(method="subscriptions/listen"), rc.served(method="subscriptions/listen")], [["b"], ["c"]])
                check("scale_added added on a", text(await boss.call_tool("scale_add_tool", {})), "scale_added added on replica a")
                events = []
                for sub in (sb, sc):
                    with anyio.move_on_after(5):
                        events.append(type(await sub.__anext__()).__name__)
                check("b's and c's listen streams got tools list_changed", events, ["ToolsListChanged", "ToolsListChanged"])


# 6. A task started on A is polled and its result fetched on B (2026-07-28, raw HTTP: the Python
# SDK 2.3.0 has no client for the tasks extension; the TypeScript client covers 2025-11-25).
TASKS_META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
}


async def raw_modern(http: httpx2.AsyncClient, replica: str, method: str, name: str, params: dict[str, Any]) -> httpx2.Response:
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": TASKS_META}}
    headers = {**HEADERS, "x-replica": replica, "mcp-protocol-version": MODERN, "mcp-method": method, "mcp-name": name}
    return await http.post(URL, json=body, headers=headers)


async def s6_modern() -> None:
    async with httpx2.AsyncClient(timeout=10) as http:
        r = await raw_modern(http, "a", "tools/call", "slow_compute", {"name": "slow_compute", "arguments": {"seconds": 1, "label": "s6"}})
        created = r.json().get("result") or {}
        task_id = created.get("taskId", "")
        check("task created on a, working", [r.headers.get("x-served-by"), created.get("resultType"), created.get("status")], ["a", "task", "working"])
        polls: list[str | None] = []

        async def completed_on_b() -> Any:
            r = await raw_modern(http, "b", "tasks/get", task_id, {"taskId": task_id})
            polls.append(r.headers.get("x-served-by"))
            got = r.json().get("result") or {}
            return got if got.get("status") == "completed" else None

        done = await until(completed_on_b, 10.0)
        check(
            "tasks/get on b: completed, result inlined",
            done and [done.get("taskId"), [c.get("text") for c in (done.get("result") or {}).get("content", [])]],
            [task_id, ["computed s6 in 1 s"]],
        )
        check("polled on b only", sorted(set(polls)), ["b"])


# 7. Replica A is killed mid-session: the client continues on B and C.
async def s7_legacy() -> None:
    r = Routed(request="a", get="a")
    async with r.client(LEGACY) as client:
        check("on a before", await whoami(client), "replica a")
        topology("kill", "a")
        try:
            r.route["request"] = "b"
            check("on b after a died", await whoami(client), "replica b")
            r.route["request"] = "c"
            check("on c after a died", await whoami(client), "replica c")
            r.route["request"] = None
            rest = sorted({await whoami(client) for _ in range(4)})
            check("round robin over b and c, no failure", rest, ["replica b", "replica c"])
            check("no request failed", [e for e in r.log if e["kind"] == "request" and e["status"] >= 400], [])
        finally:
            topology("revive", "a")


async def s7_modern() -> None:
    r = Routed()
    async with r.client(MODERN) as client:
        seen: set[str] = set()
        for _ in range(9):  # round robin reaches every replica (a revived one joins at its own pace)
            seen.add(await whoami(client))
            if len(seen) == 3:
                break
        check("round robin before: a, b, c", sorted(seen), ["replica a", "replica b", "replica c"])
        topology("kill", "a")
        try:
            got = [await whoami(client) for _ in range(6)]
            check("6 calls after a died: all answered by b or c", sorted(set(got)), ["replica b", "replica c"])
        finally:
            topology("revive", "a")


# 8. Redis stopped and restarted: stateless calls never fail; session calls fail clearly and recover.


async def raw_initialize(http: httpx2.AsyncClient, replica: str) -> httpx2.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }
    return await http.post(URL, json=body, headers={**HEADERS, "x-replica": replica})


async def raw_whoami(http: httpx2.AsyncClient, sid: str, replica: str) -> httpx2.Response:
    body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "scale_whoami", "arguments": {}}}
    headers = {**HEADERS, "x-replica": replica, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"}
    return await http.post(URL, json=body, headers=headers)


def answer_text(response: httpx2.Response) -> Any:
    """The tool result's text of a JSON or one-event SSE answer (None when there is none)."""
    raw = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in raw.splitlines() if line.startswith("data:") and line[5:].strip()]
        raw = data[-1] if data else "null"
    message = json.loads(raw) if raw else None
    return (((message or {}).get("result") or {}).get("content") or [{}])[0].get("text")


async def s8() -> None:
    legacy = Routed(request="a", get="a")
    modern = Routed()
    async with legacy.client(LEGACY) as session, modern.client(MODERN) as stateless, httpx2.AsyncClient(timeout=10) as http:
        check("session on a", await whoami(session), "replica a")
        init = await raw_initialize(http, "a")
        sid = init.headers.get("mcp-session-id", "")
        check("raw session created on a", [init.status_code, init.headers.get("x-served-by"), bool(sid)], [200, "a", True])
        await http.post(URL, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers={**HEADERS, "x-replica": "a", "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"})
        topology("redis-stop")
        try:
            got = [await whoami(stateless) for _ in range(6)]
            check(
                "redis down: 6 stateless calls, round robin: all answered, by more than one replica",
                [len(got), all(g in ("replica a", "replica b", "replica c") for g in got), len(set(got)) > 1],
                [6, True, True],
            )
            check("redis down: a holds the session, serves it", await whoami(session), "replica a")
            r = await raw_whoami(http, sid, "c")
            body = r.json() if r.headers.get("content-type", "").startswith("application/json") else r.text
            check(
                "redis down: c has not seen the session: 503, Retry-After, -32603 session_store_unavailable",
                [r.status_code, r.headers.get("x-served-by"), r.headers.get("retry-after"), isinstance(body, dict) and body.get("error", {}).get("code"), isinstance(body, dict) and (body.get("error", {}).get("data") or {}).get("reason")],
                [503, "c", "1", -32603, "session_store_unavailable"],
            )
            r = await raw_initialize(http, "b")
            check("redis down: initialize: 503 + Retry-After", [r.status_code, r.headers.get("retry-after")], [503, "1"])
        finally:
            topology("redis-start")

        async def served_on_c() -> Any:
            r = await raw_whoami(http, sid, "c")
            return answer_text(r) if r.status_code == 200 else None

        check("redis back: c serves the raw session", await until(served_on_c, 10.0), "replica c")

        # Every replica works again once Redis is back, at the first request: initialize on a,
        # b and c (then, should one have failed, until it works, so that the runs after this
        # one start from a working topology).
        first = []
        for name in ("a", "b", "c"):
            r = await raw_initialize(http, name)
            first.append([name, r.status_code])
            if r.status_code != 200:


                async def works(name: str = name) -> bool:
                    return (await raw_initialize(http, name)).status_code == 200

                await until(works, 10.0)
        check("redis back: initialize on a, b and c, first try", first, [["a", 200], ["b", 200], ["c", 200]])
        legacy.route["request"] = "b"
        check("redis back: b serves the client's session", await whoami(session), "replica b")
        check("no stateless call failed", [e for e in modern.log if (e["status"] or 0) >= 400], [])


async def main() -> None:
    await scenario(LEGACY, "1 session a -> b, c", s1_legacy)
    await scenario(MODERN, "1 stateless a, b, c", s1_modern)
    await scenario(LEGACY, "2 resumption a -> b", s2_legacy)
    await scenario(LEGACY, "3 elicitation a, answer via b", s3_legacy)
    await scenario(MODERN, "3 MRTR a, retry on b", s3_modern)
    await scenario(LEGACY, "4 cancel via c stops a", s4_legacy)
    await scenario(LEGACY, "5 list_changed a -> b, c", s5_legacy)
    await scenario(MODERN, "5 listen: list_changed a -> b, c", s5_modern)
    await scenario(MODERN, "6 task a -> b (raw HTTP)", s6_modern)
    await scenario(LEGACY, "7 a killed", s7_legacy)
    await scenario(MODERN, "7 a killed", s7_modern)
    await scenario("both", "8 redis restart", s8)
    print(f"{PASSED} passed, {FAILED} failed")


if __name__ == "__main__":
    anyio.run(main)
    sys.exit(0 if FAILED == 0 else 1)
