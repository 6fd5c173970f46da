// Cells and a dropping WebSocket: a cell run while the page reconnects waits and runs once; a
// cell the server took just before the drop shows from the replay and is not sent again; a cell
// lost with the socket before the server took it goes back to the composer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runAtOnce, expectOnlyTurn, BASE_URL } from '../browser.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/**
 * Opens the app with every WebSocket passing through the test: `refuse` turns new sockets away,
 * `swallowExecutes` drops the page's execute frames, `muteServer` drops the server's frames.
 * Counts the execute frames that reached the server.
 */
async function openThroughTest() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const link = { refuse: false, swallowExecutes: false, muteServer: false, executesToServer: 0, sockets: [], serverQueued: 0 };
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (link.refuse) {
      ws.close({ code: 1006 });
      return;
    }
    const server = ws.connectToServer();
    ws.onMessage((frame) => {
      if (JSON.parse(frame).type === 'execute') {
        if (link.swallowExecutes) return;
        link.executesToServer++;
      }
      server.send(frame);
    });
    server.onMessage((frame) => {
      if (/"type":"queued"/.test(frame)) link.serverQueued++;
      if (!link.muteServer) ws.send(frame);
    });
    link.sockets.push(ws);
  });
  await page.goto(BASE_URL + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { context, page, link };
}

async function until(condition) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(condition(), 'the condition was never met');
}

test('a cell run while the WebSocket reconnects waits for the connection and runs once', async () => {
  const { context, page, link } = await openThroughTest();
  try {
    link.refuse = true;
    await link.sockets.at(-1).close({ code: 1006 });
    await page.getByTestId('status').filter({ hasText: 'reconnecting' }).waitFor();
    await runAtOnce(page, 'print(6*7)');
    const pending = page.getByTestId('pending-turn');
    await pending.waitFor();
    assert.match(await pending.innerText(), /print\(6\*7\)/);
    assert.match(await pending.innerText(), /waiting for the connection/);
    assert.equal(await page.getByTestId('turn').count(), 0);

    await page.waitForTimeout(1000);
    link.refuse = false;
    await expectOnlyTurn(page, '42');
    assert.equal(link.executesToServer, 1);
  } finally {
    await context.close();
  }
});

test('a cell the server took just before the socket dropped shows from the replay and is not sent again', async () => {
  const { context, page, link } = await openThroughTest();
  try {
    link.muteServer = true;
    await runAtOnce(page, 'print(6*7)');
    await until(() => link.serverQueued === 1);
    link.muteServer = false;
    await link.sockets.at(-1).close({ code: 1006 });
    await expectOnlyTurn(page, '42');
    assert.equal(link.executesToServer, 1);
  } finally {
    await context.close();
  }
});

test('a cell lost with the socket before the server took it goes back to the composer, saying so', async () => {
  const { context, page, link } = await openThroughTest();
  try {
    link.swallowExecutes = true;
    await runAtOnce(page, 'print(6*7)');
    assert.equal(await page.getByTestId('composer').inputValue(), '');
    link.swallowExecutes = false;
    await link.sockets.at(-1).close({ code: 1006 });
    await page.getByTestId('status').filter({ hasText: /connection dropped before the server took this cell/ }).waitFor();
    assert.equal(await page.getByTestId('composer').inputValue(), 'print(6*7)');
    assert.equal(await page.getByTestId('turn').count(), 0);
    assert.equal(link.executesToServer, 0);
  } finally {
    await context.close();
  }
});
