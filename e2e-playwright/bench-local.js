// Over 300 lines: one benchmark script whose scenarios share one browser and server setup.
// Local mode's figures for the closing notes (not a test; nothing asserts):
//   - time to the first result: `1+1` sent as soon as local mode is chosen, until its result,
//     with a cold cache (a fresh browser context) and a warm one (a second page of that context);
//     measured at the runtime frame (iframe inserted → result line) and through the app
//     (click on "Local" → result in the DOM);
//   - round trip of `1+1`, median of 20: execute posted → result line back, and through the app
//     Shift+Enter → result in the DOM;
//   - bytes transferred for the first load and a warm one (compressed bodies plus headers);
//   - plain Pyodide from the same server in the same browser (`loadPyodide()` then `1+1`, in a
//     page, no frame, no worker), cold and warm: the yardstick for local mode's start;
//   - the memory snapshot (docs/local-runtime-protocol.md, "Memory snapshots"): on the app's first
//     visit a background worker takes one after the first result, later visits boot from it; its
//     size, the time to take it, and where the remaining time of each start goes (the worker's own
//     timings, sent with `ready`), and what a warm visit still fetches, by path;
//   - WebAssembly compilation: what instantiating the core costs in the worker, cold and warm, what
//     Chromium's code cache does for the same module compiled in a page of our origin, and whether
//     such a compiled module can be handed to the opaque-origin frame;
//   - the embed widget with `runtime: 'browser'` on a page of another origin (mount → `1+1`), cold
//     and warm, and the local JavaScript worker's start (first JavaScript cell vs the next).
//
//   CODEINTERP_URL=http://127.0.0.1:8080 node bench-local.js
//   BENCH_PARTS=plain,app (any of frame, plain, app, ahead, wasm, embed; default all) runs only those
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { launch, runCell, outputs, finished, BASE_URL } from './browser.js';
import { openRuntime } from './local-runtime.js';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const mib = (n) => `${(n / 1048576).toFixed(2)} MiB`;

/** Counts what each request of the context cost on the wire, by path. */
function meter(context) {
  const byPath = new Map();
  context.on('requestfinished', async (r) => {
    const sizes = await r.sizes().catch(() => null);
    if (sizes) {
      const path = new URL(r.url()).pathname;
      byPath.set(path, (byPath.get(path) || 0) + sizes.responseBodySize + sizes.responseHeadersSize);
    }
  });
  return byPath;
}

/** The runtime frame alone: iframe inserted → `1+1` result (sent at its first message, queued until ready). */
async function frameFirstResult(browser, context) {
  const { page } = await openRuntime(browser, { context, waitReady: false, frame: false, cached: true });
  const ms = await page.evaluate(async () => {
    const begun = performance.now();
    rt.insertFrame(true, true);
    await rt.wait(() => true, 60000); // the frame's first message: it listens now (see the protocol)
    const id = rt.start('1+1');
    await rt.wait((m) => m.type === 'runner' && m.event.id === id && m.event.type === 'execute_result', 120000);
    return performance.now() - begun;
  });
  return { page, ms };
}

/**
 * The app: a new conversation, click on Local, run `1+1` at once; until the result shows. The page
 * opens in server mode (as a visit by someone who last used server mode), so the click is what
 * starts local mode; with `saved` local mode (chosen on an earlier visit, so the app opens it as
 * the page loads) it times navigation → result instead. `ms`: from Playwright's click() call
 * (its checks and round trips before the click reaches the page included, as in earlier notes);
 * `fromClick`: from the click event to the result on the page's own clock. `pauseMs`: the click
 * comes that long after the page loaded (a person reads the page first; a frame started ahead,
 * LocalWarmUp, is prepared once the page is idle).
 */
async function appFirstResult(context, saved = 'server', pauseMs = 0) {
  const page = await context.newPage();
  await page.addInitScript((mode) => {
    if (window.top === window) localStorage.setItem('codeinterp.mode', mode);
  }, saved);
  let begun = Date.now();
  await page.goto(BASE_URL + '/');
  if (saved === 'server') {
    await page.getByTestId('mode-local').waitFor();
    await page.waitForTimeout(pauseMs);
    begun = Date.now();
    await page.getByTestId('mode-local').click();
  }
  const turn = await runCell(page, '1+1');
  await outputs(turn, 'result').waitFor({ timeout: 120000 });
  const ms = Date.now() - begun;
  const ready = await page.evaluate(() => window.benchReady);
  const steps = await startSteps(page, saved === 'server' ? 'click' : 'navigation');
  return { page, ms, ready, steps, fromClick: steps.find(([name]) => name === 'result shown')?.[2] };
}

