// The default install (loopback, no keys) and the web pages its user visits: a page of another
// origin tries every request a browser sends without asking (text/plain and no-cors fetches, form
// POSTs) and the preflighted ones, at execute, session create, files upload and delete, and nothing
// runs, opens or changes; the same page on an origin the operator allowed works, answers included;
// a name rebound to 127.0.0.1 gets nothing at all.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { launch } from '../browser.js';
import { startServer } from '../server.js';

let browser;
let server;
let foreign;
let friend;
let session;

/** A plain page on its own loopback port: another origin to the browser. */
async function pageServer() {
  const s = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><head><meta charset="utf-8"><title>another site</title></head><body></body></html>');
  });
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { server: s, origin: `http://127.0.0.1:${s.address().port}` };
}

/** A count from the server's own database, read as it is on disk. */
function count(table) {
  const db = join(server.dataDir, 'codeinterp.db');
  return Number(execFileSync('python3', ['-c',
    'import sqlite3, sys; c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True); '
      + 'print(c.execute("select count(*) from " + sys.argv[2]).fetchone()[0])', db, table]).toString().trim());
}

const refusals = () => (server.log().match(/refused before any handler: origin not allowed/g) || []).length;

async function files() {
  const r = await fetch(`${server.url}/api/v1/sessions/${session.id}/files`, { headers: { Authorization: `Bearer ${session.token}` } });
  return (await r.json()).files.map((f) => f.name).sort();
}

before(async () => {
  foreign = await pageServer();
  friend = await pageServer();
  server = await startServer({ CODEINTERP_ALLOWED_ORIGINS: friend.origin, CODEINTERP_POOL_SIZE: '1' });
  const created = await fetch(server.url + '/api/v1/sessions', { method: 'POST' });
  assert.equal(created.status, 201);
  session = await created.json();
  const put = await fetch(`${server.url}/api/v1/sessions/${session.id}/files/kept.txt`,
    { method: 'PUT', headers: { Authorization: `Bearer ${session.token}` }, body: 'mine' });
  assert.equal(put.status, 201);
  // Chromium's own Local Network Access checks are off: the server must not rely on one browser's defence
  browser = await launch(['--host-resolver-rules=MAP evil.example 127.0.0.1',
    '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights']);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => foreign?.server.close(resolve));
  await new Promise((resolve) => friend?.server.close(resolve));
});

/**
 * In the page: every way a page can send a request to the server without the server's consent,
 * and two that need it (a bearer header makes the browser ask first). Resolves once all were sent;
 * answers how many reach the server.
 */
async function attack(page) {
  return page.evaluate(async ({ url, id, token }) => {
    const code = JSON.stringify({ code: "open('/workspace/pwned.txt', 'w').write('x'); print('pwned')" });
    const quietly = (p) => p.then(() => {}, () => {});
    const form = (action, enctype, fill) => new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.name = 'sink' + Math.random().toString(36).slice(2);
      document.body.append(frame);
      const f = document.createElement('form');
      f.method = 'POST';
      f.action = action;
      f.enctype = enctype;
      f.target = frame.name;
      fill(f);
      document.body.append(f);
      frame.addEventListener('load', resolve, { once: true });
      setTimeout(resolve, 5000); // a refused answer may never render in the frame; the request left all the same
      f.submit();
    });
    const input = (f, name, value) => {
      const i = document.createElement('input');
      i.name = name;
      i.value = value;
      f.append(i);
      return i;
    };
    await quietly(fetch(url + '/api/v1/execute', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: code }));
    await quietly(fetch(url + '/api/v1/execute', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: code }));
    // text/plain form: name=value, shaped so the body is JSON
    await form(url + '/api/v1/execute', 'text/plain', (f) => input(f, '{"code":"print(1)","pad":"', '"}'));
    await quietly(fetch(url + '/api/v1/sessions', { method: 'POST', mode: 'no-cors' }));
    await form(url + '/api/v1/sessions', 'application/x-www-form-urlencoded', (f) => input(f, 'runtime', 'runc'));
    const upload = new FormData();
    upload.append('file', new File(['theirs'], 'new.txt'));
    await quietly(fetch(`${url}/api/v1/sessions/${id}/files`, { method: 'POST', mode: 'no-cors', body: upload }));
    await form(`${url}/api/v1/sessions/${id}/files`, 'multipart/form-data', (f) => {
      const file = input(f, 'file', '');
      file.type = 'file';
      const dt = new DataTransfer();
      dt.items.add(new File(['theirs'], 'new.txt'));
      file.files = dt.files;
    });
    // with the token (as if it had leaked): the browser asks first, and the server says no to the question
    const bearer = { Authorization: `Bearer ${token}` };
    await quietly(fetch(`${url}/api/v1/sessions/${id}/files/kept.txt`, { method: 'DELETE', headers: bearer }));
    await quietly(fetch(`${url}/api/v1/sessions/${id}/files/kept.txt`, { method: 'PUT', headers: bearer, body: 'theirs' }));
    await quietly(fetch(`${url}/api/v1/sessions/${id}/execute`, { method: 'POST', mode: 'no-cors', body: code }));
    return 10;
  }, { url: server.url, id: session.id, token: session.token });
}

