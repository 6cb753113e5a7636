// The benchmark's server on the official TypeScript SDK (@modelcontextprotocol/sdk, pinned in
// package.json): the same tools as bench-server (echo, add, suggest_gifts), registered with
// `McpServer.registerTool` and zod schemas, as the SDK's documentation shows.
//
//   node server.mjs [stdio]         serve MCP over stdin/stdout (StdioServerTransport)
//   node server.mjs http ADDR       Streamable HTTP at http://ADDR/mcp: sessions, one
//                                   StreamableHTTPServerTransport per session, SSE replies
//                                   (the SDK's defaults), in the SDK's Express app.

import { randomUUID } from "node:crypto";

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const CATALOG = [
  ["Board game", 45, ["birthday", "graduation"]],
  ["Chef's knife", 120, ["wedding"]],
  ["Fountain pen", 75, ["graduation", "birthday"]],
  ["Scented candles", 30, ["birthday", "wedding"]],
  ["Espresso machine", 420, ["wedding"]],
  ["E-reader", 140, ["graduation", "birthday"]],
];

function server() {
  const s = new McpServer({ name: "bench-ts", version: "0.0.0" });
  s.registerTool(
    "echo",
    {
      description: "Echoes the text back.",
      inputSchema: { text: z.string().describe("The text to echo") },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  s.registerTool(
    "add",
    {
      description: "Adds two integers.",
      inputSchema: {
        a: z.number().int().describe("The first addend"),
        b: z.number().int().describe("The second addend"),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  s.registerTool(
    "suggest_gifts",
    {
      title: "Gift ideas generator",
      description: "Suggests gift ideas for a given occasion and budget.",
      inputSchema: {
        occasion: z.enum(["birthday", "wedding", "graduation"]).describe("The occasion, e.g. birthday or wedding"),
        budget: z.number().min(0).describe("Budget in US dollars"),
        recipient: z.string().optional().describe('Who the gift is for, e.g. "my sister"'),
      },
      outputSchema: {
        gifts: z.array(z.object({ name: z.string(), price: z.number() })),
        summary: z.string(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ occasion, budget, recipient }) => {
      const gifts = CATALOG.filter(([, price, occasions]) => price <= budget && occasions.includes(occasion))
        .map(([name, price]) => ({ name, price }))
        .sort((x, y) => x.price - y.price);
      if (gifts.length === 0) {
        return { content: [{ type: "text", text: `no gift fits a budget of $${budget}` }], isError: true };
      }
      const who = recipient ? ` for ${recipient}` : "";
      const structuredContent = { gifts, summary: `${gifts.length} gift ideas${who} within $${budget}` };
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  return s;
}

async function http(addr) {
  const [host, port] = addr.split(/:(?=\d+$)/);
  const app = createMcpExpressApp({ host });
  const sessions = new Map();
  app.post("/mcp", async (req, res) => {
    const sid = req.headers["mcp-session-id"];
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid || !isInitializeRequest(req.body)) {
        const [status, code, message] = sid
          ? [404, -32001, "Session not found"]
          : [400, -32000, "Bad Request: No valid session ID provided"];
        res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await server().connect(transport);
    }
    await transport.handleRequest(req, res, req.body);
  });
  const session = async (req, res) => {
    const transport = sessions.get(req.headers["mcp-session-id"]);
    if (!transport) {
      res.status(404).json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      return;
    }
    await transport.handleRequest(req, res);
  };
  app.get("/mcp", session);
  app.delete("/mcp", session);
  app.listen(Number(port), host, () => console.error(`serving MCP over Streamable HTTP at http://${addr}/mcp`));
}

const [mode = "stdio", addr = "127.0.0.1:8000"] = process.argv.slice(2);
if (mode === "stdio") {
  await server().connect(new StdioServerTransport());
} else if (mode === "http") {
  await http(addr);
} else {
  console.error("usage: node server.mjs [stdio | http ADDR]");
  process.exit(2);
}
