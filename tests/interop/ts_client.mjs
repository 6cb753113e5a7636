// The official TypeScript SDK client (npm @modelcontextprotocol/sdk, pinned in package.json)
// against gift-server: `Client` + `StdioClientTransport` (the binary spawned over stdio) and,
// given a URL of a running `gift-server http`, `Client` + `StreamableHTTPClientTransport`; the
// `initialize` handshake at the SDK's newest revision. Lists and calls tools, reads resources,
// gets the prompt and completes arguments, asserting exact values as the client parsed them.
//
// Usage: node ts_client.mjs PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]
// Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
// Set MCP_LOG_MESSAGES=1 to have the server log every message on stderr.

import { isDeepStrictEqual } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const [binary, url] = process.argv.slice(2);
if (!binary) {
  console.error("usage: node ts_client.mjs PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]");
  process.exit(2);
}

let passed = 0;
let failed = 0;

let label = "";

function check(what, actual, expected) {
  const name = `${label} ${what}`;
  if (isDeepStrictEqual(actual, expected)) {
    passed += 1;
    console.log(`ok   ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL ${name}\n     expected: ${JSON.stringify(expected)}\n     actual:   ${JSON.stringify(actual)}`);
  }
}

async function rpcError(name, promise, code, data) {
  try {
    await promise;
    check(name, "no error", code);
  } catch (e) {
    if (!(e instanceof McpError)) throw e;
    check(name, data === undefined ? e.code : [e.code, e.data], data === undefined ? code : [code, data]);
  }
}

const CATALOG_URI = "mcp://gift-server/resources/gift_catalog";
// The gift server's skill (examples/gift-server/skills/choosing-a-gift): its files are resources.
const SKILL_RESOURCES = [
  {
    name: "choosing-a-gift",
    uri: "skill://choosing-a-gift/SKILL.md",
    description: "Choose a gift within a budget with the gift server's catalog and suggest_gifts tool",
    mimeType: "text/markdown",
    size: 954,
  },
  { name: "budget.md", uri: "skill://choosing-a-gift/budget.md", mimeType: "text/markdown", size: 301 },
];
const WIDGET_URI = "ui://gift-server/gift-cards.html";
const WIDGET_RESOURCE = {
  _meta: { ui: { prefersBorder: true } },
  description: 'Gift ideas as cards, each with a "More ideas like this" button (MCP Apps widget; hosts\nwithout apps show the tools\' text instead).',
  mimeType: "text/html;profile=mcp-app",
  name: "gift_cards",
  uri: WIDGET_URI,
};

const INPUT_SCHEMA = {
  type: "object",
  properties: {
    budget: { description: "Budget in US dollars", minimum: 0, type: "number" },
    occasion: {
      description: "The occasion\n- birthday: A birthday.\n- wedding: A wedding.\n- anniversary: An anniversary.\n- graduation: A graduation.\n- housewarming: A housewarming party.\n- holiday: A holiday, e.g. the end-of-year ones.",
      enum: ["birthday", "wedding", "anniversary", "graduation", "housewarming", "holiday"],
      type: "string",
    },
    recipient: { description: 'Who the gift is for, e.g. "my sister"', type: "string" },
  },
  required: ["occasion", "budget"],
};

const FIRST_GIFT = {
  category: "food",
  id: 24,
  name: "Chocolate tasting box",
  occasions: ["birthday", "holiday", "anniversary", "graduation"],
  price: 12,
};

const CHEFS_KNIFE =
  '{"id":4,"name":"Chef\'s knife","category":"kitchen","price":120.0,"occasions":["wedding","housewarming","anniversary"]}';

const PROMPT_TEXT =
  "Write a short, formal wedding congratulation for Ann to go with a gift. " +
  "Two or three sentences, no clichés, mention the gift only in passing.";

