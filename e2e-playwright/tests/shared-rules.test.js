// Every copy of a shared rule answers the shared table of cases alike. The Java copy is tested
// by shared-model's own tests on the same files; these are the local runtime's JavaScript copies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkName } from '../../pyodide-assets/src/runtime/workspace-names.mjs';

const rules = (file) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../shared-model/src/test/resources/rules/${file}`, import.meta.url)), 'utf8'));

test('the local runtime accepts and refuses file names exactly as the shared table says', () => {
  for (const c of rules('workspace-names.json').cases) {
    if ('accepted' in c) {
      assert.equal(checkName(c.name), c.accepted, `accepts ${JSON.stringify(c.name)}`);
    } else {
      assert.throws(() => checkName(c.name), { message: c.refused }, `refuses ${JSON.stringify(c.name)}`);
    }
  }
});

test('a lone surrogate in a name is refused', () => {
  for (const name of ['a\ud800b', 'a\udc00', '\udbff']) {
    assert.throws(() => checkName(name), { message: 'file names may not contain unassigned or private-use characters' });
  }
});

test('the embed frame allows a parent origin exactly when the shared table says', async () => {
  const { originAllowed } = await import('../../web/src/main/resources/public/js/embed-channel.js');
  for (const c of rules('embed-origins.json').cases) {
    assert.equal(originAllowed(c.origin, c.sources), c.allowed, `${c.origin} against ${JSON.stringify(c.sources)}`);
  }
});
