// UI figures for the closing notes (not a test): time to an interactive composer, and Shift+Enter
// to the first output pixel for print(1), median of 20. CODEINTERP_URL=... node bench-ui.js
import { launch, finished, BASE_URL } from './browser.js';

const median = xs => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const browser = await launch();
const page = await browser.newPage();
const loads = [];
for (let i = 0; i < 5; i++) {
  await page.goto(BASE_URL + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  loads.push(await page.evaluate(() => performance.now()));
}
console.log(`page load → composer usable and session connected: median ${median(loads).toFixed(0)} ms (n=5, warm cache, new session each)`);

const runs = [];
for (let i = 0; i < 22; i++) {
  const turns = await page.getByTestId('turn').count();
  await page.getByTestId('composer').fill('print(1)');
  const ms = await page.evaluate((turns) => new Promise(resolve => {
    const composer = document.querySelector('[data-testid=composer]');
    const observer = new MutationObserver(() => {
      const turn = document.querySelectorAll('[data-testid=turn]')[turns];
      if (turn && turn.querySelector('[data-output-type=stream]')) {
        observer.disconnect();
        const inDom = performance.now() - t0;
        requestAnimationFrame(() => resolve([inDom, performance.now() - t0]));
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    const t0 = performance.now();
    composer.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true }));
  }), turns);
  await finished(page.getByTestId('turn').nth(turns));
  if (i >= 2) runs.push(ms);
}
console.log(`Shift+Enter → output in the DOM, print(1): median ${median(runs.map(r => r[0])).toFixed(1)} ms (n=20)`);
console.log(`Shift+Enter → next animation frame after it (first output pixel): median ${median(runs.map(r => r[1])).toFixed(1)} ms (n=20)`);
await browser.close();
