// mcp-oauth-client.mjs: the official TypeScript MCP SDK's client as an app
// that connects to a Daawid owner's entries with OAuth (issue 19).
//
//   node mcp-oauth-client.mjs MCP_URL CLIENT_METADATA_URL CALLS_JSON
//
// CALLS_JSON is a list of tool calls, [{"name": "...", "arguments": {...}}],
// made in order on one client. The app names itself by CLIENT_METADATA_URL
// (a Client ID Metadata Document, which the caller serves with what this
// script prints on its client_metadata line). A call that meets the 401 of
// an owner tool runs the SDK's OAuth (auth() through the transport's
// OAuthClientProvider): discovery of the protected-resource and
// authorization-server metadata, then authorization code + PKCE, whose
// authorization URL the script prints for the caller to open in a browser;
// the browser comes back to this script's loopback redirect URI, and the
// SDK trades the code for tokens and the call is made again.
//
// Prints one line each, in this order (JSON after the keyword):
//   redirect_uri URL          the loopback redirect URI it listens on
//   client_metadata JSON      its Client ID Metadata Document
//   unauthorized NAME         a call met the 401 and the sign-in starts
//   authorize URL             the authorization URL to open
//   callback JSON             what came back: {"iss": ..., "stateOk": ...}
//   tokens JSON               the token response the SDK kept
//   result NAME JSON          each call's {"isError", "structuredContent", "text"}
//   done N                    N calls made
// Exits 1 on any error (a call's isError included), 2 on a usage error.
import http from "node:http";
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [mcpURL, clientMetadataURL, callsJSON] = process.argv.slice(2);
if (!mcpURL || !clientMetadataURL || !callsJSON) {
  console.error("usage: node mcp-oauth-client.mjs MCP_URL CLIENT_METADATA_URL CALLS_JSON");
  process.exit(2);
}
const tools = process.env.DAAWID_CI_TOOLS || path.dirname(fileURLToPath(import.meta.url));
const sdk = `${tools}/node_modules/@modelcontextprotocol/sdk/dist/esm`;
const { Client } = await import(`${sdk}/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${sdk}/client/streamableHttp.js`);
const { UnauthorizedError } = await import(`${sdk}/client/auth.js`);

const out = (kind, value) => console.log(`${kind} ${typeof value === "string" ? value : JSON.stringify(value)}`);
const deadline = setTimeout(() => {
  console.error("mcp-oauth-client: timed out after 120 s");
  process.exit(1);
}, 120_000);

// The loopback redirect URI (RFC 8252 §7.3): the browser lands here with
// the code, state and iss of the authorization response.
let onCallback;
const callback = new Promise((resolve) => (onCallback = resolve));
const server = http.createServer((req, res) => {
  const u = new URL(req.url, "http://127.0.0.1");
  if (u.pathname !== "/callback") {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back in the app</title></head>` +
    `<body><h1 id="back">${u.searchParams.get("error") ? "Not connected" : "Connected"}</h1></body></html>`);
  onCallback(u.searchParams);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const redirectURI = `http://127.0.0.1:${server.address().port}/callback`;
out("redirect_uri", redirectURI);

const clientMetadata = {
  client_id: clientMetadataURL,
  client_name: "SDK Test App",
  client_uri: "https://app.example/",
  redirect_uris: [redirectURI],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
};
out("client_metadata", clientMetadata);

// The provider keeps everything in memory, as a command-line app would
// for one run; state is checked when the browser comes back.
const state = crypto.randomBytes(16).toString("base64url");
const kept = {};
const provider = {
  get redirectUrl() { return redirectURI; },
  clientMetadataUrl: clientMetadataURL,
  get clientMetadata() { return clientMetadata; },
  state: () => state,
  clientInformation: () => kept.client,
  saveClientInformation: (c) => { kept.client = c; },
  tokens: () => kept.tokens,
  saveTokens: (t) => { kept.tokens = t; },
  redirectToAuthorization: (u) => out("authorize", u.toString()),
  saveCodeVerifier: (v) => { kept.verifier = v; },
  codeVerifier: () => kept.verifier,
  saveDiscoveryState: (s) => { kept.discovery = s; },
  discoveryState: () => kept.discovery,
};

const transport = new StreamableHTTPClientTransport(new URL(mcpURL), { authProvider: provider });
const client = new Client({ name: "daawid-oauth-check", version: "1.0.0" });
let failed = 0;
try {
  await client.connect(transport);
  // After listTools the SDK checks every structuredContent against the
  // tool's outputSchema.
  await client.listTools();
  const calls = JSON.parse(callsJSON);
  let signedIn = false;
  for (const call of calls) {
    let res;
    try {
      res = await client.callTool(call);
    } catch (e) {
      if (!(e instanceof UnauthorizedError) || signedIn) throw e;
      out("unauthorized", call.name);
      const params = await callback;
      const iss = params.get("iss");
      const issuer = kept.discovery?.authorizationServerMetadata?.issuer;
      out("callback", { iss, issuerOk: iss === issuer, stateOk: params.get("state") === state, error: params.get("error") });
      // RFC 9207: the response must come from the authorization server
      // the app asked (MCP-15).
      if (iss !== issuer) throw new Error(`iss ${iss} is not the issuer ${issuer}`);
      if (params.get("state") !== state) throw new Error("state does not match");
      if (params.get("error")) throw new Error(`authorization refused: ${params.get("error")}`);
      await transport.finishAuth(params.get("code"));
      signedIn = true;
      out("tokens", kept.tokens);
      res = await client.callTool(call);
    }
    const text = (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
    out(`result ${call.name}`, { isError: !!res.isError, structuredContent: res.structuredContent, text });
    if (res.isError) failed++;
  }
  out("done", String(calls.length));
} catch (e) {
  console.error(`mcp-oauth-client: ${e?.stack || e}`);
  failed++;
} finally {
  clearTimeout(deadline);
  await client.close().catch(() => {});
  server.close();
}
process.exit(failed ? 1 : 0);
