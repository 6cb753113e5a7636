"""gift-server built with the `auth` feature, served by its command line with MCP_AUTH_ISSUER and
MCP_AUTH_AUDIENCE, and no authorization code of its own: it is a protected resource.

Usage: python3 gift_check.py MCP_URL ISSUER   (standard library only)
Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

PASSED = 0
FAILED = 0


def check(name: str, actual: Any, expected: Any) -> None:
    global PASSED, FAILED
    if actual == expected:
        PASSED += 1
        print(f"ok   {name}")
    else:
        FAILED += 1
        print(f"FAIL {name}\n     expected: {expected!r}\n     actual:   {actual!r}")


def send(req: urllib.request.Request) -> tuple[int, Any, bytes]:
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def post(url: str, body: dict[str, Any], token: str | None) -> tuple[int, Any, bytes]:
    headers = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": body["method"],
    }
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    return send(urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers))


def main(url: str, issuer: str) -> None:
    origin = url.rsplit("/mcp", 1)[0]
    metadata = f"{origin}/.well-known/oauth-protected-resource/mcp"
    listing = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        },
    }
    status, headers, _ = post(url, listing, None)
    check("without a token: 401", status, 401)
    check("the challenge names the metadata", headers.get("WWW-Authenticate"), f'Bearer resource_metadata="{metadata}"')
    status, _, body = send(urllib.request.Request(metadata))
    doc = json.loads(body)
    check("the metadata", (status, doc["resource"], doc["authorization_servers"]), (200, url, [issuer]))
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": "gift-app", "resource": url})
    token = json.loads(send(urllib.request.Request(f"{issuer}/token", data=form.encode()))[2])["access_token"]
    status, _, body = post(url, listing, token)
    names = [t["name"] for t in json.loads(body)["result"]["tools"]] if status == 200 else body
    check("with a token: the tools", names, ["more_like_this", "suggest_gifts"])
    status, _, _ = post(url, listing, token + "x")
    check("a tampered token: 401", status, 401)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
    print(f"{PASSED} passed, {FAILED} failed")
    sys.exit(0 if FAILED == 0 else 1)
