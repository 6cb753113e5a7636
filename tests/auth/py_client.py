"""The official Python SDK client (PyPI `mcp`, pinned in tests/interop/requirements.txt) against a
protected server, with the SDK's own client-credentials OAuth provider.

Run 1 (both eras: the `initialize` handshake and 2026-07-28): the provider meets the 401, reads
our protected resource metadata, discovers the authorization server (oauth2-mock-server) from
it, gets a token for our resource and calls tools. Run 2: the client is granted `notes:read`
only; writing gets 403 insufficient_scope naming `notes:write`; the SDK steps up (a new token
with the challenged scope) and its retry succeeds.

Usage: python py_client.py MCP_URL ISSUER
Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
"""

from __future__ import annotations

import base64
import json
import sys
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

PASSED = 0
FAILED = 0


def check(name: str, actual: Any, expected: Any) -> None:
    global PASSED, FAILED
    if actual == expected:
        PASSED += 1
        print(f"ok   {name}")
    else:
        FAILED += 1
        print(f"FAIL {name}\n     expected: {json.dumps(expected)}\n     actual:   {json.dumps(actual, default=str)}")


class Memory:
    """Token storage in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None
        self.saved = 0

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.saved += 1
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def claims(token: str) -> dict[str, Any]:
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def text(result: Any) -> str:
    return result.content[0].text


async def main(url: str, issuer: str) -> None:
    origin = url.rsplit("/mcp", 1)[0]
    metadata = f"{origin}/.well-known/oauth-protected-resource/mcp"
    async with httpx2.AsyncClient() as plain:
        r = await plain.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        check("without a token: 401 naming our metadata", (r.status_code, r.headers.get("www-authenticate")), (401, f'Bearer resource_metadata="{metadata}"'))
        r = await plain.get(metadata)
        check("the metadata names the authorization server", r.json().get("authorization_servers"), [issuer])
    for mode in ("legacy", "2026-07-28"):
        seen: list[tuple[int, str | None]] = []

        async def record(response: httpx2.Response) -> None:
            if str(response.request.url).startswith(url):
                seen.append((response.status_code, response.headers.get("www-authenticate")))

        storage = Memory()
        provider = ClientCredentialsOAuthProvider(
            server_url=url,
            storage=storage,
            client_id=f"py-{mode}",
            client_secret="s3cret",
            scope="notes:read notes:write",
            issuer=issuer,
        )
        label = f"[{mode}] run 1"
        async with httpx2.AsyncClient(auth=provider, event_hooks={"response": [record]}) as http:
            async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
                out = text(await client.call_tool("add_note", {"text": "tea"}))
                token = claims(storage.tokens.access_token)
                check(f"{label}: the token's audience is our resource", token.get("aud"), url)
                check(f"{label}: the token's issuer", token.get("iss"), issuer)
                check(f"{label}: add_note", out, f"py-{mode} has 1 note(s)")
                check(f"{label}: list_notes", text(await client.call_tool("list_notes", {})), "tea")

    seen = []

    async def record2(response: httpx2.Response) -> None:
        if str(response.request.url).startswith(url):
            seen.append((response.status_code, response.headers.get("www-authenticate")))

    # A token granted `notes:read` only, as a client would hold from an earlier authorization.
    async with httpx2.AsyncClient() as plain:
        form = {"grant_type": "client_credentials", "client_id": "py-reader", "scope": "notes:read", "resource": url}
        answer = (await plain.post(f"{issuer}/token", data=form)).json()
    storage = Memory()
    storage.tokens = OAuthToken(access_token=answer["access_token"], expires_in=3600, scope="notes:read")
    provider = ClientCredentialsOAuthProvider(
        server_url=url, storage=storage, client_id="py-reader", client_secret="s3cret", scope="notes:read", issuer=issuer
    )
    label = "run 2"
    async with httpx2.AsyncClient(auth=provider, event_hooks={"response": [record2]}) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            check(f"{label}: reading with notes:read", text(await client.call_tool("whoami", {})), "py-reader (scopes: notes:read)")
            before = storage.saved
            outcome: Any
            try:
                outcome = text(await client.call_tool("add_note", {"text": "coffee"}))
            except Exception as e:  # the SDK's own error for a refused request
                outcome = type(e).__name__
            challenge = (
                403,
                f'Bearer error="insufficient_scope", scope="notes:write", resource_metadata="{metadata}", '
                'error_description="this request needs the scopes: notes:write"',
            )
            check(f"{label}: 403 insufficient_scope naming notes:write", [x for x in seen if x[0] == 403][:1], [challenge])
            check(f"{label}: the SDK stepped up (a new token)", storage.saved > before, True)
            scopes = str(claims(storage.tokens.access_token).get("scope", "")).split()
            check(f"{label}: the new token carries notes:write", "notes:write" in scopes, True)
            check(f"{label}: the retried write succeeded", outcome, "py-reader has 1 note(s)")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
    print(f"{PASSED} passed, {FAILED} failed")
    sys.exit(0 if FAILED == 0 else 1)
