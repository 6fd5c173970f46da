// What the conversation-page tests share: opening the app in either mode, the set of outputs every
// kind of which the page must show readably, and reading colours and frames.
import { BASE_URL, runCell, finished } from './browser.js';

/** The app in a new context, connected in `mode` ('server' or 'local'); `options` go to the context. */
export async function openMode(browser, mode, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(BASE_URL + '/');
  const status = page.getByTestId('status');
  if (mode === 'local') {
    await page.getByTestId('mode-local').click();
    await status.filter({ hasText: 'Local' }).filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
  } else {
    await status.filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  }
  return { context, page };
}

const WIDE = `'<table><tr>' + ''.join(f'<th>column {i}</th>' for i in range(60)) + '</tr><tr>' + ''.join(f'<td>{i}</td>' for i in range(60)) + '</tr></table>'`;

/** HTML outputs that need no package, each a cell: name -> code. */
export const HTML_CELLS = {
  paragraphs: "display({'text/html': '<p>First paragraph.</p><p>Second paragraph, with its own margins.</p>'}, raw=True)",
  headings: "display({'text/html': '<h1>Heading one</h1><h2>Heading two</h2><h3>Heading three</h3>'}, raw=True)",
  wide: `display({'text/html': ${WIDE}}, raw=True)`,
};

/** HTML outputs of pandas (server mode's image has it; local mode's Pyodide core does not). */
export const PANDAS_CELLS = {
  dataframe: "import pandas as pd\ndf = pd.DataFrame({'city': ['Oslo', 'Lima', 'Pune'], 'temp': [3.5, 19.25, 31.0]})\ndf",
  styler: "import pandas as pd\npd.DataFrame({'city': ['Oslo', 'Lima'], 'temp': [3.5, 19.25]}).style"
    + ".format({'temp': '{:.1f} °C'}).set_caption('Temperatures').set_table_styles([{'selector': 'caption', 'props': 'margin: 0 0 6px'}])",
};

/** Every other kind of output, each a cell (no package needed, so in both modes). */
export const OTHER_CELLS = {
  text: "print('plain text')\n'a result'",
  stream: "import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)",
  error: '1 / 0',
  markdown: "display({'text/markdown': '# Notes\\n\\nSome *emphasis*, a [link](https://example.org) and `code`.'}, raw=True)",
  latex: "display({'text/latex': r'$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$'}, raw=True)",
  json: "display({'application/json': {'name': 'codeinterp', 'tags': ['a', 'b'], 'n': 3, 'ok': True, 'none': None}}, raw=True)",
  svg: "display({'image/svg+xml': '<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"60\" height=\"30\"><rect width=\"60\" height=\"30\" fill=\"teal\"/></svg>'}, raw=True)",
  image: "import base64\ndisplay({'image/png': 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=='}, raw=True)",
};

/** Runs each cell of `cells` in turn, waiting for each to finish; resolves to name -> turn. */
export async function runAll(page, cells) {
  const turns = {};
  for (const [name, code] of Object.entries(cells)) {
    turns[name] = await runCell(page, code);
    await finished(turns[name]);
  }
  return turns;
}

/** Picks the theme in the top bar's switch ('auto', 'light' or 'dark'). */
export async function pickTheme(page, theme) {
  await page.getByTestId('theme-switch').selectOption(theme);
  await page.waitForFunction((t) => t === 'auto' || document.documentElement.dataset.theme === t, theme);
}

/** The output frame inside `turn`, once its content has come and the frame has taken its height. */
export async function outputFrame(turn) {
  const element = turn.locator('iframe.html-output');
  await element.waitFor();
  const frame = await (await element.elementHandle()).contentFrame();
  await frame.waitForFunction(() => document.getElementById('out').childNodes.length > 0);
  return { element, frame };
}

/** WCAG's contrast ratio of two CSS colours `rgb(r, g, b)` (alpha ignored). */
export function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
