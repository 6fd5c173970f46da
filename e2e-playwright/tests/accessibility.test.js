// An accessibility scan of the main page with axe-core (pinned in package.json), on a conversation
// holding every kind of output, in light and dark: no serious or critical violation. The output
// frames' content is the code's, not the page's, and sits in opaque origins axe cannot enter.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { launch } from '../browser.js';
import { openMode, HTML_CELLS, PANDAS_CELLS, OTHER_CELLS, runAll, pickTheme, outputFrame } from '../outputs-set.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The serious and critical violations axe finds on the page, one line each. */
async function violations(page) {
  if (!await page.evaluate(() => typeof window.axe === 'object')) {
    await page.addScriptTag({ content: AXE });
  }
  const result = await page.evaluate(() => window.axe.run(document, { iframes: false, resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1, 2).join('')}`));
}

for (const mode of ['server', 'local']) {
  test(`${mode} mode: axe finds no serious or critical violation on a conversation with every output kind, light and dark`, async () => {
    // the scan is injected as an inline script, which the app's CSP rightly refuses
    const { context, page } = await openMode(browser, mode, { bypassCSP: true, viewport: { width: 1280, height: 900 } });
    try {
      const cells = mode === 'server' ? { ...OTHER_CELLS, ...HTML_CELLS, ...PANDAS_CELLS } : { ...OTHER_CELLS, ...HTML_CELLS };
      const turns = await runAll(page, cells);
      await outputFrame(turns.paragraphs);
      await page.getByTestId('turn').nth(0).getByTestId('edit-cell').click(); // the cell editor, open, is scanned too
      for (const theme of ['light', 'dark']) {
        await pickTheme(page, theme);
        assert.deepEqual(await violations(page), [], `${theme}: serious or critical violations`);
      }
      await page.getByTestId('restart').click(); // and Restart's question and the shortcuts dialog
      await page.keyboard.press('Escape');
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('?');
      await page.getByTestId('shortcuts').waitFor({ state: 'visible' });
      assert.deepEqual(await violations(page), [], 'with the shortcuts dialog open');
    } finally {
      await context.close();
    }
  });
}
