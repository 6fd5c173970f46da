// Unit tests of the app's highlighting module (web/src/main/resources/public/js/highlight.js over
// highlight.js from npm) in Chromium: every cell language is coloured, and code is only ever text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from '../browser.js';
import { withModulePage } from '../module-page.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const withPage = (use) => withModulePage(browser, use);

/** Highlights `code` as `language` into a fresh <pre>; answers its text and its spans as "class:text". */
const highlight = (page, code, language) => page.evaluate(([c, l]) => {
  const pre = document.createElement('pre');
  document.body.append(pre);
  highlighter.highlightInto(c, l, pre);
  return { text: pre.textContent, spans: [...pre.querySelectorAll('span')].map((s) => `${s.className}:${s.textContent}`),
    elements: [...pre.querySelectorAll('*')].map((e) => e.tagName) };
}, [code, language]);

test('python, javascript and bash are coloured by their own grammars, the text unchanged', () => withPage(async ({ page, load }) => {
  await load('/js/highlight.js', 'highlighter');
  const cases = [
    ['python', 'def f(x):\n    return x  # done\nprint("hi", 42)', ['tok-keyword:def', 'tok-comment:# done', 'tok-string:"hi"', 'tok-number:42']],
    ['javascript', 'const n = await fetch(`/x`);\n// note\nclass A {}', ['tok-keyword:const', 'tok-comment:// note', 'tok-keyword:class']],
    ['bash', 'for f in *.csv; do echo "$f"; done # all', ['tok-keyword:for', 'tok-built_in:echo', 'tok-comment:# all']],
  ];
  for (const [language, code, expected] of cases) {
    const { text, spans } = await highlight(page, code, language);
    assert.equal(text, code, language);
    for (const span of expected) {
      assert.ok(spans.includes(span), `${language}: ${span} in ${JSON.stringify(spans)}`);
    }
  }
}));

test('hostile code stays text: no element but spans, nothing runs; an unknown language is plain text', () => withPage(async ({ page, load }) => {
  await load('/js/highlight.js', 'highlighter');
  const hostile = '"<img src=x onerror=\'window.pwned=1\'>" </pre><script>window.pwned=2</script> <!-- ${x} -->';
  for (const language of ['python', 'javascript', 'bash']) {
    const { text, elements } = await highlight(page, hostile, language);
    assert.equal(text, hostile, language);
    assert.deepEqual(elements.filter((tag) => tag !== 'SPAN'), [], language);
  }
  const plain = await highlight(page, 'x <b>1</b>', 'cobol');
  assert.deepEqual(plain, { text: 'x <b>1</b>', spans: [], elements: [] });
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
}));
