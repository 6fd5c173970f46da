// What you just ran stays in view, in both modes: after a long output the next cell is scrolled in
// above the fixed composer (not behind it); while output streams at the bottom the page follows it;
// scrolled up, the page stays put and a "↓ newest" control appears instead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs } from '../browser.js';
import { openMode } from '../outputs-set.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Where `locator` is against the visible band between the top bar and the composer. */
async function placeOf(page, locator) {
  const box = await locator.boundingBox();
  const composerTop = (await page.locator('footer.composer').boundingBox()).y;
  const headerBottom = await page.evaluate(() => document.querySelector('.topbar').getBoundingClientRect().bottom);
  return { top: box.y, bottom: box.y + box.height, composerTop, headerBottom };
}

for (const mode of ['server', 'local']) {
  test(`${mode} mode: after a long output the next cell shows above the composer, and streaming output is followed`, async () => {
    const { context, page } = await openMode(browser, mode, { viewport: { width: 1280, height: 800 } });
    try {
      await finished(await runCell(page, "for i in range(300):\n    print('long output line', i)"));
      const next = await runCell(page, "print('the next cell')");
      await finished(next);
      await page.waitForTimeout(200);
      const place = await placeOf(page, next);
      assert.ok(place.top >= place.headerBottom - 1, `the new cell's top (${place.top}) is below the top bar (${place.headerBottom})`);
      assert.ok(place.bottom <= place.composerTop + 1, `the new cell (bottom ${place.bottom}) is above the composer (top ${place.composerTop})`);
      const streaming = await runCell(page, "import time\nfor i in range(40):\n    print('streamed', i, flush=True)\n    time.sleep(0.05)");
      await finished(streaming);
      await page.waitForTimeout(200);
      const last = outputs(streaming, 'stream');
      const end = await placeOf(page, last);
      assert.ok(end.bottom <= end.composerTop + 1 && end.bottom > end.headerBottom, 'the page followed the stream to its last line');
      assert.ok(await page.getByTestId('newest').isHidden(), 'no "newest" control while at the bottom');
    } finally {
      await context.close();
    }
  });

  test(`${mode} mode: scrolled up, new output does not move the page; "↓ newest" appears and goes to it`, async () => {
    const { context, page } = await openMode(browser, mode, { viewport: { width: 1280, height: 800 } });
    try {
      await finished(await runCell(page, "for i in range(200):\n    print('earlier line', i)"));
      const turn = await runCell(page, "import time\nfor i in range(60):\n    print('slow', i, flush=True)\n    time.sleep(0.1)");
      await outputs(turn, 'stream').filter({ hasText: 'slow 2' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId('newest').waitFor({ state: 'visible', timeout: 5000 });
      await page.waitForTimeout(500);
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page stayed where the person scrolled to');
      await page.getByTestId('newest').click();
      await page.waitForFunction(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 48);
      await page.getByTestId('newest').waitFor({ state: 'hidden' });
      await finished(turn);
      const composerTop = (await page.locator('footer.composer').boundingBox()).y;
      const box = await outputs(turn, 'stream').boundingBox();
      assert.ok(box.y + box.height <= composerTop + 1, 'back at the end, the newest output is above the composer');
    } finally {
      await context.close();
    }
  });
}
