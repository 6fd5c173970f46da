// A server that requires API keys: the page asks for the key once, says so when a key is refused,
// keeps the accepted one in this browser only (never in a URL or the console), and server mode
// then works as before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { launch, runCell, runAtOnce, finished, outputs, expectOnlyTurn } from '../browser.js';
import { startServerWithKeys } from '../server.js';

const KEY = randomBytes(24).toString('hex');
let browser;
let server;

before(async () => {
  server = await startServerWithKeys({ team: KEY });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page that records every URL it requests and every console line, to look for the key in them. */
async function openWatched(context) {
  const page = await context.newPage();
  const seen = [];
  const authorizations = [];
  page.on('request', (r) => {
    seen.push(r.url());
    if (r.method() === 'POST' && r.url().endsWith('/api/v1/sessions')) authorizations.push(r.headers().authorization);
  });
  page.on('websocket', (ws) => seen.push(ws.url()));
  page.on('console', (m) => seen.push(m.text()));
  await page.goto(server.url + '/');
  return { page, seen, authorizations };
}

test('the page asks for the API key, refuses a wrong one with a message, and runs cells with the right one', async () => {
  const context = await browser.newContext();
  try {
    const { page, seen, authorizations } = await openWatched(context);
    const form = page.getByTestId('api-key-form');
    await form.waitFor();
    assert.match(await form.innerText(), /asks for an API key/);
    assert.match(await page.getByTestId('status').innerText(), /API key needed/);

    // a cell run before the key is given waits for the session the key opens
    await runAtOnce(page, 'print(6*7)');
    assert.match(await page.getByTestId('pending-turn').innerText(), /waiting for the API key/);

    await page.getByTestId('api-key').fill('not-' + KEY);
    await page.getByTestId('api-key-submit').click();
    await form.filter({ hasText: 'That key was not accepted' }).waitFor();
    assert.equal(await page.getByTestId('api-key').inputValue(), '', 'the refused key is cleared');
    assert.equal(await page.evaluate(() => localStorage.getItem('codeinterp.api-key')), null, 'a refused key is forgotten');

    await page.getByTestId('api-key').fill(KEY);
    await page.getByTestId('api-key').press('Enter');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    assert.equal(await form.count(), 0);
    await expectOnlyTurn(page, '42');

    const turn = await runCell(page, 'x = 41\nx + 1');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /42/);

    assert.deepEqual(authorizations, [undefined, 'Bearer not-' + KEY, 'Bearer ' + KEY]);
    assert.equal(await page.evaluate(() => localStorage.getItem('codeinterp.api-key')), KEY);
    assert.ok(!page.url().includes(KEY), 'the key is not in the page URL');
    assert.deepEqual(seen.filter((s) => s.includes(KEY)), [], 'no URL or console line holds the key');
  } finally {
    await context.close();
  }
});

test('a key kept from before is used for a new session without asking again', async () => {
  const context = await browser.newContext();
  try {
    await context.addInitScript((key) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('codeinterp.api-key', key);
        sessionStorage.setItem('seeded', '1');
      }
    }, KEY);
    const { page, authorizations } = await openWatched(context);
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    const first = page.url();
    await page.getByTestId('new-session').click();
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    assert.notEqual(page.url(), first, 'a second session was created');
    assert.equal(await page.getByTestId('api-key-form').count(), 0, 'the page never asked');
    assert.deepEqual(authorizations, ['Bearer ' + KEY, 'Bearer ' + KEY]);
    const turn = await runCell(page, 'print(6*7)');
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), '42');
  } finally {
    await context.close();
  }
});
