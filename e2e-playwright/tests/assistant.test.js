// The assistant in the browser (Ask mode), against a server whose model endpoint is a real
// llama.cpp llama-server with the suite's own tiny deterministic model (test-images/llama-server):
// this proves the real wire format, streaming, tool-call parsing and the loop end to end through
// the UI; it proves nothing about model quality. Stop is tested against a scripted endpoint of the
// test's own (the fixture model only ever asks for print(6 * 7), which ends at once).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, finished, outputs, shownAssistantTurn } from '../browser.js';
import { startServer } from '../server.js';
import { scriptedEndpoint, answer, toolCall } from '../scripted-endpoint.js';
import { startLlamaServer, LLAMA_API_KEY, TOOL_CODE, ANSWER_SEEN } from '../llama-server.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openApp(url, beforeLoad = () => {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await beforeLoad(page);
  await page.goto(url + '/');
  await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
  return { context, page };
}

async function ask(page, text) {
  await page.getByTestId('composer-ask').click();
  await page.getByTestId('composer').fill(text);
  await page.getByTestId('composer').press('Enter');
}

test('a plain-language prompt: the tool call runs as a code turn, the answer streams in, a reload shows the same', async () => {
  const llama = await startLlamaServer();
  const server = await startServer({ CODEINTERP_LLM_BASE_URL: llama.baseUrl, CODEINTERP_LLM_MODEL: 'test-model', CODEINTERP_LLM_API_KEY: LLAMA_API_KEY });
  const pieces = [];
  const { context, page } = await openApp(server.url, (p) => p.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    const frame = JSON.parse(String(payload));
    if (frame.type === 'assistant_text') pieces.push(frame.text);
  })));
  try {
    // The note comes with the server's health answer, which may land after the socket connects.
    await page.getByTestId('assistant-note').filter({ hasText: 'test-model' }).waitFor();
    await ask(page, 'What is six times seven? Work it out with Python.');
    const shown = await shownAssistantTurn(page);
    assert.deepEqual(shown, {
      prompt: 'What is six times seven? Work it out with Python.',
      label: 'run by the assistant',
      code: TOOL_CODE,
      output: '42',
      answer: ANSWER_SEEN,
    });
    assert.ok(pieces.length >= 2, `the answer came in ${pieces.length} streamed pieces`);
    assert.equal(pieces.join(''), ANSWER_SEEN);
    await finished(page.getByTestId('assistant-turn').getByTestId('turn'));
    assert.equal(await page.getByTestId('stop-assistant').isVisible(), false, 'no Stop once the turn ended');
    assert.equal(await page.getByTestId('composer').inputValue(), '');
    assert.doesNotMatch(await page.content(), new RegExp(LLAMA_API_KEY));

    pieces.length = 0;
    await page.reload();
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    assert.deepEqual(await shownAssistantTurn(page), shown);
    assert.equal(pieces.join(''), ANSWER_SEEN, 'the replay sends the same pieces');
    assert.equal(await page.getByTestId('turn').count(), 1, 'the tool call is one code turn, inside the assistant turn');
    assert.equal(await page.getByTestId('composer-ask').getAttribute('aria-pressed'), 'true', 'Ask is remembered for this conversation');
  } finally {
    await context.close();
    await server.stop();
    llama.close();
  }
});

/** An endpoint that always asks to run `code` (and answers "done" after a tool message). */
function alwaysRuns(code) {
  return scriptedEndpoint((messages, reply) => reply.stream(messages.at(-1).role === 'tool'
    ? answer('done')
    : toolCall('Running it. <img src=x onerror="window.__pwned=1">', code, 10)));
}

test('Stop during the tool call interrupts the cell and ends the turn; markup in prompts and answers stays text', async () => {
  const endpoint = await alwaysRuns("import time\nprint('sleeping', flush=True)\ntime.sleep(60)");
  const server = await startServer({ CODEINTERP_LLM_BASE_URL: endpoint.baseUrl, CODEINTERP_LLM_MODEL: 'scripted' });
  const { context, page } = await openApp(server.url);
  try {
    await ask(page, 'Sleep for a minute. <b>not bold</b>');
    const cell = page.getByTestId('assistant-turn').getByTestId('turn');
    await outputs(cell, 'stream').filter({ hasText: 'sleeping' }).waitFor({ timeout: 30000 });
    assert.equal(await page.getByTestId('prompt-turn').locator('.prompt-text').innerText(), 'Sleep for a minute. <b>not bold</b>');
    assert.equal(await page.getByTestId('assistant-text').innerText(), 'Running it. <img src=x onerror="window.__pwned=1">');
    assert.equal(await page.locator('.assistant-turn img, .prompt-turn b').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);

    // a second prompt while the first is answered is refused and given back, not lost
    await page.getByTestId('composer').fill('And another thing');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('status').filter({ hasText: 'still answering' }).waitFor({ timeout: 10000 });
    assert.equal(await page.getByTestId('composer').inputValue(), 'And another thing');
    assert.equal(await page.getByTestId('prompt-turn').count(), 1);

    const stop = page.getByTestId('stop-assistant');
    assert.equal(await stop.isVisible(), true, 'Stop shows while the assistant works');
    const stopped = Date.now();
    await stop.click();
    await cell.locator('.turn-footer').filter({ hasText: 'interrupted' }).waitFor({ timeout: 15000 });
    await page.getByTestId('assistant-footer').filter({ hasText: 'Stopped' }).waitFor({ timeout: 15000 });
    assert.ok(Date.now() - stopped < 15000);
    assert.equal(await stop.isVisible(), false);
    assert.equal(endpoint.requests.length, 1, 'nothing went back to the model after Stop');
  } finally {
    await context.close();
    await server.stop();
    await endpoint.close();
  }
});

