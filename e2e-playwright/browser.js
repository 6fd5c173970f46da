// Debian's Chromium driven by playwright-core: no browser download, no network beyond loopback.
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.CODEINTERP_URL || 'http://127.0.0.1:8080';

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Types a cell into the composer and runs it with Shift+Enter; resolves to the new turn. */
export async function runCell(page, code) {
  const before = await page.getByTestId('turn').count();
  const composer = page.getByTestId('composer');
  await composer.fill(code);
  await composer.press('Shift+Enter');
  const turn = page.getByTestId('turn').nth(before);
  await turn.waitFor();
  return turn;
}

export async function finished(turn, timeout = 30000) {
  await turn.locator('.turn-footer').filter({ hasNotText: /running|queued/ }).waitFor({ timeout });
}
