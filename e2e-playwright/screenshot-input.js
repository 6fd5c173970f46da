// Renders a cell waiting in its input box (docs/screenshot-input.png): one answered question above,
// a password prompt waiting below.
// Run against a live server: CODEINTERP_URL=http://127.0.0.1:8080 node screenshot-input.js
import { launch, runCell, BASE_URL } from './browser.js';

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1000, height: 520 } });
await page.goto(BASE_URL + '/');
await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
const turn = await runCell(page, "name = input('Your name? ')\nprint(f'Hello, {name}!')\n"
  + "import getpass\nkey = getpass.getpass('API key: ')\nprint('key length', len(key))");
await turn.getByTestId('input-field').fill('Ada');
await turn.getByTestId('input-field').press('Enter');
await turn.locator('[data-testid="input-field"][type="password"]').waitFor();
await turn.locator('[data-testid="input-field"][type="password"]').fill('hunter2');
await page.waitForTimeout(400);
await page.screenshot({ path: new URL('../docs/screenshot-input.png', import.meta.url).pathname });
await browser.close();
