// A real authorization server for the authorization tests: oauth2-mock-server (pinned in
// package.json) on a free loopback port, with one RS256 signing key. It prints one JSON line
// {"issuer": "http://127.0.0.1:PORT"} on stdout once it serves, and stops when stdin closes
// (the test that spawned it has ended).
//
// Token requests (POST /token, any grant) shape the access token:
//   - `resource` (RFC 8707, as the MCP SDK clients send it) becomes `aud`;
//   - `sub` is the client (Basic credentials or `client_id`), and `client_id` too;
//   - its header's `typ` is `at+jwt`, as RFC 9068 has access tokens typed (oauth2-mock-server
//     itself types them `JWT`);
//   - test-only form fields: `x_sub` (the subject), `x_aud` (another audience), `x_iss`
//     (another issuer), `x_exp` and `x_nbf` (seconds from now), `x_typ` (another `typ`; `none`
//     for none), `x_no_sub` (neither `sub` nor `client_id`).
// POST /introspect-jwt is an RFC 7662 endpoint for this server's own tokens: it checks the
// signature, issuer and lifetime and answers the claims with `active`.
import { OAuth2Server } from "oauth2-mock-server";
import { createLocalJWKSet, jwtVerify } from "jose";

const server = new OAuth2Server();
// MOCK_AS_KID: the key id to sign under (a twin of another server's key id, for a test).
const kid = process.env.MOCK_AS_KID;
await server.issuer.keys.generate("RS256", kid === undefined ? undefined : { kid });

function client(req) {
  const basic = req.headers.authorization ?? "";
  if (basic.startsWith("Basic ")) {
    const [id] = Buffer.from(basic.slice(6), "base64").toString("utf8").split(":");
    return decodeURIComponent(id);
  }
  return req.body?.client_id;
}

server.service.on("beforeTokenSigning", (token, req) => {
  const body = req.body ?? {};
  const now = Math.floor(Date.now() / 1000);
  const id = client(req) ?? "anonymous";
  if (token.payload.sub === undefined) token.payload.sub = id;
  token.payload.client_id = id;
  if (body.resource !== undefined) token.payload.aud = body.resource;
  if (body.x_sub !== undefined) token.payload.sub = body.x_sub;
  if (body.x_aud !== undefined) token.payload.aud = body.x_aud;
  if (body.x_iss !== undefined) token.payload.iss = body.x_iss;
  if (body.x_exp !== undefined) token.payload.exp = now + Number(body.x_exp);
  if (body.x_nbf !== undefined) token.payload.nbf = now + Number(body.x_nbf);
  token.header.typ = body.x_typ === undefined ? "at+jwt" : body.x_typ;
  if (body.x_typ === "none") token.header.typ = undefined;
  if (body.x_no_sub !== undefined) {
    delete token.payload.sub;
    delete token.payload.client_id;
  }
});

server.service.on("beforeResponse", (response, req) => {
  // Echo the granted scope as RFC 6749 §5.1 does.
  if (req.body?.scope !== undefined) response.body.scope = req.body.scope;
});

server.service.addRoute("POST", "/introspect-jwt", async (req, res) => {
  const keys = createLocalJWKSet({ keys: server.issuer.keys.toJSON() });
  let body = { active: false };
  try {
    const { payload } = await jwtVerify(String(req.body?.token ?? ""), keys, {
      issuer: server.issuer.url,
    });
    body = { active: true, ...payload };
  } catch {
    // inactive
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
});

await server.start(0, "127.0.0.1");
server.issuer.url = `http://127.0.0.1:${server.address().port}`;
process.stdout.write(`${JSON.stringify({ issuer: server.issuer.url })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await server.stop();
  process.exit(0);
});
process.stdin.on("close", () => process.exit(0));
