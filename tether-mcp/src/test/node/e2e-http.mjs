// End-to-end test of tether's MCP over Streamable HTTP with an independent client: the official
// TypeScript MCP SDK's StreamableHTTPClientTransport against `tether serve --mcp` or
// `tether mcp --http` (run by the tether-cli test McpHttpServeTest, which starts them).
//
// Environment: TETHER_MCP_URL (http://127.0.0.1:PORT/mcp), TETHER_MCP_TOKEN (its bearer token),
// TETHER_MCP_INSTANCE (an instance the demo agent answers), and optionally
// TETHER_MCP_SCOPED_TOKEN (an instance token of another instance, which must be refused on
// TETHER_MCP_INSTANCE). Exits 0 on success, 1 with a message on failure.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.env.TETHER_MCP_URL;
const token = process.env.TETHER_MCP_TOKEN;
const instance = process.env.TETHER_MCP_INSTANCE ?? "default";
const scoped = process.env.TETHER_MCP_SCOPED_TOKEN;
if (!url || !token) {
  console.error("set TETHER_MCP_URL and TETHER_MCP_TOKEN (McpHttpServeTest does)");
  process.exit(2);
}

async function connect(bearer) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  const client = new Client({ name: "tether-http-e2e", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function json(result) {
  assert.equal(result.content[0].type, "text");
  return JSON.parse(result.content[0].text);
}

async function main() {
  const client = await connect(token);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  assert.ok(names.includes("tether_send") && names.includes("tether_read"), `tools: ${names}`);

  const session = `node-http-${Date.now()}`;
  const sent = await client.callTool({ name: "tether_send", arguments: { instance, session_id: session, text: "hello from node" } });
  assert.ok(!sent.isError, JSON.stringify(sent));
  const receipt = json(sent);
  const read = await client.callTool({ name: "tether_read", arguments: {
    instance, session_id: session, after_seq: receipt.ingress_seq, wait_ms: 20000,
    types: ["assistant.done"], reply_to_msg_id: receipt.msg_id,
  } }, undefined, { timeout: 60_000 });
  assert.ok(!read.isError, JSON.stringify(read));
  const body = json(read);
  assert.equal(body.frames.length, 1, JSON.stringify(body));
  assert.match(body.frames[0].payload.text, /You said: hello from node/);
  // tether_send_stream: presence and deltas as progress notifications, in order, before the result.
  if (names.includes("tether_send_stream")) {
    const events = [];
    let resultSeen = false;
    const streamed = await client.callTool({ name: "tether_send_stream", arguments: {
      instance, session_id: `${session}-stream`, text: "draw a bar chart of 3 5 2",
    } }, undefined, { timeout: 60_000, onprogress: (p) => {
      assert.ok(!resultSeen, "no notification after the result");
      events.push({ progress: p.progress, ...JSON.parse(p.message) });
    } });
    resultSeen = true;
    assert.ok(!streamed.isError, JSON.stringify(streamed));
    const answer = json(streamed);
    assert.equal(answer.frames[0].type, "assistant.done");
    assert.ok(streamed.content.some((c) => c.type === "image" && c.mimeType === "image/png"), "the chart is an image item");
    assert.ok(events.length >= 2, JSON.stringify(events));
    assert.deepEqual([events[0].type, events[0].state], ["status.presence", "thinking"], JSON.stringify(events));
    events.forEach((e, i) => i === 0 || assert.ok(e.progress > events[i - 1].progress, "progress grows in arrival order"));
    const text = events.filter((e) => e.type === "assistant.delta").map((e) => e.text).join("");
    assert.equal(text, answer.frames[0].payload.text, "the deltas, in arrival order, are the answer");
  }
  // The attachment tools, called as the attachment spec shows them: list_attachments with no arguments.
  if (names.includes("list_attachments")) {
    const listed = await client.callTool({ name: "list_attachments", arguments: {} });
    assert.ok(!listed.isError, JSON.stringify(listed));
    assert.equal(listed.content[0].type, "text");
  }
  await client.close();

  // A wrong token never gets a session.
  await assert.rejects(connect("w".repeat(43)), /401|Unauthorized|UNAUTHORIZED/i, "a wrong token is refused");

  if (scoped) {
    const guest = await connect(scoped);
    const other = await guest.callTool({ name: "tether_send", arguments: { instance, text: "not mine" } });
    assert.equal(other.isError, true, JSON.stringify(other));
    assert.equal(json(other).error.code, "PERMISSION_DENIED");
    await guest.close();
  }
  console.log(`tether MCP HTTP e2e: OK (${url}: tools listed, answer read, answer streamed, attachments listed, wrong token refused${scoped ? ", instance token held to its instance" : ""})`);
}

main().catch((e) => {
  console.error("tether MCP HTTP e2e FAILED:", e);
  process.exit(1);
});