test('a refused prompt and a cell sent right after it each get their own answer: the prompt comes back, the cell runs', async () => {
  const endpoint = await alwaysRuns("import time\nprint('sleeping', flush=True)\ntime.sleep(60)");
  const server = await startServer({ CODEINTERP_LLM_BASE_URL: endpoint.baseUrl, CODEINTERP_LLM_MODEL: 'scripted' });
  // The real socket, with the server's frames held back on demand: both requests are sent before
  // either answer arrives, as on a slow link.
  let held = null;
  let releaseHeld;
  const sent = [];
  const { context, page } = await openApp(server.url, (p) => p.routeWebSocket(/\/ws$/, (ws) => {
    const upstream = ws.connectToServer();
    ws.onMessage((m) => { sent.push(JSON.parse(m).type); upstream.send(m); });
    upstream.onMessage((m) => (held ? held.push(m) : ws.send(m)));
    releaseHeld = () => { const frames = held; held = null; frames.forEach((m) => ws.send(m)); };
  }));
  try {
    await ask(page, 'Sleep for a minute.');
    await outputs(page.getByTestId('assistant-turn').getByTestId('turn'), 'stream').filter({ hasText: 'sleeping' }).waitFor({ timeout: 30000 });

    held = [];
    await page.getByTestId('composer').fill('And another thing');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('composer-code').click();
    await page.getByTestId('composer').fill("print('mine')");
    await page.getByTestId('run').click();
    const frames = () => held.map((m) => JSON.parse(m));
    const answered = () => frames().some((f) => f.frame === 'protocol_error')
      && frames().some((f) => f.type === 'queued' && f.code === "print('mine')");
    for (let i = 0; i < 100 && !answered(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(answered(), 'the server answered both while the page waited');
    assert.deepEqual(sent.slice(-2), ['prompt', 'execute']);
    releaseHeld();

    // the refusal is told on the refused prompt's own turn (the top bar's message went when the cell after it was queued)
    const refused = page.getByTestId('refused-turn').filter({ hasText: 'question was not sent' });
    await refused.waitFor({ timeout: 10000 });
    assert.match(await refused.innerText(), /still answering/);
    assert.equal(await page.getByTestId('composer').inputValue(), 'And another thing', 'the refused prompt is what comes back');
    assert.equal(await page.getByTestId('prompt-turn').count(), 1);

    await page.getByTestId('stop-assistant').click();
    const mine = page.getByTestId('turn').filter({ hasText: "print('mine')" });
    await finished(mine);
    assert.equal((await outputs(mine, 'stream').innerText()).trim(), 'mine', 'the cell taken ran, after the turn was stopped');
  } finally {
    await context.close();
    await server.stop();
    await endpoint.close();
  }
});

test('without a model endpoint, Ask is shown disabled with a one-line reason and no operator settings', async () => {
  const server = await startServer();
  const { context, page } = await openApp(server.url);
  try {
    const note = page.getByTestId('assistant-note');
    await note.filter({ hasText: 'Ask is off' }).waitFor();
    const ask = page.getByTestId('composer-ask');
    assert.equal(await ask.isVisible(), true, 'Ask is shown');
    assert.equal(await ask.isDisabled(), true, 'and cannot be pressed');
    assert.equal(await ask.getAttribute('title'), await note.innerText(), 'the control says why itself');
    assert.doesNotMatch(await note.innerText(), /CODEINTERP_|\n/, 'one line for the person, the operator detail is in the README');
    assert.equal(await page.getByTestId('composer-code').getAttribute('aria-pressed'), 'true');
  } finally {
    await context.close();
    await server.stop();
  }
});
