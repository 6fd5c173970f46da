// Unit tests of the app's browser bindings (web/src/main/resources/public/js), each module in a
// Chromium page of its own with a fake server: storage, requests, downloads, the files the user
// hands the page, and the output frames' height reports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../browser.js';
import { withModulePage } from '../module-page.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const withPage = (use) => withModulePage(browser, use);

test('storage remembers values, and a browser that refuses storage neither throws nor remembers', () => withPage(async ({ page, load }) => {
  await load('/js/storage.js', 'storage');
  assert.deepEqual(await page.evaluate(() => {
    storage.set('k', 'v');
    const kept = storage.get('k');
    storage.remove('k');
    return [kept, storage.get('k'), storage.get('never set')];
  }), ['v', null, null]);
  assert.deepEqual(await page.evaluate(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });
    storage.set('k', 'v');
    storage.remove('k');
    return [storage.get('k')];
  }), [null]);
}));

test('requests carry credentials only in the Authorization header (and a widget its page), and report status, body and Retry-After', () => withPage(async ({ page, load, serve }) => {
  const seen = [];
  serve('/api/thing', (route, request) => {
    seen.push({ method: request.method(), url: request.url(), headers: request.headers(), body: request.postData() });
    return route.fulfill({ status: 429, headers: { 'Retry-After': '7' }, contentType: 'application/json', body: '{"error":"busy"}' });
  });
  serve('/api/gone', (route) => route.abort());
  await load('/js/http.js', 'http');
  const answers = await page.evaluate(() => Promise.all([
    new Promise((resolve) => http.jsonRequest('POST', '/api/thing', '{"a":1}', 'Bearer key-1', 'https://shop.example', (...a) => resolve(a))),
    new Promise((resolve) => http.jsonRequest('GET', '/api/thing', null, null, null, (...a) => resolve(a))),
    new Promise((resolve) => http.tokenRequest('DELETE', '/api/thing', 'tok-2', (...a) => resolve(a))),
    new Promise((resolve) => http.tokenRequest('GET', '/api/gone', 'tok-2', (...a) => resolve(a))),
    new Promise((resolve) => http.jsonRequest('GET', '/api/gone', null, null, null, (...a) => resolve(a))),
  ]));
  assert.deepEqual(answers, [[429, '{"error":"busy"}', '7'], [429, '{"error":"busy"}', '7'], [429, '{"error":"busy"}'],
    [0, ''], [0, '', null]]);
  assert.equal(seen.length, 3);
  // the three went out together: they may arrive in any order, so each is found by its method
  const [post, get, del] = ['POST', 'GET', 'DELETE'].map((m) => seen.find((r) => r.method === m));
  assert.equal(post.headers.authorization, 'Bearer key-1');
  assert.equal(post.headers['content-type'], 'application/json');
  assert.equal(post.headers['x-codeinterp-embed-origin'], 'https://shop.example');
  assert.equal(get.headers['x-codeinterp-embed-origin'], undefined);
  assert.equal(post.body, '{"a":1}');
  assert.equal(get.headers.authorization, undefined);
  assert.equal(del.headers.authorization, 'Bearer tok-2');
  for (const r of seen) {
    assert.doesNotMatch(r.url, /key-1|tok-2/, 'no credential in a URL');
  }
}));

test('an upload sends the file bytes with the token, and a download comes back as a blob: URL', () => withPage(async ({ page, load, serve }) => {
  let uploaded = null;
  serve('/api/files/a.bin', (route, request) => {
    if (request.method() === 'PUT') {
      uploaded = { bytes: request.postDataBuffer(), authorization: request.headers().authorization };
      return route.fulfill({ status: 201, body: '{}' });
    }
    return route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from([1, 2, 3]) });
  });
  serve('/api/files/missing', (route) => route.fulfill({ status: 404, body: '{"error":"no"}' }));
  await load('/js/http.js', 'http');
  const result = await page.evaluate(async () => {
    const file = new File([new Uint8Array(200000).fill(7)], 'a.bin');
    const progress = [];
    const done = await new Promise((resolve) => http.upload('/api/files/a.bin', 'tok', file, (loaded, total) => progress.push([loaded, total]),
      (...a) => resolve(a)));
    const [status, url] = await new Promise((resolve) => http.fetchBlobUrl('/api/files/a.bin', 'tok', (...a) => resolve(a)));
    const bytes = [...new Uint8Array(await (await fetch(url)).arrayBuffer())];
    const missing = await new Promise((resolve) => http.fetchBlobUrl('/api/files/missing', 'tok', (...a) => resolve(a)));
    return { done, progress, status, blob: url.startsWith('blob:'), bytes, missing };
  });
  assert.deepEqual(result.done, [201, '{}']);
  // (Chromium reports upload progress here only sometimes; files.test.js sees the app's progress bar)
  assert.ok(result.progress.every(([loaded, total]) => loaded <= total && total === 200000), String(result.progress));
  assert.deepEqual([result.status, result.blob, result.bytes], [200, true, [1, 2, 3]]);
  assert.deepEqual(result.missing, [404, null]);
  assert.equal(uploaded.bytes.length, 200000);
  assert.equal(uploaded.authorization, 'Bearer tok');
}));

