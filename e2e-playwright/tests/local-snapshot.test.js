// Over 300 lines: the snapshot's cases share one browser profile whose stored snapshot each builds on.
// Local mode's memory snapshot (docs/local-runtime-protocol.md, "Memory snapshots"): on the first
// visit a background worker takes one once the person's interpreter is ready, and the app keeps it
// in IndexedDB; later visits boot from it. A corrupted, stale or damaged one is dropped and Python
// starts normally; nothing a cell did is in it; two sessions from one snapshot draw different
// random numbers; it never leaves the browser.
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
    window.testSnapshots = []; // the frame's snapshot messages, in order with its `ready`s
    window.addEventListener('message', (e) => {
      if (e.data && e.data.type === 'ready') window.testBoots.push({ boot: e.data.boot, timings: e.data.timings });
      if (e.data && ['ready', 'snapshot', 'snapshotDropped'].includes(e.data.type)) {
        window.testSnapshots.push({ type: e.data.type, reason: e.data.reason });
      }
    });
  });
  return { context, requests };
}

/**
 * Opens the app in `context`, waits for local mode; resolves to {page, boot}: 'snapshot' (from the
 * one the app kept), 'new-snapshot' (from one this visit took, after a restart) or 'fresh'.
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
 * The page's view of the app's snapshot store, read and written with the runtime's own page codec
 * (snapshot-pages.mjs: the store keeps a Blob of the snapshot's non-zero pages): `op` 'list'
 * resolves to [{key, size (kept bytes), magic (Pyodide's, in the expanded snapshot)}]; 'search' to
 * [whether the text `arg` is in the snapshot]; 'edit' applies `arg` ({key, newKey, zero: [from,
 * to], build: true, zeroHeapAfter: bytes, rename: [text, same-length text], truncate: bytes}) to
 * the record under `key`: all but `truncate` to Pyodide's snapshot (its heap starts at the offset in
 * the header's second word), `truncate` cuts that many bytes off the end of what is kept.
 */
function store(page, op, arg = null) {
  return page.evaluate(async ([op, arg]) => {
    const runtimeURL = /"runtimeURL":"([^"]+)"/.exec(await (await fetch('/local/runtime.html')).text())[1];
    const { compact, expand } = await import(runtimeURL + 'snapshot-pages.mjs');
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open('codeinterp-snapshots', 1);
      r.onupgradeneeded = () => r.result.createObjectStore('snapshots');
      r.onerror = () => reject(r.error);
      r.onsuccess = () => resolve(r.result);
    });
    const inStore = (mode, use) => new Promise((resolve, reject) => {
      const tx = db.transaction('snapshots', mode);
      const result = use(tx.objectStore('snapshots'));
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(tx.error);
    });
    const records = await inStore('readonly', (snapshots) => {
      const all = [];
      const cursor = snapshots.openCursor();
      cursor.onsuccess = () => {
        if (cursor.result) {
          all.push({ key: cursor.result.key, kept: cursor.result.value.bytes });
          cursor.result.continue();
        }
      };
      return all;
    });
    const out = [];
    for (const { key, kept } of records) {
      if (op === 'list') { // a damaged record (not yet dropped) lists with magic null
        const magic = await kept.arrayBuffer().then((bytes) => new Uint32Array(expand(bytes).buffer, 0, 1)[0], () => null);
        out.push({ key, size: kept.size, magic });
        continue;
      }
      const snapshot = expand(await kept.arrayBuffer());
      if (op === 'search') {
        const needle = new TextEncoder().encode(arg);
        let found = false;
        for (let i = snapshot.indexOf(needle[0]); i >= 0 && !found; i = snapshot.indexOf(needle[0], i + 1)) {
          found = needle.every((b, j) => snapshot[i + j] === b);
        }
        out.push(found);
      } else if (op === 'edit' && key === arg.key) {
        if (arg.zero) snapshot.fill(0, arg.zero[0], arg.zero[1]);
        if (arg.build) snapshot.fill(0x5a, 16, 48); // another Pyodide build's id
        const heap = new Uint32Array(snapshot.buffer, 0, 2)[1];
        if (arg.zeroHeapAfter) snapshot.fill(0, heap + arg.zeroHeapAfter);
        if (arg.rename) { // every copy of one text in the heap, as a stray write would leave it
          const [from, to] = arg.rename.map((text) => new TextEncoder().encode(text));
          for (let i = snapshot.indexOf(from[0], heap); i >= 0; i = snapshot.indexOf(from[0], i + 1)) {
            if (from.every((b, j) => snapshot[i + j] === b)) snapshot.set(to, i);
          }
        }
        let edited = new Blob([compact(snapshot)]);
        if (arg.truncate) edited = edited.slice(0, edited.size - arg.truncate);
        await inStore('readwrite', (snapshots) => {
          snapshots.delete(key);
          snapshots.put({ bytes: edited, stored: Date.now() }, arg.newKey || key);
        });
      }
    }
    db.close();
    return out;
  }, [op, arg]);
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