test('a page of another site sends every simple and preflighted request it can, and nothing runs, opens or changes', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(foreign.origin + '/');
    const executions = count('executions');
    const sessions = count('sessions');
    const before = refusals();
    const sent = await attack(page);
    // every request reached the server and was refused there, not lost on the way
    const deadline = Date.now() + 15000;
    while (refusals() - before < sent && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(refusals() - before, sent, 'each request arrived and was refused');
    assert.equal(count('executions'), executions, 'no code ran');
    assert.equal(count('sessions'), sessions, 'no session opened');
    assert.deepEqual(await files(), ['kept.txt']);
    const kept = await fetch(`${server.url}/api/v1/sessions/${session.id}/files/kept.txt`,
      { headers: { Authorization: `Bearer ${session.token}` } });
    assert.equal(await kept.text(), 'mine');
  } finally {
    await context.close();
  }
});

test('the same requests from a page of an allowed origin run, and the page reads the answers', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(friend.origin + '/');
    const executions = count('executions');
    const answers = await page.evaluate(async (url) => {
      const opened = await (await fetch(url + '/api/v1/sessions', { method: 'POST' })).json();
      const bearer = { Authorization: `Bearer ${opened.token}` };
      const ran = await (await fetch(`${url}/api/v1/sessions/${opened.id}/execute`, {
        method: 'POST', headers: { ...bearer, 'Content-Type': 'application/json' }, body: JSON.stringify({ code: '6*7' }),
      })).json();
      const put = await fetch(`${url}/api/v1/sessions/${opened.id}/files/notes.txt`, { method: 'PUT', headers: bearer, body: 'ours' });
      const listed = await (await fetch(`${url}/api/v1/sessions/${opened.id}/files`, { headers: bearer })).json();
      const deleted = await fetch(`${url}/api/v1/sessions/${opened.id}/files/notes.txt`, { method: 'DELETE', headers: bearer });
      const simple = await fetch(url + '/api/v1/execute', { method: 'POST', headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ code: 'print("simple")' }) });
      return { ran, put: put.status, listed: listed.files.map((f) => f.name), deleted: deleted.status, simple: (await simple.json()).stdout };
    }, server.url);
    assert.equal(answers.ran.results[0]['text/plain'], '42');
    assert.equal(answers.put, 201);
    assert.deepEqual(answers.listed, ['notes.txt']);
    assert.equal(answers.deleted, 204);
    assert.equal(answers.simple, 'simple\n');
    assert.equal(count('executions'), executions + 2);
  } finally {
    await context.close();
  }
});

test('a name rebound to 127.0.0.1 gets a refusal for every page and call, and localhost still works', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const port = new URL(server.url).port;
    const sessions = count('sessions');
    for (const path of ['/', '/healthz', '/api/v1/openapi.json']) {
      const answer = await page.goto(`http://evil.example:${port}${path}`);
      assert.equal(answer.status(), 403, path);
      assert.match(JSON.parse(await answer.text()).error, /^host not allowed/);
    }
    // the attacker's own page under that name (served before the name pointed here); its calls
    // are same-origin to the browser, so only the Host rule stands between it and the API
    await page.route(`http://evil.example:${port}/welcome.html`, (route) => route.fulfill({
      contentType: 'text/html', body: '<!DOCTYPE html><html><head><title>welcome</title></head><body></body></html>',
    }));
    await page.goto(`http://evil.example:${port}/welcome.html`);
    const answers = await page.evaluate(async () => {
      const created = await fetch('/api/v1/sessions', { method: 'POST' });
      const ran = await fetch('/api/v1/execute', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: '1' }) });
      return [created.status, (await created.json()).error, ran.status];
    });
    assert.equal(answers[0], 403);
    assert.match(answers[1], /^host not allowed/);
    assert.equal(answers[2], 403);
    assert.equal(count('sessions'), sessions);
    assert.equal((await page.goto(`http://localhost:${port}/healthz`)).status(), 200);
  } finally {
    await context.close();
  }
});
