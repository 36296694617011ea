// End-to-end test of the tether MCP server with an independent client: the official TypeScript
// MCP SDK talks to the Java server (dev.tether.mcp.TestServerMain) over its stdio.
//
// Run by NodeEndToEndTest during `./mvnw verify`, which passes the Java command in TETHER_JAVA and
// the test classpath in TETHER_CLASSPATH. Exits 0 on success, 1 with a message on failure.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const java = process.env.TETHER_JAVA;
const classpath = process.env.TETHER_CLASSPATH;
if (!java || !classpath) {
  console.error("set TETHER_JAVA and TETHER_CLASSPATH (NodeEndToEndTest does)");
  process.exit(2);
}

// 1x1 PNG and 1x1 GIF: real files, so the server's signature check passes.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const GIF = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";
const INSTANCE = "agent1";
const SESSION = "node-e2e";

const transport = new StdioClientTransport({
  command: java,
  args: ["-Xmx512m", "-cp", classpath, "dev.tether.mcp.TestServerMain"],
  stderr: "pipe",
});
const stderr = [];
transport.stderr?.on("data", (chunk) => stderr.push(chunk.toString()));
const client = new Client({ name: "tether-e2e", version: "1.0.0" });

function json(result) {
  assert.equal(result.content[0].type, "text");
  return JSON.parse(result.content[0].text);
}

// Checks every _mcp_index stub of a tether_read result against its image item and returns the
// images per frame as [{mimeType, data}, ...].
function imagesByFrame(result) {
  const body = json(result);
  const images = result.content.slice(1);
  images.forEach((item) => assert.equal(item.type, "image", "items after the text are image content"));
  let next = 0;
  const perFrame = body.frames.map((frame) =>
    (frame.payload.images ?? []).map((stub) => {
      assert.deepEqual(Object.keys(stub), ["_mcp_index"], "an image in the JSON is only a stub");
      assert.equal(stub._mcp_index, next, "stubs count image items in frame order");
      next++;
      const item = images[stub._mcp_index];
      assert.ok(item, `stub ${stub._mcp_index} points at an image item`);
      return { mimeType: item.mimeType, data: item.data };
    }));
  assert.equal(next, images.length, "every image item has exactly one stub");
  return { body, perFrame };
}

async function call(name, args) {
  return client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
}

async function main() {
  await client.connect(transport);

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  assert.ok(names.includes("tether_send") && names.includes("tether_read"), `tools: ${names}`);
  const send = tools.find((t) => t.name === "tether_send");
  assert.deepEqual(send.inputSchema.required, ["instance", "text"]);
  assert.ok(send.inputSchema.properties.images, "tether_send takes images");

  const A = { media_type: "image/png", data: PNG };
  const B = { media_type: "image/gif", data: GIF };
  const sent = await call("tether_send", { instance: INSTANCE, session_id: SESSION, text: "what is in these?", images: [A, B] });
  assert.ok(!sent.isError, JSON.stringify(sent));
  const receipt = json(sent);
  assert.equal(receipt.session_id, SESSION);
  assert.ok(receipt.msg_id.startsWith("host-"), receipt.msg_id);
  assert.ok(Number.isInteger(receipt.ingress_seq) && receipt.ingress_seq > 0);

  // The cursor loop: long-poll until both answers are in.
  const done = [];
  let cursor = receipt.ingress_seq;
  for (let polls = 0; done.length < 2; polls++) {
    assert.ok(polls < 20, "answers did not arrive");
    const result = await call("tether_read", {
      instance: INSTANCE, session_id: SESSION, after_seq: cursor, wait_ms: 10000,
      types: ["assistant.done"], reply_to_msg_id: receipt.msg_id,
    });
    assert.ok(!result.isError, JSON.stringify(result));
    const { body } = imagesByFrame(result);
    done.push(...body.frames);
    assert.ok(body.next_seq >= cursor);
    cursor = body.next_seq;
  }

  // Both assistant.done frames in one poll: stubs correlate across frames.
  const both = await call("tether_read", {
    instance: INSTANCE, session_id: SESSION, after_seq: receipt.ingress_seq, types: ["assistant.done"],
  });
  const { body, perFrame } = imagesByFrame(both);
  assert.equal(body.frames.length, 2);
  assert.equal(body.timed_out, false);
  body.frames.forEach((f) => assert.equal(f.msg_id, receipt.msg_id));
  const asItem = (img) => ({ mimeType: img.media_type, data: img.data });
  assert.deepEqual(perFrame[0], [asItem(A), asItem(B)], "first answer echoes the images in order");
  assert.deepEqual(perFrame[1], [asItem(B), asItem(A)], "second answer has them reversed");
  assert.deepEqual(body.frames[0].payload.images, [{ _mcp_index: 0 }, { _mcp_index: 1 }]);
  assert.deepEqual(body.frames[1].payload.images, [{ _mcp_index: 2 }, { _mcp_index: 3 }]);

  // A bad call is a coded tool error, and the server keeps serving.
  const tooMany = await call("tether_send", { instance: INSTANCE, text: "x", images: [A, A, A, A, A] });
  assert.equal(tooMany.isError, true);
  assert.equal(json(tooMany).error.code, "TOO_MANY_IMAGES");
  const after = await call("tether_read", { instance: INSTANCE, session_id: "empty" });
  assert.equal(after.isError, false);
  assert.deepEqual(json(after).frames, []);

  await client.close();
  console.log("tether MCP e2e: OK (tools listed, image sent, 2 answers long-polled, 4 image items correlated)");
}

main().catch(async (e) => {
  console.error("tether MCP e2e FAILED:", e);
  console.error("server stderr:\n" + stderr.join(""));
  try { await client.close(); } catch { /* already closed */ }
  process.exit(1);
});
