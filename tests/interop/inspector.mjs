// The MCP Inspector's CLI (npm @modelcontextprotocol/inspector, pinned in package.json; its
// `mcp-inspector --cli` mode, one server connection per invocation) against gift-server:
// the binary spawned over stdio, and, given a URL of a running `gift-server http`, over
// Streamable HTTP (`--transport http --server-url URL`). Each in two protocol eras: `legacy`
// (the `initialize` handshake, the Inspector's default for ad-hoc targets) and `modern`
// (server/discover, then 2026-07-28 with the version in every request's `_meta`).
//
// Per transport and era: tools/list, tools/call suggest_gifts (--tool-name / --tool-arg, also
// one call ending in a tool error), resources/list, resources/read of the catalog (and of a
// missing gift), prompts/list, prompts/get gift_congrats_style (--prompt-args), asserting exact
// values of the Inspector's `--format json` output and its exit codes. What went over the wire
// is asserted from the server's message log (MCP_LOG_MESSAGES=1): for stdio the server's
// stderr, which the Inspector passes through on its own stderr; for HTTP the log of the HTTP
// server when run.sh passes its path in MCP_INTEROP_HTTP_LOG.
//
// Usage: node inspector.mjs PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]
// Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
// The Inspector's own state (catalog, client config, OAuth store) goes to a temporary
// directory, never to ~/.mcp-inspector.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const inspector = join(here, "node_modules", ".bin", "mcp-inspector");

const [binary, url] = process.argv.slice(2);
if (!binary) {
  console.error("usage: node inspector.mjs PATH/TO/gift-server [http://127.0.0.1:PORT/mcp]");
  process.exit(2);
}
const httpLog = process.env.MCP_INTEROP_HTTP_LOG;

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

const state = mkdtempSync(join(tmpdir(), "mcp-inspector-"));
const env = {
  ...process.env,
  MCP_STORAGE_DIR: join(state, "storage"),
  MCP_CATALOG_PATH: join(state, "mcp.json"),
  MCP_CLIENT_CONFIG_PATH: join(state, "client.json"),
  MCP_INSPECTOR_OAUTH_STATE_PATH: join(state, "oauth.json"),
};

// The client's messages as the server logged them (`--> {json}` lines).
function sentMessages(log) {
  const out = [];
  for (const line of log.split("\n")) {
    if (!line.startsWith("--> ")) continue;
    try {
      out.push(JSON.parse(line.slice(4)));
    } catch {
      // a torn line: not a message
    }
  }
  return out;
}

// The last JSON object line of a text, or null.
function lastJson(text) {
  const lines = text.split("\n").filter((l) => l.startsWith("{"));
  for (const line of lines.reverse()) {
    try {
      return JSON.parse(line);
    } catch {
      // keep looking
    }
  }
  return null;
}

