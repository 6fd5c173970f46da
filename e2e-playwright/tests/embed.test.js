// Over 300 lines: the embed widget's cases share one host page of another origin and its server.
// The embed widget (/embed + /embed.js, docs/embed.md) on a host page of another origin: a page
// served by this test on another loopback port mounts two widgets and drives them through the
// helper's API; the same page from a host name the server does not allow gets nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { BASE_URL } from '../browser.js';
import { modulePage } from '../module-page.js';

const SERVER = new URL(BASE_URL).origin;
let browser;
let host;
let hostPort;

const HOST_PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>host</title>
<script src="${SERVER}/embed.js"></script></head>
<body style="margin:0">
<h1>A page that embeds two widgets</h1>
<div id="a" style="width:640px"></div>
<div id="b" style="width:640px"></div>
</body></html>`;

before(async () => {
  host = createServer((req, res) => {
    // the files option's manifests and files, public (no credentials) and readable from the widget's origin
    const shared = { 'Access-Control-Allow-Origin': '*' };
    if (req.url === '/manifest.json') {
      res.writeHead(200, { ...shared, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ files: [{ name: 'sales.csv', url: 'data/sales.csv' }, { name: 'notes.txt', url: `http://127.0.0.1:${hostPort}/notes.txt` }] }));
    } else if (req.url === '/elsewhere.json') {
      res.writeHead(200, { ...shared, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ files: [{ name: 'stolen.csv', url: `http://evil.test:${hostPort}/data/sales.csv` }] }));
    } else if (req.url === '/data/sales.csv') {
      res.writeHead(200, { ...shared, 'Content-Type': 'text/csv' });
      res.end('month,total\njan,10\nfeb,32\n');
    } else if (req.url === '/notes.txt') {
      res.writeHead(200, { ...shared, 'Content-Type': 'text/plain' });
      res.end('from the host');
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(HOST_PAGE);
    }
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostPort = host.address().port;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP evil.test 127.0.0.1'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => host?.close(resolve));
});

async function openSessions() {
  const h = await (await fetch(SERVER + '/healthz')).json();
  return h.use.sessions;
}

/** The widget frame (of the host page) whose URL says which runtime it was mounted with. */
function widgetFrame(page, runtime) {
  return page.frames().find((f) => f.url().startsWith(SERVER + '/embed#') && f.url().includes('runtime=' + runtime));
}

