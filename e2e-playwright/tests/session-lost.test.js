// A server node lost for real, as the page left open on one of its sessions sees it: node "a" is
// killed (SIGKILL) and node "b" starts on the same data directory and port, marking "a" lost once
// it has been unheard for its loss timeout. The page says so with the server's reason instead of
// reconnecting forever, and "Continue in a new session" goes on in the same conversation, under
// its earlier turns, in a session that starts with no variables and no files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, runAtOnce, finished, outputs } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let nodeA;
let nodeB;

before(async () => {
  nodeA = await startServer({ CODEINTERP_NODE_ID: 'a', CODEINTERP_POOL_SIZE: '0' });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (nodeB) {
    await nodeB.stop(); // the data directory and port are node a's too: one stop discards them
  } else {
    await nodeA?.stop();
  }
});

const sessionId = (page) => page.evaluate(() => location.hash.replace(/^#\/s\//, ''));

test('a session whose node was lost says so and the conversation goes on in a new session', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(nodeA.url + '/');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    const first = await runCell(page, 'x = 41');
    await finished(first, 60000);
    const lostId = await sessionId(page);
    assert.match(lostId, /^a\./, 'the session is node a\'s');

    await nodeA.kill();
    nodeB = await startServer({ CODEINTERP_NODE_ID: 'b', CODEINTERP_NODE_LOSS_AFTER: '2s', CODEINTERP_POOL_SIZE: '0' },
      { dataDir: nodeA.dataDir, port: nodeA.port });

    // the page, left open, reconnects to node b, which answers with the reason once it marked a lost
    const notice = page.getByTestId('session-lost');
    await notice.waitFor({ timeout: 30000 });
    const reason = await notice.locator('.lost-reason').innerText();
    assert.match(reason, /^The node running this session \(a\) was lost; .*variables and files are gone.*start a new session\.$/);
    assert.match(await page.getByTestId('status').innerText(), /The node running this session \(a\) was lost/);
    await page.waitForTimeout(1500);
    assert.doesNotMatch(await page.getByTestId('status').innerText(), /reconnecting/, 'it does not try again and again');
    assert.equal(await page.getByTestId('turn').count(), 1, 'the earlier turn is still shown');
    assert.match(await page.getByTestId('turn').first().locator('pre.code').innerText(), /^x = 41/);

    // a reload shows the lost conversation again, read from its stored history, and the same notice
    await page.reload();
    await notice.waitFor({ timeout: 30000 });
    assert.equal(await notice.locator('.lost-reason').innerText(), reason);
    await page.getByTestId('turn').first().waitFor();
    assert.equal(await page.getByTestId('turn').count(), 1);
    assert.match(await page.getByTestId('turn').first().locator('pre.code').innerText(), /^x = 41/);
    assert.match(await page.getByTestId('turn').first().innerText(), /done/, 'it ended before the loss, and says so');
    // the list of conversations says so too, keeping its title
    const listed = page.locator(`[data-testid="conversation"][data-route="/s/${lostId}"]`);
    await listed.and(page.locator('[data-state="lost"]')).waitFor();
    assert.match(await listed.innerText(), /x = 41.*lost/s);

    // a cell run now has no session to run in: it goes back to the composer, saying why
    await runAtOnce(page, "print('too soon')");
    await page.waitForFunction(() => document.querySelector('[data-testid="composer"]').value.includes('too soon'));
    assert.match(await page.getByTestId('status').innerText(), /was lost.*Your cell is back in the composer/s);
    assert.equal(await page.getByTestId('turn').count(), 1);
    assert.equal(await page.getByTestId('pending-turn').count(), 0, 'nothing waits for a session that will not come');

    await page.getByTestId('continue-in-new-session').click();
    await page.waitForFunction((was) => /^#\/s\/b\./.test(location.hash) && location.hash !== '#/s/' + was, lostId,
      { timeout: 30000 });
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    const divider = page.getByTestId('continued');
    assert.match(await divider.innerText(), /no variables and no files/);
    assert.equal(await page.getByTestId('continue-in-new-session').count(), 0, 'the button went with the start');
    assert.equal(await notice.locator('.lost-reason').innerText(), reason, 'the reason stays above the line');

    const gone = await runCell(page, 'x');
    await finished(gone, 60000);
    assert.match(await outputs(gone, 'error').innerText(), /NameError/, 'the variables stayed with node a');
    const two = await runCell(page, '1 + 1');
    await finished(two);
    assert.equal((await outputs(two, 'result').innerText()).replace(/^Out\[\d+\]:\s*/, '').trim(), '2');

    // one conversation: the earlier turn, the notice, the line, then the new session's turns
    const order = await page.locator('main.conversation').evaluate((c) => [...c.querySelectorAll(
      '[data-testid="turn"], [data-testid="session-lost"], [data-testid="continued"]')].map((e) => e.dataset.testid));
    assert.deepEqual(order, ['turn', 'session-lost', 'continued', 'turn', 'turn']);
    assert.match(await page.getByTestId('turn').first().locator('pre.code').innerText(), /^x = 41/);
  } finally {
    await context.close();
  }
});
