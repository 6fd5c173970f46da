// The composer's cell timeout, per conversation: a server of the test's own with a small
// CODEINTERP_MAX_TIMEOUT (20 s, default 15 s) offers steps up to it and nothing above; the smallest
// step ends a sleeping cell as a timeout within it, not at the default; the choice survives a reload
// and goes with an edited cell run again; a hand-edited stored value (too large, or not a number)
// reads as the default and never reaches the server. Local mode's control: cell-timeout-local.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let server;
before(async () => {
  browser = await launch();
  server = await startServer({ CODEINTERP_MAX_TIMEOUT: '20s', CODEINTERP_TIMEOUT: '15s', CODEINTERP_POOL_SIZE: '1' });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page on the test's server, connected, with every `execute` frame it sends collected in `executes`. */
async function open(context, route = '') {
  const page = await context.newPage();
  const executes = [];
  page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => {
    const frame = typeof payload === 'string' ? JSON.parse(payload) : null;
    if (frame?.type === 'execute') {
      executes.push(frame);
    }
  }));
  await page.goto(server.url + '/' + route);
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { page, executes };
}

const picker = (page) => page.getByTestId('cell-timeout');
const offered = (page) => picker(page).locator('option').evaluateAll((options) => options.map((o) => o.value));

test('the smallest step ends a sleeping cell as a timeout within it; the choice survives a reload and goes with a re-run', async () => {
  const context = await browser.newContext();
  try {
    let { page, executes } = await open(context);
    await picker(page).waitFor();
    assert.equal(await picker(page).getAttribute('aria-label'), 'Cell timeout');
    assert.deepEqual(await offered(page), ['10', '15', '20'], 'steps up to the server\'s 20 s, with its default, nothing above');
    assert.equal(await picker(page).inputValue(), '15', 'the server\'s default until one is picked');
    await picker(page).selectOption('10');

    const started = Date.now();
    const turn = await runCell(page, 'import time; time.sleep(60)');
    await finished(turn, 20000);
    const took = Date.now() - started;
    assert.match(await turn.getAttribute('class'), /status-timeout/, 'it ended as a timeout');
    assert.ok(took < 14000, `within the 10 s step, not the 15 s default (${took} ms)`);
    assert.equal(executes.at(-1).timeout, 10);

    const route = new URL(page.url()).hash;
    await page.close();
    ({ page, executes } = await open(context, route));
    await picker(page).waitFor();
    assert.equal(await picker(page).inputValue(), '10', 'the conversation kept its timeout');
    const first = page.getByTestId('turn').first();
    await first.getByTestId('edit-cell').click();
    await first.getByTestId('cell-editor-input').fill("print('again')");
    await first.getByTestId('cell-editor-input').press('Shift+Enter');
    await finished(page.getByTestId('turn').nth(1));
    assert.equal(executes.at(-1).timeout, 10, 'an edited cell run again asks the conversation\'s timeout');
  } finally {
    await context.close();
  }
});

for (const hostile of ['999999999', 'abc', '-5', '']) {
  test(`a stored timeout of ${JSON.stringify(hostile)} reads as the default and never reaches the server`, async () => {
    const context = await browser.newContext();
    try {
      let { page, executes } = await open(context);
      await finished(await runCell(page, "print('one')"));
      const route = new URL(page.url()).hash;
      await page.evaluate(([key, value]) => localStorage.setItem(key, value), ['codeinterp.timeout.' + route.slice(1), hostile]);
      await page.close();
      ({ page, executes } = await open(context, route));
      await picker(page).waitFor();
      assert.equal(await picker(page).inputValue(), '15');
      assert.deepEqual(await offered(page), ['10', '15', '20']);
      await finished(await runCell(page, "print('two')"));
      assert.equal(executes.length, 1);
      assert.equal(executes[0].timeout, 15, 'the server\'s default, never above its most');
    } finally {
      await context.close();
    }
  });
}
