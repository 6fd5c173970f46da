// Debian's Chromium driven by playwright-core: no browser download, no network beyond loopback.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.CODEINTERP_URL || 'http://127.0.0.1:8080';

/** `extraArgs`: more Chromium flags, e.g. `--host-resolver-rules` to point a name at loopback. */
export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/** Types a cell into the composer and runs it with Shift+Enter; resolves to the new turn. */
export async function runCell(page, code) {
  const before = await page.getByTestId('turn').count();
  const composer = page.getByTestId('composer');
  await composer.fill(code);
  await composer.press('Shift+Enter');
  const turn = page.getByTestId('turn').nth(before);
  await turn.waitFor();
  return turn;
}

/** Types a cell and runs it at once, without waiting for the page to be connected. */
export async function runAtOnce(page, code) {
  const composer = page.getByTestId('composer');
  await composer.fill(code);
  await composer.press('Shift+Enter');
}

/** The page's one turn, finished, printing `printed`; fails if the cell was lost, ran twice, or is also back in the composer. */
export async function expectOnlyTurn(page, printed) {
  const turn = page.getByTestId('turn').first();
  await turn.waitFor({ timeout: 30000 });
  await finished(turn);
  assert.equal((await outputs(turn, 'stream').innerText()).trim(), printed);
  await page.getByTestId('pending-turn').first().waitFor({ state: 'detached' });
  // a cell sent twice would show a second turn a round trip later
  await page.waitForTimeout(500);
  assert.equal(await page.getByTestId('turn').count(), 1, 'the cell ran exactly once');
  assert.equal(await page.getByTestId('composer').inputValue(), '', 'the cell is not also back in the composer');
}

export async function finished(turn, timeout = 30000) {
  await turn.locator('.turn-footer').filter({ hasNotText: /running|queued/ }).waitFor({ timeout });
}

export const outputs = (turn, type) => turn.locator(`[data-testid="output"][data-output-type="${type}"]`);

/** Waits until the status line says local mode is ready (Pyodide loaded in its frame). */
export async function localReady(page) {
  await page.getByTestId('status').filter({ hasText: 'Local' }).filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
}

/**
 * Resolves once the app keeps local mode's memory snapshot (taken by a background worker of the
 * runtime frame after its first `ready`; that worker loads our static files meanwhile).
 */
export async function snapshotKept(page, timeoutMs = 120000) {
  const until = Date.now() + timeoutMs;
  while (!await page.evaluate(() => new Promise((resolve) => {
    const r = indexedDB.open('codeinterp-snapshots', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('snapshots');
    r.onerror = () => resolve(false);
    r.onsuccess = () => {
      const count = r.result.transaction('snapshots').objectStore('snapshots').count();
      count.onsuccess = () => { r.result.close(); resolve(count.result > 0); };
      count.onerror = () => { r.result.close(); resolve(false); };
    };
  }))) {
    assert.ok(Date.now() < until, 'no memory snapshot was kept');
    await page.waitForTimeout(200);
  }
}

/** The app (of the server at `url`, the suite's by default) in a fresh browser profile, in local mode and ready, with every request it makes from then on. */
export async function openLocal(browser, url = BASE_URL) {
  const context = await browser.newContext();
  const requests = [];
  context.on('request', (r) => requests.push({ method: r.method(), url: r.url(), body: r.postData() || '', frame: r.frame()?.url() || '', request: r }));
  // as a returning local-mode user: the page starts in local mode, so no server session is opened first
  await context.addInitScript(() => {
    try {
      if (window.top === window && !localStorage.getItem('codeinterp.mode')) localStorage.setItem('codeinterp.mode', 'local');
    } catch { /* a sandboxed frame has no storage */ }
  });
  const page = await context.newPage();
  await page.goto(url + '/');
  await localReady(page);
  return { context, page, requests };
}

/** An answered assistant turn as the page shows it: the prompt, the code it ran and its output, the answer. */
export async function shownAssistantTurn(page) {
  const answer = page.getByTestId('assistant-turn');
  await answer.getByTestId('assistant-footer').filter({ hasText: 'answered' }).waitFor({ timeout: 60000 });
  const cell = answer.getByTestId('turn');
  return {
    prompt: await page.getByTestId('prompt-turn').locator('.prompt-text').innerText(),
    label: await cell.getByTestId('run-by-assistant').innerText(),
    code: await cell.locator('pre.code').innerText(),
    output: (await outputs(cell, 'stream').innerText()).trim(),
    answer: (await answer.getByTestId('assistant-text').allInnerTexts()).join(''),
  };
}

/**
 * The seed checklist, the same in both modes: hello, a result, statistics, a chart (checked by
 * `checkChart`, since local mode has no matplotlib offline), a SyntaxError, and an interrupt of
 * `while True: pass` within `interruptWithinMs` that keeps state.
 */
export async function seedChecklist(page, checkChart, interruptWithinMs = 10000) {
  let turn = await runCell(page, "print('Hello')");
  await finished(turn);
  assert.equal((await outputs(turn, 'stream').innerText()).trim(), 'Hello');

  turn = await runCell(page, 'import math\nmath.factorial(10)');
  await finished(turn);
  assert.match(await outputs(turn, 'result').innerText(), /3628800/);

  turn = await runCell(page, 'import statistics\ndata = [1, 2, 3, 4, 5]\nprint(statistics.mean(data), statistics.median(data), statistics.pstdev(data))');
  await finished(turn);
  assert.match(await outputs(turn, 'stream').innerText(), /^3 3 1\.41/);

  turn = await runCell(page, "import matplotlib.pyplot as plt\nplt.bar(['a', 'b', 'c'], [10, 20, 30])\nplt.show()");
  await finished(turn);
  await checkChart(turn);

  turn = await runCell(page, 'print(2 +');
  await finished(turn);
  assert.match(await outputs(turn, 'error').innerText(), /SyntaxError/);

  await finished(await runCell(page, 'kept = 41'));
  turn = await runCell(page, 'while True: pass');
  await turn.locator('.turn-footer').filter({ hasText: 'running' }).waitFor();
  const asked = Date.now();
  await page.getByTestId('interrupt').click();
  await finished(turn, interruptWithinMs + 5000);
  const took = Date.now() - asked;
  assert.ok(took < interruptWithinMs, `interrupt took ${took} ms`);
  assert.match(await outputs(turn, 'error').innerText(), /KeyboardInterrupt/);
  turn = await runCell(page, 'kept + 1');
  await finished(turn);
  assert.match(await outputs(turn, 'result').innerText(), /42/, 'the interrupt keeps state');
}
