// A cell run before the page has its session (right after a server start, while the sandbox is
// still starting) or while its WebSocket reconnects is held and sent once, never lost.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, finished, outputs, BASE_URL } from '../browser.js';
import { startServer } from '../server.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const STARTS_PER_RUNTIME = 3;

/** Types a cell and runs it at once, without waiting for the status to say the page is connected. */
async function runAtOnce(page, code) {
  const composer = page.getByTestId('composer');
  await composer.fill(code);
  await composer.press('Shift+Enter');
}

/** The one turn the cell made, with its output; fails if the cell was lost or ran twice. */
async function expectOneTurnPrinting42(page) {
  const turn = page.getByTestId('turn').first();
  await turn.waitFor({ timeout: 30000 });
  await finished(turn);
  assert.equal((await outputs(turn, 'stream').innerText()).trim(), '42');
  await page.getByTestId('pending-turn').first().waitFor({ state: 'detached' });
  // a cell sent twice would show a second turn a round trip later
  await page.waitForTimeout(500);
  assert.equal(await page.getByTestId('turn').count(), 1, 'the cell ran exactly once');
  assert.equal(await page.getByTestId('composer').inputValue(), '', 'the cell is not also back in the composer');
}

for (const runtime of ['runc', 'runsc']) {
  test(`the first cell run in a page opened right after a ${runtime} server starts shows its turn, once`, async () => {
    for (let start = 0; start < STARTS_PER_RUNTIME; start++) {
      const server = await startServer({ CODEINTERP_RUNTIME: runtime });
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(server.url + '/');
        await runAtOnce(page, 'print(6*7)');
        await expectOneTurnPrinting42(page);
      } catch (e) {
        e.message += `\n(server start ${start + 1} of ${STARTS_PER_RUNTIME}; its log ends:\n${server.log().slice(-2000)})`;
        throw e;
      } finally {
        await context.close();
        await server.stop();
      }
    }
  });
}

test('a cell run while the WebSocket reconnects waits for the connection and runs once', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    let refuse = false;
    const sockets = [];
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (refuse) {
        ws.close({ code: 1006 });
        return;
      }
      ws.connectToServer();
      sockets.push(ws);
    });
    await page.goto(BASE_URL + '/');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });

    refuse = true;
    await sockets.at(-1).close({ code: 1006 });
    await page.getByTestId('status').filter({ hasText: 'reconnecting' }).waitFor();
    await runAtOnce(page, 'print(6*7)');
    const pending = page.getByTestId('pending-turn');
    await pending.waitFor();
    assert.match(await pending.innerText(), /print\(6\*7\)/);
    assert.match(await pending.innerText(), /waiting/);
    assert.equal(await page.getByTestId('turn').count(), 0);

    await page.waitForTimeout(1000);
    refuse = false;
    await expectOneTurnPrinting42(page);
  } finally {
    await context.close();
  }
});
