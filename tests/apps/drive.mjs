// The gift widget in a real browser: Debian's Chromium driven by playwright-core (no browser
// download), a host page running the MCP Apps host bridge of `<bin> apps preview`
// (mcp-runtime/src/cli/apps_host.js), and gift-server over Streamable HTTP reached through the
// official TypeScript SDK client. Offline: the widget is self-contained and the page is
// set from memory.
//
// Two runs:
//   mcp-apps  default server; the host follows _meta.ui.resourceUri, reads the
//             text/html;profile=mcp-app resource and speaks the ui/* bridge with the widget.
//   openai    GIFT_SERVER_OPENAI=1; the host follows openai/outputTemplate to the
//             text/html+skybridge twin and injects a window.openai shim, as ChatGPT does.
// Each asserts: sandboxed iframe, tool input received, cards (names, prices) from
// structuredContent, the "More ideas like this" button's tools/call reaching the server and the
// widget updating; and writes a screenshot.
//
// Why our own host and not the official AppBridge of @modelcontextprotocol/ext-apps: its
// `./app-bridge` entry (2.0.4) ships only as an ES module importing the TS SDK v2 packages
// (@modelcontextprotocol/client and core ^2, zod ^4 as peer dependencies) with no
// self-contained build (only the widget side has `app-with-deps`), so a page would need a
// bundler and a second SDK next to the pinned 1.x client; and `apps preview` must carry its host
// inside the Rust binary. apps_host.js follows the spec's postMessage protocol (ui/initialize,
// initialized, tool-input, tool-result, tools/call with visibility, size-changed); the widget
// side of the same protocol is the gift widget's own bridge.
//
// Usage: node drive.mjs PATH/TO/gift-server OUT_DIR
// Env: CHROMIUM (default /usr/bin/chromium). Prints one line per check; exits 1 on a failure.

import { spawn } from "node:child_process";
import { readFileSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium } from "playwright-core";