test('two widgets on a page of another origin run code through run(), stream live, and size to their content', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${hostPort}/`);
    await page.evaluate(async () => {
      window.events = { a: [], b: [] };
      const watch = (w, name) => ['ready', 'status', 'stream', 'display', 'input_request', 'file', 'finished', 'resize', 'codechange']
        .forEach((t) => w.on(t, (m) => window.events[name].push({ ...m, at: performance.now() })));
      window.a = await CodeInterp.mount(document.getElementById('a'), { runtime: 'server', code: "print('from the fragment')" });
      window.b = await CodeInterp.mount(document.getElementById('b'), { runtime: 'browser', theme: 'light' });
      watch(window.a, 'a');
      watch(window.b, 'b');
    });

    // server runtime: stream events arrive while the cell still runs, then the one-shot result
    const streamed = await page.evaluate(async () => {
      const result = await a.run("import time\nfor i in range(3):\n    print('tick', i, flush=True)\n    time.sleep(0.5)\n'done'");
      const at = performance.now();
      return { result, streams: events.a.filter((e) => e.type === 'stream').map((e) => ({ text: e.text, id: e.id, before: at - e.at })) };
    });
    assert.equal(streamed.result.success, true);
    assert.equal(streamed.result.status, 'ok');
    assert.equal(streamed.result.stdout, 'tick 0\ntick 1\ntick 2\n');
    assert.equal(streamed.result.results[0]['text/plain'], "'done'");
    assert.ok(streamed.result.executionTime > 1, `executionTime ${streamed.result.executionTime}`);
    assert.ok(streamed.streams.length >= 2, 'several stream events');
    assert.ok(streamed.streams[0].before > 600, `the first tick came ${streamed.streams[0].before} ms before the result`);
    assert.ok(streamed.streams.every((s) => s.id && s.id === streamed.streams[0].id), 'stream events name the request');

    const chart = await page.evaluate(() => a.run(
      "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [3, 1, 2])\nplt.show()"));
    assert.equal(chart.success, true, JSON.stringify(chart.error));
    assert.equal(chart.images[0].type, 'png');
    assert.ok(chart.images[0].base64.startsWith('iVBORw0KGgo'), 'a PNG');
    assert.deepEqual(Object.keys(chart).sort(),
      ['error', 'executionTime', 'files', 'images', 'results', 'status', 'stderr', 'stdout', 'success']);

    // browser runtime, and the two widgets share nothing
    const local = await page.evaluate(async () => {
      await a.run('only_in_a = 1');
      const made = await b.run('x = 6 * 7\nprint(x)');
      const missing = await b.run('only_in_a');
      const ready = events.b.find((e) => e.type === 'ready');
      return { made, missing, ready };
    });
    assert.equal(local.made.stdout, '42\n');
    assert.equal(local.ready.runtime, 'browser');
    assert.equal(local.missing.success, false);
    assert.equal(local.missing.error.name, 'NameError');
    // input(): the host hears input_request; the visitor answers in the widget's own input box
    const asking = page.evaluate(() => a.run("name = input('name? ')\nprint('hello', name)"));
    const askingFrame = widgetFrame(page, 'server');
    await askingFrame.getByTestId('input-field').fill('Ada');
    await askingFrame.getByTestId('input-field').press('Enter');
    const answered = await asking;
    assert.equal(answered.status, 'ok');
    assert.match(answered.stdout, /hello Ada\n$/);
    const asked = await page.evaluate(() => events.a.filter((e) => e.type === 'input_request').map((e) => ({ prompt: e.prompt, password: e.password })));
    assert.deepEqual(asked, [{ prompt: 'name? ', password: false }]);
    // JavaScript in both runtimes, each language with its own state; bash on the server only
    const other = await page.evaluate(async () => ({
      js: [(await a.run('let n = 6', { language: 'javascript' })).status, (await a.run('console.log(n * 7)', { language: 'javascript' })).stdout,
        (await b.run('console.log(6 * 7)', { language: 'javascript' })).stdout],
      bash: (await a.run('echo $((6*7))', { language: 'bash' })).stdout,
      localBash: (await b.run('echo hi', { language: 'bash' })).error?.name,
      unknown: await a.run('1', { language: 'cobol' }).then(() => 'ran', (e) => e.message),
    }));
    assert.deepEqual(other, { js: ['ok', '42\n', '42\n'], bash: '42\n', localBash: 'LanguageUnavailable',
      unknown: "language 'cobol' is not supported; use python, javascript or bash" });
    const failed = await page.evaluate(() => a.run('1/0'));
    assert.equal(failed.status, 'error');
    assert.equal(failed.error.name, 'ZeroDivisionError');

    // files in and out of both workspaces
    const files = await page.evaluate(async () => {
      await a.putFile('data.csv', new Blob(['x,y\n1,2\n']));
      const read = await a.run("print(open('data.csv').read().strip())");
      await a.run("open('out.txt', 'w').write('written by the cell')");
      const list = (await a.listFiles()).map((f) => f.name).sort();
      const out = await (await a.getFile('out.txt')).text();
      await b.putFile('local.txt', new TextEncoder().encode('in the browser').buffer);
      const readB = await b.run("print(open('local.txt').read())");
      const outB = await (await b.getFile('local.txt')).text();
      const missing = await a.getFile('nope.txt').then(() => 'found', (e) => e.message);
      return { read: read.stdout, list, out, readB: readB.stdout, outB, missing, listB: (await b.listFiles()).map((f) => f.name) };
    });
    assert.deepEqual(files, { read: 'x,y\n1,2\n', list: ['data.csv', 'out.txt'], out: 'written by the cell',
      readB: 'in the browser\n', outB: 'in the browser', missing: 'nope.txt is not in the workspace.', listB: ['local.txt'] });
    // a browser-mode widget keeps nothing in the browser's storage: its conversation ends with the frame
    assert.deepEqual(await widgetFrame(page, 'browser').evaluate(async () => (await indexedDB.databases()).map((d) => d.name)), []);
    // the file the cell wrote was announced to the host as it came, with the run it came from
    const announced = await page.evaluate(() => events.a.filter((e) => e.type === 'file')
      .map((e) => ({ name: e.name, size: e.size, mime: e.mime, fromARun: typeof e.id === 'string' })));
    assert.deepEqual(announced, [{ name: 'out.txt', size: 19, mime: 'text/plain', fromARun: true }]);
    // a listing the server cannot give rejects listFiles() with the server's reason instead of never answering
    const listing = /\/api\/v1\/sessions\/[^/]+\/files$/;
    await context.route(listing, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"the disk is on fire"}' }));
    assert.equal(await page.evaluate(() => a.listFiles().then(() => 'listed', (e) => e.message)), 'the disk is on fire');
    await context.unroute(listing);
    assert.deepEqual((await page.evaluate(() => a.listFiles())).map((f) => f.name).sort(), ['data.csv', 'out.txt']);

    // code in and out of the editor
    assert.equal(await page.evaluate(() => a.getCode()), "print('from the fragment')");
    await page.evaluate(() => a.setCode('y = 2'));
    assert.equal(await page.evaluate(() => a.getCode()), 'y = 2');

    // theme 'auto' (a's default) follows the host page; setTheme overrides it
    const frameA = widgetFrame(page, 'server');
    await page.evaluate(() => { document.documentElement.dataset.theme = 'dark'; });
    await frameA.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.evaluate(() => { document.documentElement.dataset.theme = 'light'; });
    await frameA.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.evaluate(() => a.setTheme('dark'));
    assert.equal(await frameA.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await frameA.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(13, 17, 23)');
    await page.evaluate(() => a.setTheme('light'));
    assert.equal(await frameA.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');

    // the height follows the content both ways, and maxHeight caps it
    const height = () => page.evaluate(() => a.element.getBoundingClientRect().height);
    const before = await height();
    await page.evaluate(() => a.run("print('\\n'.join(str(i) for i in range(40)))"));
    await page.waitForFunction((h) => a.element.getBoundingClientRect().height > h + 300, before);
    await page.waitForTimeout(500); // the last lines' resize
    const grown = await height();
    await page.evaluate(() => a.setOptions({ readonly: true, ui: 'output' }));
    await page.waitForFunction((h) => a.element.getBoundingClientRect().height < h - 80, grown);
    await page.evaluate(() => a.setOptions({ maxHeight: 200 }));
    await page.waitForFunction(() => a.element.getBoundingClientRect().height <= 200);
    assert.ok(await page.evaluate(() => events.a.some((e) => e.type === 'resize')));
    // readonly hides the editor, and run() from the host still works
    assert.equal(await frameA.locator('[data-testid="composer"]').count(), 0);
    assert.equal((await page.evaluate(() => a.run('print(only_in_a + 1)'))).stdout, '2\n');
  } finally {
    await context.close();
  }
});

for (const runtime of ['server', 'browser']) test(`${runtime} runtime: clear() takes the outputs away and keeps the variables; reset() restarts and clears, a running cell too; the height shrinks after either`, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${hostPort}/`);
    await page.evaluate(async (r) => {
      window.w = await CodeInterp.mount(document.getElementById('a'), { runtime: r });
      await new Promise((resolve) => w.on('ready', resolve));
    }, runtime);
    const frame = widgetFrame(page, runtime);
    const turns = () => frame.getByTestId('turn').count();
    // run() resolves as the cell ends; the widget draws its turn at its next animation frame
    const turnsBecome = (n) => frame.waitForFunction((k) => document.querySelectorAll('[data-testid="turn"]').length === k, n);
    const height = () => page.evaluate(() => w.element.getBoundingClientRect().height);
    await frame.getByTestId('intro').waitFor();
    await page.waitForTimeout(300); // the first resize
    const fresh = await height();

    await page.evaluate(() => w.run("kept = 41\nprint('\\n'.join(str(i) for i in range(20)))"));
    await page.waitForFunction((h) => w.element.getBoundingClientRect().height > h + 200, fresh);
    await turnsBecome(1);
    await page.evaluate(() => w.clear());
    await page.waitForFunction((h) => w.element.getBoundingClientRect().height <= h, fresh);
    assert.equal(await turns(), 0, 'clear() took the turn away');
    assert.equal(await frame.getByTestId('intro').count(), 1, 'the widget looks as it did when new');
    const kept = await page.evaluate(() => w.run('kept + 1'));
    assert.equal(kept.results[0]['text/plain'], '42', 'clear() kept the variables');
    await turnsBecome(1); // cells after a clear show as before

    // reset() while a cell runs: the cell ends (run() says how), and its turn goes with the rest for good
    const running = page.evaluate(() => w.run("print('started', flush=True)\nimport time\ntime.sleep(60)"));
    await frame.locator('[data-testid="turn"].running').waitFor();
    await frame.getByTestId('output').filter({ hasText: 'started' }).waitFor();
    await page.waitForFunction((h) => w.element.getBoundingClientRect().height > h + 60, fresh);
    await page.evaluate(() => w.reset());
    assert.equal((await running).status, 'interrupted');
    await page.waitForFunction((h) => w.element.getBoundingClientRect().height <= h, fresh);
    await page.waitForTimeout(500); // the running cell's last events came and were not shown
    assert.equal(await turns(), 0, 'reset() took every turn away, the running one too');
    assert.equal(await height(), fresh);
    const lost = await page.evaluate(() => w.run('kept'));
    assert.equal(lost.error.name, 'NameError', 'reset() restarted the interpreter');
    await turnsBecome(1);
    // between cells too: no turn, and no notice of the restart
    await page.evaluate(() => w.reset());
    await page.waitForFunction((h) => w.element.getBoundingClientRect().height <= h, fresh);
    await page.waitForTimeout(1000); // the restart's own event came and was not shown
    assert.equal(await frame.locator('[data-testid="turn"], [data-testid="notice-turn"]').count(), 0);
    assert.equal(await height(), fresh);
    assert.equal((await page.evaluate(() => w.run('kept = 1\nkept'))).results[0]['text/plain'], '1');
  } finally {
    await context.close();
  }
});

