// The app's hand-written JavaScript (web/src/main/resources/public/**/*.js; the TeaVM output is
// generated and not in the tree) passes ESLint, and every module loads in Chromium on its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { launch } from '../browser.js';
import { ROOT, PUBLIC, modulePage } from '../module-page.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const MODULES = readdirSync(join(PUBLIC, 'js')).filter((name) => name.endsWith('.js'));

test('the app\'s JavaScript passes ESLint', async () => {
  const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, 'e2e-playwright/eslint.config.js') });
  const results = await eslint.lintFiles(['web/src/main/resources/public/**/*.js']);
  const linted = results.map((r) => relative(PUBLIC, r.filePath)).sort();
  assert.deepEqual(linted, ['boot.js', 'embed-boot.js', 'embed.js', ...MODULES.map((name) => `js/${name}`)].sort(), 'every file was linted');
  const problems = results.flatMap((r) => r.messages.map((m) =>
    `${relative(ROOT, r.filePath)}:${m.line}:${m.column} ${m.message} (${m.ruleId})`));
  assert.deepEqual(problems, []);
});

test('every module under public/js loads in Chromium and exports only functions', async () => {
  assert.ok(MODULES.length >= 7, `modules found: ${MODULES}`);
  const { context, page } = await modulePage(browser);
  try {
    for (const name of MODULES) {
      const exports = await page.evaluate(async (path) => {
        const module = await import(path);
        return Object.entries(module).map(([key, value]) => `${key}:${typeof value}`);
      }, `/js/${name}`);
      assert.ok(exports.length > 0, `${name} exports something`);
      assert.deepEqual(exports.filter((e) => !e.endsWith(':function')), [], `${name} exports functions`);
    }
  } finally {
    await context.close();
  }
});
