// The scale-out scenarios with the official TypeScript SDK client (npm @modelcontextprotocol/sdk,
// pinned in package.json), at 2025-11-25 (the handshake era: sessions), against three replicas
// (a, b, c) of everything-server behind haproxy (deploy/replicas.sh, started by run.sh).
//
// Every request goes through haproxy; a custom `fetch` adds the test-only `X-Replica` header
// chosen per kind of message (requests, notifications, answers to the server's requests, the GET
// stream), so every hop between replicas is chosen, and it records which replica served each
// request (haproxy's `X-Served-By`), so each check also asserts that the hop really happened.
//
// Usage: node ts_scenarios.mjs LB_URL  (MCP_REPLICAS_DIR: the topology's state directory)
// Prints one line per check and `N passed, M failed`; exits 1 if any check failed.

import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [url] = process.argv.slice(2);
if (!url) {
  console.error("usage: node ts_scenarios.mjs http://127.0.0.1:PORT/mcp");
  process.exit(2);
}
// Debugging the harness itself: SCALE_OUT_ONLY=a sends everything to one replica (the hops'
// checks then fail, the others must pass).
const only = process.env.SCALE_OUT_ONLY || undefined;
const replicas = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "deploy", "replicas.sh");

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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits until `probe()` returns a truthy value (or `ms` elapse); returns its last value.
async function until(probe, ms = 5000) {
  const end = Date.now() + ms;
  let value = await probe();
  while (!value && Date.now() < end) {
    await sleep(50);
    value = await probe();
  }
  return value;
}

function topology(...args) {
  execFileSync(replicas, args, { stdio: ["ignore", "inherit", "inherit"] });
}

// A client whose messages go where `route` says: `request` (requests), `notification`
// (notifications; default: `request`), `answer` (answers to the server's requests) and `get`
// (the GET stream, resumption included). `log` gets one entry per HTTP request:
// {kind, method, replica, status, resumed}.
function routed(route, extra = {}) {
  const log = [];
  const fetchVia = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    const verb = (init.method ?? "GET").toUpperCase();
    let kind = verb.toLowerCase();
    let method;
    if (verb === "POST") {
      const body = JSON.parse(init.body);
      const msg = Array.isArray(body) ? body[0] : body;
      method = msg.method;
      kind = method === undefined ? "answer" : msg.id === undefined ? "notification" : "request";
    }
    const target = kind === "notification" ? route.notification ?? route.request : route[kind] ?? route.request;
    if (only || target) headers.set("x-replica", only ?? target);
    // Logged before the answer arrives (the server may act on a message before its 202 is read).
    const entry = { kind, method, replica: undefined, status: undefined, resumed: headers.has("last-event-id") };
    log.push(entry);
    const response = await fetch(input, { ...init, headers });
    entry.replica = response.headers.get("x-served-by");
    entry.status = response.status;
    return response;
  };
  const client = new Client(
    { name: "ts-scale-out", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, defaultTaskPollInterval: 100, ...extra },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: fetchVia,
    reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  return { client, transport, log };
}

const text = (result) => result.content.map((c) => c.text).join(" ");
const whoami = async (client) => text(await client.callTool({ name: "scale_whoami", arguments: {} }));
const servedBy = (log, pred) => log.filter(pred).map((e) => e.replica);