test("the files option puts the host's files in the workspace before anything runs, in both runtimes; a file from elsewhere stops it", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${hostPort}/`);
    const results = await page.evaluate(async () => {
      const prerun = "import csv\nrows = list(csv.DictReader(open('sales.csv')))";
      const code = "print(sum(int(r['total']) for r in rows), open('notes.txt').read())";
      const server = await CodeInterp.mount(document.getElementById('a'), { runtime: 'server', files: '/manifest.json', prerun });
      const local = await CodeInterp.mount(document.getElementById('b'), { runtime: 'browser', files: '/manifest.json', prerun });
      // run() at once: the cell waits for the files and the setup code
      return Promise.all([server.run(code), local.run(code)]);
    });
    assert.deepEqual(results.map((r) => r.stdout), ['42 from the host\n', '42 from the host\n'], JSON.stringify(results));

    const refused = await page.evaluate(async () => {
      document.getElementById('a').replaceChildren();
      const w = await CodeInterp.mount(document.getElementById('a'), { runtime: 'server', files: '/elsewhere.json' });
      return w.run('1').then(() => 'ran', (e) => e.message);
    });
    assert.match(refused, /stolen\.csv could not be loaded: http:\/\/evil\.test:\d+\/data\/sales\.csv is not on an origin this widget may fetch from/);
  } finally {
    await context.close();
  }
});

test('a page from an origin the server does not allow gets no widget, and no session is made', async () => {
  const sessionsBefore = await openSessions();
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  try {
    await page.goto(`http://evil.test:${hostPort}/`);
    const outcome = await page.evaluate(() => CodeInterp.mount(document.getElementById('a'), { runtime: 'server', timeoutMs: 4000 })
      .then(() => 'mounted', (e) => e.message));
    assert.match(outcome, /did not connect/);
    // the browser refused to render /embed in this page: its script never ran
    assert.ok(requests.some((u) => u === SERVER + '/embed'), 'the frame was asked for');
    assert.ok(!requests.some((u) => u.includes('/embed-boot.js') || u.includes('/embed-app.js')), requests.join('\n'));
    assert.ok(!requests.some((u) => u.includes('/api/')), 'no API request');
    const frame = page.frames().find((f) => f !== page.mainFrame());
    assert.ok(!frame || !frame.url().startsWith(SERVER) || (await frame.locator('.embed').count()) === 0);
    assert.equal(await openSessions(), sessionsBefore, 'no session was created');
  } finally {
    await context.close();
  }
});

