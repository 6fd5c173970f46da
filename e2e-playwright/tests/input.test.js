// A cell's input() asks the person in the turn: server mode over the WebSocket, local mode through
// the SharedArrayBuffer (the app is cross-origin isolated), and a clear error where it cannot ask.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs } from '../browser.js';
import { openRuntime, run, errorOf, finishedOf } from '../local-runtime.js';
import { openMode } from '../outputs-set.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

for (const mode of ['server', 'local']) {
  test(`${mode} mode: input() shows a box in the running turn, Enter answers, and the answer is echoed`, async () => {
    const { context, page } = await openMode(browser, mode);
    try {
      const turn = await runCell(page, "print('before')\nname = input('Your name? ')\nprint('hello', name)");
      const box = turn.getByTestId('input-prompt');
      await box.waitFor({ timeout: 30000 });
      assert.match(await box.innerText(), /Your name\?/);
      assert.equal(await turn.getByTestId('input-field').getAttribute('type'), 'text');
      assert.match(await turn.locator('.turn-footer').innerText(), /running/, 'the cell waits');
      await page.waitForTimeout(300);
      assert.equal(await box.count(), 1, 'still waiting, not failing');
      await turn.getByTestId('input-field').fill('Ada <b>Lovelace</b>');
      await turn.getByTestId('input-field').press('Enter');
      await finished(turn);
      assert.equal(await box.count(), 0, 'the box is gone once answered');
      const text = (await outputs(turn, 'stream').allInnerTexts()).join('');
      assert.equal(text, 'before\nYour name? Ada <b>Lovelace</b>\nhello Ada <b>Lovelace</b>\n');
      assert.equal(await turn.locator('b').count(), 0, 'the answer is text, never markup');
      assert.match(await turn.locator('.turn-footer').innerText(), /done/);
    } finally {
      await context.close();
    }
  });

  test(`${mode} mode: getpass() masks the field and the answer is never shown`, async () => {
    const { context, page } = await openMode(browser, mode);
    try {
      const turn = await runCell(page, "import getpass\nkey = getpass.getpass('API key: ')\nlen(key)");
      const field = turn.getByTestId('input-field');
      await field.waitFor({ timeout: 30000 });
      assert.equal(await field.getAttribute('type'), 'password');
      await field.fill('hunter2-secret');
      await turn.getByTestId('input-send').click();
      await finished(turn);
      assert.match(await outputs(turn, 'result').innerText(), /14/);
      assert.doesNotMatch(await turn.innerText(), /hunter2/);
      assert.match(await outputs(turn, 'stream').innerText(), /API key:/);
    } finally {
      await context.close();
    }
  });

  test(`${mode} mode: interrupt ends the wait, the box goes away and the state is kept`, async () => {
    const { context, page } = await openMode(browser, mode);
    try {
      await finished(await runCell(page, 'kept = 7'));
      const turn = await runCell(page, "input('never answered: ')");
      await turn.getByTestId('input-prompt').waitFor({ timeout: 30000 });
      await page.getByTestId('interrupt').click();
      await finished(turn, 15000);
      assert.equal(await turn.getByTestId('input-prompt').count(), 0);
      assert.match(await outputs(turn, 'error').innerText(), /KeyboardInterrupt/);
      const next = await runCell(page, 'kept');
      await finished(next);
      assert.match(await outputs(next, 'result').innerText(), /7/);
    } finally {
      await context.close();
    }
  });
}

test('server mode: a reload while a cell waits shows the box again, and answering it finishes the cell', async () => {
  const { context, page } = await openMode(browser, 'server');
  try {
    let turn = await runCell(page, "x = input('after reload? ')\nprint('got', x)");
    await turn.getByTestId('input-prompt').waitFor({ timeout: 30000 });
    await page.reload();
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    turn = page.getByTestId('turn').last();
    await turn.getByTestId('input-field').fill('yes');
    await turn.getByTestId('input-field').press('Enter');
    await finished(turn);
    assert.match(await outputs(turn, 'stream').innerText(), /got yes/);
  } finally {
    await context.close();
  }
});

test('local runtime without cross-origin isolation: input() fails at once and says why', async () => {
  const { context, page } = await openRuntime(browser, { isolated: false });
  try {
    const events = await run(page, "input('name? ')");
    assert.equal(events.filter((e) => e.type === 'input_request').length, 0);
    const error = errorOf(events);
    assert.equal(error.ename, 'StdinNotImplementedError');
    assert.match(error.evalue, /cross-origin isolated/);
    assert.equal(finishedOf(events).status, 'error');
  } finally {
    await context.close();
  }
});

test('local runtime: the timeout stands still while a cell waits for its answer, and answers nobody asked for go nowhere', async () => {
  const { context, page } = await openRuntime(browser, { isolated: true });
  try {
    const events = await page.evaluate(async () => {
      rt.send({ type: 'inputReply', value: 'nobody asked' }); // no cell: dropped
      const id = rt.start('import time\ntime.sleep(0.3)\nx = input("slow? ")\nprint("got", x)', { timeoutMs: 1500 });
      await rt.wait((m) => m.type === 'runner' && m.event.id === id && m.event.type === 'input_request', 30000);
      await new Promise((r) => setTimeout(r, 2500)); // longer than the cell's whole timeout
      rt.send({ type: 'inputReply', value: 'late but fine' });
      return rt.collect(id);
    });
    assert.equal(finishedOf(events).status, 'ok');
    assert.equal(events.filter((e) => e.type === 'stream').map((e) => e.text).join(''), 'slow? late but fine\ngot late but fine\n');
  } finally {
    await context.close();
  }
});
