// The MCP endpoint as an agent's MCP client sees it: the official TypeScript SDK's Streamable HTTP
// client against a server of the test's own that requires API keys. With the key it lists the
// tools, runs one-shot and stateful code, gets a chart back as an image, moves a file both ways
// and closes; without a key, or with a wrong one, it is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer } from '../server.js';

const KEY = randomBytes(24).toString('hex');
let server;
let keysDir;

before(async () => {
  keysDir = mkdtempSync(join(tmpdir(), 'codeinterp-keys-'));
  const keysFile = join(keysDir, 'keys');
  writeFileSync(keysFile, `agent ${createHash('sha256').update(KEY).digest('hex')}\n`);
  server = await startServer({ CODEINTERP_API_KEYS: keysFile });
});

after(async () => {
  await server?.stop();
  rmSync(keysDir, { recursive: true, force: true });
});

/** A connected MCP client; the headers are what an MCP client's config file gives it. */
async function connect(key) {
  const headers = key === undefined ? {} : { Authorization: `Bearer ${key}` };
  const transport = new StreamableHTTPClientTransport(new URL(server.url + '/mcp'), { requestInit: { headers } });
  const client = new Client({ name: 'codeinterp-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const texts = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

test('an MCP client lists the tools, runs code one-shot and in a session, gets a chart and a file back, and closes', async () => {
  const { client, transport } = await connect(KEY);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['close_session', 'create_session', 'fork_session', 'interrupt', 'list_files', 'read_file', 'restart',
      'run_code', 'upload_file']);
    const runCode = tools.find((t) => t.name === 'run_code');
    assert.ok(runCode.inputSchema.properties.code, 'run_code takes code');
    assert.match(runCode.description, /Python/);

    const once = await client.callTool({ name: 'run_code', arguments: { code: 'print(6*7)' } }, undefined, { timeout: 120000 });
    assert.ok(!once.isError, texts(once));
    assert.equal(texts(once).trim(), '42');
    assert.equal(once.structuredContent.stdout, '42\n');
    assert.equal(once.structuredContent.status, 'ok');

    const made = await client.callTool({ name: 'create_session', arguments: {} }, undefined, { timeout: 120000 });
    const sessionId = made.structuredContent.session_id;
    assert.match(sessionId, /\S/);

    const first = await client.callTool({ name: 'run_code', arguments: { session_id: sessionId, code: 'x = 6*7' } });
    assert.ok(!first.isError, texts(first));
    const progress = [];
    const second = await client.callTool({ name: 'run_code', arguments: { session_id: sessionId, code: 'print(x)' } },
      undefined, { onprogress: (p) => progress.push(p) });
    assert.equal(texts(second).trim(), '42');
    assert.ok(progress.length > 0, 'progress notifications arrived while the cell ran');

    const chart = await client.callTool({
      name: 'run_code',
      arguments: {
        session_id: sessionId,
        code: "import matplotlib.pyplot as plt\nplt.bar(['a', 'b', 'c'], [10, 20, 30])\nplt.show()",
      },
    }, undefined, { timeout: 120000 });
    const image = chart.content.find((c) => c.type === 'image');
    assert.ok(image, 'the chart comes back as image content: ' + JSON.stringify(chart.content.map((c) => c.type)));
    assert.equal(image.mimeType, 'image/png');
    assert.equal(Buffer.from(image.data, 'base64').subarray(1, 4).toString('latin1'), 'PNG');

    const csv = 'name,score\nada,3\n';
    const uploaded = await client.callTool({
      name: 'upload_file',
      arguments: { session_id: sessionId, name: 'scores.csv', content_base64: Buffer.from(csv).toString('base64') },
    });
    assert.ok(!uploaded.isError, texts(uploaded));
    const listed = await client.callTool({ name: 'list_files', arguments: { session_id: sessionId } });
    assert.match(texts(listed), /scores\.csv/);
    const used = await client.callTool({
      name: 'run_code',
      arguments: { session_id: sessionId, code: "print(open('scores.csv').read().splitlines()[1])" },
    });
    assert.equal(texts(used).trim(), 'ada,3');
    const read = await client.callTool({ name: 'read_file', arguments: { session_id: sessionId, name: 'scores.csv' } });
    assert.equal(texts(read), csv);

    const closed = await client.callTool({ name: 'close_session', arguments: { session_id: sessionId } });
    assert.ok(!closed.isError, texts(closed));
    const after = await client.callTool({ name: 'run_code', arguments: { session_id: sessionId, code: 'print(x)' } });
    assert.ok(after.isError, 'a closed session is gone');
    assert.match(texts(after), /no such session/);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
});

test('an MCP client without the key, or with a wrong one, is refused', async () => {
  for (const key of [undefined, 'not-' + KEY]) {
    await assert.rejects(connect(key), (e) => {
      assert.match(String(e), /401|Unauthorized|API key/i);
      return true;
    }, `key ${key === undefined ? 'missing' : 'wrong'}`);
  }
});
