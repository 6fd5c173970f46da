// Files through the app in server mode: upload by button and by drop, the files panel, artifacts
// as chips with images inline, downloads, delete, and the per-file limit checked before sending.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, runCell, finished, outputs, BASE_URL } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openApp() {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  if (process.env.DEBUG_REQUESTS) page.on('request', (r) => console.log('req', r.method(), r.url()));
  await page.goto(BASE_URL + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { context, page };
}

const fileRow = (page, name) => page.getByTestId('file').and(page.locator(`[data-name="${name}"]`));

test('a CSV uploaded with the button is read by pandas, giving the figure only its data gives', async () => {
  const { context, page } = await openApp();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'files-'));
    const rows = ['region,amount'];
    for (let i = 0; i < 500; i++) {
      rows.push(`${['north', 'south', 'east'][i % 3]},${(i * 37) % 101}`);
    }
    writeFileSync(join(dir, 'sales.csv'), rows.join('\n') + '\n');
    const expected = rows.slice(1).map((r) => r.split(',')).filter(([region]) => region === 'south')
      .reduce((sum, [, amount]) => sum + Number(amount), 0);

    await page.getByTestId('upload').setInputFiles(join(dir, 'sales.csv'));
    await fileRow(page, 'sales.csv').waitFor();
    assert.match(await fileRow(page, 'sales.csv').innerText(), /sales\.csv/);
    const turn = await runCell(page, "import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint(int(df.groupby('region').amount.sum()['south']))");
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), String(expected));
  } finally {
    await context.close();
  }
});

test('a cell writing out.xlsx and a PNG shows both as chips, the PNG inline; both download, and delete removes them', async () => {
  const { context, page } = await openApp();
  try {
    const turn = await runCell(page, [
      'import pandas as pd, matplotlib.pyplot as plt',
      "pd.DataFrame({'n': [1, 2, 3], 'sq': [1, 4, 9]}).to_excel('out.xlsx', index=False)",
      "plt.plot([1, 2, 3], [1, 4, 9]); plt.savefig('chart.png'); plt.close()",
    ].join('\n'));
    await finished(turn);
    const chips = turn.getByTestId('artifact');
    await chips.nth(1).waitFor();
    assert.deepEqual((await chips.evaluateAll((els) => els.map((e) => e.dataset.name))).sort(), ['chart.png', 'out.xlsx']);
    const inline = turn.locator('.artifact-image img');
    await inline.waitFor();
    assert.ok(await inline.evaluate((img) => img.decode().then(() => img.naturalWidth > 100)), 'the PNG shows inline');
    assert.match(await inline.getAttribute('src'), /^blob:/, 'fetched with the token, shown from a blob: URL');

    const [download] = await Promise.all([page.waitForEvent('download'), chips.and(page.locator('[data-name="out.xlsx"]')).click()]);
    assert.equal(download.suggestedFilename(), 'out.xlsx');
    const bytes = readFileSync(await download.path());
    assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'an xlsx is a zip');

    await fileRow(page, 'chart.png').waitFor();
    const [png] = await Promise.all([page.waitForEvent('download'), fileRow(page, 'chart.png').getByTestId('file-download').click()]);
    assert.deepEqual([...readFileSync(await png.path()).subarray(1, 4)], [0x50, 0x4e, 0x47]);

    await fileRow(page, 'out.xlsx').getByTestId('file-delete').click();
    await fileRow(page, 'out.xlsx').waitFor({ state: 'detached' });
    const check = await runCell(page, "import os\nprint(sorted(os.listdir('.')))");
    await finished(check);
    assert.equal((await outputs(check, 'stream').innerText()).trim(), "['chart.png']");
  } finally {
    await context.close();
  }
});

test('a file dropped onto the conversation uploads with a progress bar', async () => {
  const { context, page } = await openApp();
  try {
    await page.evaluate(() => {
      const bytes = new Uint8Array(24 << 20);
      bytes.fill(65);
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'big.bin'));
      const target = document.querySelector('.conversation');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
      }
    });
    await page.getByTestId('upload-progress').waitFor();
    await fileRow(page, 'big.bin').waitFor({ timeout: 30000 });
    await page.getByTestId('upload-progress').waitFor({ state: 'detached' });
    const turn = await runCell(page, "import os\nprint(os.path.getsize('big.bin'))");
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), String(24 << 20));
  } finally {
    await context.close();
  }
});

test('a file over the limit is refused with a clear message before a byte is sent', async () => {
  const { context, page } = await openApp();
  try {
    const puts = [];
    page.on('request', (r) => { if (r.method() === 'PUT') puts.push(r.url()); });
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array((100 << 20) + 1)], 'huge.csv'));
      document.body.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
    });
    const problem = page.locator('.files-problem');
    await problem.filter({ hasText: 'huge.csv' }).waitFor();
    assert.match(await problem.innerText(), /limit is 100 MiB/);
    assert.deepEqual(puts, []);
    assert.equal(await fileRow(page, 'huge.csv').count(), 0);
  } finally {
    await context.close();
  }
});
