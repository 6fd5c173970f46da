// A cell run before the page has its session (right after a server start, while the sandbox is
// still starting) is held and sent once it has, never lost; if no session comes, it goes back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runAtOnce, expectOnlyTurn, BASE_URL } from '../browser.js';
import { startServer } from '../server.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const STARTS_PER_RUNTIME = 3;

for (const runtime of ['runc', 'runsc']) {
  test(`the first cell run in a page opened right after a ${runtime} server starts shows its turn, once`, async (t) => {
    let early = 0;
    for (let start = 0; start < STARTS_PER_RUNTIME; start++) {
      const server = await startServer({ CODEINTERP_RUNTIME: runtime });
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(server.url + '/');
        await page.getByTestId('composer').waitFor();
        if (!/connected/.test(await page.getByTestId('status').innerText())) early++;
        await runAtOnce(page, 'print(6*7)');
        await expectOnlyTurn(page, '42');
      } catch (e) {
        e.message += `\n(server start ${start + 1} of ${STARTS_PER_RUNTIME}; its log ends:\n${server.log().slice(-2000)})`;
        throw e;
      } finally {
        await context.close();
        await server.stop();
      }
    }
    t.diagnostic(`${early} of ${STARTS_PER_RUNTIME} cells were run before the page was connected`);
  });
}

test('a cell run while the session is being created goes back to the composer, with the reason, if the server stops answering', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    let release;
    const released = new Promise((resolve) => { release = resolve; });
    // the page's create request is held until its cell waits for it, then fails as if the server had gone
    await page.route('**/api/v1/sessions', async (route) => { await released; await route.abort('connectionrefused'); });
    await page.goto(BASE_URL + '/');
    await runAtOnce(page, 'print(6*7)');
    const pending = page.getByTestId('pending-turn');
    await pending.waitFor();
    assert.match(await pending.innerText(), /waiting for the session/);
    release();

    await page.getByTestId('status').filter({ hasText: /did not answer/ }).waitFor();
    await pending.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('composer').inputValue(), 'print(6*7)');
    assert.match(await page.getByTestId('status').innerText(), /back in the composer/);
    assert.equal(await page.getByTestId('turn').count(), 0);

    // with no session at all, a cell run now comes straight back too
    await page.getByTestId('composer').press('Shift+Enter');
    assert.equal(await page.getByTestId('composer').inputValue(), 'print(6*7)');
    assert.equal(await pending.count(), 0);
  } finally {
    await context.close();
  }
});
