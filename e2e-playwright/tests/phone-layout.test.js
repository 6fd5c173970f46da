// The conversation page on a phone (390x844), in both modes: the top bar is one row, the composer
// compact, every button and field a touch target of at least 44 px, and the hint names the Run button
// (a phone has no Shift+Enter at hand).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, finished } from '../browser.js';
import { openMode } from '../outputs-set.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

for (const mode of ['server', 'local']) {
  test(`${mode} mode: at 390x844 the top bar is one row, the composer compact, touch targets 44 px, the hint names Run`, async () => {
    const { context, page } = await openMode(browser, mode, PHONE);
    try {
      const composer = page.getByTestId('composer');
      assert.match(await composer.getAttribute('placeholder'), /tap Run/);
      assert.doesNotMatch(await composer.getAttribute('placeholder'), /Shift\+Enter/);
      await composer.fill("print('from a phone')");
      await page.getByTestId('run').tap();
      const turn = page.getByTestId('turn').first();
      await finished(turn);

      const header = await page.locator('.topbar').boundingBox();
      assert.ok(header.height <= 56, `the top bar is one row (${header.height} px)`);
      const band = await page.locator('.topbar > *').evaluateAll((items) => {
        const boxes = items.filter((e) => e.offsetParent !== null).map((e) => e.getBoundingClientRect());
        return { lowestTop: Math.max(...boxes.map((b) => b.top)), highestBottom: Math.min(...boxes.map((b) => b.bottom)) };
      });
      assert.ok(band.lowestTop < band.highestBottom, 'its items share one row');
      const footer = await page.locator('footer.composer').boundingBox();
      assert.ok(header.height + footer.height <= 844 * 0.34, `top bar and composer take ${Math.round((header.height + footer.height) / 8.44)} % of the height`);

      const small = await page.locator('.topbar, footer.composer').evaluateAll((roots) => roots.flatMap((root) =>
        [...root.querySelectorAll('button, select, input:not([type=file]), label.btn')]
          .filter((e) => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
          .map((e) => ({ what: e.getAttribute('data-testid') || e.className || e.tagName, box: e.getBoundingClientRect() }))
          .filter(({ box }) => box.height < 44 || box.width < 44)
          .map(({ what, box }) => `${what} ${Math.round(box.width)}x${Math.round(box.height)}`)));
      assert.deepEqual(small, [], 'every touch target is at least 44x44 px');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `no sideways scrolling (${width} px)`);
    } finally {
      await context.close();
    }
  });
}
