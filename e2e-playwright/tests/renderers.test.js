// Rich outputs in both modes (the same views render server and local events): Markdown with
// formulas, LaTeX, JSON trees, Plotly charts in the sandboxed output frame, images with zoom and
// download, the richest MIME type winning; and hostile Markdown and JSON that never execute or
// navigate.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, outputs, BASE_URL } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openServer() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(BASE_URL + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { context, page };
}

async function openLocal() {
  const { context, page } = await openServer();
  await page.getByTestId('mode-local').click();
  await page.getByTestId('status').filter({ hasText: 'Local' }).filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
  return { context, page };
}

/** Runs a cell that displays `bundle` (a Python dict literal) raw; resolves to its display output. */
async function displayed(page, bundle) {
  const turn = await runCell(page, `display(${bundle}, raw=True)`);
  await finished(turn);
  return outputs(turn, 'display');
}

const FIGURE = "{'data': [{'type': 'bar', 'x': ['a', 'b', 'c'], 'y': [3, 1, 2]}], 'layout': {'title': {'text': 'Bars'}}}";
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

async function markdownWithFormulas(page) {
  const out = await displayed(page, String.raw`{'text/markdown': '# Euler\n\nInline $e^{i\\pi} + 1 = 0$, costs $5 and $10.\n\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\n[docs](https://example.org/x)', 'text/plain': 'PLAIN-FALLBACK'}`);
  const md = out.locator('.markdown-output');
  await md.waitFor();
  assert.equal(await md.locator('h1').innerText(), 'Euler');
  assert.equal(await md.locator('.katex').count(), 2, 'one inline and one display formula');
  assert.equal(await md.locator('.katex-display').count(), 1);
  assert.equal(await md.locator('.katex-error').count(), 0);
  assert.match(await md.innerText(), /costs \$5 and \$10/, 'dollar amounts stay text');
  const link = md.locator('a');
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
  assert.doesNotMatch(await out.innerText(), /PLAIN-FALLBACK/, 'the richest type wins');
  const font = await md.locator('.katex-display .katex-html').evaluate((e) => getComputedStyle(e.querySelector('.mord')).fontFamily);
  assert.match(font, /KaTeX/, 'KaTeX CSS is served by us and applies');
}

async function latex(page) {
  const out = await displayed(page, String.raw`{'text/latex': r'$$\sum_{n=1}^\infty \frac{1}{n^2} = \frac{\pi^2}{6}$$', 'text/plain': 'PLAIN-FALLBACK'}`);
  await out.locator('.latex-output .katex-display').waitFor();
  assert.equal(await out.locator('.katex-error').count(), 0);
  assert.doesNotMatch(await out.innerText(), /PLAIN-FALLBACK/);
}

async function jsonTree(page) {
  const out = await displayed(page, "{'application/json': {'name': '<b id=jsonbold>x</b>', 'items': [1, None, {'deep': {'deeper': True}}]}, 'text/plain': 'PLAIN-FALLBACK'}");
  const tree = out.getByTestId('json-tree');
  await tree.waitFor();
  assert.match(await tree.innerText(), /"<b id=jsonbold>x<\/b>"/, 'strings are text');
  assert.equal(await page.locator('#jsonbold').count(), 0);
  const deepKey = tree.locator('.json-key', { hasText: /^deep$/ });
  assert.equal(await deepKey.isVisible(), false, 'the third level starts collapsed');
  await tree.locator('summary', { hasText: /^2:/ }).click();
  await tree.locator('summary', { hasText: /^deep:/ }).click();
  assert.equal(await tree.getByText('true').isVisible(), true, 'clicking expands it');
  await tree.locator('summary').first().click();
  assert.equal(await tree.locator('.json-key', { hasText: 'items' }).isVisible(), false, 'the root collapses');
}

async function plotlyChart(page, bundle = `{'application/vnd.plotly.v1+json': ${FIGURE}, 'text/html': '<b>not me</b>', 'text/plain': 'Figure'}`) {
  const out = await displayed(page, bundle);
  const frame = out.locator('iframe.plotly-output');
  await frame.waitFor();
  assert.equal(await frame.getAttribute('sandbox'), 'allow-scripts');
  assert.equal(await out.locator('iframe').count(), 1, 'the figure, not its HTML too: one rendering per bundle');
  const chart = out.frameLocator('iframe.plotly-output');
  await chart.locator('.plotly-chart .main-svg').first().waitFor({ timeout: 20000 });
  assert.equal(await chart.locator('.plotly-chart .bars .point').count(), 3, 'three bars drawn');
  await page.waitForFunction((f) => f.getBoundingClientRect().height > 300, await frame.elementHandle());
  return out;
}

async function imageZoomAndDownload(page) {
  const out = await displayed(page, `{'image/png': '${PNG}', 'text/plain': 'PLAIN-FALLBACK'}`);
  const img = out.locator('.image-output img');
  await img.click();
  const overlay = page.getByTestId('image-overlay');
  await overlay.waitFor();
  assert.equal(await overlay.locator('img').getAttribute('src'), `data:image/png;base64,${PNG}`);
  await page.keyboard.press('Escape');
  await overlay.waitFor({ state: 'detached' });
  const download = out.getByText('Download');
  assert.equal(await download.getAttribute('download'), 'output.png');
  assert.equal(await download.getAttribute('href'), `data:image/png;base64,${PNG}`);
}

