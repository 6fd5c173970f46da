// The Jupyter surface through the app: a display updated in place (in its own cell and from a
// later one), clear_output, and a shell escape in local mode naming Server mode.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, BASE_URL } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('an updated display is replaced in place, also from a later cell, and clear_output clears the turn', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(BASE_URL + '/');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    const first = await runCell(page, "h = display('version 1', display_id='progress')\nprint('between')\nh.update('version 2')");
    await finished(first);
    assert.equal(await outputs(first, 'display').count(), 1);
    assert.equal((await outputs(first, 'display').innerText()).trim(), "'version 2'");

    await finished(await runCell(page, "h.update('version 3')"));
    assert.equal((await outputs(first, 'display').innerText()).trim(), "'version 3'", 'the earlier cell shows the update');

    // An id that would break out of a CSS selector is compared, never put into one.
    const hostile = await runCell(page, "hid = '\\\"], *, [x=\\'<img>'\nd = display('hostile 1', display_id=hid)\nd.update('hostile 2')");
    await finished(hostile);
    assert.equal((await outputs(hostile, 'display').innerText()).trim(), "'hostile 2'");
    assert.equal((await outputs(first, 'display').innerText()).trim(), "'version 3'", 'other displays are untouched');

    const cleared = await runCell(page, "from IPython.display import clear_output\nprint('old line')\n"
      + "clear_output(wait=True)\nimport time\ntime.sleep(0.3)\nprint('new line')");
    await finished(cleared);
    const text = await cleared.locator('.outputs').innerText();
    assert.match(text, /new line/);
    assert.doesNotMatch(text, /old line/);
  } finally {
    await context.close();
  }
});

test('in local mode a shell escape fails clearly and names Server mode; magics still work', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(BASE_URL + '/');
    await page.getByTestId('mode-local').click();
    await page.getByTestId('status').filter({ hasText: 'Local' }).filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
    const shell = await runCell(page, '!ls');
    await finished(shell);
    assert.match(await outputs(shell, 'error').innerText(), /ShellUnavailable.*Server mode/s);

    const magic = await runCell(page, '%env LOCAL_MAGIC=1\nfrom IPython.display import Markdown\nMarkdown("# local")');
    await finished(magic);
    assert.match(await magic.innerText(), /env: LOCAL_MAGIC=1/);
    assert.equal(await outputs(magic, 'error').count(), 0);
  } finally {
    await context.close();
  }
});
