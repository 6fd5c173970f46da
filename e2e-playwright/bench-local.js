// Local mode's figures for the closing notes (not a test; nothing asserts):
//   - time to the first result: `1+1` sent as soon as local mode is chosen, until its result,
//     with a cold cache (a fresh browser context) and a warm one (a second page of that context);
//     measured at the runtime frame (iframe inserted → result line) and through the app
//     (click on "Local" → result in the DOM);
//   - round trip of `1+1`, median of 20: execute posted → result line back, and through the app
//     Shift+Enter → result in the DOM;
//   - bytes transferred for the first load and a warm one (compressed bodies plus headers).
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
  return { page, ms: Date.now() - begun };
}

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

  // ---- through the app ----
  context = await browser.newContext();
  const appWire = meter(context);
  const appCold = await appFirstResult(context);
  await appCold.page.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const appColdBytes = [...appWire.values()].reduce((a, b) => a + b, 0);
  appWire.clear();
  const appWarm = await appFirstResult(context);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const appWarmBytes = [...appWire.values()].reduce((a, b) => a + b, 0);
  const uiTrips = [];
  for (let i = 0; i < 22; i++) {
    const begun = Date.now();
    const turn = await runCell(appWarm.page, '1+1');
    await outputs(turn, 'result').waitFor();
    uiTrips.push(Date.now() - begun);
    await finished(turn);
  }
  await context.close();
  console.log(`app, click on Local → 1+1 result shown: cold cache ${appCold.ms} ms, warm cache ${appWarm.ms} ms`);
  console.log(`app on the wire (page, app and local runtime): cold ${mib(appColdBytes)}, warm ${mib(appWarmBytes)}`);
  console.log(`app, 1+1 typed and run → result shown (Playwright round trips included): median ${median(uiTrips.slice(2))} ms (n=20)`);
} finally {
  await browser.close();
}
