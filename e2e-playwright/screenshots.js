// Renders a conversation with text, a table, a written file, a chart and an error, in light and
// dark, into docs/, beside earlier conversations (server and local) in the sidebar; then the
// sidebar itself at 1280x800 (docs/screenshot-sidebar-*.png).
// Run against a live server: CODEINTERP_URL=http://127.0.0.1:8080 node screenshots.js
import { launch, runCell, finished, localReady, BASE_URL } from './browser.js';

const cells = [
  "print('Hello from the sandbox')\nimport math\nmath.factorial(10)",
  "import pandas as pd\ndf = pd.DataFrame({'region': ['north', 'south', 'east'], 'sales': [150, 80, 120]})\ndf.to_excel('sales.xlsx', index=False)\ndf",
  "import matplotlib.pyplot as plt\nplt.figure(figsize=(5, 3))\nplt.bar(df.region, df.sales, color='#4493f8')\nplt.title('Sales by region')\nplt.show()",
  "def ratio(a, b):\n    return a / b\nratio(1, 0)",
];

/** Earlier conversations for the sidebar: each a cell whose first line titles it; `local` runs in the browser, `title` renames it. */
const earlier = [
  { code: "# Monthly churn by plan\nchurn = {'basic': 0.07, 'pro': 0.03}" },
  { code: 'import csv\nrows = list(csv.reader(["id,answer", "1,yes", "2,no"]))', title: 'Survey cleanup' },
  { code: '# Primes below 50, in this browser\nprimes = [n for n in range(2, 50) if all(n % d for d in range(2, n))]', local: true },
  { code: "# Fit a line to the sensor readings\nxs, ys = [1, 2, 3, 4], [2.1, 3.9, 6.2, 7.8]" },
];

const connected = (page) => page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });

async function earlierConversations(page) {
  for (const { code, local, title } of earlier) {
    if (local) {
      await page.getByTestId('mode-local').click();
      await localReady(page);
    }
    await finished(await runCell(page, code));
    if (title) {
      const row = page.locator('[data-testid="conversation"] a[aria-current="page"]').locator('..');
      await row.getByTestId('conversation-rename').click();
      await page.getByTestId('conversation-title-field').fill(title);
      await page.getByTestId('conversation-title-field').press('Enter');
    }
    if (local) {
      await page.getByTestId('mode-server').click();
    } else {
      await page.getByTestId('new-conversation').click();
    }
    await connected(page);
  }
}

const browser = await launch();
for (const scheme of ['light', 'dark']) {
  const page = await browser.newPage({ colorScheme: scheme, viewport: { width: 1200, height: 1500 } });
  await page.goto(BASE_URL + '/');
  await connected(page);
  await earlierConversations(page);
  for (const code of cells) {
    await finished(await runCell(page, code));
  }
  await page.evaluate(() => window.scrollTo(0, 0)); // the page follows the newest cell; the picture starts at the first
  await page.waitForTimeout(700);
  await page.screenshot({ path: new URL(`../docs/screenshot-${scheme}.png`, import.meta.url).pathname, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: new URL(`../docs/screenshot-sidebar-${scheme}.png`, import.meta.url).pathname });
}
await browser.close();
