// Unit tests of local mode's JavaScript modules (web/src/main/resources/public/js) in Chromium:
// the IndexedDB history of local conversations, and the host end of the runtime frame's channel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from '../browser.js';
import { withModulePage, htmlPage, ORIGIN } from '../module-page.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const withPage = (use) => withModulePage(browser, use);

test('a conversation\'s events come back in seq order, apart from other conversations, a rewrite replacing', () => withPage(async ({ page, load }) => {
  await load('/js/history-db.js', 'historyDb');
  const result = await page.evaluate(async () => {
    // success is silent, but IndexedDB runs a read after the writes made before it on the same store
    const failures = [];
    const store = (id, seqs, jsons) => historyDb.storeEvents(id, new Float64Array(seqs), jsons, (e) => failures.push(e));
    const load = (id) => new Promise((resolve) => {
      const events = [];
      historyDb.loadEvents(id, (json) => events.push(json), (error) => resolve({ events, error }));
    });
    store('c1', [2, 10, 1], ['two', 'ten', 'one']);
    store('c2', [1], ['other']);
    store('c1', [2], ['two again']);
    return { c1: await load('c1'), c2: await load('c2'), none: await load('c3'), failures };
  });
  assert.deepEqual(result, {
    failures: [],
    c1: { events: ['one', 'two again', 'ten'], error: null },
    c2: { events: ['other'], error: null },
    none: { events: [], error: null },
  });
}));

test('kept files come back by name until dropped or no longer in the workspace', () => withPage(async ({ page, load }) => {
  await load('/js/history-db.js', 'historyDb');
  const result = await page.evaluate(async () => {
    const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
    const kept = (id) => new Promise((resolve) => {
      const files = [];
      historyDb.loadFiles(id, (name, bytes) => files.push(`${name}:${new TextDecoder().decode(bytes)}`));
      setTimeout(() => resolve(files.sort()), 100);
    });
    const bytes = (text) => new TextEncoder().encode(text).buffer;
    historyDb.keepFile('c1', 'a.txt', bytes('A'));
    historyDb.keepFile('c1', 'b.txt', bytes('B'));
    historyDb.keepFile('c1', 'c.txt', bytes('C'));
    historyDb.keepFile('c2', 'a.txt', bytes('other'));
    await settle();
    const all = await kept('c1');
    historyDb.dropFile('c1', 'b.txt');
    historyDb.retainFiles('c1', ['a.txt', 'b.txt']);
    await settle();
    return { all, after: await kept('c1'), other: await kept('c2') };
  });
  assert.deepEqual(result, { all: ['a.txt:A', 'b.txt:B', 'c.txt:C'], after: ['a.txt:A'], other: ['a.txt:other'] });
}));

test('the database keeps the name and stores that earlier pages of the app created', () => withPage(async ({ page, load }) => {
  await load('/js/history-db.js', 'historyDb');
  await page.evaluate(() => new Promise((resolve) => historyDb.loadEvents('x', () => {}, resolve)));
  const layout = await page.evaluate(() => new Promise((resolve) => {
    const r = indexedDB.open('codeinterp-local');
    r.onsuccess = () => resolve({ version: r.result.version, stores: [...r.result.objectStoreNames] });
  }));
  assert.deepEqual(layout, { version: 2, stores: ['events', 'files'] });
}));

test('only same-origin GETs under /pyodide/ and the hashed runtime are fetched for the frame', () => withPage(async ({ page, load }) => {
  await load('/js/frame-host.js', 'frameHost');
  const wanted = await page.evaluate((origin) => frameHost.wantedAssets([
    `${origin}/pyodide/0.28/pyodide.asm.wasm`, `${origin}/pyodide/x?token=1`, `${origin}/api/v1/sessions`,
    'http://evil.example/pyodide/a', `http://user:pw@${new URL(origin).host}/pyodide/a`, 'not a url', 7,
    `${origin}/local/0123456789abcdef/python-sources.json`, `${origin}/local/wheels/index.json`,
    `${origin}/local/runtime.html`, 'http://evil.example/local/0123456789abcdef/python-sources.json',
  ], origin), ORIGIN);
  assert.deepEqual(wanted, [`${ORIGIN}/pyodide/0.28/pyodide.asm.wasm`, `${ORIGIN}/local/0123456789abcdef/python-sources.json`]);
  assert.deepEqual(await page.evaluate(() => frameHost.wantedAssets('no list', location.origin)), []);
}));

