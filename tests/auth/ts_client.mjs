// The official TypeScript SDK client (pinned in package.json) against a protected server, with
// the SDK's own OAuth client-credentials provider: it meets the 401, reads our protected
// resource metadata, discovers the authorization server (oauth2-mock-server) from it, gets a
// token for our resource and calls tools. A second run's client is granted `notes:read` only:
// writing gets 403 insufficient_scope naming `notes:write`; the SDK's step-up path runs (it asks
// for a new token and retries once) but its client-credentials provider requests its configured
// scope again, not the challenged one, so the retry is refused too and the call fails with 403.
//
// Usage: node ts_client.mjs MCP_URL ISSUER
// Prints one line per check and `N passed, M failed`; exits 1 if any check failed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";

const [url, issuer] = process.argv.slice(2);
let passed = 0;
let failed = 0;
function check(name, actual, expected) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a === e) {
    passed += 1;
    console.log(`ok   ${name}`);
  } else {
    failed += 1;
    console.log(`FAIL ${name}\n     expected: ${e}\n     actual:   ${a}`);
  }
}

/// A fetch that records every status and challenge the MCP endpoint answers.
function recording(seen) {
  return async (input, init) => {
    const r = await fetch(input, init);
    if (String(input).startsWith(url)) {
      seen.push([r.status, r.headers.get("www-authenticate")]);
    }
    return r;
  };
}

async function connect(provider, seen) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    authProvider: provider,
    fetch: recording(seen),
  });
  const client = new Client({ name: "ts-auth", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const text = (result) => result.content[0].text;

// Run 1: discovery from the 401, a token, a call.
{
  const seen = [];
  const provider = new ClientCredentialsProvider({
    clientId: "ts-app",
    clientSecret: "s3cret",
    scope: "notes:read notes:write",
    expectedIssuer: issuer,
  });
  const client = await connect(provider, seen);
  check("run 1: first answer is 401 naming our metadata", seen[0], [
    401,
    `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`,
  ]);
  const token = provider.tokens();
  check("run 1: a bearer token from the authorization server", token?.token_type, "Bearer");
  const claims = JSON.parse(Buffer.from(token.access_token.split(".")[1], "base64url"));
  check("run 1: the token's audience is our resource", claims.aud, url);
  check("run 1: the token's issuer", claims.iss, issuer);
  check("run 1: add_note", text(await client.callTool({ name: "add_note", arguments: { text: "milk" } })), "ts-app has 1 note(s)");
  check("run 1: list_notes", text(await client.callTool({ name: "list_notes", arguments: {} })), "milk");
  await client.close();
}

// Run 2: granted `notes:read` only; writing gets 403 insufficient_scope, step-up runs.
{
  let tokenRequests = 0;
  const seen = [];
  const provider = new ClientCredentialsProvider({
    clientId: "ts-reader",
    clientSecret: "s3cret",
    scope: "notes:read",
    expectedIssuer: issuer,
  });
  const save = provider.saveTokens.bind(provider);
  provider.saveTokens = (t) => {
    tokenRequests += 1;
    save(t);
  };
  const client = await connect(provider, seen);
  check("run 2: reading with notes:read", text(await client.callTool({ name: "whoami", arguments: {} })), "ts-reader (scopes: notes:read)");
  let error;
  try {
    await client.callTool({ name: "add_note", arguments: { text: "eggs" } });
  } catch (e) {
    error = e;
  }
  const challenge = `Bearer error="insufficient_scope", scope="notes:write", resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", error_description="this request needs the scopes: notes:write"`;
  check("run 2: 403 insufficient_scope naming notes:write", seen.filter(([s]) => s === 403), [[403, challenge], [403, challenge]]);
  check("run 2: the SDK stepped up once (a second token request) before giving up", tokenRequests, 2);
  check("run 2: the call fails with 403", error?.code, 403);
  check("run 2: nothing was written", text(await client.callTool({ name: "list_notes", arguments: {} })), "");
  await client.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
