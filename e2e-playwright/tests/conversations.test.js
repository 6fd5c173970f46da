// Over 300 lines: the sidebar's behaviours (list, search, rename, delete, Back, gone, foreign links, phone) share one server and page helpers.
// The list of conversations (the sidebar): every conversation this browser can open, server and
// local, newest first, titled by its first cell, searchable over titles and code, renamed and
// deleted from the list; "New conversation" keeps the old one a Back away; a server conversation
// the server no longer has stays listed as gone until removed; a link this browser cannot open
// says so instead of turning into another conversation. Against a server of the test's own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, localReady } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let server;

before(async () => {
  server = await startServer({ CODEINTERP_POOL_SIZE: '1' });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openApp(context, path = '/') {
  const page = await context.newPage();
  await page.goto(server.url + path);
  await connected(page);
  return page;
}

const connected = (page) => page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
const route = (page) => page.evaluate(() => location.hash.slice(1));
const rows = (page) => page.getByTestId('conversations').getByTestId('conversation');
const row = (page, r) => page.locator(`[data-testid="conversation"][data-route="${r}"]`);
const tokenOf = (page, r) => page.evaluate((id) => localStorage.getItem('codeinterp.token.' + id), r.slice(3));

async function ran(page, code) {
  const turn = await runCell(page, code);
  await finished(turn);
  return turn;
}

test('server conversations are listed newest first by their first line; New conversation keeps the old one a Back away', async () => {
  const context = await browser.newContext();
  try {
    const page = await openApp(context);
    await ran(page, '\n\n# sales by region\nx = 41');
    const first = await route(page);
    await row(page, first).filter({ hasText: 'sales by region' }).waitFor();
    assert.equal(await page.title(), 'sales by region · codeinterp', 'the page title names the conversation');
    const firstRow = row(page, first);
    assert.equal(await firstRow.getAttribute('data-mode'), 'server');
    assert.equal(await firstRow.getAttribute('data-state'), 'running');
    assert.match(await firstRow.innerText(), /Server.*running.*just now/s);

    await page.getByTestId('new-conversation').click();
    await page.waitForFunction((old) => location.hash.slice(1) !== old && location.hash.startsWith('#/s/'), first);
    await connected(page);
    const second = await route(page);
    assert.equal(await page.getByTestId('turn').count(), 0, 'a new conversation starts empty');
    await ran(page, 'import math\ny = math.pi');
    await row(page, second).filter({ hasText: 'import math' }).waitFor();
    assert.deepEqual(await rows(page).evaluateAll((els) => els.map((e) => e.dataset.route)), [second, first], 'newest first');
    assert.equal(await row(page, second).getAttribute('aria-current'), null);
    assert.equal(await row(page, second).locator('a').getAttribute('aria-current'), 'page', 'the one shown is marked');

    await page.goBack();
    await page.waitForFunction((old) => location.hash.slice(1) === old, first);
    await page.getByTestId('turn').filter({ hasText: 'sales by region' }).waitFor();
    await connected(page);
    const back = await ran(page, 'print(x + 1)');
    assert.match(await back.innerText(), /42/, 'Back returns to the old conversation, its variables kept');
    assert.equal(await page.title(), 'sales by region · codeinterp');

    // the list is this browser's: a reload shows it again, each row opens its conversation
    await page.reload();
    await connected(page);
    await row(page, second).waitFor();
    await row(page, second).locator('a').click();
    await page.getByTestId('turn').filter({ hasText: 'import math' }).waitFor();
    assert.equal(await route(page), second);
  } finally {
    await context.close();
  }
});

test('search finds conversations by title and by the code of any cell; rename keeps a hostile title as bounded text', async () => {
  const context = await browser.newContext();
  try {
    const page = await openApp(context);
    await ran(page, 'a = 1');
    await ran(page, 'def zebra_stripes():\n    return 3');
    const zebra = await route(page);
    await page.getByTestId('new-conversation').click();
    await page.waitForFunction((old) => location.hash.slice(1) !== old, zebra);
    await connected(page);
    await ran(page, 'b = 2');
    const other = await route(page);
    await rows(page).nth(1).waitFor();

    const search = page.getByTestId('conversation-search');
    await search.fill('ZEBRA_str');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 1);
    assert.equal(await rows(page).first().getAttribute('data-route'), zebra, 'found by the code of its second cell');
    await search.fill('b = 2');
    await page.waitForFunction((r) => document.querySelector('[data-testid="conversation"]')?.dataset.route === r, other);
    await search.fill('nothing like this');
    await page.getByTestId('conversations').getByText('No conversation matches.').waitFor();
    await search.fill('');
    await rows(page).nth(1).waitFor();

    const hostile = '<img src=x onerror="window.pwned=1"><b>bold</b>\u0000\u001b[31m\u202e' + 'x'.repeat(10 * 1024);
    await row(page, zebra).getByTestId('conversation-rename').click();
    const field = page.getByTestId('conversation-title-field');
    await field.fill('');
    await field.evaluate((el, v) => { el.value = v; }, hostile); // past the field's maxlength, as a script could
    await field.press('Enter');
    const title = row(page, zebra).locator('.conversation-title');
    await title.filter({ hasText: '<img src=x' }).waitFor();
    const shown = await title.textContent();
    assert.ok(shown.startsWith('<img src=x onerror="window.pwned=1"><b>bold</b> [31m'), shown.slice(0, 80));
    assert.ok(shown.length <= 200, `bounded: ${shown.length} characters`);
    assert.doesNotMatch(shown, /[\u0000-\u001f\u202e]/, 'no control characters');
    assert.equal(await page.locator('.sidebar img, .sidebar b').count(), 0, 'markup stays text');
    assert.equal(await page.evaluate(() => window.pwned), undefined);

    await row(page, zebra).getByTestId('conversation-rename').click();
    await page.getByTestId('conversation-title-field').fill('Zebra analysis');
    await page.getByTestId('conversation-title-field').press('Enter');
    await row(page, zebra).filter({ hasText: 'Zebra analysis' }).waitFor();
    await row(page, zebra).getByTestId('conversation-rename').click();
    await page.getByTestId('conversation-title-field').fill('not this');
    await page.getByTestId('conversation-title-field').press('Escape');
    await row(page, zebra).filter({ hasText: 'Zebra analysis' }).waitFor();
    await search.fill('analysis');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation"]').length === 1);
    await search.fill('');
    await page.reload();
    await connected(page);
    await row(page, zebra).filter({ hasText: 'Zebra analysis' }).waitFor();
    await ran(page, 'c = 3');
    assert.match(await row(page, zebra).innerText(), /Zebra analysis/, 'a renamed conversation keeps its name');
  } finally {
    await context.close();
  }
});

test('delete asks first, then closes the session on the server and forgets it; the one shown gives way to a new one', async () => {
  const context = await browser.newContext();
  try {
    const page = await openApp(context);
    await ran(page, 'doomed = True');
    const doomed = await route(page);
    const token = await tokenOf(page, doomed);
    await row(page, doomed).getByTestId('conversation-delete').click();
    await page.getByTestId('conversation-delete-cancel').click();
    await row(page, doomed).getByTestId('conversation-delete').waitFor();
    assert.equal((await fetch(`${server.url}/api/v1/sessions/${doomed.slice(3)}`, { headers: { Authorization: `Bearer ${token}` } })).status, 200,
      'cancel keeps it');

    await row(page, doomed).getByTestId('conversation-delete').click();
    assert.match(await page.getByTestId('conversations').innerText(), /session is closed on the server/);
    await page.getByTestId('conversation-delete-confirm').click();
    await row(page, doomed).waitFor({ state: 'detached' });
    await page.waitForFunction((old) => location.hash.startsWith('#/s/') && location.hash.slice(1) !== old, doomed);
    await connected(page);
    assert.equal(await page.getByTestId('turn').count(), 0, 'a new conversation is shown');
    assert.equal(await tokenOf(page, doomed), null, 'its token is forgotten');
    const after = await fetch(`${server.url}/api/v1/sessions/${doomed.slice(3)}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(after.status, 404, 'the session is closed');
    await page.reload();
    await connected(page);
    assert.equal(await row(page, doomed).count(), 0, 'still gone after a reload');
  } finally {
    await context.close();
  }
});

test('a conversation the server no longer has stays listed as gone, opens to say so, and can be removed', async () => {
  const context = await browser.newContext();
  try {
    const page = await openApp(context);
    await ran(page, 'kept_title = 1');
    const gone = await route(page);
    await page.getByTestId('new-conversation').click();
    await page.waitForFunction((old) => location.hash.slice(1) !== old, gone);
    await connected(page);
    // the server lets go of it (closed by another client holding its token)
    const closed = await fetch(`${server.url}/api/v1/sessions/${gone.slice(3)}`, { method: 'DELETE', headers: { Authorization: `Bearer ${await tokenOf(page, gone)}` } });
    assert.equal(closed.status, 204);
    await page.reload();
    await connected(page);
    await page.locator(`[data-testid="conversation"][data-route="${gone}"][data-state="gone"]`).waitFor();
    assert.match(await row(page, gone).innerText(), /kept_title = 1.*gone/s, 'listed with its title, as gone');

    await row(page, gone).locator('a').click();
    await page.getByTestId('status').filter({ hasText: 'no longer exists' }).waitFor();
    await row(page, gone).getByTestId('conversation-delete').click();
    assert.match(await page.getByTestId('conversations').innerText(), /server no longer has it/);
    await page.getByTestId('conversation-delete-confirm').click();
    await row(page, gone).waitFor({ state: 'detached' });
    await connected(page);
  } finally {
    await context.close();
  }
});

test('a link to a conversation this browser cannot open shows a page saying so, starts nothing, and offers a new one', async () => {
  const owner = await browser.newContext();
  const stranger = await browser.newContext();
  try {
    const page = await openApp(owner);
    await ran(page, 'secret = 1');
    const link = server.url + '/#' + await route(page);
    const sessionsBefore = (await (await fetch(server.url + '/healthz')).json()).sessions;

    const other = await stranger.newPage();
    await other.goto(link);
    const foreign = other.getByTestId('foreign-link');
    await foreign.waitFor();
    assert.match(await foreign.innerText(), /This conversation is not in this browser.*another browser/s);
    assert.equal(await other.title(), 'Conversation not found · codeinterp');
    assert.equal(await other.evaluate(() => location.href), link, 'the address still names the link');
    await other.waitForTimeout(800);
    assert.equal((await (await fetch(server.url + '/healthz')).json()).sessions, sessionsBefore, 'no session was started');
    assert.equal(await other.getByTestId('turn').count(), 0);

    await other.getByTestId('foreign-new-conversation').click();
    await connected(other);
    await foreign.waitFor({ state: 'detached' });
    assert.notEqual(await route(other), link.split('#')[1]);
    await ran(other, 'print("mine")');

    // a local link of a conversation this browser never had
    await other.goto(server.url + '/#/l/' + 'ab'.repeat(16));
    await other.getByTestId('foreign-link').filter({ hasText: 'local conversation' }).waitFor();
  } finally {
    await owner.close();
    await stranger.close();
  }
});

test('local conversations are listed as local beside server ones, renamed and deleted from this browser', async () => {
  const context = await browser.newContext();
  try {
    const page = await openApp(context);
    await ran(page, 'on_server = 1');
    const serverRoute = await route(page);
    await page.getByTestId('mode-local').click();
    await localReady(page);
    await ran(page, 'in_the_browser = 2');
    const local = await route(page);
    assert.match(local, /^\/l\/[0-9a-f]{32}$/);
    const localRow = page.locator(`[data-testid="conversation"][data-route="${local}"][data-mode="local"][data-state="local"]`);
    await localRow.filter({ hasText: 'in_the_browser = 2' }).waitFor();
    assert.match(await localRow.innerText(), /Local/);
    assert.equal(await row(page, serverRoute).getAttribute('data-mode'), 'server');

    await page.goBack(); // the mode switch started a new conversation: Back returns to the server one
    await page.getByTestId('turn').filter({ hasText: 'on_server' }).waitFor();
    await connected(page);
    await page.goForward();
    await page.getByTestId('turn').filter({ hasText: 'in_the_browser' }).waitFor();

    await localRow.getByTestId('conversation-rename').click();
    await page.getByTestId('conversation-title-field').fill('Browser-only notes');
    await page.getByTestId('conversation-title-field').press('Enter');
    await page.reload();
    await localReady(page);
    await localRow.filter({ hasText: 'Browser-only notes' }).waitFor();
    assert.equal(await page.title(), 'Browser-only notes · codeinterp');

    await row(page, local).getByTestId('conversation-delete').click();
    assert.match(await page.getByTestId('conversations').innerText(), /deleted/);
    await page.getByTestId('conversation-delete-confirm').click();
    await row(page, local).waitFor({ state: 'detached' });
    await page.goto(server.url + '/#' + local);
    await page.getByTestId('foreign-link').waitFor(); // its history is gone from this browser
  } finally {
    await context.close();
  }
});

test('on a phone the list is a drawer: the header button opens it, choosing a conversation closes it', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await openApp(context);
    await ran(page, 'phone_one = 1');
    const one = await route(page);
    const sidebar = page.getByTestId('conversations');
    assert.equal(await sidebar.isVisible(), false, 'closed at first');
    const toggle = page.getByTestId('conversations-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    const box = await toggle.boundingBox();
    assert.ok(box.width >= 44 && box.height >= 44, `toggle ${box.width}x${box.height}`);
    await toggle.click();
    await sidebar.waitFor({ state: 'visible' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.getByTestId('new-conversation').click();
    await sidebar.waitFor({ state: 'hidden' });
    await page.waitForFunction((old) => location.hash.slice(1) !== old, one);
    await connected(page);
    await toggle.click();
    await row(page, one).locator('a').click();
    await sidebar.waitFor({ state: 'hidden' });
    await page.getByTestId('turn').filter({ hasText: 'phone_one' }).waitFor();
    await toggle.click();
    await sidebar.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await sidebar.waitFor({ state: 'hidden' });
  } finally {
    await context.close();
  }
});