const [binary, outDir] = process.argv.slice(2);
if (!binary || !outDir) {
  console.error("usage: node drive.mjs PATH/TO/gift-server OUT_DIR");
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const here = dirname(fileURLToPath(import.meta.url));
const HOST_JS = readFileSync(join(here, "../../mcp-runtime/src/cli/apps_host.js"), "utf8");
const EXTENSION_ID = "io.modelcontextprotocol/ui";

let passed = 0;
let failed = 0;
let label = "";
function check(what, actual, expected) {
  if (isDeepStrictEqual(actual, expected)) {
    passed += 1;
    console.log(`ok   ${label} ${what}`);
  } else {
    failed += 1;
    console.log(`FAIL ${label} ${what}\n     expected: ${JSON.stringify(expected)}\n     actual:   ${JSON.stringify(actual)}`);
  }
}

// gift-server http on a free loopback port, logging every message (so the test sees what
// reached the server, not only what the client sent).
function startServer(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["http", "127.0.0.1:0"], {
      env: { ...process.env, MCP_LOG_MESSAGES: "1", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    const timer = setTimeout(() => reject(new Error(`no URL from gift-server:\n${log}`)), 10000);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      log += chunk;
      const url = /http:\/\/\S+\/mcp/.exec(log);
      if (url && !child.url) {
        child.url = url[0];
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.log = () => log;
    child.on("exit", (code) => reject(new Error(`gift-server exited (${code}):\n${log}`)));
  });
}

const money = (n) => "$" + Number(n).toFixed(2);

async function run(browser, mode) {
  label = `[${mode}]`;
  const openai = mode === "openai";
  const server = await startServer(openai ? { GIFT_SERVER_OPENAI: "1" } : {});
  const client = new Client(
    { name: "apps-browser-test", version: "1.0.0" },
    { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: ["text/html;profile=mcp-app"] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  try {
    // initialize at 2025-11-25: that schema has no `extensions`, so the server leaves it out
    // there (it declares it in the 2026-07-28 era; tests/it/apps.rs) and hosts go by the tools.
    check("no extensions in a 2025-11-25 initialize result", client.getServerCapabilities()?.extensions, undefined);

    const { tools } = await client.listTools();
    const suggest = tools.find((t) => t.name === "suggest_gifts");
    const more = tools.find((t) => t.name === "more_like_this");
    check("suggest_gifts _meta.ui", suggest._meta.ui, { resourceUri: "ui://gift-server/gift-cards.html" });
    check("more_like_this _meta.ui", more._meta.ui, { resourceUri: "ui://gift-server/gift-cards.html", visibility: ["app"] });
    const templateUri = openai ? suggest._meta["openai/outputTemplate"] : suggest._meta.ui.resourceUri;
    if (openai) {
      check("openai aliases", [templateUri, suggest._meta["openai/widgetAccessible"], more._meta["openai/visibility"]],
        ["ui://gift-server/gift-cards.skybridge.html", true, "private"]);
    } else {
      check("no openai aliases by default", Object.keys(suggest._meta).filter((k) => k.startsWith("openai/")), []);
    }

    const read = await client.readResource({ uri: templateUri });
    const content = read.contents[0];
    check("widget resource MIME", content.mimeType, openai ? "text/html+skybridge" : "text/html;profile=mcp-app");
    check("widget resource is an HTML document", content.text.trimStart().toLowerCase().startsWith("<!doctype html"), true);

    const args = { occasion: "birthday", budget: 50, recipient: "my sister" };
    const result = await client.callTool({ name: "suggest_gifts", arguments: args });
    const expected = result.structuredContent.gifts.map((g) => [g.name, money(g.price)]);
    check("the tool's text content stays meaningful", result.content[0].text.includes("gift ideas for my sister within $50"), true);

    // The page: a host calling the server through the official client (exposed functions).
    const page = await browser.newPage({ viewport: { width: 900, height: 720 } });
    const serverCalls = [];
    page.on("pageerror", (e) => console.log(`${label} page error: ${e.message}`));
    await page.exposeFunction("mcpCallTool", async (name, toolArgs) => {
      serverCalls.push({ name, arguments: toolArgs });
      return client.callTool({ name, arguments: toolArgs });
    });
    await page.setContent(
      `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head>` +
      `<body style="margin:16px;font-family:sans-serif"><h3>Gift ideas (${mode} host)</h3><div id="app"></div></body></html>`,
    );
    await page.addScriptTag({ content: HOST_JS });
    await page.evaluate(({ html, csp, tools, openai }) => {
      window.host = McpAppsHost.mount(document.getElementById("app"), {
        html, csp, tools, openai, toolInfo: { tool: tools.find((t) => t.name === "suggest_gifts") },
        callTool: (name, args) => window.mcpCallTool(name, args),
      });
    }, { html: content.text, csp: content._meta?.ui?.csp, tools, openai });

    const sandbox = await page.locator("#app iframe").getAttribute("sandbox");
    check("widget iframe is sandboxed (scripts only)", sandbox, "allow-scripts");
    await page.waitForFunction(() => window.host.initialized, null, { timeout: 10000 });
    const frame = page.frameLocator("#app iframe");

    // Tool input first: the widget shows it before any result.
    await page.evaluate((a) => window.host.sendToolInput(a), args);
    const status = frame.locator("#status");
    await status.filter({ hasText: "Looking for gifts for my sister within $50.00" }).waitFor({ timeout: 10000 });
    check("widget received the tool input", await status.textContent(), "Looking for gifts for my sister within $50.00…");

    // Then the result: the cards come from structuredContent.
    await page.evaluate((r) => window.host.sendToolResult(r), result);
    const cards = frame.locator(".card");
    await cards.first().waitFor({ timeout: 10000 });
    const shown = await cards.evaluateAll((els) =>
      els.map((el) => [el.querySelector(".name").textContent, el.querySelector(".price").textContent]));
    check("cards show the gifts' names and prices", shown, expected);
    check("summary from structuredContent", await status.textContent(), result.structuredContent.summary);
    await page.screenshot({ path: join(outDir, `gift-cards-${mode}.png`), fullPage: true });

    // The button: tools/call through the host bridge, to the server, and the widget updates.
    const first = result.structuredContent.gifts[0];
    await cards.first().getByRole("button", { name: "More ideas like this" }).click();
    await frame.locator("#title").filter({ hasText: `More like ${first.name}` }).waitFor({ timeout: 10000 });
    check("host forwarded the widget's tools/call", serverCalls, [{ name: "more_like_this", arguments: { gift_id: first.id } }]);
    const reached = server.log().split("\n").some((line) =>
      line.includes('"method":"tools/call"') && line.includes('"name":"more_like_this"') && line.includes(`"gift_id":${first.id}`));
    check("the call reached gift-server", reached, true);
    const again = await client.callTool({ name: "more_like_this", arguments: { gift_id: first.id } });
    const updated = await cards.evaluateAll((els) =>
      els.map((el) => [el.querySelector(".name").textContent, el.querySelector(".price").textContent]));
    check("widget updated with the server's answer", updated,
      again.structuredContent.gifts.map((g) => [g.name, money(g.price)]));
    check("updated list differs from the first", isDeepStrictEqual(updated, shown), false);
    await page.screenshot({ path: join(outDir, `gift-cards-${mode}-more.png`), fullPage: true });

    const methods = await page.evaluate(() => window.host.log.map((e) => `${e.dir} ${e.message.method ?? (e.message.error ? "error" : "result")}`));
    const expectedStart = [
      "app->host ui/initialize",
      "host->app result",
      "app->host ui/notifications/initialized",
      "host->app ui/notifications/tool-input",
    ];
    check("bridge messages in order", methods.filter((m) => !m.includes("size-changed")).slice(0, 4), expectedStart);
    check("widget reported its size", methods.includes("app->host ui/notifications/size-changed"), true);
    check("screenshot is not blank", statSync(join(outDir, `gift-cards-${mode}.png`)).size > 10000, true);
    await page.close();
  } finally {
    await client.close().catch(() => {});
    server.removeAllListeners("exit");
    server.kill();
  }
}

// `gift-server apps preview`: the developer's page renders the widget with a sample result
// from the command line, and the widget's button reaches the server through the page.
async function preview(browser) {
  label = "[apps preview]";
  const child = spawn(binary, ["apps", "preview", "127.0.0.1:0", "suggest_gifts", '{"occasion":"wedding","budget":100}'], {
    env: { ...process.env, MCP_LOG_MESSAGES: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => { log += chunk; });
  try {
    let url = null;
    for (let i = 0; i < 100 && !url; i += 1) {
      url = /previewing MCP Apps at (http:\/\/\S+\/) /.exec(log)?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 100));
    }
    check("announces its URL", typeof url, "string");
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    page.on("pageerror", (e) => console.log(`${label} page error: ${e.message}`));
    await page.goto(url);
    const frame = page.frameLocator("#app iframe");
    const cards = frame.locator(".card");
    await cards.first().waitFor({ timeout: 10000 });
    const names = await cards.evaluateAll((els) => els.map((el) => el.querySelector(".name").textContent));
    check("renders the sample result (wedding, $100)", names, ["Cast-iron skillet", "Linen throw blanket", "Instant camera", "Framed city map"]);
    check("sample arguments shown", JSON.parse(await page.locator("#args").inputValue()), { occasion: "wedding", budget: 100 });
    await cards.first().getByRole("button", { name: "More ideas like this" }).click();
    await frame.locator("#title").filter({ hasText: "More like" }).waitFor({ timeout: 10000 });
    check("the widget's call reached the server", log.includes('"name":"more_like_this"'), true);
    await page.screenshot({ path: join(outDir, "apps-preview.png"), fullPage: true });
    await page.close();
  } finally {
    child.kill();
  }
}

const started = Date.now();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  for (const mode of ["mcp-apps", "openai", "preview"]) {
    try {
      if (mode === "preview") await preview(browser);
      else await run(browser, mode);
    } catch (err) {
      failed += 1;
      console.log(`FAIL ${label} ${err && err.stack ? err.stack : err}`);
    }
  }
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${outDir})`);
process.exit(failed === 0 ? 0 : 1);
