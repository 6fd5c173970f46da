// The composer's Packages field against the real server and npm's real registry: an allowlisted
// package installs before the cell runs and its install line stays after a reload; a package off
// the allowlist, and hostile text in the field, are refused by the server, shown as text, and the
// cell does not run. Bash hides the field; local mode disables it and says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, BASE_URL } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function serverConnected(page) {
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
}

const pick = (page, language) => page.getByTestId('language').selectOption(language);
const packagesField = (page) => page.getByTestId('packages');

/** Runs `code` with `packages` typed in the field; resolves once the server refused it (no turn). */
async function runRefused(page, code, packages) {
  const turnsBefore = await page.getByTestId('turn').count();
  const refusedBefore = await page.getByTestId('refused-turn').count();
  await packagesField(page).fill(packages);
  const composer = page.getByTestId('composer');
  await composer.fill(code);
  await composer.press('Shift+Enter');
  const refused = page.getByTestId('refused-turn').nth(refusedBefore);
  await refused.waitFor({ timeout: 30000 });
  assert.equal(await page.getByTestId('turn').count(), turnsBefore, 'nothing was queued');
  assert.equal(await composer.inputValue(), code, 'the cell is back in the composer');
  return refused;
}

async function page() {
  const context = await browser.newContext();
  const p = await context.newPage();
  await p.goto(BASE_URL + '/');
  await serverConnected(p);
  return { context, page: p };
}

test('an allowlisted npm package in the field installs before the cell, and its install line survives a reload', async () => {
  const { context, page: p } = await page();
  try {
    await pick(p, 'javascript');
    await packagesField(p).fill('is-odd');
    let turn = await runCell(p, "require('is-odd')(3)");
    await finished(turn, 150000);
    const install = turn.getByTestId('install');
    assert.match(await install.innerText(), /^Installed is-odd \(JavaScript\) (from cache )?in \d+(\.\d)? m?s$/);
    assert.match(await outputs(turn, 'result').innerText(), /true/);
    const installLine = await install.innerText();

    await p.reload();
    await serverConnected(p);
    turn = p.getByTestId('turn').first();
    await finished(turn);
    assert.equal(await turn.getByTestId('install').innerText(), installLine, 'the replayed turn shows the same install line');
    assert.match(await outputs(turn, 'result').innerText(), /true/);
    assert.equal(await p.getByTestId('language').inputValue(), 'javascript');
    assert.equal(await packagesField(p).inputValue(), 'is-odd', 'the field is remembered per conversation');

    // the session has it now (the replayed install says so): the next cell does not ask again
    turn = await runCell(p, "require('is-odd')(4)");
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /false/);
    assert.equal(await turn.getByTestId('install').count(), 0, 'an installed package is not installed again');

    // bash takes no packages: the field goes away, and comes back with JavaScript's names
    await pick(p, 'bash');
    assert.equal(await packagesField(p).isVisible(), false);
    await pick(p, 'python');
    assert.equal(await packagesField(p).inputValue(), '', 'each language keeps its own names');
    await pick(p, 'javascript');
    assert.equal(await packagesField(p).inputValue(), 'is-odd');
  } finally {
    await context.close();
  }
});

test('packages typed while the session is still being created go with the cell held for it', async () => {
  const context = await browser.newContext();
  const p = await context.newPage();
  try {
    let release;
    const released = new Promise((resolve) => { release = resolve; });
    await p.route('**/api/v1/sessions', async (route) => { await released; await route.continue(); });
    await p.goto(BASE_URL + '/');
    await pick(p, 'javascript');
    await packagesField(p).fill('is-odd');
    const composer = p.getByTestId('composer');
    await composer.fill("require('is-odd')(7)");
    await composer.press('Shift+Enter');
    await p.getByTestId('pending-turn').waitFor();
    release();
    const turn = p.getByTestId('turn').first();
    await turn.waitFor({ timeout: 30000 });
    await finished(turn, 150000);
    assert.match(await turn.getByTestId('install').innerText(), /^Installed is-odd \(JavaScript\)/);
    assert.match(await outputs(turn, 'result').innerText(), /true/);
    assert.equal(await packagesField(p).inputValue(), 'is-odd', 'the new conversation keeps what was typed');
  } finally {
    await context.close();
  }
});

