// Screenshots of the rich renderers for docs/: a Markdown output with formulas and a LaTeX one
// (docs/screenshot-markdown-latex.png), and an interactive Plotly chart from the sandbox
// (docs/screenshot-plotly.png). Run against a live server:
//   CODEINTERP_URL=http://127.0.0.1:8080 node screenshot-renderers.js
import { launch, runCell, finished, outputs, BASE_URL } from './browser.js';

const MARKDOWN = String.raw`display({'text/markdown': r'''## Compound interest

The balance after $n$ years at rate $r$ is $A = P\,(1 + r)^n$, and with continuous compounding

$$A = P e^{rt} = P \sum_{k=0}^{\infty} \frac{(rt)^k}{k!}$$

| years | balance |
|------:|--------:|
| 1 | 1,050.00 |
| 10 | 1,628.89 |

See [the derivation](https://en.wikipedia.org/wiki/Compound_interest).'''}, raw=True)
display({'text/latex': r'$$\int_{-\infty}^{\infty} e^{-x^2}\,dx = \sqrt{\pi}$$'}, raw=True)`;

const PLOTLY = String.raw`import plotly.graph_objects as go
fig = go.Figure()
fig.add_bar(x=['Q1', 'Q2', 'Q3', 'Q4'], y=[120, 150, 90, 180], name='revenue')
fig.add_scatter(x=['Q1', 'Q2', 'Q3', 'Q4'], y=[100, 110, 115, 140], name='costs', mode='lines+markers')
fig.update_layout(title='Quarterly results', height=380, margin=dict(t=50, b=30, l=40, r=20))
fig`;

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
await page.goto(BASE_URL + '/');
await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });

// the composer is fixed at the bottom of the window: out of the pictures (CSSOM, which the CSP allows)
const hideComposer = () => page.evaluate(() => { document.querySelector('.composer').style.visibility = 'hidden'; });

let turn = await runCell(page, MARKDOWN);
await finished(turn);
await turn.locator('.latex-output .katex').waitFor();
await page.waitForTimeout(500);
await hideComposer();
await turn.screenshot({ path: new URL('../docs/screenshot-markdown-latex.png', import.meta.url).pathname });

await page.evaluate(() => { document.querySelector('.composer').style.visibility = ''; });
turn = await runCell(page, PLOTLY);
await finished(turn);
await outputs(turn, 'result').frameLocator('iframe.plotly-output').locator('.plotly-chart .bars .point').first().waitFor({ timeout: 20000 });
await page.waitForTimeout(1000);
await hideComposer();
await turn.screenshot({ path: new URL('../docs/screenshot-plotly.png', import.meta.url).pathname });
await browser.close();
