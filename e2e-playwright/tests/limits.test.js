// Admission limits as the page shows them: a full server is named in the status line and the page
// gets its session by itself once there is room; a cell over a session's queue limit goes back to
// the composer with a sentence, and runs once there is room.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, runAtOnce, finished, outputs, expectOnlyTurn } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let server;

before(async () => {
  server = await startServer({ CODEINTERP_MAX_SESSIONS: '1', CODEINTERP_MAX_QUEUED_CELLS: '1', CODEINTERP_POOL_SIZE: '0' });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function createByRest() {
  const answer = await fetch(server.url + '/api/v1/sessions', { method: 'POST' });
  assert.equal(answer.status, 201, await answer.clone().text());
  return answer.json();
}

async function deleteByRest(session) {
  const answer = await fetch(`${server.url}/api/v1/sessions/${session.id}`,
    { method: 'DELETE', headers: { Authorization: `Bearer ${session.token}` } });
  assert.ok(answer.ok, `delete answered ${answer.status}`);
}

/** Closes the page's server session, so the next test has the one place. */
async function closeSessionOf(page) {
  const session = await page.evaluate(() => {
    const id = location.hash.replace(/^#\/s\//, '');
    return { id, token: localStorage.getItem('codeinterp.token.' + id) };
  });
  await deleteByRest(session);
}

test('a full server is named in the status line, and the page gets its session by itself once one closes', async () => {
  const other = await createByRest();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(server.url + '/');
    const status = page.getByTestId('status');
    await status.filter({ hasText: /The server is full \(1 session open\)\. Retrying in \d+ s/ }).waitFor({ timeout: 15000 });
    assert.doesNotMatch(await status.innerText(), /connected/);

    // a cell run meanwhile waits for the session
    await runAtOnce(page, 'print(6*7)');
    assert.match(await page.getByTestId('pending-turn').innerText(), /waiting for the session/);

    await deleteByRest(other);
    await status.filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    assert.doesNotMatch(await status.innerText(), /full/);
    await expectOnlyTurn(page, '42');
    await closeSessionOf(page);
  } finally {
    await context.close();
  }
});

test('a cell over the session\'s queue limit goes back to the composer, saying so, and runs once there is room', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(server.url + '/');
    const status = page.getByTestId('status');
    await status.filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });

    const slow = await runCell(page, 'import time\ntime.sleep(3)');
    await slow.locator('.turn-footer').filter({ hasText: /running|queued/ }).waitFor();
    await runAtOnce(page, 'print(6*7)');
    await status.filter({ hasText: /not queued/ }).waitFor();
    assert.equal(await page.getByTestId('composer').inputValue(), 'print(6*7)');
    assert.equal(await page.getByTestId('turn').count(), 1);
    assert.equal(await page.getByTestId('pending-turn').count(), 0);

    await finished(slow);
    await page.getByTestId('composer').press('Shift+Enter');
    const turn = page.getByTestId('turn').nth(1);
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), '42');
    assert.equal(await page.getByTestId('turn').count(), 2);
  } finally {
    await context.close();
  }
});