test('a package off the allowlist is refused with its name, and the cell does not run', async () => {
  const { context, page: p } = await page();
  try {
    await pick(p, 'javascript');
    const refused = await runRefused(p, "globalThis.ranAnyway = 1; 'ran'", 'is-odd, express');
    assert.match(await refused.getByTestId('refusal').innerText(),
      /javascript package 'express' is not on this server's package allowlist, so the cell did not run/);
    assert.match(await p.getByTestId('status').innerText(), /express/);

    await packagesField(p).fill('');
    const turn = await runCell(p, 'typeof globalThis.ranAnyway');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /undefined/, 'the refused cell never ran');

    // Python: the field's names are Python's (an npm name is refused as one), and %pip's refusal ends the cell in its turn
    await pick(p, 'python');
    const refusedPython = await runRefused(p, 'print("ran anyway")', 'left-pad');
    assert.match(await refusedPython.getByTestId('refusal').innerText(), /python package 'left-pad' is not on this server's package allowlist/);
    await packagesField(p).fill('');
    const pip = await runCell(p, '%pip install express\nprint("after")');
    await finished(pip);
    assert.match(await outputs(pip, 'error').innerText(),
      /PackageRefused: python package 'express' is not on this server's package allowlist, so the cell did not install it/);
    assert.equal(await outputs(pip, 'stream').count(), 0, 'the cell stopped at the refusal');
  } finally {
    await context.close();
  }
});

test('hostile text in the field is shown as text and refused by the server', async () => {
  const { context, page: p } = await page();
  try {
    await pick(p, 'javascript');
    const code = "globalThis.hostile = 1; 'ran'";
    const markup = '<img src=x onerror="window.pwned=1">';
    let refused = await runRefused(p, code, markup);
    assert.equal(await packagesField(p).inputValue(), markup, 'the field holds the text as typed');
    assert.match(await refused.getByTestId('refusal').textContent(), /javascript package '<img' is not an npm package name/);
    assert.equal(await p.locator('[data-testid="refused-turn"] img, footer img').count(), 0, 'no markup was parsed');

    const long = 'a'.repeat(3000);
    refused = await runRefused(p, code, long);
    const said = await refused.getByTestId('refusal').textContent();
    assert.ok(said.includes(`'${'a'.repeat(80)}…' is not a package name`), said.slice(0, 200));
    assert.ok(said.length < 400, 'the server names a long package in a bounded line');

    refused = await runRefused(p, code, '../x');
    assert.match(await refused.getByTestId('refusal').textContent(), /javascript package '\.\.\/x' is not an npm package name/);

    refused = await runRefused(p, code, 'git+https://github.com/jonschlinkert/is-odd.git');
    assert.match(await refused.getByTestId('refusal').textContent(),
      /javascript package 'git\+https:\/\/github\.com\/jonschlinkert\/is-odd\.git' is not an npm package name/);

    refused = await runRefused(p, code, '--registry=http://evil.example/ is-odd');
    assert.match(await refused.getByTestId('refusal').textContent(), /'--registry=http:\/\/evil\.example\/' is not an npm package name/);

    await packagesField(p).fill('');
    const turn = await runCell(p, 'typeof globalThis.hostile');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /undefined/, 'none of the refused cells ran');
    assert.equal(await p.evaluate(() => window.pwned), undefined);
  } finally {
    await context.close();
  }
});

test('local mode shows the field disabled and says packages install in server mode only', async () => {
  const context = await browser.newContext();
  const p = await context.newPage();
  try {
    await p.goto(BASE_URL + '/');
    await p.getByTestId('mode-local').click();
    await p.getByTestId('status').filter({ hasText: 'Local' }).waitFor({ timeout: 60000 });
    const field = packagesField(p);
    assert.equal(await field.isDisabled(), true);
    assert.equal(await field.getAttribute('placeholder'), 'server mode only');
    assert.match(await field.getAttribute('title'), /server mode only.*Python loads a cell's imports by itself/s);
  } finally {
    await context.close();
  }
});
