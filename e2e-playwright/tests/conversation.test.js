// The chat UI against the real server and Docker engine, in Debian's Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, seedChecklist, BASE_URL } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openApp(options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(BASE_URL + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { context, page };
}

test('the seed checklist runs from the composer', async () => {
  const { context, page } = await openApp();
  try {
    await seedChecklist(page, async (turn) => {
      const image = outputs(turn, 'display').locator('img');
      await image.waitFor();
      assert.ok(await image.evaluate(img => img.complete && img.naturalWidth > 100));
    });
  } finally {
    await context.close();
  }
});

test('a cell printing 5 lines 300 ms apart shows its first line before the last is printed', async () => {
  const { context, page } = await openApp();
  try {
    const turn = await runCell(page, "import time\nfor i in range(5):\n    print('line', i, flush=True)\n    time.sleep(0.3)");
    const started = Date.now();
    await outputs(turn, 'stream').filter({ hasText: 'line 0' }).waitFor();
    const firstSeen = Date.now() - started;
    assert.equal(await turn.locator('.turn-footer').filter({ hasText: 'running' }).count(), 1, 'still running when line 0 shows');
    await finished(turn);
    assert.ok(firstSeen < 1000, `first line after ${firstSeen} ms`);
  } finally {
    await context.close();
  }
});

test('state persists: x = 41 then x + 1 shows 42', async () => {
  const { context, page } = await openApp();
  try {
    await finished(await runCell(page, 'x = 41'));
    const turn = await runCell(page, 'x + 1');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /Out\[2\]:\s*42/);
  } finally {
    await context.close();
  }
});

test('reload restores the conversation, and a killed WebSocket mid-cell shows every line exactly once', async () => {
  const { context, page } = await openApp();
  try {
    await finished(await runCell(page, "print('before reload')"));
    await page.reload();
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor();
    await page.locator('[data-output-type="stream"]', { hasText: 'before reload' }).waitFor();
    assert.equal(await page.getByTestId('turn').count(), 1);

    // from now on every WebSocket goes through the test, which can cut it
    const sockets = [];
    await page.routeWebSocket(/\/ws$/, ws => { ws.connectToServer(); sockets.push(ws); });
    await page.reload();
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor();
    // the history is replayed after "connected": the new cell's turn must come after it
    await page.locator('[data-output-type="stream"]', { hasText: 'before reload' }).waitFor();
    const turn = await runCell(page, "import time\nfor i in range(12):\n    print('n', i, flush=True)\n    time.sleep(0.15)");
    await outputs(turn, 'stream').filter({ hasText: 'n 2' }).waitFor();
    await sockets.at(-1).close({ code: 1006 });
    await finished(turn, 20000);
    const text = await outputs(turn, 'stream').allInnerTexts();
    const lines = text.join('').trim().split('\n');
    assert.deepEqual(lines, Array.from({ length: 12 }, (_, i) => `n ${i}`));
    assert.ok(sockets.length >= 2, 'the page reconnected by itself');
  } finally {
    await context.close();
  }
});

test('hostile output changes nothing outside its frame, and text is never markup', async () => {
  const { context, page } = await openApp();
  try {
    await context.addCookies([{ name: 'app_secret', value: 'xyz', url: BASE_URL }]);
    const frameRequests = [];
    page.on('request', r => { if (r.frame() !== page.mainFrame() && !r.url().endsWith('/frame.html')) frameRequests.push(r.url()); });
    const html = "<b id=hostile>hi</b><script>try { parent.document.title = 'pwned'; } catch (e) {}"
      + "try { document.title = document.cookie; } catch (e) {}"
      + "fetch('/api/v1/sessions', {method: 'POST', credentials: 'include'}).catch(() => {});</script>";
    const turn = await runCell(page, `class H:\n    def _repr_html_(self): return ${JSON.stringify(html)}\nH()`);
    await finished(turn);
    const frame = outputs(turn, 'result').locator('iframe');
    await frame.waitFor();
    assert.equal(await frame.getAttribute('sandbox'), 'allow-scripts');
    await page.waitForTimeout(1000);
    assert.equal(await page.title(), 'class H: · codeinterp', 'the title names the conversation by its first cell, and only that');
    assert.deepEqual(frameRequests, [], 'the frame reached no network');
    assert.equal(await page.locator('#hostile').count(), 0, 'the markup stayed inside the frame');

    const textTurn = await runCell(page, "print('<img src=x onerror=alert(1)>')");
    await finished(textTurn);
    assert.equal((await outputs(textTurn, 'stream').innerText()).trim(), '<img src=x onerror=alert(1)>');
    assert.equal(await textTurn.locator('img').count(), 0);
  } finally {
    await context.close();
  }
});

test('10,000 lines of output arrive in full and the page stays responsive', async () => {
  const { context, page } = await openApp();
  try {
    const turn = await runCell(page, "for i in range(10000):\n    print('row', i)");
    // while it streams, the main thread keeps answering: no task blocks it for long
    const worstGapMs = await page.evaluate(() => new Promise(resolve => {
      let last = performance.now(), worst = 0, ticks = 0;
      const tick = () => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
        if (++ticks < 60) setTimeout(tick, 10); else resolve(worst);
      };
      setTimeout(tick, 10);
    }));
    await finished(turn);
    const text = (await outputs(turn, 'stream').allInnerTexts()).join('');
    assert.equal(text.trim().split('\n').length, 10000);
    assert.match(text, /row 9999\s*$/);
    // a generous bound: this asserts "never frozen", not a speed (CI machines are small and shared)
    assert.ok(worstGapMs < 1000, `the page was blocked for ${worstGapMs.toFixed(0)} ms`);
  } finally {
    await context.close();
  }
});

test('at a phone width the composer and its buttons stay on screen and labelled', async () => {
  const { context, page } = await openApp({ viewport: { width: 375, height: 700 }, isMobile: true });
  try {
    const turn = await runCell(page, "print('small screen')");
    await finished(turn);
    for (const id of ['composer', 'run', 'interrupt', 'restart']) {
      const box = await page.getByTestId(id).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 375, `${id} fits the width`);
      assert.ok(await page.getByTestId(id).getAttribute('aria-label'), `${id} has a label`);
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `no horizontal scrolling (${width}px)`);
  } finally {
    await context.close();
  }
});
