// Cells in Python, JavaScript and bash through the app: the language picker, the language on each
// turn, highlighting by highlight.js, history that keeps each cell's language across a reload, and
// local mode's JavaScript worker (state, an interrupt that replaces it, zero egress) and its bash refusal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, BASE_URL, localReady } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ORIGIN = new URL(BASE_URL).origin;

async function serverConnected(page) {
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
}

const pick = (page, language) => page.getByTestId('language').selectOption(language);
const picked = (page) => page.getByTestId('language').inputValue();
const languagesOfTurns = (page) => page.getByTestId('turn-language').evaluateAll((tags) => tags.map((t) => t.dataset.language));
/** The highlighted spans of a turn's code, as "class:text". */
const tokens = (turn) => turn.locator('pre.code span').evaluateAll((spans) => spans.map((s) => `${s.className}:${s.textContent}`));

test('server mode: the picker runs JavaScript and bash beside Python, each turn says its language, and a reload keeps both', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(BASE_URL + '/');
    await serverConnected(page);
    assert.equal(await picked(page), 'python');

    let turn = await runCell(page, 'x = 6 * 7\nprint(x)');
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), '42');

    await pick(page, 'javascript');
    assert.equal(await page.getByTestId('composer').getAttribute('aria-label'), 'JavaScript code');
    turn = await runCell(page, 'console.log(1 + 1)\nconst n = 21;\nn * 2');
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), '2');
    assert.match(await outputs(turn, 'result').innerText(), /42/);
    assert.ok((await tokens(turn)).includes('tok-keyword:const'), JSON.stringify(await tokens(turn)));
    turn = await runCell(page, 'n + 1');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /22/, 'JavaScript state persists');

    // hostile code is shown as text, highlighted or not
    turn = await runCell(page, "const probe = '<img src=x onerror=\"window.pwned = 1\">'; probe.length");
    await finished(turn);
    assert.equal(await turn.locator('pre.code').textContent(), "const probe = '<img src=x onerror=\"window.pwned = 1\">'; probe.length");
    assert.equal(await turn.locator('pre.code img').count(), 0);

    await pick(page, 'bash');
    turn = await runCell(page, 'cd /tmp && export GREETING=hi\necho $((6*7))');
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), '42');
    assert.ok((await tokens(turn)).some((t) => t.startsWith('tok-built_in:')), JSON.stringify(await tokens(turn)));
    turn = await runCell(page, 'echo "$GREETING from $(pwd)"');
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), 'hi from /tmp', 'the shell keeps cwd and variables');

    const expected = ['python', 'javascript', 'javascript', 'javascript', 'bash', 'bash'];
    assert.deepEqual(await languagesOfTurns(page), expected);
    assert.equal(await page.evaluate(() => window.pwned), undefined);

    await page.reload();
    await serverConnected(page);
    await page.getByTestId('turn').nth(expected.length - 1).waitFor();
    assert.deepEqual(await languagesOfTurns(page), expected, 'the history keeps each cell\'s language');
    assert.ok((await tokens(page.getByTestId('turn').nth(1))).includes('tok-keyword:const'), 'and its highlighting');
    assert.equal(await picked(page), 'bash', 'the picked language is remembered');

    // without this browser's note of the pick, the conversation's own history decides: its last cell's language
    await pick(page, 'python');
    await page.evaluate(() => {
      for (const key of Object.keys(localStorage).filter((k) => k.startsWith('codeinterp.language.'))) localStorage.removeItem(key);
    });
    await page.reload();
    await serverConnected(page);
    await page.getByTestId('turn').nth(expected.length - 1).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="language"]').value === 'bash');
  } finally {
    await context.close();
  }
});