test('the widget page opened on its own, not in a frame, renders a refusal and starts nothing', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  try {
    await page.goto(SERVER + '/embed#runtime=server&autorun=1&code=cHJpbnQoMSk');
    await page.getByTestId('embed-refused').waitFor();
    assert.match(await page.getByTestId('embed-refused').innerText(), /meant to be embedded/);
    await page.waitForTimeout(300);
    assert.ok(!requests.some((u) => u.includes('/api/')), 'no API request');
  } finally {
    await context.close();
  }
});

test('the frame takes a parent only from the allowlist: exact origins, or any port with :*', async () => {
  const harness = await modulePage(browser);
  try {
    await harness.load('/js/embed-channel.js', 'channel');
    const answers = await harness.page.evaluate(() => {
      const allowed = ['http://localhost:*', 'https://docs.example.org', 'http://127.0.0.1:8000'];
      return ['http://localhost:5173', 'http://localhost', 'https://docs.example.org', 'https://docs.example.org:8443',
        'http://docs.example.org', 'http://127.0.0.1:8000', 'http://127.0.0.1:8001', 'null', 'http://evil.test:5173',
        'http://localhost.evil.test', 'http://localhost:5173/path']
        .map((o) => [o, channel.originAllowed(o, allowed)]);
    });
    assert.deepEqual(answers, [['http://localhost:5173', true], ['http://localhost', true], ['https://docs.example.org', true],
      ['https://docs.example.org:8443', false], ['http://docs.example.org', false], ['http://127.0.0.1:8000', true],
      ['http://127.0.0.1:8001', false], ['null', false], ['http://evil.test:5173', false],
      ['http://localhost.evil.test', false], ['http://localhost:5173/path', false]]);
    assert.equal(await harness.page.evaluate(() => channel.base64UrlText('cHJpbnQoJ8OpJyk')), "print('é')");
  } finally {
    await harness.context.close();
  }
});
