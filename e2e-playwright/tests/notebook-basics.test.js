// Notebook basics on the conversation page: an earlier cell edited and run again as a new turn at the
// end (the original kept), Restart asking first, a header message that goes when a later cell runs,
// and the keyboard: Esc then Tab leaves the editor, Ctrl+. interrupts, ? lists the shortcuts, focus
// back in the composer after an input() answer; the turn tools readable (WCAG AA).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs } from '../browser.js';
import { openMode, contrast } from '../outputs-set.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

for (const mode of ['server', 'local']) {
  test(`${mode} mode: an earlier cell edited runs again as a new turn at the end; the original stays as it was`, async () => {
    const { context, page } = await openMode(browser, mode);
    try {
      const first = await runCell(page, "x = 2\nx * 10");
      await finished(first);
      await finished(await runCell(page, "print('between')"));
      await first.getByTestId('edit-cell').click();
      const editor = first.getByTestId('cell-editor-input');
      assert.equal(await editor.inputValue(), 'x = 2\nx * 10');
      assert.equal(await focused(page), 'cell-editor-input', 'the editor takes the focus');
      await editor.fill('x = 3\nx * 10');
      await editor.press('Shift+Enter');
      const rerun = page.getByTestId('turn').nth(2);
      await rerun.waitFor();
      await finished(rerun);
      assert.match(await outputs(rerun, 'result').innerText(), /Out\[3\]:\s*30/, 'a new turn with its own execution count');
      assert.match(await rerun.locator('pre.code').innerText(), /x = 3/);
      assert.match(await outputs(first, 'result').innerText(), /Out\[1\]:\s*20/, 'the original keeps its output');
      assert.match(await first.locator('pre.code').innerText(), /x = 2/, 'and its code');
      assert.equal(await first.getByTestId('cell-editor').count(), 0, 'the editor closed');
      // Cancel leaves everything as it was
      await first.getByTestId('edit-cell').click();
      await first.getByTestId('rerun-cancel').click();
      assert.equal(await page.getByTestId('turn').count(), 3);
    } finally {
      await context.close();
    }
  });

  test(`${mode} mode: Restart asks first ("all variables will be lost"); Cancel keeps them, Restart loses them`, async () => {
    const { context, page } = await openMode(browser, mode);
    try {
      await finished(await runCell(page, 'kept = 42'));
      await page.getByTestId('restart').click();
      const question = page.getByTestId('restart-question');
      await question.waitFor();
      assert.match(await question.innerText(), /all variables will be lost/i);
      assert.equal(await focused(page), 'restart-cancel', 'the safe answer has the focus');
      await page.getByTestId('restart-cancel').click();
      await question.waitFor({ state: 'hidden' });
      let turn = await runCell(page, 'kept');
      await finished(turn);
      assert.match(await outputs(turn, 'result').innerText(), /42/, 'nothing restarted');
      await page.getByTestId('restart').click();
      await page.getByTestId('restart-confirm').click();
      await question.waitFor({ state: 'hidden' });
      await page.getByTestId('notice-turn').or(page.getByTestId('intro')).first().waitFor({ timeout: 60000 });
      await page.waitForFunction(() => !/restarting/.test(document.querySelector('[data-testid=status]').innerText));
      turn = await runCell(page, "print('kept' in dir())");
      await finished(turn, 60000);
      assert.equal((await outputs(turn, 'stream').innerText()).trim(), 'False', 'the variables are gone');
    } finally {
      await context.close();
    }
  });

  test(`${mode} mode: Esc then Tab leaves the editor, Ctrl+. interrupts, ? lists the shortcuts`, async () => {
    const { context, page } = await openMode(browser, mode);
    try {
      const composer = page.getByTestId('composer');
      await composer.fill('if True:');
      await composer.press('End');
      await composer.press('Tab');
      assert.equal(await composer.inputValue(), 'if True:    ', 'Tab indents');
      assert.equal(await focused(page), 'composer');
      await composer.press('Escape');
      await page.keyboard.press('Tab');
      assert.notEqual(await focused(page), 'composer', 'Esc then Tab moves focus on');
      assert.equal(await composer.inputValue(), 'if True:    ', 'and types nothing');
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focused(page), 'composer', 'Shift+Tab comes back');

      const turn = await runCell(page, "import time\nprint('sleeping', flush=True)\ntime.sleep(30)");
      await outputs(turn, 'stream').filter({ hasText: 'sleeping' }).waitFor({ timeout: 30000 });
      await page.keyboard.press('Control+.');
      await finished(turn, 20000);
      assert.match(await turn.locator('.turn-footer').innerText(), /interrupted/);

      await composer.fill('');
      await page.locator('body').click({ position: { x: 5, y: 200 } });
      await page.keyboard.press('?');
      const dialog = page.getByTestId('shortcuts');
      await dialog.waitFor({ state: 'visible' });
      assert.match(await dialog.innerText(), /Ctrl\+\..*Interrupt/s);
      assert.match(await dialog.innerText(), /Esc, then Tab/);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await composer.focus();
      await composer.press('?');
      assert.equal(await composer.inputValue(), '?', 'in the editor ? is just a character');
      assert.ok(await dialog.isHidden());
    } finally {
      await context.close();
    }
  });

  test(`${mode} mode: after an input() answer the focus is back in the composer; turn tools meet AA contrast`, async () => {
    const { context, page } = await openMode(browser, mode);
    try {
      const turn = await runCell(page, "name = input('Name? ')\nprint('hi', name)");
      const field = turn.getByTestId('input-field');
      await field.waitFor({ timeout: 30000 });
      await field.fill('Ada');
      await field.press('Enter');
      await finished(turn);
      assert.equal(await focused(page), 'composer');
      for (const theme of ['light', 'dark']) {
        await page.getByTestId('theme-switch').selectOption(theme);
        const tools = await turn.locator('.turn-tools .btn').evaluateAll((buttons) => buttons.map((b) => {
          let bg = 'rgba(0, 0, 0, 0)';
          for (let e = b; e && /rgba\(0, 0, 0, 0\)|transparent/.test(bg); e = e.parentElement) bg = getComputedStyle(e).backgroundColor;
          let opacity = 1;
          for (let e = b; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
          return { label: b.innerText, color: getComputedStyle(b).color, bg, opacity };
        }));
        assert.ok(tools.length >= 3);
        for (const t of tools) {
          assert.equal(t.opacity, 1, `${t.label}: not faded`);
          const ratio = contrast(t.color, t.bg);
          assert.ok(ratio >= 4.5, `${theme} ${t.label}: ${t.color} on ${t.bg} is ${ratio.toFixed(2)}:1`);
        }
      }
    } finally {
      await context.close();
    }
  });
}

test('server mode: a header message about a refused cell goes when a later cell runs', async () => {
  const { context, page } = await openMode(browser, 'server');
  try {
    await page.getByTestId('packages').fill('left-pad');
    const composer = page.getByTestId('composer');
    await composer.fill("print('refused')");
    await composer.press('Shift+Enter');
    await page.getByTestId('refused-turn').waitFor({ timeout: 30000 });
    const problem = page.locator('.status-problem');
    await problem.filter({ hasText: /./ }).waitFor();
    const header = await page.locator('.topbar').boundingBox();
    assert.ok(header.height < 60, `the message keeps the top bar one row (${header.height} px)`);
    await page.getByTestId('packages').fill('');
    await finished(await runCell(page, "print('a later cell')"));
    assert.equal(await problem.innerText(), '', 'the message went with the later cell');
  } finally {
    await context.close();
  }
});
