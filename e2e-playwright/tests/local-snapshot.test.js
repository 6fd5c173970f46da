// Local mode's memory snapshot (docs/local-runtime-protocol.md, "Memory snapshots"): the first
// visit takes one before any cell and the app keeps it in IndexedDB; later visits boot from it.
// A corrupted or stale one is dropped and Python starts normally; nothing a cell did is in it;
// two sessions from one snapshot draw different random numbers; it never leaves the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, BASE_URL, localReady } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ORIGIN = new URL(BASE_URL).origin;

/** A fresh browser profile that opens the app in local mode; each page records how its runtime booted. */
async function localContext() {
  const context = await browser.newContext();
  const requests = [];
  context.on('request', (r) => requests.push({ method: r.method(), url: r.url(), body: r.postData() || '' }));
  await context.addInitScript(() => {
    if (window.top !== window) {
      return;
    }
    try {
      if (!localStorage.getItem('codeinterp.mode')) localStorage.setItem('codeinterp.mode', 'local');
    } catch { /* no storage */ }
    window.testBoots = [];
    window.addEventListener('message', (e) => {
      if (e.data && e.data.type === 'ready') window.testBoots.push({ boot: e.data.boot, timings: e.data.timings });
    });
  });
  return { context, requests };
}

/**
 * Opens the app in `context`, waits for local mode; resolves to {page, boot}: 'snapshot' (from the
 * one the app kept), 'new-snapshot' (from one this visit took) or 'fresh'.
 */
async function visit(context) {
  const page = await context.newPage();
  await page.goto(BASE_URL + '/');
  await localReady(page);
  const boot = await page.evaluate(() => window.testBoots[0]?.boot);
  return { page, boot };
}

/** Runs `code` in `page` and resolves to its stdout, or its error's text. */
async function cell(page, code) {
  const turn = await runCell(page, code);
  await finished(turn);
  if (await outputs(turn, 'error').count()) {
    return await outputs(turn, 'error').innerText();
  }
  return (await outputs(turn, 'stream').innerText()).trim();
}

/**
 * The page's view of the app's snapshot store: `op` 'list' resolves to [{key, size, magic}];
 * 'edit' applies `arg` ({key, newKey, zero: [from, to], build: true}) to the record under `key`.
 */