async function scenario(name, body) {
  label = `[ts 2025-11-25 ${name}]`;
  try {
    await body();
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${label} crashed: ${e?.stack ?? e}`);
  }
}

// 1. A session created on A serves tools/call on B and C.
await scenario("1 session a -> b, c", async () => {
  const route = { request: "a", get: "a" };
  const { client, transport, log } = routed(route);
  await client.connect(transport);
  check("initialize served by a", servedBy(log, (e) => e.method === "initialize"), ["a"]);
  check("session id given", typeof transport.sessionId === "string" && transport.sessionId.length > 0, true);
  route.request = "b";
  check("tools/call on b", await whoami(client), "replica b");
  const { tools } = await client.listTools();
  check("tools/list on b", tools.some((t) => t.name === "scale_whoami"), true);
  route.request = "c";
  check("tools/call on c", await whoami(client), "replica c");
  check("requests served by a, then b, b, c", servedBy(log, (e) => e.kind === "request"), ["a", "b", "b", "c"]);
  check("exactly one initialize on the wire", log.filter((e) => e.method === "initialize").length, 1);
  await client.close();
});

// 2. An SSE stream cut on A resumes with Last-Event-ID on B: nothing lost or duplicated.
await scenario("2 resumption a -> b", async () => {
  const route = { request: "a", get: "a" };
  const { client, transport, log } = routed(route);
  await client.connect(transport);
  route.get = "b";
  const progress = [];
  const result = await client.callTool({ name: "scale_progress_cut", arguments: { steps: 6, cut_after: 2 } }, CallToolResultSchema, {
    onprogress: (p) => progress.push(p.progress),
    timeout: 20000,
  });
  check("result from the handler on a", text(result), "6 steps on replica a");
  check("progress 1..6, each once, in order", progress, [1, 2, 3, 4, 5, 6]);
  check("the call went to a", servedBy(log, (e) => e.method === "tools/call"), ["a"]);
  check("resumed (GET + Last-Event-ID) on b", servedBy(log, (e) => e.kind === "get" && e.resumed), ["b"]);
  await client.close();
});

// 3. An elicitation from a handler on A is answered through B.
await scenario("3 elicitation a, answer via b", async () => {
  const route = { request: "a", get: "a", answer: "b" };
  const { client, transport, log } = routed(route);
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { username: "ann", email: "ann@example.com" } };
  });
  await client.connect(transport);
  const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } }, CallToolResultSchema, {
    timeout: 15000,
  });
  check("asked once", asked, ["Who are you?"]);
  check("the handler on a got the answer", text(result), "User response: accepted username=ann, email=ann@example.com");
  await until(() => log.some((e) => e.kind === "answer" && e.status !== undefined));
  check("the answer was posted to b (202)", log.filter((e) => e.kind === "answer").map((e) => [e.replica, e.status]), [["b", 202]]);
  await client.close();
});

// 4. notifications/cancelled sent to C stops the handler on A.
await scenario("4 cancel via c stops a", async () => {
  const route = { request: "a", get: "a" };
  const { client, transport, log } = routed(route);
  await client.connect(transport);
  route.notification = "c";
  const stats = async () => (await client.callTool({ name: "scale_stats", arguments: {} })).structuredContent;
  const before = await stats();
  check("stats from a", before.node, "a");
  const abort = new AbortController();
  let started;
  const startedOnA = new Promise((resolve) => (started = resolve));
  const call = client
    .callTool({ name: "scale_slow", arguments: { duration_ms: 20000 } }, CallToolResultSchema, {
      signal: abort.signal,
      onprogress: () => started(),
      timeout: 30000,
    })
    .then(
      () => "answered",
      (e) => (abort.signal.aborted ? "aborted" : `error ${e}`),
    );
  await startedOnA;
  abort.abort("the user gave up");
  check("the client gave up", await call, "aborted");
  const after = await until(async () => {
    const s = await stats();
    return s.cancelled > before.cancelled ? s : null;
  }, 5000);
  check(
    "a: the handler stopped (cancelled +1, completed +0)",
    after && [after.node, after.cancelled - before.cancelled, after.completed - before.completed],
    ["a", 1, 0],
  );
  // The handler may stop before this side has read the notification's 202: wait for that answer.
  await until(() => log.some((e) => e.method === "notifications/cancelled" && e.status !== undefined));
  check("notifications/cancelled went to c", servedBy(log, (e) => e.method === "notifications/cancelled"), ["c"]);
  await client.close();
});

// 5. list_changed after adding a tool on A reaches listeners (GET streams) on B and C.
await scenario("5 list_changed a -> b, c", async () => {
  const admin = routed({ request: "a", get: "a" });
  await admin.client.connect(admin.transport);
  const removed = text(await admin.client.callTool({ name: "scale_remove_tool", arguments: {} }));
  check("scale_added absent on a", removed.endsWith("on replica a"), true);
  const listeners = {};
  for (const name of ["b", "c"]) {
    const l = routed({ request: name, get: name });
    l.got = [];
    l.client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => l.got.push(n.method));
    await l.client.connect(l.transport);
    listeners[name] = l;
  }
  // The GET streams are open once each listener's GET was answered 200.
  const open = await until(() => ["b", "c"].every((n) => listeners[n].log.some((e) => e.kind === "get" && e.status === 200)));
  check("listeners' GET streams held by b and c", ["b", "c"].map((n) => servedBy(listeners[n].log, (e) => e.kind === "get")), [["b"], ["c"]]);
  check("streams open", Boolean(open), true);
  await sleep(200); // the streams' first bytes are on their way; the subscription is in place
  const added = text(await admin.client.callTool({ name: "scale_add_tool", arguments: {} }));
  check("scale_added added on a", added, "scale_added added on replica a");
  await until(() => listeners.b.got.length > 0 && listeners.c.got.length > 0, 5000);
  await sleep(300); // and no duplicate behind it
  check("b's listener got tools/list_changed once", listeners.b.got, ["notifications/tools/list_changed"]);
  check("c's listener got tools/list_changed once", listeners.c.got, ["notifications/tools/list_changed"]);
  for (const l of [admin, listeners.b, listeners.c]) await l.client.close();
});

// 6. A task started on A is polled and its result fetched on B.
await scenario("6 task a -> b", async () => {
  const route = { request: "a", get: "a" };
  const { client, transport, log } = routed(route);
  await client.connect(transport);
  const created = await client.request(
    { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 1, label: "s6" }, task: { ttl: 60000 } } },
    CreateTaskResultSchema,
  );
  const taskId = created.task.taskId;
  check("task created on a, working", [servedBy(log, (e) => e.method === "tools/call"), created.task.status], [["a"], "working"]);
  route.request = "b";
  const done = await until(async () => {
    const t = await client.experimental.tasks.getTask(taskId);
    return t.status === "completed" ? t : null;
  }, 10000);
  check("tasks/get on b: completed", done && [done.taskId, done.status], [taskId, "completed"]);
  const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
  check("tasks/result on b", result.content, [{ type: "text", text: "computed s6 in 1 s" }]);
  check("polled and fetched on b only", [...new Set(servedBy(log, (e) => e.method?.startsWith("tasks/")))], ["b"]);
  await client.close();
});

// 7. Replica A is killed mid-session: the client continues on B and C.
await scenario("7 a killed", async () => {
  const route = { request: "a", get: "a" };
  const { client, transport, log } = routed(route);
  await client.connect(transport);
  check("on a before", await whoami(client), "replica a");
  topology("kill", "a");
  try {
    route.request = "b";
    check("on b after a died", await whoami(client), "replica b");
    route.request = "c";
    check("on c after a died", await whoami(client), "replica c");
    route.request = undefined; // round robin over what is left
    const rest = [];
    for (let i = 0; i < 4; i += 1) rest.push(await whoami(client));
    check("round robin over b and c, no failure", [...new Set(rest)].sort(), ["replica b", "replica c"]);
    check("no request failed", log.filter((e) => e.kind === "request" && e.status >= 400), []);
    await client.close();
  } finally {
    topology("revive", "a");
  }
});

// 8. Redis stopped and restarted: session calls fail clearly (503) and recover.
await scenario("8 redis restart", async () => {
  const route = { request: "a", get: "a" };
  const { client, transport, log } = routed(route);
  await client.connect(transport);
  check("on a", await whoami(client), "replica a");
  route.request = "b";
  check("on b", await whoami(client), "replica b");
  topology("redis-stop");
  try {
    route.request = "a";
    check("redis down: a holds the session, serves it", await whoami(client), "replica a");
    route.request = "c";
    let error;
    try {
      await whoami(client);
    } catch (e) {
      error = e;
    }
    check("redis down: c has not seen the session: 503", error instanceof StreamableHTTPError ? error.code : String(error), 503);
  } finally {
    topology("redis-start");
  }
  const back = await until(async () => {
    try {
      return await whoami(client);
    } catch {
      return null;
    }
  }, 10000);
  check("redis back: c serves the same session", back, "replica c");
  // Every replica works again once Redis is back, at the first request: a new session on a and
  // on b (a and b did not need Redis while it was down).
  for (const name of ["a", "b"]) {
    const fresh = routed({ request: name, get: name });
    let first;
    try {
      await fresh.client.connect(fresh.transport);
      first = await whoami(fresh.client);
    } catch (e) {
      first = String(e);
    }
    check(`redis back: a new session on ${name}, first try`, first, `replica ${name}`);
    await fresh.client.close();
  }
  check("503s while redis was down came from c", log.filter((e) => e.status === 503).map((e) => e.replica)[0], "c");
  await client.close();
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