// The frame under test: records what it gets; `speak(message, transfer)` posts to the app.
const FRAME = "window.got = []; addEventListener('message', (e) => got.push(e.data));"
  + "window.speak = (m, t) => parent.postMessage(m, '*', t || []);";

test('the host holds posts until the frame speaks, takes only the frame\'s messages, and moves bytes beside the JSON', () => withPage(async ({ page, load, serve }) => {
  serve('/frame-under-test.html', (route) => route.fulfill(htmlPage(FRAME)));
  await load('/js/frame-host.js', 'frameHost');
  const result = await page.evaluate(() => new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.src = '/frame-under-test.html';
    const received = [];
    const connection = frameHost.connect(frame, (json, bytes) => received.push([json, bytes && bytes.byteLength]));
    document.body.append(frame);
    const early = new Uint8Array([1, 2, 3]).buffer;
    connection.post('{"type":"writeFile","requestId":"f1","name":"a"}', early, true);
    frame.addEventListener('load', async () => {
      const before = frame.contentWindow.got.length;
      window.postMessage({ type: 'ready', python: 'not from the frame' }, '*');
      frame.contentWindow.speak({ type: 'loading', message: 'Starting Python' });
      frame.contentWindow.speak('not an object');
      frame.contentWindow.speak({ type: 'fileContent', requestId: 'f1', name: 'a', mime: 'text/plain', bytes: new ArrayBuffer(5) });
      const kept = new Uint8Array([9]).buffer;
      await new Promise((r) => setTimeout(r, 100));
      connection.post('{"type":"interrupt"}', null, false);
      connection.post('{"type":"writeFile","requestId":"f2","name":"b"}', kept, false);
      await new Promise((r) => setTimeout(r, 100));
      const got = frame.contentWindow.got.map((m) => ({ ...m, bytes: m.bytes ? m.bytes.byteLength : null }));
      connection.close();
      frame.contentWindow.speak({ type: 'reset', reason: 'after close' });
      await new Promise((r) => setTimeout(r, 100));
      resolve({ before, got, received, earlyTransferred: early.byteLength === 0, keptCopied: kept.byteLength === 1 });
    });
  }));
  assert.equal(result.before, 0, 'nothing reached the frame before it spoke');
  assert.deepEqual(result.got, [
    { type: 'writeFile', requestId: 'f1', name: 'a', bytes: 3 },
    { type: 'interrupt', bytes: null },
    { type: 'writeFile', requestId: 'f2', name: 'b', bytes: 1 },
  ]);
  assert.deepEqual(result.received, [
    ['{"type":"loading","message":"Starting Python"}', null],
    ['{"type":"fileContent","requestId":"f1","name":"a","mime":"text/plain"}', 5],
  ]);
  assert.ok(result.earlyTransferred, 'a transferred buffer is handed over');
  assert.ok(result.keptCopied, 'a buffer not transferred stays usable');
}));

test('the host answers fetchAssets itself with the allowed files, as Blobs, and the app never sees it', () => withPage(async ({ page, load, serve }) => {
  serve('/frame-under-test.html', (route) => route.fulfill(htmlPage(FRAME)));
  serve('/pyodide/v/big.wasm', (route) => route.fulfill({ body: Buffer.alloc(1000, 1) }));
  serve('/pyodide/v/missing.zip', (route) => route.fulfill({ status: 404, body: '' }));
  await load('/js/frame-host.js', 'frameHost');
  const result = await page.evaluate(() => new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.src = '/frame-under-test.html';
    const received = [];
    frameHost.connect(frame, (json) => received.push(json));
    document.body.append(frame);
    frame.addEventListener('load', () => {
      const base = location.origin + '/pyodide/v/';
      frame.contentWindow.speak({ type: 'fetchAssets', urls: [base + 'big.wasm', base + 'missing.zip', location.origin + '/api/x'] });
      const wait = setInterval(() => {
        const assets = frame.contentWindow.got.find((m) => m.type === 'assets');
        if (assets) {
          clearInterval(wait);
          resolve({ files: assets.files.map((f) => [f.url.replace(location.origin, ''), String(f.bytes), f.bytes.size]), received });
        }
      }, 20);
    });
  }));
  assert.deepEqual(result, { files: [['/pyodide/v/big.wasm', '[object Blob]', 1000]], received: [] });
}));