test('saveAs offers the blob as a download under its name; blobUrl keeps the MIME type', () => withPage(async ({ page, load }) => {
  await load('/js/download.js', 'download');
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page.evaluate(() => download.saveAs(download.blobUrl(new TextEncoder().encode('a,b\n'), 'text/csv'), 'report.csv')),
  ]);
  assert.equal(saved.suggestedFilename(), 'report.csv');
  const chunks = [];
  for await (const chunk of await saved.createReadStream()) {
    chunks.push(chunk);
  }
  assert.equal(Buffer.concat(chunks).toString(), 'a,b\n');
  assert.equal(await page.evaluate(async () => (await fetch(download.blobUrl(new Uint8Array([1]), 'image/png'))).headers.get('content-type')),
    'image/png');
  assert.equal(await page.locator('a').count(), 0, 'the link is gone again');
}));

test('files picked in the input are handed over one by one and the input is cleared', () => withPage(async ({ page, load }) => {
  const dir = mkdtempSync(join(tmpdir(), 'user-files-'));
  writeFileSync(join(dir, 'one.txt'), 'one');
  writeFileSync(join(dir, 'two.txt'), 'two!');
  await load('/js/user-files.js', 'userFiles');
  await page.evaluate(() => {
    const input = Object.assign(document.createElement('input'), { type: 'file', multiple: true });
    document.body.append(input);
    window.picked = [];
    userFiles.onFilesPicked(input, (file) => picked.push(`${file.name}:${file.size}`));
  });
  await page.locator('input').setInputFiles([join(dir, 'one.txt'), join(dir, 'two.txt')]);
  assert.deepEqual(await page.evaluate(() => picked), ['one.txt:3', 'two.txt:4']);
  assert.equal(await page.locator('input').inputValue(), '');
  assert.deepEqual(await page.evaluate(() => new Promise((resolve) => userFiles.readBytes(new File(['hey'], 'h.txt'),
    (bytes, error) => resolve([[...new Uint8Array(bytes)], error])))), [[104, 101, 121], null]);
}));

test('dropped files are handed over and the target shows it is a drop target only while files are dragged', () => withPage(async ({ page, load }) => {
  await load('/js/user-files.js', 'userFiles');
  const steps = await page.evaluate(() => {
    const dropped = [];
    userFiles.onFilesDropped(document.body, (file) => dropped.push(file.name));
    const files = new DataTransfer();
    files.items.add(new File(['x'], 'a.csv'));
    files.items.add(new File(['y'], 'b.png'));
    const text = new DataTransfer();
    text.setData('text/plain', 'just text');
    const fire = (type, dataTransfer) => !document.body.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true }));
    const dropping = () => document.body.classList.contains('dropping');
    const out = [];
    out.push(['text over', fire('dragenter', text), dropping()]);
    out.push(['files over', fire('dragenter', files), fire('dragover', files), dropping()]);
    out.push(['text dropped', fire('drop', text), dropped.length]);
    out.push(['files dropped', fire('drop', files), dropping(), dropped.join()]);
    fire('dragenter', files);
    fire('dragleave', files);
    out.push(['left', dropping()]);
    return out;
  });
  assert.deepEqual(steps, [
    ['text over', false, false],
    ['files over', true, true, true],
    ['text dropped', false, 0],
    ['files dropped', true, false, 'a.csv,b.png'],
    ['left', false],
  ]);
}));

test('output frames get their HTML once loaded, and only finite numbers come back as heights', () => withPage(async ({ page, load, serve }) => {
  serve('/output-frame.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!DOCTYPE html><body><script>'
    + "addEventListener('message', (e) => { window.got = e.data.html; parent.postMessage({frameHeight: 'tall'}, '*');"
    + 'parent.postMessage({frameHeight: Infinity}, "*"); parent.postMessage({frameHeight: 120}, "*"); });</script></body>' }));
  await load('/js/output-frames.js', 'outputFrames');
  const result = await page.evaluate(() => new Promise((resolve) => {
    const frame = document.createElement('iframe');
    outputFrames.onFrameHeight((source, height) => resolve({ fromFrame: source === frame.contentWindow, height, html: frame.contentWindow.got }));
    outputFrames.sendWhenLoaded(frame, '<b>hi</b>');
    frame.src = '/output-frame.html';
    document.body.append(frame);
  }));
  assert.deepEqual(result, { fromFrame: true, height: 120, html: '<b>hi</b>' });
}));

test('the assistant relay takes only http(s) base URLs without credentials, and says so when its page does not load', () => withPage(async ({ page, load, serve }) => {
  await load('/js/assistant-relay.js', 'relay');
  assert.deepEqual(await page.evaluate(() => ['http://localhost:11434/v1', 'HTTPS://API.Example.com:443/v1/', 'http://u:p@a.example/v1',
    'javascript:alert(1)', 'ftp://a.example', 'not a url', 'http://[::1]:8080/v1'].map((url) => relay.originOf(url))),
  ['http://localhost:11434', 'https://api.example.com', '', '', '', '', 'http://[::1]:8080']);
  serve('/local/assistant-relay.html', (route) => route.fulfill({ status: 400, contentType: 'text/plain', body: 'refused' }));
  const heard = await page.evaluate(() => new Promise((resolve) => {
    const r = relay.open('http://127.0.0.1:9', (type, id, status, text) => resolve({ type, id, text, frames: document.querySelectorAll('iframe.assistant-relay[sandbox="allow-scripts"]').length }), 1000);
    r.send('r1', 'http://127.0.0.1:9/v1/chat/completions', '', '{}');
  }));
  assert.deepEqual(heard, { type: 'unavailable', id: null, text: "the relay page did not load (was the endpoint's address refused?)", frames: 1 });
}));
