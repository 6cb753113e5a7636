"""The benchmark's server on the official Python SDK (`mcp`, pinned in requirements.txt).

The same tools as bench-server (echo, add, suggest_gifts), registered with `@mcp.tool()` on an
`MCPServer`, as the SDK's documentation shows. Logging at WARNING, like the other servers (the
SDK's default, INFO, writes a line per request).

    python server.py [stdio]          serve MCP over stdin/stdout
    python server.py http ADDR        Streamable HTTP at http://ADDR/mcp (uvicorn; sessions and
                                      SSE replies, the SDK's defaults)
"""

import sys
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

mcp = MCPServer("bench-python", version="0.0.0", log_level="WARNING")

READ_ONLY = ToolAnnotations(readOnlyHint=True)


@mcp.tool(annotations=READ_ONLY)
async def echo(text: Annotated[str, Field(description="The text to echo")]) -> str:
    """Echoes the text back."""
    return text


@mcp.tool(annotations=READ_ONLY)
async def add(
    a: Annotated[int, Field(description="The first addend")],
    b: Annotated[int, Field(description="The second addend")],
) -> str:
    """Adds two integers."""
    return str(a + b)


class Gift(BaseModel):
    """One gift idea."""

    name: str
    price: float


class GiftList(BaseModel):
    """Gift ideas that fit the request."""

    gifts: list[Gift]
    summary: str


CATALOG = [
    ("Board game", 45, ("birthday", "graduation")),
    ("Chef's knife", 120, ("wedding",)),
    ("Fountain pen", 75, ("graduation", "birthday")),
    ("Scented candles", 30, ("birthday", "wedding")),
    ("Espresso machine", 420, ("wedding",)),
    ("E-reader", 140, ("graduation", "birthday")),
]


@mcp.tool(title="Gift ideas generator", annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
async def suggest_gifts(
    occasion: Annotated[Literal["birthday", "wedding", "graduation"], Field(description="The occasion")],
    budget: Annotated[float, Field(ge=0, description="Budget in US dollars")],
    recipient: Annotated[str | None, Field(description='Who the gift is for, e.g. "my sister"')] = None,
) -> GiftList:
    """Suggests gift ideas for a given occasion and budget."""
    gifts = sorted(
        (Gift(name=n, price=p) for n, p, o in CATALOG if p <= budget and occasion in o),
        key=lambda g: g.price,
    )
    if not gifts:
        raise ValueError(f"no gift fits a budget of ${budget}")
    who = f" for {recipient}" if recipient else ""
    return GiftList(gifts=gifts, summary=f"{len(gifts)} gift ideas{who} within ${budget}")


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "stdio":
        mcp.run("stdio")
    elif mode == "http":
        host, _, port = (sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1:8000").rpartition(":")
        mcp.run("streamable-http", host=host, port=int(port))
    else:
        sys.exit("usage: python server.py [stdio | http ADDR]")
