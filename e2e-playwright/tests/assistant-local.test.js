// The assistant in local mode, against a real llama.cpp llama-server (test-images/llama-server: the
// suite's own tiny deterministic model; it proves the wire format, streaming, tool-call parsing and
// the loop run in the browser, not model quality). The person sets up the endpoint in the page; the
// requests go out only from the relay frame (opaque origin, CSP connect-src = that endpoint), the
// tool call runs in Pyodide, and the turn is kept in IndexedDB. Without an endpoint nothing leaves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, finished, outputs, runCell, BASE_URL, openLocal, localReady, shownAssistantTurn } from '../browser.js';
import { scriptedEndpoint, chunk, toolCall } from '../scripted-endpoint.js';
import { startLlamaServer, LLAMA_API_KEY, TOOL_CODE, ANSWER_SEEN } from '../llama-server.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ORIGIN = new URL(BASE_URL).origin;

async function setEndpoint(page, baseUrl, model, apiKey) {
  const settings = page.getByTestId('endpoint-settings');
  if (await settings.getAttribute('open') === null) {
    await settings.locator('summary').click();
  }
  await page.getByTestId('endpoint-base-url').fill(baseUrl);
  await page.getByTestId('endpoint-model').fill(model);
  await page.getByTestId('endpoint-api-key').fill(apiKey);
  await page.getByTestId('endpoint-save').click();
}

test('local mode with a configured endpoint: the tool call runs in Pyodide, the answer streams, a reload shows it', async () => {
  const llama = await startLlamaServer();
  const endpointOrigin = new URL(llama.baseUrl).origin;
  const { context, page, requests } = await openLocal(browser);
  try {
    requests.length = 0; // the page's first load (server mode) is not the point here
    await page.getByTestId('assistant-note').filter({ hasText: 'needs a model endpoint' }).waitFor();
    assert.equal(await page.getByTestId('composer-ask').isDisabled(), true, 'Ask is disabled before an endpoint is set');
    await setEndpoint(page, llama.baseUrl, 'test-model', LLAMA_API_KEY);
    assert.equal(await page.getByTestId('endpoint-state').textContent(), `Prompts and tool output go to ${endpointOrigin} (model test-model).`);
    assert.match(await page.getByTestId('assistant-note').innerText(), new RegExp(`prompts and the code's output are sent to ${endpointOrigin}`));
    assert.equal(await page.locator('iframe.assistant-relay').count(), 0, 'the relay is made on the first prompt, not before');

    await page.getByTestId('composer-ask').click();
    await page.getByTestId('composer').fill('What is six times seven? Work it out with Python.');
    await page.getByTestId('composer').press('Enter');
    const shown = await shownAssistantTurn(page);
    assert.deepEqual(shown, {
      prompt: 'What is six times seven? Work it out with Python.',
      label: 'run by the assistant',
      code: TOOL_CODE,
      output: '42',
      answer: ANSWER_SEEN,
    });
    await finished(page.getByTestId('assistant-turn').getByTestId('turn'));
    assert.equal(await page.getByTestId('stop-assistant').isVisible(), false);

    // every request to the endpoint came from the relay frame, never from the app's page
    const toEndpoint = requests.filter((r) => r.url.startsWith(endpointOrigin));
    assert.equal(toEndpoint.length, 2, 'one request for the tool call, one for the answer');
    for (const r of toEndpoint) {
      assert.equal(r.method, 'POST');
      assert.equal(r.url, llama.baseUrl + '/chat/completions');
      assert.match(r.frame, /^http:\/\/[^/]+\/local\/assistant-relay\.html\?endpoint=/);
    }
    assert.match(toEndpoint[1].body, /status: ok\\nstdout:\\n42/, 'the cell\'s output went back to the model');
    // nothing else left for anywhere but our own static files
    for (const r of requests) {
      if (r.url.startsWith(endpointOrigin) || r.url.startsWith('blob:') || r.url.startsWith('data:')) continue;
      assert.equal(new URL(r.url).origin, ORIGIN, r.url);
      assert.equal(r.method, 'GET', r.url);
    }

    // the relay frame is opaque and may reach nothing but the endpoint
    const relay = page.frames().find((f) => f.url().includes('/local/assistant-relay.html'));
    const probe = await relay.evaluate(async (app) => {
      const tried = {};
      try { tried.storage = localStorage.length; } catch (e) { tried.storage = 'refused'; }
      try { tried.parent = window.parent.document.title; } catch (e) { tried.parent = 'refused'; }
      try { await fetch(app + '/api/v1/sessions', { method: 'POST' }); tried.api = 'ALLOWED'; } catch (e) { tried.api = 'refused'; }
      try { await fetch('http://127.0.0.1:9/'); tried.other = 'ALLOWED'; } catch (e) { tried.other = 'refused'; }
      return { origin: self.origin, ...tried };
    }, ORIGIN);
    assert.deepEqual(probe, { origin: 'null', storage: 'refused', parent: 'refused', api: 'refused', other: 'refused' });
    assert.doesNotMatch(await page.content(), new RegExp(LLAMA_API_KEY), 'the key is not in the page');

    await page.reload();
    await localReady(page);
    assert.deepEqual(await shownAssistantTurn(page), shown);
    assert.equal(await page.getByTestId('turn').count(), 1, 'the tool call is one code turn, inside the assistant turn');
    assert.equal(await page.getByTestId('composer-ask').getAttribute('aria-pressed'), 'true', 'Ask is remembered for this conversation');
  } finally {
    await context.close();
    llama.close();
  }
});

