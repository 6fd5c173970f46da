// Unit tests of the app's Markdown module (web/src/main/resources/public/js/markdown.js over
// markdown-it, DOMPurify and KaTeX from npm) in Chromium: what becomes a formula, what stays text,
// and that no markup of the input ever becomes live elements, handlers or links that leave.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from '../browser.js';
import { withModulePage } from '../module-page.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const withPage = (use) => withModulePage(browser, use);

/** Renders `text` with `fn` (renderMarkdown or renderLatex) into a fresh div; answers what came out. */
const render = (page, fn, text) => page.evaluate(async ([f, t]) => {
  const box = document.createElement('div');
  document.body.append(box);
  await markdown[f](box, t);
  const tags = [...box.querySelectorAll('*')].map((e) => e.tagName.toLowerCase());
  return {
    text: box.textContent,
    formulas: [...box.querySelectorAll('.math-tex')].map((m) => `${m.querySelector('.katex-display') ? 'display' : 'inline'}:`
      + (m.querySelector('annotation')?.textContent ?? '')),
    errors: box.querySelectorAll('.katex-error').length,
    tags,
    // KaTeX sets its own styles through CSSOM (which the app's CSP allows); no other element has any
    handlers: [...box.querySelectorAll('*')].flatMap((e) => [...e.attributes]
      .filter((a) => /^on/i.test(a.name) || (a.name === 'style' && !e.closest('.katex'))).map((a) => a.name)),
    links: [...box.querySelectorAll('a')].map((a) => `${a.getAttribute('href')} ${a.target} ${a.rel}`),
  };
}, [fn, text]);

test('dollar math: inline and display formulas, amounts of money and escaped dollars stay text', () => withPage(async ({ page, load }) => {
  await load('/js/markdown.js', 'markdown');
  const out = await render(page, 'renderMarkdown', String.raw`Let $x_1 = \frac{a}{b}$ and $$\sum_{i} x_i^2$$ but $5 and $10, \$HOME, $ spaced $, a_b_c`);
  assert.deepEqual(out.formulas, [String.raw`inline:x_1 = \frac{a}{b}`, String.raw`display:\sum_{i} x_i^2`]);
  assert.equal(out.errors, 0);
  assert.match(out.text, /but \$5 and \$10, \$HOME, \$ spaced \$, a_b_c\s*$/);
}));

test('a formula spanning lines inside $$ on their own lines is one display formula', () => withPage(async ({ page, load }) => {
  await load('/js/markdown.js', 'markdown');
  const out = await render(page, 'renderMarkdown', 'Before\n\n$$\na^2 + b^2\n= c^2\n$$\n\nAfter');
  assert.deepEqual(out.formulas, ['display:\na^2 + b^2\n= c^2\n']);
}));

test('LaTeX outputs: delimited or bare formulas in display mode, text with formulas as Markdown', () => withPage(async ({ page, load }) => {
  await load('/js/markdown.js', 'markdown');
  assert.deepEqual((await render(page, 'renderLatex', '$$E = mc^2$$')).formulas, ['display:E = mc^2']);
  assert.deepEqual((await render(page, 'renderLatex', String.raw`\[a + b\]`)).formulas, ['display:a + b']);
  assert.deepEqual((await render(page, 'renderLatex', String.raw`$\displaystyle \int f$`)).formulas, [String.raw`display:\displaystyle \int f`]);
  assert.deepEqual((await render(page, 'renderLatex', String.raw`\begin{aligned} a &= b \end{aligned}`)).formulas,
    [String.raw`display:\begin{aligned} a &= b \end{aligned}`]);
  const mixed = await render(page, 'renderLatex', 'The value $x$ is small');
  assert.deepEqual(mixed.formulas, ['inline:x']);
  assert.match(mixed.text, /^The value .* is small\s*$/);
  const broken = await render(page, 'renderLatex', String.raw`\frac{`);
  assert.equal(broken.errors, 1, 'a bad formula shows KaTeX\'s error, not an exception');
}));

test('hostile Markdown: no raw HTML, no handlers or inline styles, no script links; links open apart', () => withPage(async ({ page, load }) => {
  await load('/js/markdown.js', 'markdown');
  const hostile = [
    '<script>window.pwned = 1</script>', '<img src=x onerror="window.pwned = 2">', '<style>body{display:none}</style>',
    '[a](javascript:window.pwned=3)', '[b](JaVaScRiPt:alert(1))', '[c](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![i](javascript:alert(1))', '<a href="javascript:alert(1)">raw</a>', '$\\href{javascript:alert(1)}{x}$', '$\\htmlStyle{color:red}{x}$',
    '[ok](https://example.org/"onmouseover="alert(1))', 'https://example.org/auto',
  ].join('\n\n');
  const out = await render(page, 'renderMarkdown', hostile);
  assert.deepEqual(out.tags.filter((t) => ['script', 'img', 'style', 'iframe'].includes(t)), []);
  assert.deepEqual(out.handlers, []);
  assert.equal(out.links.length, 2, `only the two web links are links: ${out.links}`);
  for (const link of out.links) {
    assert.match(link, /^https:\/\/example\.org\/\S* _blank noopener noreferrer$/);
  }
  assert.equal(await page.evaluate(() => window.pwned), undefined);
}));
