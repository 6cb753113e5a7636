"""The comparison every servers/NAME/difftest/difftest.py shares: one sequence of calls run
against the original server and against ours with the official Python SDK client (`mcp`,
pinned beside each script), and each answer compared.

A server's script gives its steps (tool name, arguments, and the ids of the allowed
differences that may apply to that step), runs them with `run_steps` on each target, and
compares with `Diff`. An allowed difference is a named rewrite of both sides (`RULES`): two
answers that differ match only when an allowed rewrite makes them equal, and that rewrite is
counted as used. At the end `Diff.finish` checks that the ids the script allows are exactly
the ids in the table of the server's README section "Differences from the original" (lines
starting with ``| `id` |``) and that every
allowed id was used at least once; it prints `N passed, M failed`.
"""

from __future__ import annotations

import copy
import json
import os
import re
import socket
import subprocess
import sys
import time
from typing import Any, Callable

from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


async def outcome(client: Client, name: str, args: Any) -> dict:
    """What a tools/call ended in: the result's isError, content and structuredContent, or
    the JSON-RPC error's code and message."""
    try:
        r = dump(await client.call_tool(name, args))
        return {
            "result": {
                "isError": bool(r.get("isError", False)),
                "content": r.get("content", []),
                "structuredContent": r.get("structuredContent"),
            }
        }
    except MCPError as e:
        return {"error": {"code": e.code, "message": e.error.message}}


async def run_steps(client: Client, steps: list[tuple[str, str, Any, list[str]]]) -> list[dict]:
    return [await outcome(client, tool, args) for (_label, tool, args, _allowed) in steps]


def stdio(command: str, args: list[str], env: dict[str, str], errlog: Any = None) -> Any:
    full = dict(os.environ)
    full.update(env)
    params = StdioServerParameters(command=command, args=args, env=full)
    return stdio_client(params, errlog=errlog) if errlog is not None else stdio_client(params)


