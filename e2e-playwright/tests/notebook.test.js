// Notebooks through the app: "Export .ipynb" in server mode (the server's endpoint) and in local
// mode (built in the browser from IndexedDB), each file checked by Debian's nbformat; "Import .ipynb"
// starts a conversation whose cells run only on "Run all"; hostile files get a clear refusal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, runCell, finished, outputs, BASE_URL } from '../browser.js';

let browser;
let dir;
before(async () => {
  browser = await launch();
  dir = mkdtempSync(join(tmpdir(), 'notebook-'));
});
after(async () => { await browser?.close(); });

async function openServer() {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(BASE_URL + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { context, page };
}

/** Clicks Export and answers the saved notebook (and its path), after nbformat.validate (python3-nbformat) accepted it. */
async function exportNotebook(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-notebook').click()]);
  assert.match(download.suggestedFilename(), /^codeinterp-[A-Za-z0-9_-]{8}\.ipynb$/);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  execFileSync('/usr/bin/python3', ['-c', 'import sys, nbformat\nnbformat.validate(nbformat.read(sys.argv[1], as_version=4))', path]);
  return { notebook: JSON.parse(readFileSync(path, 'utf8')), path };
}

/** Writes a notebook file for the import button. */
function notebookFile(name, notebook) {
  const path = join(dir, name);
  writeFileSync(path, typeof notebook === 'string' ? notebook : JSON.stringify(notebook));
  return path;
}

const code = (source, outputs = []) => ({ cell_type: 'code', metadata: {}, source, outputs, execution_count: null });
const nb = (cells) => ({ nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } }, cells });

test('Export .ipynb in server mode saves the conversation, with outputs and counts, as a valid notebook', async () => {
  const { context, page } = await openServer();
  try {
    await finished(await runCell(page, "print('hi from the server')"));
    await finished(await runCell(page, '1/0'));
    const { notebook } = await exportNotebook(page);
    assert.equal(notebook.nbformat, 4);
    assert.equal(notebook.nbformat_minor, 5);
    assert.deepEqual(notebook.cells.map((c) => c.source), ["print('hi from the server')", '1/0']);
    assert.deepEqual(notebook.cells.map((c) => c.execution_count), [1, 2]);
    assert.equal(notebook.cells[0].outputs[0].text, 'hi from the server\n');
    assert.equal(notebook.cells[1].outputs[0].ename, 'ZeroDivisionError');
  } finally {
    await context.close();
  }
});

test('an imported notebook runs nothing until Run all, never shows its saved outputs, then runs its cells in order', async () => {
  const { context, page } = await openServer();
  try {
    const file = notebookFile('analysis.ipynb', nb([
      { cell_type: 'markdown', metadata: {}, source: '# Notes <img src=x onerror="window.pwned=1">' },
      code('x = 20'),
      code(['print(x', ' + 22)'], [{ output_type: 'display_data', metadata: {},
        data: { 'text/html': '<script>window.pwned = 1</script><b>saved</b>', 'application/javascript': 'window.pwned = 1' } }]),
      code('x * 2'),
    ]));
    await page.getByTestId('import-notebook').setInputFiles(file);
    const imported = page.getByTestId('imported-notebook');
    await imported.waitFor();
    assert.match(await page.getByTestId('imported-note').innerText(), /analysis\.ipynb: 3 code cells, not run yet\. 1 markdown or raw cell was left out\. Outputs saved in the file are not shown/);
    assert.equal(await page.getByTestId('imported-cell').count(), 3);
    assert.match(await page.getByTestId('intro').innerText(), /Imported analysis\.ipynb/);
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1000);
    assert.equal(await page.getByTestId('turn').count(), 0, 'nothing ran by itself');
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.equal(await page.locator('iframe').filter({ hasText: 'saved' }).count(), 0);

    await page.getByTestId('run-all').click();
    const turns = page.getByTestId('turn');
    await turns.nth(2).waitFor({ timeout: 30000 });
    await finished(turns.nth(2));
    assert.equal((await outputs(turns.nth(1), 'stream').innerText()).trim(), '42');
    assert.match(await outputs(turns.nth(2), 'result').innerText(), /40/);
    await imported.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => window.pwned), undefined);
  } finally {
    await context.close();
  }
});