/**
 * Where a start's time went, on the page's own clock: from the click on Local (or navigation) to
 * the result shown, through the app's `local:*` marks (frame-host.js) and the frame's moments that
 * came with `ready`. [[step, ms since the previous one, ms since the click]], in the order they
 * happened (a frame started ahead has steps before the click).
 */
function startSteps(page, from) {
  return page.evaluate((from) => {
    const first = (name) => performance.getEntriesByName('local:' + name)[0]?.startTime;
    const begun = from === 'click' ? window.benchClick : 0;
    const moments = [
      ['click', from === 'click' ? begun : null], ['frame inserted', first('frame')], ['python released', first('release')],
      ['frame page runs', first('frame-page')], ['frame heard', first('heard')],
      ['worker created', first('frame-worker')], ['app asked for assets', first('asked')],
      ['worker init', first('frame-init')], ['app posted assets', first('handed')],
      ['assets to worker', first('frame-handed')], ['worker ready', first('frame-ready')],
      ['app got ready', first('ready')], ['cell posted', first('execute')], ['first line back', first('line')],
      ['result shown', window.benchResult],
    ].filter(([, at]) => Number.isFinite(at)).sort((a, b) => a[1] - b[1]);
    let last = null;
    return moments.map(([name, at]) => {
      const step = [name, last === null ? null : Math.round(at - last), Math.round(at - begun)];
      last = at;
      return step;
    });
  }, from);
}

