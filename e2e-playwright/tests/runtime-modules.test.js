// The runtime frame's modules and the Python worker's are each fetched all at once instead of
// letting the imports find them level by level (the frame's fetches are never cached, so every
// level is a round trip): the frame's page preloads every module runtime.mjs reaches, and the
// frame's WORKER_MODULES (frame-config.mjs) is exactly the modules worker.mjs reaches, worker.mjs
// first. The build ships every one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('../../pyodide-assets/src/runtime/', import.meta.url));
const source = (name) => readFileSync(RUNTIME + name, 'utf8');

/** Every module `entry` reaches through its static imports and re-exports, itself included. */
function reachedFrom(entry) {
  const reached = new Set();
  const visit = (name) => {
    if (reached.has(name)) return;
    reached.add(name);
    for (const [, imported] of source(name).matchAll(/^(?:import|export)\s[^;]*?from '\.\/([^']+)';/gms)) {
      visit(imported);
    }
  };
  visit(entry);
  return reached;
}

test('the worker modules the frame fetches at once are exactly those worker.mjs imports, worker.mjs first', () => {
  const listed = /const WORKER_MODULES = \[([^\]]*)\]/.exec(source('frame-config.mjs'));
  assert.ok(listed, 'frame-config.mjs has WORKER_MODULES');
  const modules = [...listed[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  assert.equal(modules[0], 'worker.mjs');
  assert.deepEqual([...modules].sort(), [...reachedFrom('worker.mjs')].sort());
});

test('the frame\'s page runs runtime.mjs as a module and preloads exactly the modules it imports', () => {
  const page = source('runtime.html');
  const entries = [...page.matchAll(/<script type="module" src="\{\{RUNTIME_URL\}\}([^"]+)"><\/script>/g)].map((m) => m[1]);
  assert.deepEqual(entries, ['runtime.mjs']);
  assert.doesNotMatch(page, /<script src=/, 'no classic scripts: the frame is modules only');
  const preloaded = [...page.matchAll(/<link rel="modulepreload" href="\{\{RUNTIME_URL\}\}([^"]+)">/g)].map((m) => m[1]);
  const imported = [...reachedFrom('runtime.mjs')].filter((name) => name !== 'runtime.mjs');
  assert.deepEqual([...preloaded].sort(), imported.sort());
});

test('the build ships every module the frame and the worker reach', () => {
  const build = readFileSync(fileURLToPath(new URL('../../pyodide-assets/build-assets.mjs', import.meta.url)), 'utf8');
  const listed = /const RUNTIME_FILES = \[([^\]]*)\]/.exec(build);
  assert.ok(listed, 'build-assets.mjs has RUNTIME_FILES');
  const shipped = new Set([...listed[1].matchAll(/'([^']+)'/g)].map((m) => m[1]));
  for (const name of [...reachedFrom('runtime.mjs'), ...reachedFrom('worker.mjs')]) {
    assert.ok(shipped.has(name), `${name} is in RUNTIME_FILES`);
  }
});