async function suite(name, transport) {
  label = `[${name}]`;
  // The client tells the transport which revision `initialize` settled on (the HTTP transport
  // needs it for its `MCP-Protocol-Version` header: keep the original behaviour).
  let negotiated;
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    negotiated = version;
    setProtocolVersion?.(version);
  };
  const client = new Client({ name: "ts-interop", version: "1.0.0" });

  try {
    await client.connect(transport);
    check("negotiated version", negotiated, "2025-11-25");
    const info = client.getServerVersion();
    check("server name and version", [info?.name, info?.version], ["gift-server", "0.1.0"]);
    check(
      "instructions",
      client.getInstructions(),
      "Suggests gifts for an occasion and budget. Read the gift catalog resource for what exists; use the gift_congrats_style prompt for a card text. The skill skill://choosing-a-gift/SKILL.md says how to choose within a budget.",
    );
    const caps = client.getServerCapabilities() ?? {};
    check("capabilities", Object.keys(caps).sort(), ["completions", "logging", "prompts", "resources", "tools"]);
    check("ping", await client.ping(), {});

    const { tools } = await client.listTools();
    check("tools/list names", tools.map((t) => t.name), ["more_like_this", "suggest_gifts"]);
    const tool = tools.find((t) => t.name === "suggest_gifts");
    check("suggest_gifts widget (_meta.ui)", tool._meta?.ui, { resourceUri: WIDGET_URI });
    check("suggest_gifts title", tool.title, "Gift ideas generator");
    check("suggest_gifts description", tool.description, "Suggests gift ideas for a given occasion and budget.");
    check("suggest_gifts inputSchema", tool.inputSchema, INPUT_SCHEMA);
    check("suggest_gifts outputSchema required", tool.outputSchema?.required, ["gifts", "summary"]);
    check("suggest_gifts annotations", tool.annotations, { openWorldHint: false, readOnlyHint: true, title: "Gift ideas generator" });

    // The SDK validates structuredContent against the outputSchema it listed.
    let r = await client.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 50, recipient: "my sister" } });
    check("call: isError", r.isError ?? false, false);
    check("call: summary", r.structuredContent?.summary, "8 gift ideas for my sister within $50");
    check("call: first gift", r.structuredContent?.gifts?.[0], FIRST_GIFT);
    check("call: eight gifts", r.structuredContent?.gifts?.length, 8);
    check("call: text mirror", JSON.parse(r.content[0].text), r.structuredContent);

    r = await client.callTool({ name: "suggest_gifts", arguments: { occasion: "wedding", budget: 5 } });
    check("call: business error", r, {
      content: [{ type: "text", text: "no wedding gift fits a budget of $5; the cheapest is Cast-iron skillet at $55" }],
      isError: true,
    });

    r = await client.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday" } });
    check("call: missing budget is a tool error naming it", [r.isError, r.content[0].text], [
      true,
      "invalid arguments for tool 'suggest_gifts': missing required property 'budget'",
    ]);
    r = await client.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: "ten" } });
    check("call: wrong type is a tool error naming it", [r.isError, r.content[0].text], [
      true,
      "invalid arguments for tool 'suggest_gifts': property 'budget': expected a number, got string \"ten\"",
    ]);
    await rpcError("call: unknown tool", client.callTool({ name: "suggest_gift", arguments: {} }), -32602);

    const { resources } = await client.listResources();
    check("resources/list", resources, [
      WIDGET_RESOURCE,
      {
        description: "Base catalog of gifts with categories and prices",
        mimeType: "application/json",
        name: "gift_catalog",
        uri: CATALOG_URI,
      },
      ...SKILL_RESOURCES,
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    check("resources/templates/list", resourceTemplates, [
      {
        description: "One gift of the catalog, by id",
        mimeType: "application/json",
        name: "gift",
        uriTemplate: "gifts://item/{id}",
      },
    ]);
    const catalog = await client.readResource({ uri: CATALOG_URI });
    check("read catalog: one JSON item", [catalog.contents.length, catalog.contents[0].mimeType], [1, "application/json"]);
    const gifts = JSON.parse(catalog.contents[0].text).gifts;
    check("read catalog: ids 1 to 24 in order", gifts.map((g) => g.id), Array.from({ length: 24 }, (_, i) => i + 1));
    check("read catalog: espresso machine", gifts[4], {
      id: 5,
      name: "Espresso machine",
      category: "kitchen",
      price: 420,
      occasions: ["wedding", "housewarming"],
    });
    const item = await client.readResource({ uri: "gifts://item/4" });
    check("read template gifts://item/4", item, {
      contents: [{ uri: "gifts://item/4", mimeType: "application/json", text: CHEFS_KNIFE }],
    });
    await rpcError("read missing gift", client.readResource({ uri: "gifts://item/99" }), -32002, { uri: "gifts://item/99" });

    const { prompts } = await client.listPrompts();
    check("prompts/list", prompts, [
      {
        arguments: [
          { description: "Who is congratulated", name: "name", required: true },
          { description: "The occasion", name: "occasion", required: false },
          { description: "Tone: warm, formal or funny", name: "tone", required: false },
        ],
        description: "Style guide for congratulations that go with a gift",
        name: "gift_congrats_style",
        title: "Congratulations style",
      },
    ]);
    const prompt = await client.getPrompt({ name: "gift_congrats_style", arguments: { name: "Ann", occasion: "wedding", tone: "formal" } });
    check("prompts/get", prompt, {
      description: "Style guide for congratulations that go with a gift",
      messages: [{ role: "user", content: { type: "text", text: PROMPT_TEXT } }],
    });
    await rpcError("prompts/get without the required argument", client.getPrompt({ name: "gift_congrats_style", arguments: {} }), -32602);

    let c = await client.complete({ ref: { type: "ref/prompt", name: "gift_congrats_style" }, argument: { name: "occasion", value: "h" } });
    check("complete prompt argument", c.completion.values, ["holiday", "housewarming"]);
    c = await client.complete({ ref: { type: "ref/resource", uri: "gifts://item/{id}" }, argument: { name: "id", value: "2" } });
    check("complete template variable", c.completion.values, ["2", "20", "21", "22", "23", "24"]);

    check("logging/setLevel", await client.setLoggingLevel("debug"), {});
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${label} crashed: ${e?.stack ?? e}`);
  } finally {
    await client.close().catch(() => {});
  }
}

const env = {};
for (const key of ["MCP_LOG_MESSAGES", "RUST_LOG"]) {
  if (process.env[key]) env[key] = process.env[key];
}
await suite("stdio", new StdioClientTransport({ command: binary, args: ["stdio"], env }));
if (url) {
  await suite("http", new StreamableHTTPClientTransport(new URL(url)));
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
