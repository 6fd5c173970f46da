// The runtime frame fetches the Python worker's modules all at once (runtime.js, WORKER_MODULES)
// instead of letting the imports find them level by level: that list must be exactly the modules
// worker.mjs reaches through its imports, worker.mjs first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('../../pyodide-assets/src/runtime/', import.meta.url));
const source = (name) => readFileSync(RUNTIME + name, 'utf8');

test('the worker modules the frame fetches at once are exactly those worker.mjs imports, worker.mjs first', () => {
  const listed = /const WORKER_MODULES = \[([^\]]*)\]/.exec(source('runtime.js'));
  assert.ok(listed, 'runtime.js has WORKER_MODULES');
  const modules = [...listed[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  const reached = new Set();
  const visit = (name) => {
    if (reached.has(name)) return;
    reached.add(name);
    for (const [, imported] of source(name).matchAll(/^(?:import|export)\s[^;]*?from '\.\/([^']+)';/gms)) {
      visit(imported);
    }
  };
  visit('worker.mjs');
  assert.equal(modules[0], 'worker.mjs');
  assert.deepEqual([...modules].sort(), [...reached].sort());
});
