// Local mode through the app: the mode switch, the seed checklist in Pyodide, history kept in
// IndexedDB, files that never leave the browser, and the browser's request log as the proof.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, runCell, finished, outputs, seedChecklist, BASE_URL, openLocal, localReady, snapshotKept } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ORIGIN = new URL(BASE_URL).origin;

test('the mode switch says where code runs, and switching starts a fresh interpreter that says so', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(BASE_URL + '/');
    const status = page.getByTestId('status');
    await status.filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    assert.match(await status.innerText(), /^Server/);
    assert.equal(await page.getByTestId('mode-server').getAttribute('aria-pressed'), 'true');
    await finished(await runCell(page, 'on_the_server = 1'));

    await page.getByTestId('mode-local').click();
    await localReady(page);
    assert.match(await status.innerText(), /Local · Pyodide [0-9.]+ · in this browser/);
    assert.equal(await page.getByTestId('mode-local').getAttribute('aria-pressed'), 'true');
    assert.match(await page.getByTestId('intro').innerText(), /Switched to local mode: a fresh Python interpreter/);
    assert.match(page.url(), /#\/l\/[0-9a-f]{32}$/);
    const turn = await runCell(page, 'on_the_server');
    await finished(turn);
    assert.match(await outputs(turn, 'error').innerText(), /NameError/);

    await page.getByTestId('mode-server').click();
    await status.filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    assert.doesNotMatch(await status.innerText(), /Local/);
    assert.match(await page.getByTestId('intro').innerText(), /Switched to server mode/);
  } finally {
    await context.close();
  }
});

test('the seed checklist in local mode; matplotlib is not offline, and the message says to use server mode', async () => {
  const { context, page } = await openLocal(browser);
  try {
    await seedChecklist(page, async (turn) => {
      assert.match(await outputs(turn, 'error').innerText(), /ModuleNotFoundError: No module named 'matplotlib'/);
      assert.match(await turn.innerText(), /matplotlib is not available in local mode: run this cell in Server mode/);
      assert.equal((await turn.innerText()).match(/not available in local mode/g).length, 1, 'one sentence, matplotlib named once');
    }, 1000);
  } finally {
    await context.close();
  }
});

test('zero egress: code, outputs and an uploaded CSV never leave the browser; only static GETs of our origin', async () => {
  const { context, page, requests } = await openLocal(browser);
  try {
    requests.length = 0;
    const secret = 'SECRET-' + Math.random().toString(36).slice(2);
    const dir = mkdtempSync(join(tmpdir(), 'local-'));
    const csv = join(dir, 'sales.csv');
    writeFileSync(csv, `region,amount,note\nnorth,1200,${secret}\nsouth,345,x\nnorth,55,y\n`);
    await page.getByTestId('upload').setInputFiles(csv);
    await page.getByTestId('file').filter({ hasText: 'sales.csv' }).waitFor();

    const turn = await runCell(page, [
      'import csv',
      "rows = list(csv.DictReader(open('sales.csv')))",
      "north = sum(int(r['amount']) for r in rows if r['region'] == 'north')",
      "print('north', north, rows[0]['note'])",
      "open('summary.txt', 'w').write(f'north={north}')",
    ].join('\n'));
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), `north 1255 ${secret}`);
    await turn.getByTestId('artifact').filter({ hasText: 'summary.txt' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'),
      page.getByTestId('file').filter({ hasText: 'summary.txt' }).getByTestId('file-download').click()]);
    assert.equal(download.suggestedFilename(), 'summary.txt');
    assert.match(download.url(), /^blob:/);

    await page.reload();
    await localReady(page);
    await page.getByTestId('turn').filter({ hasText: `north 1255 ${secret}` }).waitFor();

    assert.ok(requests.length > 0);
    for (const r of requests) {
      const where = `${r.method} ${r.url}`;
      assert.ok(!r.url.includes(secret) && !r.body.includes(secret), `the secret left in ${where}`);
      if (r.url.startsWith('blob:') || r.url.startsWith('data:')) {
        continue;
      }
      assert.equal(r.method, 'GET', where);
      assert.equal(new URL(r.url).origin, ORIGIN, where);
      assert.match(new URL(r.url).pathname, /^\/($|app\.(js|css)$|boot\.js$|renderers\.css$|conversations\.css$|js\/[a-z-]+\.js$|js\/vendor\/highlight\/(languages\/)?[a-z]+\.min\.js$|js\/vendor\/(markdown-it|dompurify|katex|plotly)\/[\w-]+(\.min)?\.(js|css)$|js\/vendor\/katex\/fonts\/[\w-]+\.woff2$|frame\.html$|local\/|pyodide\/)/, where);
    }
  } finally {
    await context.close();
  }
});

