// The TypeScript SDK's client (issue 7): connects to the MCP endpoint,
// lists the tools (after which the SDK validates every structuredContent
// against the tool's outputSchema), and makes each call given as JSON in
// argv[3]: [{"name": "...", "arguments": {...}}]. Prints one line per call;
// exits 1 on any error, validation error or isError.
const [tools, url, callsJSON] = [process.env.DAAWID_CI_TOOLS, process.argv[2], process.argv[3]];
const { Client } = await import(`${tools}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${tools}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);

const client = new Client({ name: "daawid-ts-check", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const { tools: list } = await client.listTools();
console.log(`tools: ${list.map((t) => t.name).join(",")}`);
let failed = 0;
for (const call of JSON.parse(callsJSON)) {
  try {
    const res = await client.callTool(call);
    if (res.isError) throw new Error(`isError: ${JSON.stringify(res.structuredContent)}`);
    if (!res.structuredContent) throw new Error("no structuredContent");
    console.log(`ok ${call.name} ${JSON.stringify(call.arguments)}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${call.name} ${JSON.stringify(call.arguments)}: ${e.message}`);
  }
}
await client.close();
process.exit(failed ? 1 : 0);
