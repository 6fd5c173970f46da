// "Fork" as a person sees it, on gVisor (runsc): a conversation's copy opens with its history, its
// variables and its files, says where it came from, and goes on apart from the original, which Back
// (or the note's link) brings back as it was. Asked while a cell runs, the server's refusal is shown.
// On runc, which cannot copy an interpreter, the button is there but disabled, the reason on hover;
// in local mode there is no button.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, runAtOnce, finished, outputs } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let server;

before(async () => {
  server = await startServer({ CODEINTERP_RUNTIME: 'runsc', CODEINTERP_POOL_SIZE: '0' });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const sessionId = (page) => page.evaluate(() => location.hash.replace(/^#\/s\//, ''));

/** The value `code` shows as the page's next cell's result. */
async function valueOf(page, code) {
  const turn = await runCell(page, code);
  await finished(turn);
  return (await outputs(turn, 'result').innerText()).replace(/^Out\[\d+\]:\s*/, '').trim();
}

/** Waits until the page shows the conversation `id` (connected), with `turns` turns in it. */
async function showing(page, id, turns) {
  await page.waitForFunction((want) => location.hash === '#/s/' + want, id);
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  await page.getByTestId('turn').nth(turns - 1).waitFor();
  assert.equal(await page.getByTestId('turn').count(), turns);
}

test('Fork opens a copy with the history, variables and files; the two go on apart and Back returns to the original', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    let turn = await runCell(page, "x = 41\nopen('f.txt', 'w').write('copied')\nprint('wrote f.txt')");
    await finished(turn, 60000);
    const original = await sessionId(page);
    const fork = page.getByTestId('fork');
    assert.equal(await fork.isEnabled(), true, await fork.getAttribute('title'));

    // asked while a cell runs: the server refuses and the page says its words
    await runAtOnce(page, 'import time\ntime.sleep(2.5)');
    turn = page.getByTestId('turn').nth(1);
    await turn.locator('.turn-footer').filter({ hasText: 'running' }).waitFor();
    await fork.click();
    await page.getByTestId('status').filter({ hasText: /Not forked: a cell of this session is waiting or running/ }).waitFor();
    assert.equal(await sessionId(page), original, 'still the same conversation');
    await finished(turn);

    await fork.click();
    await page.waitForFunction((was) => /^#\/s\/./.test(location.hash) && location.hash !== '#/s/' + was, original, { timeout: 30000 });
    const copy = await sessionId(page);
    await showing(page, copy, 2);
    assert.equal(await page.getByTestId('fork-note').innerText(),
      `Forked from conversation ${original.slice(0, 8)} — variables and files copied.`);
    const first = page.getByTestId('turn').first();
    assert.match(await first.locator('pre.code').innerText(), /^x = 41/);
    assert.equal((await outputs(first, 'stream').innerText()).trim(), 'wrote f.txt', 'the history came with it');
    await page.getByTestId('file').filter({ hasText: 'f.txt' }).waitFor();
    assert.equal(await page.getByTestId('status').locator('.status-problem').innerText(), '', 'the refusal is not carried over');
    assert.equal(await valueOf(page, 'x + 1'), '42', 'the variables came with it');
    assert.equal(await valueOf(page, "open('f.txt').read()"), "'copied'");
    await finished(await runCell(page, "x = 0\nopen('f.txt', 'w').write('changed in the fork')"));

    // Back: the original, as it was
    await page.goBack();
    await showing(page, original, 2);
    assert.equal(await page.getByTestId('fork-note').count(), 0);
    assert.equal(await valueOf(page, 'x'), '41', 'the fork changed nothing here');
    assert.equal(await valueOf(page, "open('f.txt').read()"), "'copied'");

    // Forward, and a reload: the fork, still saying where it came from; its link leads back
    await page.goForward();
    await showing(page, copy, 5);
    await page.reload();
    await showing(page, copy, 5);
    assert.equal(await valueOf(page, 'x'), '0');
    await page.getByTestId('fork-note').getByRole('link').click();
    await showing(page, original, 4);
    // a fragment naming a conversation this browser holds nothing for: a page says so (no silent swap); Back returns
    await page.evaluate(() => { location.hash = '#/s/not-one-of-ours'; });
    await page.getByTestId('foreign-link').waitFor();
    assert.equal(await page.getByTestId('turn').count(), 0);
    await page.goBack();
    await showing(page, original, 4);
  } finally {
    await context.close();
  }
});

test('on runc, which cannot copy an interpreter, Fork is disabled with the reason; local mode has no Fork', async () => {
  const runc = await startServer({ CODEINTERP_POOL_SIZE: '0' });
  const context = await browser.newContext();
  try {
    const health = await (await fetch(runc.url + '/healthz')).json();
    assert.equal(health.idle.keeps_variables, false, 'runc here cannot checkpoint');
    const page = await context.newPage();
    await page.goto(runc.url + '/');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    const fork = page.getByTestId('fork');
    await fork.waitFor();
    assert.equal(await fork.isDisabled(), true);
    const title = await fork.getAttribute('title');
    assert.match(title, /^This server cannot fork conversations: it cannot copy a running interpreter \(.+\)\.$/);
    assert.ok(title.includes(health.idle.why.replace(/[.\s]+$/, '')), 'the server\'s reason is given');

    await page.getByTestId('mode-local').click();
    await page.getByTestId('status').filter({ hasText: 'Local' }).waitFor();
    assert.equal(await fork.isVisible(), false);
  } finally {
    await context.close();
    await runc.stop();
  }
});
