// The composer's cell timeout in local mode, as in server mode (cell-timeout.test.js): a server of the
// test's own with a small CODEINTERP_MAX_TIMEOUT (20 s, default 15 s) serves the page; its runtime
// frame says those limits when it is ready (local mode asks nothing of /healthz), the picker offers
// the steps up to them, the smallest ends a busy cell as a timeout within it, the choice is kept
// across a reload, and a hand-edited stored value reads as the default the frame then applies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, openLocal, localReady } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let server;
before(async () => {
  browser = await launch();
  server = await startServer({ CODEINTERP_MAX_TIMEOUT: '20s', CODEINTERP_TIMEOUT: '15s', CODEINTERP_POOL_SIZE: '0' });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const picker = (page) => page.getByTestId('cell-timeout');
const offered = (page) => picker(page).locator('option').evaluateAll((options) => options.map((o) => o.value));

/** Runs a cell that never ends by itself; resolves to its turn and how long it took to end. */
async function runaway(page) {
  const started = Date.now();
  const turn = await runCell(page, 'while True: pass');
  await finished(turn, 30000);
  return { turn, took: Date.now() - started };
}

test('local mode: the smallest step ends a busy cell as a timeout within it, kept across a reload; the frame says the limits', async () => {
  const { context, page, requests } = await openLocal(browser, server.url);
  try {
    await picker(page).waitFor();
    assert.equal(await picker(page).getAttribute('aria-label'), 'Cell timeout');
    assert.deepEqual(await offered(page), ['10', '15', '20'], 'steps up to the server\'s 20 s, with its default, nothing above');
    assert.equal(await picker(page).inputValue(), '15', 'the server\'s default until one is picked');
    await picker(page).selectOption('10');

    const { turn, took } = await runaway(page);
    assert.match(await turn.getAttribute('class'), /status-timeout/, 'it ended as a timeout');
    assert.match(await outputs(turn, 'error').innerText(), /TimeoutError.*timeout of 10 s/s);
    assert.ok(took < 14000, `within the 10 s step, not the 15 s default (${took} ms)`);
    const after = await runCell(page, "print('after')");
    await finished(after);
    assert.equal((await outputs(after, 'stream').innerText()).trim(), 'after', 'the next cell runs');

    await page.reload();
    await localReady(page);
    await picker(page).waitFor();
    assert.equal(await picker(page).inputValue(), '10', 'the conversation kept its timeout');
    const asked = requests.filter((r) => new URL(r.url).pathname === '/healthz').map((r) => r.url);
    assert.deepEqual(asked, [], 'local mode learns the limits from its frame, not the network');
  } finally {
    await context.close();
  }
});

test('local mode: a stored timeout above the server\'s most reads as the default, and the frame applies the default', async () => {
  const { context, page } = await openLocal(browser, server.url);
  try {
    await finished(await runCell(page, "print('one')"));
    const route = new URL(page.url()).hash.slice(1);
    assert.match(route, /^\/l\/[0-9a-f]{32}$/);
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), ['codeinterp.timeout.' + route, '999999']);
    await page.reload();
    await localReady(page);
    await picker(page).waitFor();
    assert.equal(await picker(page).inputValue(), '15');
    assert.deepEqual(await offered(page), ['10', '15', '20']);
    const { turn, took } = await runaway(page);
    assert.match(await outputs(turn, 'error').innerText(), /timeout of 15 s/);
    assert.ok(took >= 14000 && took < 19000, `the 15 s default, never the stored 999999 s (${took} ms)`);
  } finally {
    await context.close();
  }
});
