// Markdown and LaTeX outputs (and anything else the app shows as Markdown): markdown-it with raw
// HTML off turns the text into markup, DOMPurify sanitizes that markup into a DOM fragment (never
// innerHTML of the page), and KaTeX typesets the formulas it left as text placeholders, building
// its DOM through DOM APIs (so the app's CSP, which forbids inline styles in markup, holds).
// Links open in a new tab without opener or referrer: nothing in an output navigates the app.
const MAX_MARKDOWN = 500000; // longer texts are shown as plain text: parsing them would stall the page
const MATH_CLASS = 'math-tex';

const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style'],
  RETURN_DOM_FRAGMENT: true,
};

let libraries = null;

/**
 * The three libraries (about 800 KB), imported on first use rather than with the app: most pages
 * never show a formula. Resolves to `{ md, purify, katex }`.
 */
function load() {
  libraries ??= Promise.all([
    import('./vendor/markdown-it/markdown-it.min.js'),
    import('./vendor/dompurify/purify.js'),
    import('./vendor/katex/katex.js'),
  ]).then(([markdownIt, purify, katex]) => {
    const md = new markdownIt.default({ html: false, linkify: true });
    md.inline.ruler.before('escape', 'math', dollarMath);
    md.renderer.rules.math = (tokens, index) => {
      const token = tokens[index];
      return `<span class="${MATH_CLASS}" data-display="${token.markup === '$$'}">${md.utils.escapeHtml(token.content)}</span>`;
    };
    return { md, purify: purify.default, katex: katex.default };
  });
  return libraries;
}

/**
 * Appends `markdown` to `target` as sanitized DOM, with `$...$` and `$$...$$` typeset by KaTeX,
 * once the libraries are in (the first call waits for them; calls append in call order). Returns
 * a promise of that.
 */
export function renderMarkdown(target, markdown) {
  const text = String(markdown ?? '');
  if (text.length > MAX_MARKDOWN) {
    target.append(text);
    return Promise.resolve();
  }
  return load().then((libs) => target.append(toDom(libs, text))).catch(() => target.append(text));
}

/** As renderMarkdown, then `done()` once `target` holds the rendered text (for views that swap it in whole). */
export function renderMarkdownThen(target, markdown, done) {
  renderMarkdown(target, markdown).then(() => done());
}

/**
 * Appends a `text/latex` output to `target`: a whole formula (`$$...$$`, `\[...\]`, `$...$`, or
 * bare LaTeX such as `\begin{align}...`) is typeset in display mode; text with formulas inside
 * is rendered as Markdown with math. Returns a promise, as renderMarkdown does.
 */
export function renderLatex(target, latex) {
  const text = String(latex ?? '').trim();
  const whole = /^\$\$([\s\S]*)\$\$$/.exec(text) ?? /^\\\[([\s\S]*)\\\]$/.exec(text) ?? /^\$([^$]*)\$$/.exec(text);
  if (!whole && text.includes('$')) {
    return renderMarkdown(target, text);
  }
  return load().then((libs) => {
    const box = document.createElement('div');
    typeset(libs.katex, box, whole ? whole[1] : text, true);
    target.append(box);
  }).catch(() => target.append(text));
}

function toDom({ md, purify, katex }, text) {
  const fragment = purify.sanitize(md.render(text), PURIFY);
  for (const math of fragment.querySelectorAll(`span.${MATH_CLASS}`)) {
    typeset(katex, math, math.textContent, math.dataset.display === 'true');
  }
  for (const link of fragment.querySelectorAll('a')) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  }
  return fragment;
}

function typeset(katex, element, tex, displayMode) {
  element.replaceChildren();
  element.classList.add(MATH_CLASS);
  try {
    // trust: false keeps \href, \url, \htmlClass and friends from reaching the DOM
    katex.render(tex, element, { displayMode, throwOnError: false, trust: false, maxSize: 50, maxExpand: 500 });
  } catch {
    element.replaceChildren(tex); // KaTeX gave up (e.g. too many expansions): the source as text
  }
}

/**
 * markdown-it inline rule: `$$...$$` (display) and `$...$` (inline, as Pandoc reads it: no space
 * after the opening or before the closing dollar, and no digit right after the closing one, so
 * "$5 and $10" stays text). Runs before the escape rule so backslashes in formulas stay as written.
 */
function dollarMath(state, silent) {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x24) {
    return false;
  }
  const display = src.charCodeAt(pos + 1) === 0x24;
  const delimiter = display ? '$$' : '$';
  const from = pos + delimiter.length;
  if (!display && (from >= src.length || /\s/.test(src[from]))) {
    return false;
  }
  let end = src.indexOf(delimiter, from);
  while (end !== -1 && (src[end - 1] === '\\' || (!display && (/\s/.test(src[end - 1]) || /\d/.test(src[end + 1] ?? ''))))) {
    end = src.indexOf(delimiter, end + 1);
  }
  if (end === -1 || src.slice(from, end).trim() === '') {
    return false;
  }
  if (!silent) {
    const token = state.push('math', 'span', 0);
    token.content = src.slice(from, end);
    token.markup = delimiter;
  }
  state.pos = end + delimiter.length;
  return true;
}
