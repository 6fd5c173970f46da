// A Chromium page for unit tests of the app's own JavaScript modules, served straight from the
// source tree (web/src/main/resources/public) on a made-up origin, no server (js/vendor/ from the
// web module's build output, where its npm libraries are placed). Requests
// for paths a test registers with `serve` get its answer instead (a fake API, a frame's page).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PUBLIC = join(ROOT, 'web/src/main/resources/public');
export const ORIGIN = 'http://unit.localhost';
/** What the web module's build adds to public/ (js/vendor/: libraries from npm). */
const BUILT = join(ROOT, 'web/target/classes/public');

/**
 * Opens a blank page of ORIGIN in a fresh context. `serve(path, handler)` answers requests for
 * `path` with `handler(route, request)`; everything else under ORIGIN comes from PUBLIC.
 */
export async function modulePage(browser) {
  const context = await browser.newContext({ acceptDownloads: true });
  const handlers = new Map();
  await context.route(ORIGIN + '/**', (route, request) => {
    const path = new URL(request.url()).pathname;
    if (handlers.has(path)) {
      return handlers.get(path)(route, request);
    }
    if (path === '/') {
      return route.fulfill({ contentType: 'text/html', body: '<!DOCTYPE html><title>modules</title><body></body>' });
    }
    if (path.startsWith('/js/vendor/')) {
      return route.fulfill({ path: join(BUILT, path) }); // libraries from npm: the web build places them
    }
    return route.fulfill({ path: join(PUBLIC, path) });
  });
  const page = await context.newPage();
  await page.goto(ORIGIN + '/');
  return {
    context,
    page,
    serve: (path, handler) => handlers.set(path, handler),
    /** Imports the module at `path` into the page as `window[name]`. */
    load: (path, name) => page.evaluate(async ([p, n]) => { window[n] = await import(p); }, [path, name]),
  };
}

/** Runs `use(harness)` on a fresh module page of `browser`, closing its context afterwards whatever happens. */
export async function withModulePage(browser, use) {
  const harness = await modulePage(browser);
  try {
    await use(harness);
  } finally {
    await harness.context.close();
  }
}

/** An HTML page whose inline script is `script` (unit pages have no CSP). */
export const htmlPage = (script) => ({ contentType: 'text/html', body: `<!DOCTYPE html><body><script>${script}</script></body>` });
