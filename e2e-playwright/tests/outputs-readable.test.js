// Every HTML output readable, in both modes and both themes: its sandboxed frame is sized to its whole
// document (margins included: nothing clipped, nothing left over), takes the page's colour scheme, and
// a DataFrame's text keeps AA contrast on the dark page. The theme switch is kept in the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from '../browser.js';
import { openMode, HTML_CELLS, PANDAS_CELLS, runAll, pickTheme, outputFrame, contrast } from '../outputs-set.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The frame's height against its document's: the frame shows all of it, and no more than a pixel besides. */
async function assertSizedToContent(name, turn) {
  const { element, frame } = await outputFrame(turn);
  await frame.waitForFunction(() => Math.abs(document.documentElement.getBoundingClientRect().height - innerHeight) <= 1,
    null, { timeout: 5000 }).catch(() => {});
  const inside = await frame.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    content: document.documentElement.getBoundingClientRect().height,
    viewport: innerHeight,
  }));
  const frameHeight = await element.evaluate((f) => f.clientHeight);
  assert.equal(frameHeight, inside.viewport);
  assert.ok(inside.scrollHeight <= frameHeight, `${name}: the document (${inside.scrollHeight} px) is clipped by its frame (${frameHeight} px)`);
  assert.ok(Math.abs(inside.content - frameHeight) <= 1, `${name}: the frame (${frameHeight} px) is sized to its content (${inside.content} px)`);
  return frame;
}

for (const mode of ['server', 'local']) {
  test(`${mode} mode: HTML output frames are sized to their content, margins included, in light and dark`, async () => {
    const { context, page } = await openMode(browser, mode, { viewport: { width: 1000, height: 800 } });
    try {
      const cells = mode === 'server' ? { ...HTML_CELLS, ...PANDAS_CELLS } : HTML_CELLS;
      const turns = await runAll(page, cells);
      for (const theme of ['light', 'dark']) {
        await pickTheme(page, theme);
        for (const [name, turn] of Object.entries(turns)) {
          const frame = await assertSizedToContent(`${theme} ${name}`, turn);
          assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), theme, `${name}: the frame is told the theme`);
        }
        const wide = await (await outputFrame(turns.wide)).frame.evaluate(() => {
          const out = document.getElementById('out');
          return { scrolls: out.scrollWidth > out.clientWidth, pageWidth: document.documentElement.scrollWidth, viewport: innerWidth };
        });
        assert.ok(wide.scrolls, 'a wide table scrolls sideways inside its frame');
        assert.ok(wide.pageWidth <= wide.viewport, 'and the frame itself does not overflow');
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 1000, `the page does not scroll sideways (${width} px)`);
    } finally {
      await context.close();
    }
  });
}

test('server mode: a DataFrame is legible in dark mode (AA contrast on the page, the frame in the page\'s scheme)', async () => {
  const { context, page } = await openMode(browser, 'server', { colorScheme: 'light' });
  try {
    const turns = await runAll(page, PANDAS_CELLS);
    await pickTheme(page, 'dark');
    const pageBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const schemeOfElement = await turns.dataframe.locator('iframe.html-output').evaluate((f) => getComputedStyle(f).colorScheme);
    for (const name of ['dataframe', 'styler']) {
      const { frame } = await outputFrame(turns[name]);
      await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      const inside = await frame.evaluate(() => ({
        scheme: getComputedStyle(document.documentElement).colorScheme,
        background: getComputedStyle(document.body).backgroundColor,
        cells: [...document.querySelectorAll('td, th')].map((c) => getComputedStyle(c).color),
      }));
      assert.equal(inside.scheme, 'dark');
      assert.equal(schemeOfElement, 'dark', 'the frame element has the page\'s scheme too (else Chromium paints it an opaque backdrop)');
      assert.equal(inside.background, 'rgba(0, 0, 0, 0)', 'the frame is transparent over the page');
      assert.ok(inside.cells.length >= 6, `${name}: the table is there`);
      for (const color of inside.cells) {
        const ratio = contrast(color, pageBackground);
        assert.ok(ratio >= 4.5, `${name}: cell text ${color} on ${pageBackground} has contrast ${ratio.toFixed(2)}`);
      }
    }
  } finally {
    await context.close();
  }
});

test('the theme switch (auto, light, dark) is kept in the browser and auto follows the system', async () => {
  const { context, page } = await openMode(browser, 'local', { colorScheme: 'dark' });
  try {
    assert.equal(await page.getByTestId('theme-switch').inputValue(), 'auto');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'auto: the system\'s dark');
    await pickTheme(page, 'light');
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.reload();
    await page.getByTestId('theme-switch').waitFor();
    assert.equal(await page.getByTestId('theme-switch').inputValue(), 'light', 'the choice is kept');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), light);
    await pickTheme(page, 'auto');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  } finally {
    await context.close();
  }
});
