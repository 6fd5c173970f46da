// Publishable embed keys (docs/embed.md): on a server that requires API keys, a host page gives
// its widget a key bound to the page's origin. The widget opens its session with it, keeps it in
// memory only (it never becomes the app's key on this origin), and the same key on a page of
// another origin is refused with a clear reason and opens nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../browser.js';
import { startServer } from '../server.js';

const SHOP_KEY = 'ci_pk_' + randomBytes(24).toString('hex');
const ELSEWHERE_KEY = 'ci_pk_' + randomBytes(24).toString('hex');
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
let browser;
let server;
let host;
let hostOrigin;
let keysDir;

before(async () => {
  host = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>shop</title>
<script src="${server.url}/embed.js"></script></head><body><div id="w" style="width:600px"></div></body></html>`);
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${host.address().port}`;
  keysDir = mkdtempSync(join(tmpdir(), 'codeinterp-embed-keys-'));
  const keysFile = join(keysDir, 'keys');
  writeFileSync(keysFile, `shop ${sha256(SHOP_KEY)} 2 embed=${hostOrigin}\n`
    + `elsewhere ${sha256(ELSEWHERE_KEY)} embed=https://elsewhere.example\n`);
  server = await startServer({ CODEINTERP_API_KEYS: keysFile });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => host?.close(resolve));
  rmSync(keysDir, { recursive: true, force: true });
});

async function openSessions() {
  return (await (await fetch(server.url + '/healthz')).json()).use.sessions;
}

test("a widget with its page's publishable key runs code, and the key never becomes the app's", async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(hostOrigin + '/');
    const result = await page.evaluate(async (key) => {
      const w = await CodeInterp.mount(document.getElementById('w'), { runtime: 'server', key });
      return w.run('6*7');
    }, SHOP_KEY);
    assert.equal(result.status, 'ok');
    assert.equal(result.results[0]['text/plain'], '42');

    // the app on the server's own origin still asks its user for a key: the widget's stayed in the widget
    const app = await context.newPage();
    await app.goto(server.url + '/');
    await app.getByTestId('api-key-form').waitFor();
    assert.equal(await app.evaluate(() => JSON.stringify(Object.entries(localStorage))).then((s) => s.includes(SHOP_KEY)), false);
  } finally {
    await context.close();
  }
});

test("a key bound to another site's pages is refused in the widget with the reason, and no session opens", async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(hostOrigin + '/');
    const before = await openSessions();
    const refusal = await page.evaluate(async (key) => {
      const w = await CodeInterp.mount(document.getElementById('w'), { runtime: 'server', key });
      try {
        await w.run('1');
        return 'ran';
      } catch (e) {
        return e.message;
      }
    }, ELSEWHERE_KEY);
    assert.match(refusal, /this embed key is not for pages of http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(await openSessions(), before);
  } finally {
    await context.close();
  }
});