test('Run all stops at the first cell that fails and keeps the cells not run', async () => {
  const { context, page } = await openServer();
  try {
    await page.getByTestId('import-notebook').setInputFiles(notebookFile('broken.ipynb', nb([code('1/0'), code("print('after')")])));
    await page.getByTestId('imported-notebook').waitFor();
    await page.getByTestId('run-all').click();
    const first = page.getByTestId('turn').first();
    await first.waitFor({ timeout: 30000 });
    await finished(first);
    await page.getByTestId('imported-note').filter({ hasText: 'Run all stopped: a cell ended with error. The 1 cell not run yet is below.' }).waitFor();
    assert.equal(await page.getByTestId('imported-cell').count(), 1);
    await page.waitForTimeout(500);
    assert.equal(await page.getByTestId('turn').count(), 1);
  } finally {
    await context.close();
  }
});

test('hostile notebooks are refused with a sentence that says why, and nothing runs', async () => {
  const { context, page } = await openServer();
  try {
    const status = page.getByTestId('status');
    const cases = [
      ['broken.ipynb', '{"nbformat": 4, "cells": [', /broken\.ipynb: This file is not a notebook: it is not valid JSON/],
      ['old.ipynb', { nbformat: 3, worksheets: [] }, /old\.ipynb: This is an nbformat 3 notebook; only nbformat 4 can be imported/],
      ['prose.ipynb', nb([{ cell_type: 'markdown', metadata: {}, source: 'only words' }]), /no code cells/],
      ['r.ipynb', { ...nb([code('1')]), metadata: { kernelspec: { name: 'ir', display_name: 'R', language: 'R' } } }, /written in R/],
      ['deep.ipynb', '['.repeat(100000), /not valid JSON/],
    ];
    for (const [name, content, message] of cases) {
      await page.getByTestId('import-notebook').setInputFiles(notebookFile(name, content));
      await status.filter({ hasText: message }).waitFor();
    }
    const huge = join(dir, 'huge.ipynb');
    writeFileSync(huge, Buffer.alloc(21 << 20, 0x20));
    await page.getByTestId('import-notebook').setInputFiles(huge);
    await status.filter({ hasText: /huge\.ipynb: This notebook is larger than 20 MiB/ }).waitFor();
    assert.equal(await page.getByTestId('imported-notebook').count(), 0);
    assert.equal(await page.getByTestId('turn').count(), 0);
  } finally {
    await context.close();
  }
});

test('Export .ipynb in local mode builds the notebook in the browser (no request carries it), and it imports and runs again there', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  try {
    await page.goto(BASE_URL + '/');
    await page.getByTestId('mode-local').click();
    await page.getByTestId('status').filter({ hasText: 'Local' }).filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
    await finished(await runCell(page, "print('hi from the browser')"));
    await finished(await runCell(page, "{'a': 1}"));
    const { notebook, path } = await exportNotebook(page);
    assert.deepEqual(notebook.cells.map((c) => c.source), ["print('hi from the browser')", "{'a': 1}"]);
    assert.equal(notebook.cells[0].outputs[0].text, 'hi from the browser\n');
    assert.equal(notebook.cells[1].outputs[0].output_type, 'execute_result');
    assert.equal(notebook.metadata.kernelspec.name, 'python3');
    assert.ok(!requests.some((u) => u.includes('notebook')), 'the notebook was built in the browser');

    const before = page.url();
    await page.getByTestId('import-notebook').setInputFiles(path);
    await page.getByTestId('imported-notebook').waitFor();
    assert.notEqual(page.url(), before, 'a new local conversation');
    assert.match(page.url(), /#\/l\/[0-9a-f]{32}$/);
    assert.equal(await page.getByTestId('turn').count(), 0);
    await page.getByTestId('run-all').click();
    const turns = page.getByTestId('turn');
    await turns.nth(1).waitFor({ timeout: 60000 });
    await finished(turns.nth(1), 60000);
    assert.equal((await outputs(turns.nth(0), 'stream').innerText()).trim(), 'hi from the browser');
    assert.match(await outputs(turns.nth(1), 'result').innerText(), /\{'a': 1\}/);
  } finally {
    await context.close();
  }
});