// One Inspector invocation: `mcp-inspector --cli --format json ... <target> --method ... <args>`.
// The target goes before the method options: --tool-arg and --prompt-args take many values.
function inspect(target, era, args) {
  const start = target.http && httpLog ? statSync(httpLog).size : 0;
  const argv = ["--cli", "--format", "json", "--protocol-era", era, ...target.args, ...args];
  const r = spawnSync(inspector, argv, { env, encoding: "utf8", timeout: 60_000 });
  if (r.error) throw r.error;
  let out = null;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    // left null: the checks show what came instead
  }
  let log = target.http ? "" : r.stderr;
  if (target.http && httpLog) log = readFileSync(httpLog).subarray(start).toString("utf8"); // a byte offset
  return { status: r.status, out, err: lastJson(r.stderr), stderr: r.stderr, stdout: r.stdout, sent: sentMessages(log) };
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
const SERVER_INFO = {
  "io.modelcontextprotocol/serverInfo": {
    name: "gift-server",
    version: "0.1.0",
    description: "Gift ideas for any occasion: the MCP example server of mcp-runtime",
    title: "Gift ideas",
    websiteUrl: "https://github.com/mcp-runtime/mcp-runtime/tree/main/examples/gift-server",
  },
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

const PROMPT_TEXT =
  "Write a short, formal wedding congratulation for Ann to go with a gift. " +
  "Two or three sentences, no clichés, mention the gift only in passing.";

function suite(name, target, era) {
  label = `[${name} ${era}]`;
  const modern = era === "modern";
  // A 2026-07-28 server stamps serverInfo on each result's _meta; the handshake era has none.
  const stamped = (result) => (modern ? { _meta: SERVER_INFO, ...result } : result);
  const sent = [];
  const firsts = []; // the first request of each invocation
  const run = (what, args) => {
    const r = inspect(target, era, args);
    sent.push(...r.sent);
    firsts.push(r.sent.find((m) => m.id !== undefined && m.method)?.method);
    if (r.out === null && r.err === null) {
      console.log(`     ${what}: exit ${r.status}, stdout ${JSON.stringify(r.stdout.slice(0, 500))}, stderr ${JSON.stringify(r.stderr.slice(-1500))}`);
    }
    return r;
  };

  let r = run("tools/list", ["--method", "tools/list"]);
  check("tools/list: exit 0", r.status, 0);
  const tools = r.out?.result?.tools ?? [];
  check("tools/list names", tools.map((t) => t.name), ["more_like_this", "suggest_gifts"]);
  const tool = tools.find((t) => t.name === "suggest_gifts") ?? {};
  check("suggest_gifts widget (_meta.ui)", tool._meta?.ui, { resourceUri: "ui://gift-server/gift-cards.html" });
  check("suggest_gifts title and description", [tool.title, tool.description], [
    "Gift ideas generator",
    "Suggests gift ideas for a given occasion and budget.",
  ]);
  check("suggest_gifts inputSchema", tool.inputSchema, INPUT_SCHEMA);
  check("suggest_gifts outputSchema required", tool.outputSchema?.required, ["gifts", "summary"]);
  check("suggest_gifts annotations", tool.annotations, { openWorldHint: false, readOnlyHint: true, title: "Gift ideas generator" });

  r = run("tools/call", ["--method", "tools/call", "--tool-name", "suggest_gifts", "--tool-arg", "occasion=birthday", "budget=50", "recipient=my sister"]);
  check("tools/call: exit 0", r.status, 0);
  const call = r.out?.result ?? {};
  check("tools/call: arguments as sent (budget=50 coerced to a number)", r.sent.find((m) => m.method === "tools/call")?.params?.arguments, {
    occasion: "birthday",
    budget: 50,
    recipient: "my sister",
  });
  check("tools/call: isError", call.isError ?? false, false);
  check("tools/call: summary", call.structuredContent?.summary, "8 gift ideas for my sister within $50");
  check("tools/call: first of eight gifts", [call.structuredContent?.gifts?.[0], call.structuredContent?.gifts?.length], [FIRST_GIFT, 8]);
  check("tools/call: text mirror", call.content?.[0]?.text && JSON.parse(call.content[0].text), call.structuredContent);
  check("tools/call: result _meta", call._meta, modern ? SERVER_INFO : undefined);

  r = run("tools/call (error)", ["--method", "tools/call", "--tool-name", "suggest_gifts", "--tool-arg", "occasion=wedding", "budget=5"]);
  check("tools/call: business error (exit 5, isError result)", [r.status, r.out?.result, r.err], [
    5,
    stamped({
      content: [{ type: "text", text: "no wedding gift fits a budget of $5; the cheapest is Cast-iron skillet at $55" }],
      isError: true,
    }),
    { error: { code: "tool_is_error", message: "Tool 'suggest_gifts' returned isError:true." } },
  ]);

  r = run("resources/list", ["--method", "resources/list"]);
  check("resources/list", [r.status, r.out], [
    0,
    {
      result: {
        resources: [
          {
            name: "gift_cards",
            uri: "ui://gift-server/gift-cards.html",
            description: 'Gift ideas as cards, each with a "More ideas like this" button (MCP Apps widget; hosts\nwithout apps show the tools\' text instead).',
            mimeType: "text/html;profile=mcp-app",
            _meta: { ui: { prefersBorder: true } },
          },
          {
            name: "gift_catalog",
            uri: CATALOG_URI,
            description: "Base catalog of gifts with categories and prices",
            mimeType: "application/json",
          },
          ...SKILL_RESOURCES,
        ],
      },
    },
  ]);

  r = run("resources/read", ["--method", "resources/read", "--uri", CATALOG_URI]);
  check("resources/read catalog: exit 0", r.status, 0);
  const read = r.out?.result ?? {};
  const contents = read.contents ?? [];
  check("resources/read catalog: one JSON item", contents.map((c) => [c.uri, c.mimeType]), [[CATALOG_URI, "application/json"]]);
  const gifts = contents[0]?.text ? JSON.parse(contents[0].text).gifts : [];
  check("resources/read catalog: ids 1 to 24 in order", gifts.map((g) => g.id), Array.from({ length: 24 }, (_, i) => i + 1));
  check("resources/read catalog: espresso machine", gifts[4], {
    id: 5,
    name: "Espresso machine",
    category: "kitchen",
    price: 420,
    occasions: ["wedding", "housewarming"],
  });
  check("resources/read catalog: result _meta", read._meta, modern ? SERVER_INFO : undefined);

  r = run("resources/read (missing)", ["--method", "resources/read", "--uri", "gifts://item/99"]);
  check("resources/read missing gift (exit 1, error envelope)", [r.status, r.out, r.err], [
    1,
    null,
    { error: { code: "error", message: "resource not found: gifts://item/99" } },
  ]);

  r = run("prompts/list", ["--method", "prompts/list"]);
  check("prompts/list", [r.status, r.out], [
    0,
    {
      result: {
        prompts: [
          {
            name: "gift_congrats_style",
            title: "Congratulations style",
            description: "Style guide for congratulations that go with a gift",
            arguments: [
              { name: "name", description: "Who is congratulated", required: true },
              { name: "occasion", description: "The occasion", required: false },
              { name: "tone", description: "Tone: warm, formal or funny", required: false },
            ],
          },
        ],
      },
    },
  ]);

  r = run("prompts/get", ["--method", "prompts/get", "--prompt-name", "gift_congrats_style", "--prompt-args", "name=Ann", "occasion=wedding", "tone=formal"]);
  check("prompts/get", [r.status, r.out], [
    0,
    {
      result: stamped({
        description: "Style guide for congratulations that go with a gift",
        messages: [{ role: "user", content: { type: "text", text: PROMPT_TEXT } }],
      }),
    },
  ]);

  // What the server saw over all eight invocations (one connection each).
  if (target.http && !httpLog) return;
  const requests = sent.filter((m) => m.id !== undefined && m.method);
  const versions = [...new Set(requests.map((m) => String(m.params?._meta?.["io.modelcontextprotocol/protocolVersion"])))].sort();
  const first = modern ? "server/discover" : "initialize";
  check(`wire: each of the 8 connections began with ${first}`, firsts, Array(8).fill(first));
  check(`wire: never ${modern ? "initialize" : "server/discover"}`, requests.some((m) => m.method === (modern ? "initialize" : "server/discover")), false);
  if (modern) {
    check(`wire: every request (of ${requests.length}) carries _meta protocolVersion 2026-07-28`, [requests.length >= 16, versions], [true, ["2026-07-28"]]);
  } else {
    check("wire: initialize asks for 2025-11-25", [...new Set(requests.filter((m) => m.method === "initialize").map((m) => m.params?.protocolVersion))], ["2025-11-25"]);
    check(`wire: no request (of ${requests.length}) carries a protocolVersion _meta`, [requests.length >= 16, versions], [true, ["undefined"]]);
  }
}

const targets = [["stdio", { http: false, args: ["-e", "MCP_LOG_MESSAGES=1", binary, "stdio"] }]];
if (url) targets.push(["http", { http: true, args: ["--transport", "http", "--server-url", url] }]);
try {
  for (const [name, target] of targets) {
    for (const era of ["legacy", "modern"]) {
      try {
        suite(name, target, era);
      } catch (e) {
        failed += 1;
        console.log(`FAIL ${label} crashed: ${e?.stack ?? e}`);
      }
    }
  }
} finally {
  rmSync(state, { recursive: true, force: true });
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
