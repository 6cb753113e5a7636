"""A FastMCP server for tests/gateway-interop/run.sh: each thing a gateway forwards, made
deterministic (no timers). Served over stdio: `python fastmcp_server.py`.

- `chatter` logs at debug, info, warning and error, in that order (the error last);
- `hold` reports progress 1 of 2, then waits until it is cancelled, and counts the cancellation
  (`cancellations` tells how many);
- `touch(id)` sends `notifications/resources/updated` for `note://{id}` if a client subscribed
  to it (`resources/subscribe`, which this script adds: FastMCP serves none of its own);
- `grow` adds a tool (`late1`, `late2`, …, each answering "late") and says that the tool list
  changed;
- completion of the prompt `greet`'s `name` and of the template `note://{id}`'s `id`.
"""

import asyncio

import mcp_types
from fastmcp import Context, FastMCP

mcp = FastMCP("gateway-probe")
subscribed: set[str] = set()
cancelled = 0


@mcp.tool
async def chatter(ctx: Context) -> str:
    """Logs at four levels, the error last."""
    await ctx.debug("debug")
    await ctx.info("info")
    await ctx.warning("warning")
    await ctx.error("error")
    return "said"


@mcp.tool
async def hold(ctx: Context) -> str:
    """Reports progress 1 of 2, then waits until cancelled."""
    global cancelled
    await ctx.report_progress(1, 2, "holding")
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        cancelled += 1
        raise
    return "never"


@mcp.tool
async def cancellations() -> str:
    """How many `hold` calls were cancelled."""
    return str(cancelled)


@mcp.tool
async def touch(id: int, ctx: Context) -> str:
    """Says that note://{id} changed, if it is subscribed to."""
    uri = f"note://{id}"
    if uri in subscribed:
        await ctx.send_notification(
            mcp_types.ResourceUpdatedNotification(
                params=mcp_types.ResourceUpdatedNotificationParams(uri=uri)
            )
        )
    return f"touched {id}"


grown = 0


async def late() -> str:
    """Added while the server runs."""
    return "late"


@mcp.tool
async def grow(ctx: Context) -> str:
    """Adds a tool, `late1` the first time: its name is the answer."""
    global grown
    grown += 1
    name = f"late{grown}"
    mcp.tool(late, name=name)
    await ctx.send_notification(mcp_types.ToolListChangedNotification())
    return name


@mcp.prompt
def greet(name: str) -> str:
    """Greets someone."""
    return f"Hello, {name}!"


@mcp.resource("note://{id}")
def note(id: str) -> str:
    """One note."""
    return f"note {id}"


@mcp.completion
def complete(ref, argument, context):
    if isinstance(ref, mcp_types.PromptReference) and ref.name == "greet":
        pool = ["Ada", "Alan", "Grace"]
    elif isinstance(ref, mcp_types.ResourceTemplateReference) and ref.uri == "note://{id}":
        pool = ["7", "70", "8"]
    else:
        return None
    return [v for v in pool if v.startswith(argument.value)]


async def on_subscribe(_ctx, params):
    subscribed.add(str(params.uri))
    return mcp_types.EmptyResult()


async def on_unsubscribe(_ctx, params):
    subscribed.discard(str(params.uri))
    return mcp_types.EmptyResult()


low = mcp._mcp_server
low.add_request_handler("resources/subscribe", mcp_types.SubscribeRequestParams, on_subscribe)
low.add_request_handler("resources/unsubscribe", mcp_types.UnsubscribeRequestParams, on_unsubscribe)

if __name__ == "__main__":
    mcp.run(show_banner=False)
