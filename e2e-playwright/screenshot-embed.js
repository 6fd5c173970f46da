// Renders docs/embed-example.html, served from another loopback port, with its widgets run, into
// docs/screenshot-embed.png. Run against a live server:
//   CODEINTERP_URL=http://127.0.0.1:8080 node screenshot-embed.js
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { launch, BASE_URL } from './browser.js';

const example = readFileSync(new URL('../docs/embed-example.html', import.meta.url));
const host = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(example);
});
await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 900, height: 1100 } });
await page.goto(`http://127.0.0.1:${host.address().port}/embed-example.html?server=${encodeURIComponent(BASE_URL)}`);
await page.getByText('chart widget: a cell finished: ok').waitFor({ timeout: 60000 });
await page.locator('#run').click();
await page.getByText('result: ').waitFor({ timeout: 60000 });
await page.waitForTimeout(800);
await page.screenshot({ path: new URL('../docs/screenshot-embed.png', import.meta.url).pathname, fullPage: true });
await browser.close();
host.close();