/** Records the runtime frame's `ready` (how it booted, the worker's timings) and its `snapshot` (the background worker's timings) in the app's page. */
async function watchReady(context) {
  await context.addInitScript(() => {
    if (window.top === window) {
      // the click on Local and the first result on the page, on the page's clock (startSteps)
      document.addEventListener('click', (e) => {
        if (e.target.closest?.('[data-testid="mode-local"]')) window.benchClick = performance.now();
      }, true);
      new MutationObserver((_, observer) => {
        if (document.querySelector('[data-output-type="result"]')) {
          window.benchResult = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
      window.addEventListener('message', (e) => {
        if (e.data && e.data.type === 'ready' && !window.benchReady) window.benchReady = e.data;
        if (e.data && e.data.type === 'snapshot' && !window.benchSnapshot) window.benchSnapshot = { timings: e.data.timings };
      });
    }
  });
}

/** The snapshot the app keeps in IndexedDB: {key, size} or null. */
function storedSnapshot(page) {
  return page.evaluate(() => new Promise((resolve) => {
    const r = indexedDB.open('codeinterp-snapshots', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('snapshots');
    r.onsuccess = () => {
      const c = r.result.transaction('snapshots').objectStore('snapshots').openCursor();
      c.onsuccess = async () => {
        if (!c.result) return resolve(null);
        const { key, value } = c.result;
        // kept: a Blob of its non-zero pages (snapshot-pages.mjs), whose header's second word is Pyodide's
        // snapshot's length (builds before that kept the whole snapshot as an ArrayBuffer)
        const whole = value.bytes instanceof ArrayBuffer;
        const kept = whole ? new Blob([value.bytes]) : value.bytes;
        const full = whole ? kept.size : new Uint32Array(await kept.slice(0, 8).arrayBuffer())[1];
        // what it would weigh on the wire, gzipped, were a server to serve it (the embed cannot keep one)
        const gzipped = await new Response(kept.stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
        resolve({ key, size: kept.size, full, gzip: gzipped.byteLength });
      };
      c.onerror = () => resolve(null);
    };
    r.onerror = () => resolve(null);
  }));
}

/** Plain Pyodide from our server, in a page of our origin (no frame, no worker): loadPyodide() → runPython('1+1'). */
async function plainPyodide(context) {
  const page = await context.newPage();
  await page.goto(BASE_URL + '/healthz');
  const version = await page.evaluate(async () => /"pyodideVersion":"([^"]+)"/.exec(await (await fetch('/local/runtime.html')).text())[1]);
  await page.goto(`${BASE_URL}/pyodide/${version}/pyodide-lock.json`);
  const ms = await page.evaluate(async (indexURL) => {
    const begun = performance.now();
    const { loadPyodide } = await import(indexURL + 'pyodide.mjs');
    const pyodide = await loadPyodide({ indexURL });
    pyodide.runPython('1+1');
    return performance.now() - begun;
  }, `${BASE_URL}/pyodide/${version}/`);
  await page.close();
  return ms;
}

const steps = (ready) => Object.entries(ready?.timings || {}).map(([k, v]) => `${k} ${v}`).join(', ');
const sum = (byPath) => [...byPath.values()].reduce((a, b) => a + b, 0);
const topPaths = (byPath, n) => [...byPath.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
  .map(([path, bytes]) => `  ${String(bytes).padStart(9)}  ${path}`).join('\n');

/**
 * Chromium's code cache for WebAssembly, in a page of our origin: the core compiled with
 * compileStreaming from the HTTP cache, on three successive page loads; compile() of the same
 * bytes (no cache can apply, as in the frame's worker); and whether the compiled module can be
 * posted to the opaque-origin runtime frame.
 */
async function wasmCompilation(context) {
  const version = await versionOf(context);
  const wasmURL = `${BASE_URL}/pyodide/${version}/pyodide.asm.wasm`;
  const streamed = [];
  for (let i = 0; i < 3; i++) {
    const page = await context.newPage();
    await page.goto(BASE_URL + '/');
    streamed.push(await page.evaluate(async (url) => {
      const begun = performance.now();
      await WebAssembly.compileStreaming(fetch(url));
      return Math.round(performance.now() - begun);
    }, wasmURL));
    await page.waitForTimeout(3000); // the code cache is written after compilation, off the main thread
    await page.close();
  }
  const page = await context.newPage();
  await page.goto(BASE_URL + '/');
  const other = await page.evaluate(async (url) => {
    const bytes = await (await fetch(url)).arrayBuffer();
    let begun = performance.now();
    const module = await WebAssembly.compile(bytes);
    const compile = Math.round(performance.now() - begun);
    const frame = document.createElement('iframe');
    frame.sandbox = 'allow-scripts';
    frame.src = '/local/runtime.html';
    const loaded = new Promise((resolve) => { frame.onload = resolve; });
    document.body.append(frame);
    await loaded;
    let posted;
    try {
      frame.contentWindow.postMessage({ type: 'probe', module }, '*');
      posted = 'posted without an error';
    } catch (error) {
      posted = `${error.name}: ${error.message}`;
    }
    frame.remove();
    return { compile, posted };
  }, wasmURL);
  await page.close();
  return { streamed, ...other };
}

async function versionOf(context) {
  const page = await context.newPage();
  await page.goto(BASE_URL + '/healthz');
  const version = await page.evaluate(async () => /"pyodideVersion":"([^"]+)"/.exec(await (await fetch('/local/runtime.html')).text())[1]);
  await page.close();
  return version;
}

/** A page of another origin (a second port) with a `runtime: 'browser'` widget: mount → `1+1` result, ms. */
async function embedFirstResult(context, hostURL) {
  const page = await context.newPage();
  await page.goto(hostURL);
  const ms = await page.evaluate(async () => {
    const begun = performance.now();
    const widget = await CodeInterp.mount(document.getElementById('w'), { runtime: 'browser' });
    const result = await widget.run('1+1');
    if (result.results[0]['text/plain'] !== '2') throw new Error(JSON.stringify(result));
    return performance.now() - begun;
  });
  await page.close();
  return ms;
}

/** The runtime frame's JavaScript worker: the first JavaScript cell (starts the worker) and the next, ms. */
async function javascriptStart(page) {
  return page.evaluate(async () => {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const begun = performance.now();
      const events = await rt.run('1+1', { language: 'javascript' });
      if (!events.some((e) => e.type === 'execute_result')) throw new Error(JSON.stringify(events));
      times.push(Math.round(performance.now() - begun));
    }
    return times;
  });
}

/** CPU seconds and resident MiB summed over the browser's processes (CDP's SystemInfo, ps). */
async function browserUse(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  const rssKiB = processInfo.reduce((sum, p) => {
    try {
      return sum + Number(execFileSync('ps', ['-o', 'rss=', '-p', String(p.id)]).toString().trim() || 0);
    } catch {
      return sum; // ended meanwhile
    }
  }, 0);
  return { cpu: processInfo.reduce((sum, p) => sum + p.cpuTime, 0), mib: rssKiB / 1024 };
}

/**
 * What a frame started ahead (LocalWarmUp) costs a visitor who never chooses local mode: a page in
 * server mode is opened in a profile that used local mode, and the browser's CPU and memory are
 * read after its load, once the frame is prepared at idle (and 3 s more), and once the pointer on
 * Local has booted Python in it (and 3 s more); a profile that never used local mode is the
 * baseline for the same steps.
 */
async function aheadCost(browser) {
  const rows = [];
  for (const used of [false, true]) {
    const context = await browser.newContext();
    if (used) {
      const first = await context.newPage();
      await first.addInitScript(() => { if (window.top === window) localStorage.setItem('codeinterp.mode', 'local'); });
      await first.goto(BASE_URL + '/');
      await first.getByTestId('status').filter({ hasText: 'ready' }).waitFor({ timeout: 120000 });
      for (let i = 0; i < 300 && !await storedSnapshot(first); i++) await first.waitForTimeout(200);
      await first.close();
    }
    await context.addInitScript(() => { if (window.top === window) localStorage.setItem('codeinterp.mode', 'server'); });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const page = await context.newPage();
    await page.goto(BASE_URL + '/');
    await page.getByTestId('mode-local').waitFor();
    const loaded = await browserUse(browser);
    if (used) await page.waitForFunction(() => performance.getEntriesByName('local:asked').length > 0, null, { timeout: 30000 });
    await page.waitForTimeout(3000);
    const prepared = await browserUse(browser);
    await page.getByTestId('mode-local').hover();
    if (used) await page.waitForFunction(() => performance.getEntriesByName('local:ready').length > 0, null, { timeout: 60000 });
    await page.waitForTimeout(3000);
    const booted = await browserUse(browser);
    rows.push({ used, loaded, prepared, booted });
    await context.close();
  }
  return rows;
}

const parts = new Set((process.env.BENCH_PARTS || 'frame,plain,app,wasm,embed').split(','));
const browser = await launch();
try {
  let context;
  // ---- the runtime frame ----
  if (parts.has('frame')) {
  context = await browser.newContext();
  const wire = meter(context);
  const cold = await frameFirstResult(browser, context);
  await cold.page.close();
  await new Promise((resolve) => setTimeout(resolve, 500)); // the last sizes arrive
  const total = [...wire.values()].reduce((a, b) => a + b, 0);
  const top = [...wire.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
  wire.clear();
  const warm = await frameFirstResult(browser, context);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const warmTotal = [...wire.values()].reduce((a, b) => a + b, 0);
  const jsTimes = await javascriptStart(warm.page);
  const trips = [];
  for (let i = 0; i < 22; i++) {
    trips.push(await warm.page.evaluate(async () => {
      const begun = performance.now();
      const id = rt.start('1+1');
      await rt.wait((m) => m.type === 'runner' && m.event.id === id && m.event.type === 'execute_result');
      return performance.now() - begun;
    }));
  }
  await context.close();
  console.log(`runtime frame, iframe inserted → 1+1 result: cold cache ${cold.ms.toFixed(0)} ms, warm cache ${warm.ms.toFixed(0)} ms`);
  console.log(`runtime frame, 1+1 round trip (execute posted → result line): median ${median(trips.slice(2)).toFixed(1)} ms (n=20)`);
  console.log(`first load on the wire: ${mib(total)} (${total} bytes, compressed bodies + headers)`);
  for (const [path, bytes] of top) {
    console.log(`  ${String(bytes).padStart(9)}  ${path}`);
  }
  console.log(`warm load on the wire: ${mib(warmTotal)} (${warmTotal} bytes: what the opaque-origin frame fetches itself is never cached)`);
  console.log(`runtime frame, JavaScript cell 1+1 (the first starts the JavaScript worker): ${jsTimes.join(' / ')} ms`);
  }

  // ---- plain Pyodide, the yardstick ----
  let plainWarm = [NaN];
  if (parts.has('plain')) {
  context = await browser.newContext();
  const plainCold = await plainPyodide(context);
  plainWarm = [await plainPyodide(context), await plainPyodide(context)];
  await context.close();
  console.log(`plain Pyodide (loadPyodide → runPython('1+1') in a page): cold ${plainCold.toFixed(0)} ms, `
    + `warm ${plainWarm.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
  }

  // ---- through the app: the first visit takes the snapshot, the next ones boot from it ----
  if (parts.has('app')) {
  context = await browser.newContext();
  await watchReady(context);
  const appWire = meter(context);
  const appCold = await appFirstResult(context);
  let snapshot = null;
  for (let i = 0; i < 100 && !snapshot; i++) { // stored once the app has it, just after `ready`
    snapshot = await storedSnapshot(appCold.page);
    if (!snapshot) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const taken = await appCold.page.evaluate(() => window.benchSnapshot);
  await appCold.page.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const appColdBytes = sum(appWire);
  appWire.clear();
  const appWarm = await appFirstResult(context);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const appWarmBytes = sum(appWire);
  const appWarmPaths = topPaths(appWire, 8);
  const appWarmAgain = await appFirstResult(context);
  await appWarmAgain.page.close();
  const appPaused = [];
  for (let i = 0; i < 2; i++) {
    const visit = await appFirstResult(context, 'server', 2000);
    await visit.page.close();
    appPaused.push(visit);
  }
  const appReopened = await appFirstResult(context, 'local');
  await appReopened.page.close();
  const uiTrips = [];
  for (let i = 0; i < 22; i++) {
    const begun = Date.now();
    const turn = await runCell(appWarm.page, '1+1');
    await outputs(turn, 'result').waitFor();
    uiTrips.push(Date.now() - begun);
    await finished(turn);
  }
  await context.close();
  console.log(`app, click on Local → 1+1 result shown, from Playwright's click(): cold cache ${appCold.ms} ms (${appCold.ready?.boot} start), `
    + `warm cache ${appWarm.ms} / ${appWarmAgain.ms} ms (${appWarm.ready?.boot} / ${appWarmAgain.ready?.boot} start); `
    + `warm = ${(appWarm.ms / Math.min(...plainWarm)).toFixed(2)}x the faster plain Pyodide warm`);
  const warmClicks = [appWarm, appWarmAgain];
  console.log(`app, click on Local → 1+1 result shown, from the click event (page clock): cold ${appCold.fromClick} ms, `
    + `warm clicked at once ${warmClicks.map((v) => v.fromClick).join(' / ')} ms, `
    + `warm clicked 2 s after load ${appPaused.map((v) => `${v.fromClick} (${v.ms} from click())`).join(' / ')} ms (${appPaused.map((v) => v.ready?.boot).join(' / ')} start); `
    + `best warm = ${(Math.min(...warmClicks.map((v) => v.fromClick)) / Math.min(...plainWarm)).toFixed(2)}x at once, `
    + `${(Math.min(...appPaused.map((v) => v.fromClick)) / Math.min(...plainWarm)).toFixed(2)}x after 2 s, the faster plain Pyodide warm`);
  console.log(`app reopened with local mode saved (it starts as the page loads), navigation → 1+1 result shown: ${appReopened.ms} ms `
    + `(${appReopened.ready?.boot} start)`);
  console.log(`memory snapshot: ${snapshot ? `${mib(snapshot.full)} kept as its non-zero pages, ${mib(snapshot.size)} (${snapshot.size} bytes; `
    + `${mib(snapshot.gzip)} gzipped, key ${snapshot.key})` : 'none stored'}, `
    + `taken in ${taken?.timings?.snapshot ?? '?'} ms by a background worker started after the first result`);
  console.log(`worker's start, ms (assets: until the core files and snapshot are handed over, of which the app's appfiles: its HTTP cache, appsnapshot: its IndexedDB; `
    + `modules: Pyodide's ES modules imported; start/restore: loadPyodide, of which compile: WebAssembly.instantiateStreaming, `
    + `and before a restore, unpack: reading the kept snapshot and expanding its pages; `
    + `host: our sources + import; check: the check cell after a restore; total: to ready)`);
  console.log(`  cold: ${steps(appCold.ready)}`);
  console.log(`  background snapshot worker: ${steps(taken)}`);
  console.log(`  warm: ${steps(appWarm.ready)} | ${steps(appWarmAgain.ready)} | reopened: ${steps(appReopened.ready)}`);
  const shown = (steps) => steps.map(([name, ms, at]) => `${name} ${ms === null ? '' : `+${ms} `}@${at}`).join(', ');
  console.log('where the time from the click goes (ms since the previous step @ ms since the click; the page\'s local:* marks and the frame\'s moments):');
  console.log(`  cold: ${shown(appCold.steps)}`);
  for (const visit of warmClicks) console.log(`  warm, at once: ${shown(visit.steps)}`);
  for (const visit of appPaused) console.log(`  warm, 2 s after load: ${shown(visit.steps)}`);
  console.log(`  reopened, from navigation: ${shown(appReopened.steps)}`);
  console.log(`app on the wire (page, app and local runtime): cold ${mib(appColdBytes)}, warm ${mib(appWarmBytes)} (${appWarmBytes} bytes); warm, the largest:`);
  console.log(appWarmPaths);
  console.log(`app, 1+1 typed and run → result shown (Playwright round trips included): median ${median(uiTrips.slice(2))} ms (n=20)`);
  }

  // ---- what a frame started ahead costs when local mode is never chosen ----
  if (parts.has('ahead')) {
    const rows = await aheadCost(browser);
    console.log('a server-mode page, the browser\'s CPU s used since the page loaded and its processes\' resident MiB (summed, shared pages counted in each):');
    for (const { used, loaded, prepared, booted } of rows) {
      console.log(`  ${used ? 'used local mode (frame started ahead)' : 'never used local mode (nothing ahead)'}: `
        + `loaded ${loaded.mib.toFixed(0)} MiB; prepared at idle +3 s: +${(prepared.cpu - loaded.cpu).toFixed(2)} s CPU, ${prepared.mib.toFixed(0)} MiB; `
        + `pointer on Local, booted +3 s: +${(booted.cpu - prepared.cpu).toFixed(2)} s CPU, ${booted.mib.toFixed(0)} MiB`);
    }
  }

  // ---- WebAssembly compilation and Chromium's code cache ----
  if (parts.has('wasm')) {
  context = await browser.newContext();
  const wasm = await wasmCompilation(context);
  await context.close();
  console.log(`WebAssembly, the core (${BASE_URL}): compileStreaming from the HTTP cache in a page of our origin, three loads: `
    + `${wasm.streamed.join(' / ')} ms; compile(bytes), which no cache serves: ${wasm.compile} ms; `
    + `the compiled module posted to the opaque-origin frame: ${wasm.posted}`);
  }

  // ---- the embed widget, runtime: 'browser', on a page of another origin ----
  if (parts.has('embed')) {
  const host = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html><head><meta charset="utf-8"><script src="${BASE_URL}/embed.js"></script></head>`
      + '<body><div id="w" style="width:640px"></div></body></html>');
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
  try {
    context = await browser.newContext();
    const embedWire = meter(context);
    const hostURL = `http://127.0.0.1:${host.address().port}/`;
    const embedCold = await embedFirstResult(context, hostURL);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const embedColdBytes = sum(embedWire);
    embedWire.clear();
    const embedWarm = await embedFirstResult(context, hostURL);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const embedWarmBytes = sum(embedWire);
    const embedWarmAgain = await embedFirstResult(context, hostURL);
    await context.close();
    console.log(`embed widget, runtime 'browser', mount → 1+1 result: cold ${embedCold.toFixed(0)} ms, warm ${embedWarm.toFixed(0)} / `
      + `${embedWarmAgain.toFixed(0)} ms; on the wire: cold ${mib(embedColdBytes)}, warm ${mib(embedWarmBytes)}`);
  } finally {
    await new Promise((resolve) => host.close(resolve));
  }
  }
} finally {
  await browser.close();
}