test('a reload restores a local conversation and its files from IndexedDB, and says the interpreter is fresh', async () => {
  const { context, page } = await openLocal(browser);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'local-'));
    writeFileSync(join(dir, 'input.csv'), 'a,b\n1,2\n');
    await page.getByTestId('upload').setInputFiles(join(dir, 'input.csv'));
    await page.getByTestId('file').filter({ hasText: 'input.csv' }).waitFor();
    await finished(await runCell(page, "x = 6 * 7\nprint('answer', x)\nopen('made.txt', 'w').write('made by code')\nopen('doomed.txt', 'w').write('x')"));
    await finished(await runCell(page, "import os\nos.remove('doomed.txt')"));
    const html = await runCell(page, "class B:\n    def _repr_html_(self): return '<b>bold</b>'\nB()");
    await finished(html);
    const url = page.url();
    await page.reload();
    await localReady(page);
    assert.equal(page.url(), url);
    await page.getByTestId('turn').filter({ hasText: 'answer 42' }).waitFor();
    await page.getByTestId('notice-turn').filter({ hasText: /reloaded/ }).waitFor();
    assert.equal(await page.locator('iframe.html-output').count(), 1, 'the HTML output is replayed in its sandboxed frame');
    let turn = await runCell(page, 'x');
    await finished(turn);
    assert.match(await outputs(turn, 'error').innerText(), /NameError/);
    turn = await runCell(page, "import os\nprint(sorted(os.listdir('.')), open('made.txt').read(), open('input.csv').read().split())");
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), "['input.csv', 'made.txt'] made by code ['a,b', '1,2']");
    await page.getByTestId('file').filter({ hasText: 'made.txt' }).waitFor();
    const stored = await page.evaluate(() => new Promise((resolve) => {
      const r = indexedDB.open('codeinterp-local');
      r.onsuccess = () => {
        const all = r.result.transaction('events').objectStore('events').getAll();
        all.onsuccess = () => resolve(all.result.length);
      };
    }));
    assert.ok(stored > 5, `events in IndexedDB: ${stored}`);
  } finally {
    await context.close();
  }
});

test('hostile code in local mode reaches neither the app page, its storage, nor our API', async () => {
  const { context, page, requests } = await openLocal(browser);
  try {
    await page.evaluate(() => {
      document.cookie = 'appcookie=COOKIE-SECRET';
      localStorage.setItem('canary', 'STORAGE-SECRET');
    });
    const code = `
import js
from pyodide.ffi import to_js
seen = {}
def probe(name, f):
    try:
        seen[name] = 'ALLOWED ' + repr(f())[:80]
    except BaseException as e:
        seen[name] = 'refused ' + type(e).__name__
probe('cookie', lambda: js.document.cookie)
probe('parent', lambda: js.parent.document.cookie)
probe('top storage', lambda: js.top.localStorage.getItem('canary'))
probe('storage', lambda: js.localStorage.getItem('canary'))
def xhr(url):
    r = js.XMLHttpRequest.new()
    r.open('GET', url, False)
    r.send()
    return r.status
probe('xhr other origin', lambda: xhr('http://example.invalid/'))
def fetched(name):
    def done(value):
        seen[name] = 'ALLOWED ' + str(value)[:80]
    def failed(error):
        seen[name] = 'refused ' + str(error)[:40]
    return done, failed
js.fetch(${JSON.stringify(ORIGIN)} + '/api/v1/sessions', to_js({'method': 'POST', 'credentials': 'include'},
         dict_converter=js.Object.fromEntries)).then(*fetched('api'))
print(js.self.origin)
`;
    // the background worker that takes the memory snapshot loads our static files: done first, so
    // the log below holds only what the hostile code did
    await snapshotKept(page);
    requests.length = 0;
    const turn = await runCell(page, code);
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), 'null', 'the code runs in an opaque origin');
    await page.waitForTimeout(1000); // the fetch settles between cells
    const report = await runCell(page, "for k, v in seen.items(): print(k + ':', v)");
    await finished(report);
    const text = await outputs(report, 'stream').innerText();
    assert.doesNotMatch(text, /COOKIE-SECRET|STORAGE-SECRET|ALLOWED/, text);
    for (const name of ['cookie', 'parent', 'top storage', 'storage', 'xhr other origin', 'api']) {
      assert.match(text, new RegExp(`^${name}: refused`, 'm'), text);
    }
    // The browser reports a request the CSP stopped as failed, without sending it
    const sent = requests.filter((r) => !/^csp$|ERR_BLOCKED_BY_CSP/.test(r.request.failure()?.errorText || ''));
    assert.deepEqual(sent.map((r) => `${r.url} ${r.request.failure()?.errorText}`), [], 'nothing was sent while the hostile code ran');
    // the app still works
    const next = await runCell(page, '1 + 1');
    await finished(next);
    assert.match(await outputs(next, 'result').innerText(), /2/);
  } finally {
    await context.close();
  }
});