test('the first visit starts normally and keeps a snapshot taken in the background; the next boots from it without that visit\'s data, and nothing leaves the browser', async () => {
  const { context, requests } = await localContext();
  try {
    const first = await visit(context);
    assert.equal(first.boot, 'fresh', 'the first visit starts as it did before snapshots: nothing more to wait for');
    // a cell before the snapshot is taken: its data stays in its own worker
    assert.equal(await cell(first.page, "secret_value = 'user-data-' + 'f00d' * 2\nprint(secret_value)"), 'user-data-f00df00d');
    const record = await storedSnapshot(first.page);
    assert.match(record.key, /^\d+\.\d+\.\d+\/[0-9a-f]{16}$/, 'keyed by Pyodide version and runtime hash');
    assert.ok(record.size > 1 << 20, `snapshot of ${record.size} bytes`);
    assert.deepEqual((await first.page.evaluate(() => window.testSnapshots)).map((m) => m.type), ['ready', 'snapshot'],
      'taken in the background, after the interpreter was ready');
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

test('a corrupted, a truncated and a stale snapshot are dropped: Python starts normally and keeps a fresh one', async () => {
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
    assert.equal(next.boot, 'fresh');
    assert.equal(await cell(next.page, 'print(1 + 1)'), '2');
    await storedSnapshot(next.page);
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'snapshot', 'the fresh snapshot replaced the corrupted one');

    // cut short: the kept pages end before their index says (as a record written in part would)
    await store(next.page, 'edit', { key, truncate: 1000 });
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'fresh');
    const seen = await next.page.evaluate(() => window.testSnapshots);
    assert.equal(seen[0].type, 'snapshotDropped', JSON.stringify(seen));
    assert.match(seen[0].reason, /truncated/);
    assert.equal(await cell(next.page, 'print(3 + 3)'), '6');
    await storedSnapshot(next.page);
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'snapshot', 'the fresh snapshot replaced the truncated one');

    // stale: made by another Pyodide build (Pyodide checks its build id)
    await store(next.page, 'edit', { key, build: true });
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'fresh');
    assert.equal(await cell(next.page, 'print(2 + 2)'), '4');
    await storedSnapshot(next.page);

    // stale: kept for an older runtime: never offered, and replaced by this build's
    const old = key.replace(/[0-9a-f]{16}$/, '0123456789abcdef');
    await store(next.page, 'edit', { key, newKey: old });
    await next.page.close();
    next = await visit(context);
    assert.equal(next.boot, 'fresh');
    assert.deepEqual((await storedSnapshot(next.page, old)).key, key);
    await next.page.close();
  } finally {
    await context.close();
  }
});

test('a snapshot with a valid header but a damaged heap never leaves a broken interpreter: it is dropped and Python starts normally', async () => {
  const { context } = await localContext();
  try {
    let { page } = await visit(context);
    const { key } = await storedSnapshot(page);
    await page.close();
    const damages = [
      // most of the heap gone: the restore itself fails
      { zeroHeapAfter: 1 << 20 },
      // one text of the runner's protocol changed everywhere in the heap: Pyodide restores it
      // without complaint, and only the check cell after the restore finds the interpreter broken
      { rename: ['execute_result', 'execute_resulX'] },
    ];
    for (const damage of damages) {
      ({ page } = await visit(context));
      await store(page, 'edit', { key, ...damage });
      await page.close();
      const next = await visit(context);
      const what = JSON.stringify(damage);
      assert.equal(next.boot, 'fresh', what);
      const seen = await next.page.evaluate(() => window.testSnapshots);
      assert.equal(seen[0].type, 'snapshotDropped', `${what}: ${JSON.stringify(seen)}`);
      if (damage.rename) {
        assert.match(seen[0].reason, /failed its check/, what);
      }
      const turn = await runCell(next.page, 'import json, random\nprint(json.dumps([1 + 1]))\n6 * 7');
      await finished(turn);
      assert.equal((await outputs(turn, 'stream').innerText()).trim(), '[2]', what);
      assert.match(await outputs(turn, 'result').innerText(), /^Out\[1\]:\s*42$/, `${what}: the first cell is Out[1]`);
      // a sound one replaces it
      await next.page.waitForFunction(() => window.testSnapshots.some((m) => m.type === 'snapshot'), null, { timeout: 60000 });
      await storedSnapshot(next.page);
      await next.page.close();
      const after = await visit(context);
      assert.equal(after.boot, 'snapshot', `${what}: the new snapshot boots`);
      await after.page.close();
    }
  } finally {
    await context.close();
  }
});
