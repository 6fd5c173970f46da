// The app's end of local mode's assistant relay: /local/assistant-relay.html, framed sandboxed
// without allow-same-origin (an opaque origin: none of the app's storage, cookies or credentials)
// and allowed by its CSP to connect to the configured endpoint's origin only. The app page itself
// never talks to the endpoint (its own CSP allows only 'self'). The frame is made on the first
// prompt, never before: with no endpoint configured, local mode makes no request at all.

const LOAD_TIMEOUT_MS = 15000;

/** The origin of an http(s) base URL as the browser serialises it, or '' when it is not one. */
export function originOf(baseUrl) {
  try {
    const u = new URL(baseUrl);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '' ? u.origin : '';
  } catch {
    return '';
  }
}

/**
 * Frames the relay for `endpoint` (an origin) and returns `{send(id, url, apiKey, body), abort(id), close()}`.
 * `receive(type, id, status, text)` gets: `status` (the HTTP status in `status`, Retry-After in
 * `text`), `chunk` (response text, decoded, in order), `end`, `aborted`, `failed` (why, in `text`),
 * and `unavailable` (the relay did not load within `loadTimeoutMs`: id null).
 */
export function open(endpoint, receive, loadTimeoutMs = LOAD_TIMEOUT_MS) {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('title', 'Assistant relay (sends prompts to your model endpoint)');
  frame.setAttribute('aria-hidden', 'true');
  frame.setAttribute('tabindex', '-1');
  frame.className = 'assistant-relay';
  frame.style.display = 'none';
  frame.src = '/local/assistant-relay.html?endpoint=' + encodeURIComponent(endpoint);
  const channel = new MessageChannel();
  const early = [];
  let ready = false;
  let closed = false;
  const timer = setTimeout(() => {
    if (!ready && !closed) {
      receive('unavailable', null, 0, 'the relay page did not load (was the endpoint\'s address refused?)');
    }
  }, loadTimeoutMs);
  const onWindowMessage = (e) => {
    if (e.source !== frame.contentWindow || !e.data || e.data.type !== 'relay-loaded' || ready) {
      return;
    }
    frame.contentWindow.postMessage({ type: 'connect' }, '*', [channel.port2]);
  };
  channel.port1.onmessage = (e) => {
    const m = e.data;
    if (!m || typeof m.type !== 'string') {
      return;
    }
    if (m.type === 'ready') {
      ready = true;
      clearTimeout(timer);
      early.splice(0).forEach((message) => channel.port1.postMessage(message));
      return;
    }
    const text = m.type === 'status' ? m.retryAfter : m.type === 'chunk' ? m.text : m.message;
    receive(m.type, typeof m.id === 'string' ? m.id : null, typeof m.status === 'number' ? m.status : 0,
      typeof text === 'string' ? text : null);
  };
  window.addEventListener('message', onWindowMessage);
  document.body.appendChild(frame);
  const post = (message) => (ready ? channel.port1.postMessage(message) : early.push(message));
  return {
    send(id, url, apiKey, body) {
      post({ type: 'request', id, url, apiKey, body });
    },
    abort(id) {
      post({ type: 'abort', id });
    },
    close() {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener('message', onWindowMessage);
      channel.port1.close();
      frame.remove();
    },
  };
}
