// With API keys, a conversation belongs to the key that started it: a second browser (another
// device) holding the key lists the key's conversations with their titles and opens them; a key
// never lists another key's; a link to another key's conversation says it cannot be opened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { launch, runCell, finished } from '../browser.js';
import { startServerWithKeys } from '../server.js';

const KEY = randomBytes(24).toString('hex');
const OTHER_KEY = randomBytes(24).toString('hex');
let browser;
let server;

before(async () => {
  server = await startServerWithKeys({ team: KEY, other: OTHER_KEY });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A browser of its own (another device) that has been given `key`. */
async function device(key) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.getByTestId('api-key').fill(key);
  await page.getByTestId('api-key').press('Enter');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { context, page };
}

const route = (page) => page.evaluate(() => location.hash.slice(1));
const row = (page, r) => page.locator(`[data-testid="conversation"][data-route="${r}"]`);

test("a second browser holding the key lists the key's conversations with their titles and opens them", async () => {
  const laptop = await device(KEY);
  let phone;
  let stranger;
  try {
    const first = await runCell(laptop.page, '# quarterly report\nrevenue = 1200');
    await finished(first);
    const report = await route(laptop.page);
    await row(laptop.page, report).getByTestId('conversation-rename').click();
    await laptop.page.getByTestId('conversation-title-field').fill('Quarterly report');
    await laptop.page.getByTestId('conversation-title-field').press('Enter');
    await laptop.page.waitForFunction(async (id) => {
      const r = await fetch('/api/v1/sessions/' + id, { headers: { Authorization: 'Bearer ' + localStorage.getItem('codeinterp.token.' + id) } });
      return (await r.json()).title === 'Quarterly report';
    }, report.slice(3));

    phone = await device(KEY);
    const listed = row(phone.page, report);
    await listed.filter({ hasText: 'Quarterly report' }).waitFor();
    assert.equal(await listed.getAttribute('data-mode'), 'server');
    assert.match(await listed.getAttribute('data-state'), /running|suspended/);
    assert.equal(await phone.page.evaluate((id) => localStorage.getItem('codeinterp.token.' + id), report.slice(3)), null,
      'the phone holds no token of it: the key opens it');

    await listed.locator('a').click();
    await phone.page.getByTestId('turn').filter({ hasText: 'quarterly report' }).waitFor({ timeout: 30000 });
    await phone.page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    const more = await runCell(phone.page, 'print(revenue * 2)');
    await finished(more);
    assert.match(await more.innerText(), /2400/, 'its variables are there');

    // another key lists none of them, and the link says it cannot be opened
    stranger = await device(OTHER_KEY);
    await stranger.page.waitForTimeout(500);
    assert.equal(await row(stranger.page, report).count(), 0, "another key's conversations are not listed");
    await stranger.page.goto(server.url + '/#' + report);
    await stranger.page.getByTestId('foreign-link').filter({ hasText: 'another key' }).waitFor();
  } finally {
    await laptop.context.close();
    await phone?.context.close();
    await stranger?.context.close();
  }
});
