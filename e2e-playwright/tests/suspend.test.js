// Suspend and resume as a person sees it, on gVisor (runsc): a session suspended to disk, by the
// REST call or by the idle timer, comes back when its page is opened again, or with the next cell of
// a page left open, with a quiet "resumed" note and its variables. What a runc server says instead: runtime.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, runAtOnce, finished, outputs } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let server;

before(async () => {
  // a short idle time for the timer's test; the REST test suspends well before it
  server = await startServer({
    CODEINTERP_RUNTIME: 'runsc', CODEINTERP_POOL_SIZE: '0', CODEINTERP_SUSPEND_AFTER: '6s', CODEINTERP_REAP_INTERVAL: '500ms',
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The page's session, as the page keeps it (its token only in localStorage). */
function sessionOf(page) {
  return page.evaluate(() => {
    const id = location.hash.replace(/^#\/s\//, '');
    return { id, token: localStorage.getItem('codeinterp.token.' + id) };
  });
}

async function stateOf(session) {
  const answer = await fetch(`${server.url}/api/v1/sessions/${session.id}`, { headers: { Authorization: `Bearer ${session.token}` } });
  assert.equal(answer.status, 200, await answer.clone().text());
  return (await answer.json()).state;
}

async function suspend(session) {
  const answer = await fetch(`${server.url}/api/v1/sessions/${session.id}/suspend`,
    { method: 'POST', headers: { Authorization: `Bearer ${session.token}` } });
  assert.equal(answer.status, 200, await answer.clone().text());
  assert.equal((await answer.json()).state, 'suspended');
}

/** Resolves once the idle timer has suspended the session. */
async function suspended(session) {
  const deadline = Date.now() + 30000;
  while (await stateOf(session) !== 'suspended') {
    assert.ok(Date.now() < deadline, 'the idle timer did not suspend the session within 30 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A fresh page on the server with `x = 41` run in it. */
async function pageHoldingX(context) {
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  await finished(await runCell(page, 'x = 41'), 60000);
  return page;
}

/** The page opened again on its session: the conversation is back, a resumed note last, and `x + 1` is 42. */
async function reopenedHoldsX(context, session, notesBefore) {
  const page = await context.newPage();
  await page.goto(`${server.url}/#/s/${session.id}`);
  const notes = page.getByTestId('notice-turn');
  await notes.nth(notesBefore).filter({ hasText: /Session resumed from disk in \d+(\.\d)? m?s — variables kept\./ })
    .waitFor({ timeout: 30000 });
  assert.equal(await notes.count(), notesBefore + 1, 'one resumed note for one resume');
  assert.match(await page.getByTestId('turn').first().locator('pre.code').innerText(), /^x = 41$/, 'the conversation is back');
  const turn = await runCell(page, 'x + 1');
  await finished(turn);
  assert.match(await outputs(turn, 'result').innerText(), /42/, 'the variables came back');
  assert.equal(await stateOf(session), 'running');
  return page;
}

test('a session suspended by the REST call comes back when its page is reloaded, saying so, with its variables', async () => {
  const context = await browser.newContext();
  try {
    const page = await pageHoldingX(context);
    const session = await sessionOf(page);
    await suspend(session);
    assert.equal(await stateOf(session), 'suspended', 'asking does not resume it');
    await page.close();

    const again = await reopenedHoldsX(context, session, 0);
    // suspended once more: the second note shows where it happened, after the cells before it
    await suspend(session);
    await again.close();
    const third = await reopenedHoldsX(context, session, 1);
    const column = await third.locator('main.conversation > article').evaluateAll((all) => all.map((a) => a.dataset.testid));
    assert.deepEqual(column, ['turn', 'notice-turn', 'turn', 'notice-turn', 'turn']);
  } finally {
    await context.close();
  }
});

test('a session the idle timer suspended comes back with its variables when its page is opened again', async () => {
  const context = await browser.newContext();
  try {
    const page = await pageHoldingX(context);
    const session = await sessionOf(page);
    await page.close();
    await suspended(session);
    await reopenedHoldsX(context, session, 0);
  } finally {
    await context.close();
  }
});

// The page's WebSocket stays open across the suspension: its next cell brings the session back.
test('a page left open while the idle timer suspends its session runs its next cell with its variables', async () => {
  const context = await browser.newContext();
  try {
    const page = await pageHoldingX(context);
    const session = await sessionOf(page);
    await suspended(session);
    await runAtOnce(page, 'x + 1');
    const turn = page.getByTestId('turn').nth(1);
    await turn.or(page.getByText(/Your cell was not run/)).first().waitFor({ timeout: 30000 }); // fails fast when refused
    assert.equal(await page.getByText(/Your cell was not run/).count(), 0, await page.getByTestId('status').innerText());
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /42/);
    await page.getByTestId('notice-turn').filter({ hasText: /Session resumed from disk in .* — variables kept\./ }).waitFor();
    const column = await page.locator('main.conversation > article').evaluateAll((all) => all.map((a) => a.dataset.testid));
    assert.deepEqual(column, ['turn', 'notice-turn', 'turn'], 'the note comes where the session came back, before the cell');
  } finally {
    await context.close();
  }
});