function store(page, op, arg = null) {
  return page.evaluate(([op, arg]) => new Promise((resolve, reject) => {
    const r = indexedDB.open('codeinterp-snapshots', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('snapshots');
    r.onerror = () => reject(r.error);
    r.onsuccess = () => {
      const db = r.result;
      const tx = db.transaction('snapshots', op === 'list' ? 'readonly' : 'readwrite');
      const snapshots = tx.objectStore('snapshots');
      const out = [];
      const cursor = snapshots.openCursor();
      cursor.onsuccess = () => {
        const c = cursor.result;
        if (!c) return;
        const bytes = new Uint8Array(c.value.bytes);
        if (op === 'list') {
          out.push({ key: c.key, size: bytes.length, magic: new Uint32Array(c.value.bytes, 0, 1)[0] });
        } else if (op === 'search') {
          const needle = new TextEncoder().encode(arg);
          let found = false;
          for (let i = bytes.indexOf(needle[0]); i >= 0 && !found; i = bytes.indexOf(needle[0], i + 1)) {
            found = needle.every((b, j) => bytes[i + j] === b);
          }
          out.push(found);
        } else if (op === 'edit' && c.key === arg.key) {
          if (arg.zero) bytes.fill(0, arg.zero[0], arg.zero[1]);
          if (arg.build) bytes.fill(0x5a, 16, 48); // another Pyodide build's id
          if (arg.newKey) {
            c.delete();
            snapshots.put({ bytes: bytes.buffer, stored: Date.now() }, arg.newKey);
          } else {
            c.update({ bytes: bytes.buffer, stored: Date.now() });
          }
        }
        c.continue();
      };
      tx.oncomplete = () => { db.close(); resolve(out); };
      tx.onerror = () => reject(tx.error);
    };
  }), [op, arg]);
}

/** Waits until the store holds one valid snapshot (under a key other than `not`); resolves to its record. */
async function storedSnapshot(page, not = null) {
  const until = Date.now() + 60000;
  for (;;) {
    const records = await store(page, 'list');
    if (records.length === 1 && records[0].key !== not && records[0].magic === 0x706e7300) {
      return records[0];
    }
    assert.ok(Date.now() < until, `no snapshot stored: ${JSON.stringify(records)}`);
    await page.waitForTimeout(200);
  }
}

test('the first visit keeps a snapshot taken before any cell; the next boots from it without that visit\'s data, and nothing leaves the browser', async () => {
  const { context, requests } = await localContext();
  try {
    const first = await visit(context);
    assert.equal(first.boot, 'new-snapshot');
    const record = await storedSnapshot(first.page);
    assert.match(record.key, /^\d+\.\d+\.\d+\/[0-9a-f]{16}$/, 'keyed by Pyodide version and runtime hash');
    assert.ok(record.size > 1 << 20, `snapshot of ${record.size} bytes`);
    assert.equal(await cell(first.page, "secret_value = 'user-data-' + 'f00d' * 2\nprint(secret_value)"), 'user-data-f00df00d');
    // cells never run in the worker that took it (Pyodide's recording proxies break some JavaScript objects there)
    assert.equal(await cell(first.page, 'import js\nprint(js.self.origin)'), 'null');
    await first.page.close();

    requests.length = 0;
    const second = await visit(context);
    assert.equal(second.boot, 'snapshot');
    assert.match(await cell(second.page, 'secret_value'), /NameError: name 'secret_value' is not defined/);
    assert.equal(await cell(second.page, "import os\nprint(6 * 7, os.getcwd(), sorted(os.listdir('.')))"), "42 /workspace []");
    assert.deepEqual(await store(second.page, 'search', 'user-data-f00df00d'), [false], 'no user data in the snapshot');
    // an import the snapshot did not hold: the runner's files are back in the file system
    assert.equal(await cell(second.page, 'from IPython.display import display, Markdown\nprint(Markdown)'),
      "<class 'IPython.display.Markdown'>");

    assert.ok(requests.length > 0);
    for (const r of requests) {
      const where = `${r.method} ${r.url}`;
      if (r.url.startsWith('blob:') || r.url.startsWith('data:')) {
        continue;
      }
      assert.equal(r.method, 'GET', where);
      assert.equal(r.body, '', where);
      assert.equal(new URL(r.url).origin, ORIGIN, where);
      assert.doesNotMatch(new URL(r.url).pathname, /^\/api\//, where);
    }
    await second.page.close();
  } finally {
    await context.close();
  }
});

test('two sessions booted from one snapshot draw different random numbers', async () => {
  const { context } = await localContext();
  try {
    const first = await visit(context);
    await storedSnapshot(first.page);
    await first.page.close();
    const draws = [];
    for (let i = 0; i < 2; i++) {
      const { page, boot } = await visit(context);
      assert.equal(boot, 'snapshot');
      draws.push(await cell(page, 'import random, tempfile\nprint(random.random(), random.getrandbits(64), tempfile.mktemp())'));
      await page.close();
    }
    assert.notEqual(draws[0], draws[1]);
  } finally {
    await context.close();
  }
});

test('a corrupted snapshot and a stale one are dropped: Python starts normally and keeps a fresh one', async () => {
  const { context } = await localContext();
  try {
    let { page } = await visit(context);
    const { key } = await storedSnapshot(page);
    await page.close();

    // corrupted: its header is gone
    ({ page } = await visit(context));
    await store(page, 'edit', { key, zero: [0, 64] });
    await page.close();
    let next = await visit(context);
    assert.equal(next.boot, 'new-snapshot');
    assert.equal(await cell(next.page, 'print(1 + 1)'), '2');
    await storedSnapshot(next.page);
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'snapshot', 'the fresh snapshot replaced the corrupted one');

    // stale: made by another Pyodide build (Pyodide checks its build id)
    await store(next.page, 'edit', { key, build: true });
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'new-snapshot');
    assert.equal(await cell(next.page, 'print(2 + 2)'), '4');
    await storedSnapshot(next.page);

    // stale: kept for an older runtime: never offered, and replaced by this build's
    const old = key.replace(/[0-9a-f]{16}$/, '0123456789abcdef');
    await store(next.page, 'edit', { key, newKey: old });
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'new-snapshot');
    assert.deepEqual((await storedSnapshot(next.page, old)).key, key);
    await next.page.close();
  } finally {
    await context.close();
  }
});
