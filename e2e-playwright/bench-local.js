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
//   - the memory snapshot (docs/local-runtime-protocol.md, "Memory snapshots"): the app's first
//     visit takes one, later visits boot from it; its size, the time to take it, and where the
//     remaining time of each start goes (the worker's own timings, sent with `ready`).
//
//   CODEINTERP_URL=http://127.0.0.1:8080 node bench-local.js
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

/** The app: a new conversation, click on Local, run `1+1` at once; until the result shows. */
async function appFirstResult(context) {
  const page = await context.newPage();
  await page.goto(BASE_URL + '/');
  await page.getByTestId('mode-local').waitFor();
  const begun = Date.now();
  await page.getByTestId('mode-local').click();
  const turn = await runCell(page, '1+1');
  await outputs(turn, 'result').waitFor({ timeout: 120000 });
  const ms = Date.now() - begun;
  const ready = await page.evaluate(() => window.benchReady);
  return { page, ms, ready };
}

/** Records the runtime frame's `ready` (how it booted, the worker's timings) in the app's page. */
async function watchReady(context) {
  await context.addInitScript(() => {
    if (window.top === window) {
      window.addEventListener('message', (e) => {
        if (e.data && e.data.type === 'ready' && !window.benchReady) window.benchReady = e.data;
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
      c.onsuccess = () => resolve(c.result ? { key: c.result.key, size: c.result.value.bytes.byteLength } : null);
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

const browser = await launch();
try {
  // ---- the runtime frame ----
  let context = await browser.newContext();
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

  // ---- plain Pyodide, the yardstick ----
  context = await browser.newContext();
  const plainCold = await plainPyodide(context);
  const plainWarm = [await plainPyodide(context), await plainPyodide(context)];
  await context.close();
  console.log(`plain Pyodide (loadPyodide → runPython('1+1') in a page): cold ${plainCold.toFixed(0)} ms, `
    + `warm ${plainWarm.map((ms) => ms.toFixed(0)).join(' / ')} ms`);

  // ---- through the app: the first visit takes the snapshot, the next ones boot from it ----
  context = await browser.newContext();
  await watchReady(context);
  const appWire = meter(context);
  const appCold = await appFirstResult(context);
  let snapshot = null;
  for (let i = 0; i < 100 && !snapshot; i++) { // stored once the app has it, just after `ready`
    snapshot = await storedSnapshot(appCold.page);
    if (!snapshot) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await appCold.page.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const appColdBytes = [...appWire.values()].reduce((a, b) => a + b, 0);
  appWire.clear();
  const appWarm = await appFirstResult(context);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const appWarmBytes = [...appWire.values()].reduce((a, b) => a + b, 0);
  const appWarmAgain = await appFirstResult(context);
  await appWarmAgain.page.close();
  const uiTrips = [];
  for (let i = 0; i < 22; i++) {
    const begun = Date.now();
    const turn = await runCell(appWarm.page, '1+1');
    await outputs(turn, 'result').waitFor();
    uiTrips.push(Date.now() - begun);
    await finished(turn);
  }
  await context.close();
  console.log(`app, click on Local → 1+1 result shown: cold cache ${appCold.ms} ms (${appCold.ready?.boot} start), `
    + `warm cache ${appWarm.ms} / ${appWarmAgain.ms} ms (${appWarm.ready?.boot} / ${appWarmAgain.ready?.boot} start); `
    + `warm = ${(appWarm.ms / Math.min(...plainWarm)).toFixed(2)}x the faster plain Pyodide warm`);
  console.log(`memory snapshot: ${snapshot ? `${mib(snapshot.size)} (${snapshot.size} bytes, key ${snapshot.key})` : 'none stored'}, `
    + `taken in ${appCold.ready?.timings?.snapshot ?? '?'} ms`);
  console.log(`worker's start, ms (assets: until the big files and snapshot are handed over; start/restore: loadPyodide; host: our sources + import; total: to ready; cold also: taking = the start of the worker that took the snapshot, replaced by one booted from it)`);
  console.log(`  cold: ${steps(appCold.ready)}`);
  console.log(`  warm: ${steps(appWarm.ready)} | ${steps(appWarmAgain.ready)}`);
  console.log(`app on the wire (page, app and local runtime): cold ${mib(appColdBytes)}, warm ${mib(appWarmBytes)}`);
  console.log(`app, 1+1 typed and run → result shown (Playwright round trips included): median ${median(uiTrips.slice(2))} ms (n=20)`);
} finally {
  await browser.close();
}