test('local mode: JavaScript runs in its own worker, an interrupt replaces it and says so, bash points to server mode', async () => {
  const context = await browser.newContext();
  const requests = [];
  context.on('request', (r) => requests.push({ method: r.method(), url: r.url() }));
  const page = await context.newPage();
  try {
    await page.goto(BASE_URL + '/');
    await page.getByTestId('mode-local').click();
    await localReady(page);
    requests.length = 0; // from here on the conversation is local: nothing may leave the browser
    await finished(await runCell(page, 'kept = 41'));

    await pick(page, 'javascript');
    let turn = await runCell(page, 'let total = 0;\nfor (const n of [1, 2, 3]) total += n;\nconsole.log("sum", total)');
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), 'sum 6');
    turn = await runCell(page, 'const later = await Promise.resolve(total * 7);\nlater');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /42/, 'state persists, top-level await works');
    turn = await runCell(page, 'JSON.parse("{")');
    await finished(turn);
    assert.match(await outputs(turn, 'error').innerText(), /SyntaxError/);

    // hostile code: the worker has the frame's opaque origin and CSP
    turn = await runCell(page, [
      'const outcomes = {};',
      'for (const [name, url] of [["api", "/api/v1/sessions"], ["absolute", location.origin + "/api/v1/sessions"], ["elsewhere", "http://example.invalid/"]]) {',
      '  outcomes[name] = await fetch(url, { method: "POST", body: "secret" }).then(() => "ALLOWED", () => "blocked");',
      '}',
      'try { eval("1"); outcomes.eval = "ALLOWED"; } catch { outcomes.eval = "blocked"; }',
      'try { importScripts("http://example.invalid/x.js"); outcomes.importScripts = "ALLOWED"; } catch { outcomes.importScripts = "blocked"; }',
      'console.log(self.origin, JSON.stringify(outcomes))',
    ].join('\n'));
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(),
      'null {"api":"blocked","absolute":"blocked","elsewhere":"blocked","eval":"blocked","importScripts":"blocked"}');

    turn = await runCell(page, 'while (true) {}');
    await turn.locator('.turn-footer').filter({ hasText: 'running' }).waitFor();
    const asked = Date.now();
    await page.getByTestId('interrupt').click();
    await finished(turn, 5000);
    assert.ok(Date.now() - asked < 3000, `interrupted after ${Date.now() - asked} ms`);
    assert.match(await turn.locator('.turn-footer').innerText(), /interrupted/);
    assert.match(await outputs(turn, 'notice').innerText(), /JavaScript interpreter was replaced.*variables are lost/);
    turn = await runCell(page, 'typeof total');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /'undefined'/, 'the replaced worker lost its state');

    await pick(page, 'python');
    turn = await runCell(page, 'kept + 1');
    await finished(turn);
    assert.match(await outputs(turn, 'result').innerText(), /42/, 'Python kept its state');

    await pick(page, 'bash');
    turn = await runCell(page, 'echo hi');
    await finished(turn);
    assert.match(await turn.locator('.turn-footer').innerText(), /error/);
    assert.match(await outputs(turn, 'error').innerText(), /LanguageUnavailable.*Server mode/s);

    const expected = ['python', 'javascript', 'javascript', 'javascript', 'javascript', 'javascript', 'javascript', 'python', 'bash'];
    assert.deepEqual(await languagesOfTurns(page), expected);
    await page.reload();
    await localReady(page);
    await page.getByTestId('turn').nth(expected.length - 1).waitFor();
    assert.deepEqual(await languagesOfTurns(page), expected, 'the browser\'s history keeps each cell\'s language');
    assert.equal(await picked(page), 'bash');

    for (const r of requests) {
      if (r.url.startsWith('blob:') || r.url.startsWith('data:')) {
        continue;
      }
      assert.equal(r.method, 'GET', `${r.method} ${r.url}`);
      assert.equal(new URL(r.url).origin, ORIGIN, r.url);
      assert.doesNotMatch(new URL(r.url).pathname, /^\/api\//, r.url);
    }
  } finally {
    await context.close();
  }
});
