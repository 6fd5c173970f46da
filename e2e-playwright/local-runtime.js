// Drives local mode's runtime frame (/local/runtime.html) directly, through its postMessage
// protocol (docs/local-runtime-protocol.md), from a host page on the app's origin. The host page
// is test code: Playwright serves it by routing /__test/host.html, so nothing of it ships.
import { launch, BASE_URL } from './browser.js';

export { launch, BASE_URL };
export const HOST_PATH = '/__test/host.html';

const NONCE = 'local-runtime-test';

// The host: the iframe as the app embeds it, plus a small driver. `rt.run(code)` resolves with
// the decoded runner events of that execute once its `finished` arrives; every frame message is
// kept in `rt.messages`. Like the app, it answers `fetchAssets` from its own (cacheable) origin.
const HOST_SCRIPT = `
let frame = null;
const rt = window.rt = { messages: [], waiters: [], seq: 0 };
rt.insertFrame = (isolated, parentAssets) => {
  frame = document.createElement('iframe');
  frame.sandbox = 'allow-scripts';
  if (isolated) frame.allow = 'cross-origin-isolated';
  frame.title = 'Python runtime';
  frame.src = '/local/runtime.html' + (parentAssets ? '#assets=parent' : '');
  document.body.appendChild(frame);
};
rt.answerAssets = async (urls) => {
  const wanted = (Array.isArray(urls) ? urls : []).filter((url) => {
    const u = new URL(url, location.href);
    return u.origin === location.origin && u.pathname.startsWith('/pyodide/');
  });
  const files = (await Promise.all(wanted.map(async (url) => {
    try {
      const r = await fetch(url, { credentials: 'omit' });
      return r.ok ? { url, bytes: await r.blob() } : null;
    } catch {
      return null;
    }
  }))).filter(Boolean);
  rt.send({ type: 'assets', files });
};
window.addEventListener('message', (e) => {
  if (!frame || e.source !== frame.contentWindow) return;
  const m = e.data;
  m.at = performance.now();
  if (m.type === 'runner') m.event = JSON.parse(m.line);
  if (m.type === 'fetchAssets') rt.answerAssets(m.urls);
  rt.messages.push(m);
  rt.waiters = rt.waiters.filter((w) => !w(m));
});
rt.send = (m, transfer) => frame.contentWindow.postMessage(m, '*', transfer || []);
rt.wait = (predicate, timeoutMs = 60000, from = 0) => new Promise((resolve, reject) => {
  const seen = rt.messages.slice(from).find(predicate);
  if (seen) return resolve(seen);
  const timer = setTimeout(() => reject(new Error('timed out waiting; last messages: '
    + JSON.stringify(rt.messages.slice(-5).map((m) => m.line || m.type)))), timeoutMs);
  rt.waiters.push((m) => { if (!predicate(m)) return false; clearTimeout(timer); resolve(m); return true; });
});
rt.start = (code, options = {}) => {
  const id = options.id || 'cell-' + (++rt.seq);
  rt.send({ type: 'execute', id, code, language: options.language, timeoutMs: options.timeoutMs || 30000, maxOutputBytes: options.maxOutputBytes || 1048576 });
  return id;
};
rt.collect = async (id, timeoutMs = 60000) => {
  await rt.wait((m) => m.type === 'runner' && m.event.id === id && m.event.type === 'finished', timeoutMs);
  return rt.messages.filter((m) => m.type === 'runner' && m.event.id === id).map((m) => m.event);
};
rt.run = (code, options = {}) => rt.collect(rt.start(code, options), options.waitMs);
rt.request = (message, transfer) => {
  const requestId = 'req-' + (++rt.seq);
  rt.send({ ...message, requestId }, transfer);
  return rt.wait((m) => m.requestId === requestId, 30000);
};
`;

function hostPage(isolated, insertFrame, parentAssets) {
  const insert = insertFrame ? `rt.insertFrame(${isolated}, ${parentAssets});` : '';
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>local runtime host</title></head><body>
<script nonce="${NONCE}">${HOST_SCRIPT}${insert}</script></body></html>`;
}

/** The app's own CSP, with a nonce for the inline driver; COOP+COEP when `isolated`. */
function hostHeaders(isolated) {
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'self'; script-src 'self' 'nonce-${NONCE}' 'wasm-unsafe-eval'; style-src 'self'; `
      + "img-src 'self' data: blob:; frame-src 'self' blob: data:; connect-src 'self'; object-src 'none'; "
      + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'cache-control': 'no-store',
  };
  if (isolated) {
    headers['cross-origin-opener-policy'] = 'same-origin';
    headers['cross-origin-embedder-policy'] = 'require-corp';
  }
  return headers;
}

/**
 * A fresh context (or `context`) with the host page open. `isolated` serves it cross-origin
 * isolated and lets the frame be isolated too (SharedArrayBuffer interrupts). `parentAssets`
 * makes the host answer `fetchAssets` as the app does (false: the frame fetches them itself).
 * Every request the context makes, workers included, is recorded in `requests` ({url, method,
 * type, failure?}). Resolves once the runtime says `ready` (unless `waitReady` is false). With
 * `frame: false` the page waits for `rt.insertFrame(isolated, parentAssets)` to add the iframe.
 *
 * The host page is served by routing, and Playwright turns the HTTP cache off for a context with
 * routes. `cached: true` keeps it on: the driver is put into one of the app's own pages instead
 * (any same-origin page with the app's headers will do; always cross-origin isolated).
 */
export async function openRuntime(browser, { isolated = true, context: given = null, waitReady = true, frame = true,
  parentAssets = true, cached = false } = {}) {
  const context = given || await browser.newContext();
  const requests = [];
  const entries = new Map();
  context.on('request', (r) => {
    const entry = { url: r.url(), method: r.method(), type: r.resourceType() };
    entries.set(r, entry);
    requests.push(entry);
  });
  // `failure` is why the browser refused it ('csp': it never left the browser)
  context.on('requestfailed', (r) => { const e = entries.get(r); if (e) e.failure = r.failure()?.errorText; });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  if (cached) {
    await page.goto(BASE_URL + '/healthz');
    await page.evaluate(`(() => {${HOST_SCRIPT}})()`);
    if (frame) {
      await page.evaluate((p) => rt.insertFrame(true, p), parentAssets);
    }
  } else {
    await context.route(BASE_URL + HOST_PATH, (route) => route.fulfill({ status: 200, headers: hostHeaders(isolated),
      body: hostPage(isolated, frame, parentAssets) }));
    await page.goto(BASE_URL + HOST_PATH);
  }
  let ready = null;
  if (waitReady) {
    ready = await page.evaluate(() => rt.wait((m) => m.type === 'ready' || m.type === 'fatal', 120000));
    if (ready.type === 'fatal') {
      throw new Error('the local runtime did not load: ' + ready.message);
    }
  }
  return { context, page, requests, errors, ready };
}

/** Runs one cell in the host page; resolves to its runner events. */
export function run(page, code, options = {}) {
  return page.evaluate(([c, o]) => rt.run(c, o), [code, options]);
}

export const textOf = (events, name = 'stdout') =>
  events.filter((e) => e.type === 'stream' && e.name === name).map((e) => e.text).join('');

export const finishedOf = (events) => events.find((e) => e.type === 'finished');
export const errorOf = (events) => events.find((e) => e.type === 'error');
export const resultOf = (events) => events.find((e) => e.type === 'execute_result');
