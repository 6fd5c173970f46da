// Which sandbox runs the code, as a person sees it. The suite's own server is started with the
// defaults, so it runs gVisor (runsc) where the engine has it, as this machine's does: nothing to warn
// of. A server set to runc says that variables are not kept past idle, and why; one that fell back to
// runc because gVisor is not installed says that too. This host has gVisor, so the fallback is a runc
// server's own /healthz answered as a server without runsc would answer it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE_URL } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let runc;

before(async () => {
  runc = await startServer({ CODEINTERP_RUNTIME: 'runc', CODEINTERP_POOL_SIZE: '0' });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await runc?.stop();
});

/** A fresh server conversation on `url`, connected, its intro shown. */
async function freshConversation(context, url) {
  const page = await context.newPage();
  await page.goto(url + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  await page.getByTestId('intro').waitFor();
  return page;
}

test('on the default runtime, gVisor where installed, a fresh server conversation warns of nothing', async () => {
  const health = await (await fetch(BASE_URL + '/healthz')).json();
  assert.equal(health.runtime_choice.chosen_by, 'default', 'the suite\'s server is started without CODEINTERP_RUNTIME');
  assert.equal(health.runtime, 'runsc', 'this host has gVisor registered (scripts/setup-host.sh)');
  const context = await browser.newContext();
  try {
    const page = await freshConversation(context, BASE_URL);
    await page.getByTestId('status').filter({ hasText: 'gVisor' }).waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByTestId('runtime-note').count(), 0);
    assert.equal(await page.getByTestId('idle-note').count(), 0, 'on gVisor idle sessions keep their variables');
  } finally {
    await context.close();
  }
});

test('a server set to runc says variables are not kept past idle, and why, but not that gVisor is missing', async () => {
  const health = await (await fetch(runc.url + '/healthz')).json();
  assert.equal(health.runtime_choice.chosen_by, 'setting');
  const context = await browser.newContext();
  try {
    const page = await freshConversation(context, runc.url);
    const note = page.getByTestId('idle-note');
    await note.waitFor();
    assert.match(await note.innerText(), /^Variables are kept while you work, not past idle: after .+ without use this session is closed, its variables and files with it\./);
    assert.ok((await note.innerText()).includes(health.idle.why), 'the server\'s reason is given');
    assert.equal(await page.getByTestId('runtime-note').count(), 0, 'the operator chose runc: nothing is missing');
  } finally {
    await context.close();
  }
});

test('a server that fell back to runc for want of gVisor says so plainly above the idle note', async () => {
  const context = await browser.newContext();
  try {
    await context.route('**/healthz', async (route) => {
      const answer = await route.fetch();
      const health = await answer.json();
      health.runtime_choice = {
        runtime: 'runc', chosen_by: 'fallback',
        why: 'gVisor (runsc) is not registered with the Docker engine: code runs under runc, without gVisor\'s boundary',
      };
      await route.fulfill({ response: answer, json: health });
    });
    const page = await freshConversation(context, runc.url);
    const note = page.getByTestId('runtime-note');
    await note.waitFor();
    assert.equal(await note.innerText(), 'Code here runs under runc, because gVisor is not installed on this server: '
      + 'your code is kept in a container, without gVisor\'s extra boundary.');
    await page.getByTestId('idle-note').waitFor();
    const notes = await page.locator('.intro-note').evaluateAll((all) => all.map((n) => n.dataset.testid));
    assert.deepEqual(notes, ['runtime-note', 'idle-note']);
  } finally {
    await context.close();
  }
});