const HOSTILE_MARKDOWN = String.raw`{'text/markdown': '<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned = 2">\n\n[click me](javascript:window.__pwned=3)\n\n<a href="javascript:window.__pwned=4">raw link</a>\n\n[data](data:text/html,<script>parent.__pwned=5</script>)\n\n$\\href{javascript:window.__pwned=6}{formula link}$ <iframe src="/"></iframe>', 'text/plain': 'x'}`;

async function hostileContent(page) {
  const url = page.url();
  const out = await displayed(page, HOSTILE_MARKDOWN);
  const md = out.locator('.markdown-output');
  await md.waitFor();
  assert.equal(await md.locator('script, img, iframe').count(), 0, 'no raw HTML became elements');
  assert.equal(await md.locator('a[href^="javascript:"], a[href^="data:"]').count(), 0, 'no script or data links');
  assert.match(await md.innerText(), /<script>window.__pwned = 1<\/script>/, 'raw HTML shows as text');
  assert.equal(await md.locator('.katex a').count(), 0, 'KaTeX made no link of \\href');
  for (const target of [md.getByText('click me'), md.getByText('raw link'), md.locator('.katex').first()]) {
    await target.click();
  }
  const json = await displayed(page, "{'application/json': {'<img src=x onerror=\"window.__pwned=7\">': '<script>window.__pwned=8</script>'}}");
  await json.getByTestId('json-tree').waitFor();
  assert.equal(await json.locator('img, script').count(), 0);
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'nothing executed');
  assert.equal(page.url(), url, 'nothing navigated the app');
  assert.equal(page.context().pages().length, 1, 'no window opened');
}

async function checklist(page) {
  await markdownWithFormulas(page);
  await latex(page);
  await jsonTree(page);
  await plotlyChart(page);
  await imageZoomAndDownload(page);
  await hostileContent(page);
}

test('server mode renders Markdown with formulas, LaTeX, JSON, Plotly and images, and hostile content stays inert', async () => {
  const { context, page } = await openServer();
  try {
    await checklist(page);
  } finally {
    await context.close();
  }
});

test('a plotly Figure from the sandbox, displayed or as the result, becomes an interactive chart', async () => {
  const { context, page } = await openServer();
  try {
    const turn = await runCell(page, "import numpy as np\nimport plotly.graph_objects as go\n"
      + "fig = go.Figure(go.Bar(x=['a', 'b', 'c'], y=np.array([3, 1, 2])))\ndisplay(fig)\nfig");
    await finished(turn);
    for (const type of ['display', 'result']) {
      const chart = outputs(turn, type).frameLocator('iframe.plotly-output');
      await chart.locator('.plotly-chart .bars .point').first().waitFor({ timeout: 20000 });
      assert.equal(await chart.locator('.plotly-chart .bars .point').count(), 3, type);
      assert.ok(await chart.locator('.modebar').count() >= 1, 'with its toolbar: the chart is interactive');
    }
    assert.equal(await outputs(turn, 'stream').count(), 0, 'no renderer error on stderr');
  } finally {
    await context.close();
  }
});

test('local mode renders the same outputs the same way', async () => {
  const { context, page } = await openLocal();
  try {
    await checklist(page);
  } finally {
    await context.close();
  }
});

test('the output frame loads plotly.js and no other script, ours or anyone\'s, and reaches no network', async () => {
  const { context, page } = await openServer();
  try {
    const html = '<script>window.loaded = []; window.blocked = [];'
      + "document.addEventListener('securitypolicyviolation', (e) => window.blocked.push(e.blockedURI));"
      + "for (const src of ['/app.js', '/js/vendor/katex/katex.js', 'https://example.org/x.js', '/js/vendor/plotly/plotly.min.js']) {"
      + "  const s = document.createElement('script'); s.src = src; s.onload = () => window.loaded.push(src); document.head.append(s); }"
      + "fetch('/js/vendor/plotly/plotly.min.js').then(() => window.loaded.push('fetch'), () => {});</script>";
    const out = await displayed(page, `{'text/html': ${JSON.stringify(html)}}`);
    const frame = await (await out.locator('iframe.html-output').elementHandle()).contentFrame();
    await frame.waitForFunction(() => window.loaded && window.loaded.length >= 1 && window.blocked.length >= 4, null, { timeout: 20000 });
    assert.deepEqual(await frame.evaluate(() => window.loaded), ['/js/vendor/plotly/plotly.min.js']);
    const blocked = await frame.evaluate(() => window.blocked.join(' '));
    for (const refused of ['/app.js', '/js/vendor/katex/katex.js', 'https://example.org', '/js/vendor/plotly/plotly.min.js']) {
      assert.ok(blocked.includes(refused), `${refused} refused: ${blocked}`);
    }
  } finally {
    await context.close();
  }
});
