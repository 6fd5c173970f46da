// Renders a conversation with text, a table, a written file, a chart and an error, in light and
// dark, into docs/.
// Run against a live server: CODEINTERP_URL=http://127.0.0.1:8080 node screenshots.js
import { launch, runCell, finished, BASE_URL } from './browser.js';

const cells = [
  "print('Hello from the sandbox')\nimport math\nmath.factorial(10)",
  "import pandas as pd\ndf = pd.DataFrame({'region': ['north', 'south', 'east'], 'sales': [150, 80, 120]})\ndf.to_excel('sales.xlsx', index=False)\ndf",
  "import matplotlib.pyplot as plt\nplt.figure(figsize=(5, 3))\nplt.bar(df.region, df.sales, color='#4493f8')\nplt.title('Sales by region')\nplt.show()",
  "def ratio(a, b):\n    return a / b\nratio(1, 0)",
];

const browser = await launch();
for (const scheme of ['light', 'dark']) {
  const page = await browser.newPage({ colorScheme: scheme, viewport: { width: 1200, height: 1500 } });
  await page.goto(BASE_URL + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  for (const code of cells) {
    await finished(await runCell(page, code));
  }
  await page.evaluate(() => window.scrollTo(0, 0)); // the page follows the newest cell; the picture starts at the first
  await page.waitForTimeout(700);
  await page.screenshot({ path: new URL(`../docs/screenshot-${scheme}.png`, import.meta.url).pathname, fullPage: true });
}
await browser.close();
