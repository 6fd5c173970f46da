// Local mode started ahead (web/…/local/LocalWarmUp): in a browser that has used local mode (it
// keeps a memory snapshot), a page in server mode prepares the runtime frame once it is idle, without
// starting Python; the pointer on (or focus of) the Local button starts Python in it; the click
// hands that frame to the new local conversation. Before the click it runs no cell and is the same
// sandboxed, opaque-origin frame; a browser that never used local mode starts nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, BASE_URL, localReady, snapshotKept } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ORIGIN = new URL(BASE_URL).origin;

/**
 * A fresh profile whose pages open in server mode (`used`: local mode was used in it first, so it
 * keeps a snapshot), each recording the runtime frames' `ready`s and every request of the context.
 */
async function profile(used) {
  const context = await browser.newContext();
  if (used) {
    const page = await context.newPage();
    await page.addInitScript(() => { if (window.top === window) localStorage.setItem('codeinterp.mode', 'local'); });
    await page.goto(BASE_URL + '/');
    await localReady(page);
    await snapshotKept(page);
    await page.close();
  }
  const requests = [];
  context.on('request', (r) => requests.push({ method: r.method(), url: r.url(), body: r.postData() || '' }));
  await context.addInitScript(() => {
    if (window.top !== window) return;
    localStorage.setItem('codeinterp.mode', 'server');
    window.testReady = [];
    window.addEventListener('message', (e) => {
      if (e.data && e.data.type === 'ready') window.testReady.push(e.data.boot);
    });
  });
  return { context, requests };
}

/** The page's runtime frames: [{sandbox, src, allow}]. */
const frames = (page) => page.locator('iframe.local-runtime').evaluateAll((all) => all.map((f) => ({
  sandbox: f.getAttribute('sandbox'), src: f.getAttribute('src'), allow: f.getAttribute('allow'),
})));
const mark = (page, name) => page.evaluate((name) => performance.getEntriesByName('local:' + name).length > 0, name);
/** Waits for the app's `local:<name>` mark (frame-host.js): `asked`, the frame is prepared. */
const marked = (page, name) => page.waitForFunction((name) => performance.getEntriesByName('local:' + name).length > 0, name, { timeout: 60000 });
/** Waits for the frame's first `ready` (Python started in it). */
const started = (page) => page.waitForFunction(() => window.testReady.length > 0, null, { timeout: 60000 });

test('in a browser that used local mode, a server-mode page prepares the sandboxed frame at idle without starting Python; the pointer on Local starts it', async () => {
  const { context } = await profile(true);
  try {
    const page = await context.newPage();
    await page.goto(BASE_URL + '/');
    await marked(page, 'asked');
    assert.deepEqual(await frames(page), [{ sandbox: 'allow-scripts', src: '/local/runtime.html#assets=parent', allow: 'cross-origin-isolated' }]);
    // prepared: the frame asked for its files, and is not given them, so Python does not start
    await page.waitForTimeout(3000);
    assert.equal(await mark(page, 'handed'), false, 'the files are held back');
    assert.deepEqual(await page.evaluate(() => window.testReady), []);
    assert.equal(await page.getByTestId('mode-server').getAttribute('aria-pressed'), 'true');

    await page.getByTestId('mode-local').hover();
    await started(page);
    assert.deepEqual(await page.evaluate(() => window.testReady), ['snapshot']);
    assert.equal(await mark(page, 'execute'), false, 'no cell before the click');
    assert.equal(await page.getByTestId('mode-server').getAttribute('aria-pressed'), 'true', 'still in server mode');
    assert.doesNotMatch(await page.getByTestId('status').innerText(), /Local/);
  } finally {
    await context.close();
  }
});