test('local mode without an endpoint: Ask disabled, no relay, and nothing leaves the browser', async () => {
  const { context, page, requests } = await openLocal(browser);
  try {
    requests.length = 0;
    assert.equal(await page.getByTestId('composer-ask').isDisabled(), true);
    assert.match(await page.getByTestId('endpoint-state').textContent(), /No endpoint is set: local mode sends nothing anywhere/);
    const turn = await runCell(page, "print('still', 6 * 7)");
    await finished(turn);
    assert.equal((await outputs(turn, 'stream').innerText()).trim(), 'still 42');
    await page.reload();
    await localReady(page);
    assert.equal(await page.locator('iframe.assistant-relay').count(), 0);
    assert.ok(requests.length > 0);
    for (const r of requests) {
      if (r.url.startsWith('blob:') || r.url.startsWith('data:')) continue;
      assert.equal(r.method, 'GET', r.url);
      assert.equal(new URL(r.url).origin, ORIGIN, r.url);
      assert.doesNotMatch(r.url, /assistant-relay\.html/);
    }
  } finally {
    await context.close();
  }
});

test('a hostile endpoint is refused: by the settings, and by the relay page itself', async () => {
  const { context, page, requests } = await openLocal(browser);
  try {
    for (const hostile of ['http://a.example; connect-src *', 'http://*.example.com/v1', 'javascript:alert(1)',
      "http://a.example'/v1", 'ftp://a.example/v1', 'http://user:pw@a.example/v1']) {
      await setEndpoint(page, hostile, 'm', '');
      assert.match(await page.getByTestId('endpoint-problem').textContent(), /must be an http or https address/, hostile);
      assert.equal(await page.getByTestId('composer-ask').isDisabled(), true, hostile);
    }
    assert.equal(await page.evaluate(() => localStorage.getItem('codeinterp.local-endpoint')), null, 'nothing was kept');
    assert.equal(requests.filter((r) => r.url.includes('assistant-relay.html')).length, 0);
    for (const hostile of ['*', 'http://a.example; script-src *', "'self'", 'http://a.example/v1', 'https://*']) {
      const r = await fetch(`${ORIGIN}/local/assistant-relay.html?endpoint=${encodeURIComponent(hostile)}`);
      assert.equal(r.status, 400, hostile);
      assert.doesNotMatch(await r.text(), /<script>/);
    }
  } finally {
    await context.close();
  }
});

/**
 * By the prompt: "Loop forever." gets a run_code call of `code`, "Hang." a stream that starts and
 * never ends, anything else a 429 (with Retry-After exposed to CORS readers, as a browser's relay
 * shows it only then).
 */
function byPrompt(code) {
  return scriptedEndpoint((messages, reply) => {
    const prompt = messages.at(-1).content;
    if (prompt === 'Hang.') {
      reply.hang(chunk({ content: 'Thinking' }));
    } else if (prompt === 'Loop forever.') {
      reply.stream(toolCall('Running it.', code, 7));
    } else {
      reply.status(429, { error: { message: 'slow down' } }, { 'retry-after': '7', 'access-control-expose-headers': 'retry-after' });
    }
  });
}

test('Stop interrupts the Pyodide cell of a tool call, or aborts a streaming request, and ends the turn; a 429 is told in words', async () => {
  const endpoint = await byPrompt("print('looping', flush=True)\nwhile True: pass");
  const { context, page } = await openLocal(browser);
  try {
    await setEndpoint(page, endpoint.baseUrl, 'scripted', '');
    await page.getByTestId('composer-ask').click();
    await page.getByTestId('composer').fill('Loop forever.');
    await page.getByTestId('composer').press('Enter');
    const cell = page.getByTestId('assistant-turn').getByTestId('turn');
    await outputs(cell, 'stream').filter({ hasText: 'looping' }).waitFor({ timeout: 30000 });
    assert.equal(endpoint.requests[0].origin, 'null', 'the request came from the opaque relay frame');
    await page.getByTestId('stop-assistant').click();
    await cell.locator('.turn-footer').filter({ hasText: 'interrupted' }).waitFor({ timeout: 15000 });
    await page.getByTestId('assistant-footer').filter({ hasText: 'Stopped' }).waitFor({ timeout: 15000 });
    assert.equal(endpoint.requests.length, 1, 'nothing went back to the model after Stop');

    await page.getByTestId('composer').fill('Again?');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('assistant-footer').last().filter({ hasText: 'rate-limiting' }).waitFor({ timeout: 15000 });
    assert.match(await page.getByTestId('assistant-footer').last().innerText(), /HTTP 429\): slow down\. Try again in 7 s\./);
    assert.equal(endpoint.requests[1].messages.at(-1).content, 'Again?');
    assert.match(endpoint.requests[1].messages.find((m) => m.role === 'tool').content, /not run: the turn was stopped|looping/,
      'the stopped turn is part of the next request, as in server mode');

    // Stop while the model is still streaming aborts the request itself
    await page.getByTestId('composer').fill('Hang.');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('assistant-text').filter({ hasText: 'Thinking' }).waitFor({ timeout: 15000 });
    assert.equal(endpoint.hung.closed, false);
    await page.getByTestId('stop-assistant').click();
    await page.getByTestId('assistant-footer').last().filter({ hasText: 'Stopped' }).waitFor({ timeout: 15000 });
    for (let i = 0; i < 50 && !endpoint.hung.closed; i++) await page.waitForTimeout(100);
    assert.equal(endpoint.hung.closed, true, 'the relay aborted the streaming request');
  } finally {
    await context.close();
    await endpoint.close();
  }
});