class Http:
    """Our binary's `http` command on a free loopback port, for the one run over HTTP."""

    def __init__(self, binary: str, env: dict[str, str], extra: list[str] | None = None):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        full = dict(os.environ)
        full.update(env)
        self.proc = subprocess.Popen(
            [binary, *(extra or []), "http", f"127.0.0.1:{port}"],
            env=full,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"http://127.0.0.1:{port}/mcp"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        self.close()
        raise RuntimeError(f"{binary} http did not listen on port {port}")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def strip(value: Any, keys: set[str], only_false: bool = False) -> Any:
    """`value` without the members named `keys` at any depth (`only_false`: only those whose
    value is `false`, as `additionalProperties: false`)."""
    if isinstance(value, dict):
        return {
            k: strip(v, keys, only_false)
            for k, v in value.items()
            if not (k in keys and (not only_false or v is False))
        }
    if isinstance(value, list):
        return [strip(v, keys, only_false) for v in value]
    return value


def _unknown_tool(theirs: Any, ours: Any) -> tuple[Any, Any]:
    # The original answers an unknown tool with an isError result; ours with JSON-RPC -32602.
    if (
        isinstance(theirs, dict)
        and theirs.get("result", {}).get("isError")
        and "error" in ours
        and ours["error"]["code"] == -32602
    ):
        return {"error": {"code": -32602}}, {"error": {"code": -32602}}
    return theirs, ours


def _message_text(theirs: Any, ours: Any) -> tuple[Any, Any]:
    # Both refuse the arguments as an isError result (or both as a JSON-RPC error with one
    # code); the message's words are each SDK's own.
    t, o = copy.deepcopy(theirs), copy.deepcopy(ours)
    if "result" in t and "result" in o and t["result"]["isError"] and o["result"]["isError"]:
        t["result"]["content"] = o["result"]["content"] = "(message)"
    if "error" in t and "error" in o:
        t["error"].pop("message", None)
        o["error"].pop("message", None)
    return t, o


def _rpc_message(theirs: Any, ours: Any) -> tuple[Any, Any]:
    t, o = copy.deepcopy(theirs), copy.deepcopy(ours)
    if "error" in t and "error" in o:
        t["error"].pop("message", None)
        o["error"].pop("message", None)
    return t, o


def _on_both(f: Callable[[Any], Any]) -> Callable[[Any, Any], tuple[Any, Any]]:
    return lambda theirs, ours: (f(copy.deepcopy(theirs)), f(copy.deepcopy(ours)))


def _drop(path: list[str]) -> Callable[[Any], Any]:
    def f(tool: Any) -> Any:
        node = tool
        for key in path[:-1]:
            node = node.get(key, {}) if isinstance(node, dict) else {}
        if isinstance(node, dict):
            node.pop(path[-1], None)
        return tool

    return f


def _schemas(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def g(tool: Any) -> Any:
        for key in ("inputSchema", "outputSchema"):
            if key in tool:
                tool[key] = f(tool[key])
        return tool

    return g


def inlined(schema: Any) -> Any:
    """`schema` with each `{"$ref": "#/$defs/X"}` replaced by `X` (not recursive types)."""
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/") and ref[8:] in defs:
                return walk({**defs[ref[8:]], **{k: v for k, v in node.items() if k != "$ref"}})
            return {k: walk(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


# Every rewrite an allowed difference may make, by id (a server's README explains each).
RULES: dict[str, Callable[[Any, Any], tuple[Any, Any]]] = {
    "unknown-tool-error": _unknown_tool,
    "validation-message": _message_text,
    "rpc-error-message": _rpc_message,
    "schema-dialect": _on_both(_schemas(lambda s: strip(s, {"$schema"}))),
    "additional-properties": _on_both(_schemas(lambda s: strip(s, {"additionalProperties"}, True))),
    "inlined-definitions": _on_both(_schemas(inlined)),
    "schema-titles": _on_both(_schemas(lambda s: strip(s, {"title"}))),
    "annotations-title": _on_both(_drop(["annotations", "title"])),
    "execution-forbidden": _on_both(_drop(["execution"])),
    "no-arguments-schema": _on_both(
        lambda t: {**t, "inputSchema": {"type": "object"}}
        if not t.get("inputSchema", {}).get("properties")
        else t
    ),
    "boolean-schema": _on_both(
        _schemas(lambda s: json.loads(json.dumps(s).replace('["boolean", "string"]', '"boolean"')))
    ),
}


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where `a` and `b` first differ (a JSON path), and their values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k, "(absent)") != b.get(k, "(absent)"):
                return first_difference(a.get(k, "(absent)"), b.get(k, "(absent)"), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path or '.'}: {json.dumps(a, ensure_ascii=False)[:300]} != {json.dumps(b, ensure_ascii=False)[:300]}"


class Diff:
    def __init__(self, readme: str, allowed: list[str]):
        self.readme = readme
        self.allowed = allowed
        self.used: set[str] = set()
        self.passed = 0
        self.failed = 0

    def check(self, label: str, theirs: Any, ours: Any, allowed: list[str] | None = None) -> None:
        """One compared answer: equal, or equal after some of `allowed`'s rewrites (each one
        that changed something is counted as used)."""
        if theirs == ours:
            self.passed += 1
            print(f"same   {label}")
            return
        t, o = theirs, ours
        applied = []
        for rule in allowed or []:
            if rule not in self.allowed:
                raise KeyError(f"step {label} names {rule}, which is not allowed")
            nt, no = RULES[rule](t, o)
            if (nt, no) != (t, o):
                applied.append(rule)
            t, o = nt, no
            if t == o:
                break
        if t == o:
            self.used.update(applied)
            self.passed += 1
            print(f"allowed {label}  ({', '.join(applied)})")
        else:
            self.failed += 1
            print(f"DIFFER {label}")
            print(f"       first difference: {first_difference(t, o)}")
            print(f"       original: {json.dumps(t, sort_keys=True, ensure_ascii=False)[:2000]}")
            print(f"       ours:     {json.dumps(o, sort_keys=True, ensure_ascii=False)[:2000]}")

    def fact(self, label: str, ok: bool, detail: str = "") -> None:
        """A check of ours alone (over HTTP, in the other era)."""
        if ok:
            self.passed += 1
            print(f"ok     {label}")
        else:
            self.failed += 1
            print(f"FAIL   {label} {detail}")

    def finish(self) -> None:
        with open(self.readme, encoding="utf-8") as f:
            text = f.read()
        # The table of the section "## Differences from the original".
        section = text.split("\n## Differences", 1)[-1].split("\n## ", 1)[0]
        documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.M))
        if documented != set(self.allowed):
            self.failed += 1
            print(
                f"FAIL   the allowed differences {sorted(self.allowed)} are not the README's {sorted(documented)}"
            )
        unused = set(self.allowed) - self.used
        if unused:
            self.failed += 1
            print(f"FAIL   allowed differences never seen (remove them): {sorted(unused)}")
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


def sorted_required(value: Any) -> Any:
    """`value` with every schema's `required` list sorted: JSON Schema's `required` is a set
    (its order means nothing), so it is compared as one."""
    if isinstance(value, dict):
        return {
            k: sorted(v) if k == "required" and isinstance(v, list) else sorted_required(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [sorted_required(v) for v in value]
    return value


def tools_by_name(listed: Any) -> dict[str, Any]:
    """The listed tools by name (the lists' order is compared apart), `required` as sets."""
    return {t["name"]: sorted_required(t) for t in (dump(x) for x in listed.tools)}