test('the click hands the started frame to a new local conversation: it is ready at once, runs the cell, and nothing leaves the browser', async () => {
  const { context, requests } = await profile(true);
  try {
    const page = await context.newPage();
    await page.goto(BASE_URL + '/');
    await marked(page, 'asked');
    await page.getByTestId('mode-local').hover();
    await started(page);
    requests.length = 0;
    const secret = 'SECRET-' + Math.random().toString(36).slice(2);

    await page.getByTestId('mode-local').click();
    await localReady(page);
    assert.equal((await frames(page)).length, 1, 'the frame started ahead, no second one');
    let turn = await runCell(page, `x = '${secret}'\nprint(x)\n1 + 1`);
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), secret);
    assert.match(await outputs(turn, 'result').innerText(), /^Out\[1\]:\s*2$/, 'the first cell of that interpreter');
    assert.deepEqual(await page.evaluate(() => window.testReady), ['snapshot'], 'one start: the one begun on hover');

    // back to server and to local again: a new frame (prepared while in server mode), never the one that ran cells
    await page.getByTestId('mode-server').click();
    await marked(page, 'asked');
    await page.getByTestId('mode-local').click();
    await localReady(page);
    assert.equal((await frames(page)).length, 1);
    turn = await runCell(page, 'x');
    await finished(turn);
    assert.match(await outputs(turn, 'error').innerText(), /NameError/);

    for (const r of requests) {
      const where = `${r.method} ${r.url}`;
      assert.ok(!r.url.includes(secret) && !r.body.includes(secret), `the secret left in ${where}`);
      if (r.url.startsWith('blob:') || r.url.startsWith('data:') || new URL(r.url).pathname.startsWith('/api/')) {
        continue; // server mode's own session requests (the server conversation), which carry no local data
      }
      assert.equal(r.method, 'GET', where);
      assert.equal(new URL(r.url).origin, ORIGIN, where);
    }
  } finally {
    await context.close();
  }
});

test('a frame started by the pointer and not chosen for a minute is thrown away, a prepared one takes its place, and Local still starts', async () => {
  const { context } = await profile(true);
  try {
    const page = await context.newPage();
    await page.goto(BASE_URL + '/');
    await marked(page, 'asked');
    // from here the page's timers run on Playwright's clock (at real speed until told otherwise), so a minute can pass at once
    await page.clock.install();
    await page.getByTestId('mode-local').hover();
    await started(page);
    await page.locator('iframe.local-runtime').evaluate((f) => f.setAttribute('data-test-booted', ''));
    await page.mouse.move(0, 0);

    await page.clock.fastForward(55000);
    assert.equal(await page.locator('iframe[data-test-booted]').count(), 1, 'kept for a minute');
    await page.clock.fastForward(7000);
    await page.waitForFunction(() => !document.querySelector('iframe[data-test-booted]'), null, { timeout: 10000 });
    // its place goes to a prepared frame, which asks for its files and is not given them: no second start
    await page.waitForFunction(() => document.querySelectorAll('iframe.local-runtime').length === 1, null, { timeout: 30000 });
    await page.waitForTimeout(2000);
    assert.deepEqual(await page.evaluate(() => window.testReady), ['snapshot'], 'the new frame has not started Python');

    await page.getByTestId('mode-local').click();
    await localReady(page);
    const turn = await runCell(page, '1 + 1');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /^Out\[1\]:\s*2$/);
    assert.deepEqual(await page.evaluate(() => window.testReady), ['snapshot', 'snapshot'], 'the click started the prepared frame');
  } finally {
    await context.close();
  }
});

test('a browser that never used local mode starts no frame ahead: not at idle, not on the pointer', async () => {
  const { context, requests } = await profile(false);
  try {
    const page = await context.newPage();
    await page.goto(BASE_URL + '/');
    await page.waitForTimeout(3000);
    await page.getByTestId('mode-local').hover();
    await page.waitForTimeout(1000);
    assert.deepEqual(await frames(page), []);
    assert.deepEqual(requests.filter((r) => /\/(local|pyodide)\//.test(r.url)).map((r) => r.url), []);
    // the click starts local mode as before
    await page.getByTestId('mode-local').click();
    await localReady(page);
    assert.deepEqual(await page.evaluate(() => window.testReady), ['fresh']);
  } finally {
    await context.close();
  }
});
