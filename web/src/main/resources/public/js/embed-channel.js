// The embed frame's end of its channel to the host page (docs/embed.md). The frame speaks to its
// parent only after checking the parent's origin against the allowlist the server put in the page
// (#embed-config): `location.ancestorOrigins` where the browser has it, and the origin of the
// parent's first message (which must agree). Then it posts `hello` to that origin alone; the host's
// helper answers `connect` with a MessagePort, and every later message goes over that port.

/** Whether `origin` matches a source of `allowed` (`scheme://host[:port]`, or `:*` for any port). */
export function originAllowed(origin, allowed) {
  let o;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.origin !== origin || (o.protocol !== 'http:' && o.protocol !== 'https:')) {
    return false; // "null", file:, a path or credentials: never
  }
  return (Array.isArray(allowed) ? allowed : []).some((source) => {
    const m = /^(https?):\/\/([^:/]+)(?::(\d+|\*))?$/.exec(String(source));
    if (!m || m[1] + ':' !== o.protocol || m[2] !== o.hostname) {
      return false;
    }
    return m[3] === '*' || (m[3] || '') === o.port;
  });
}

/** The page's configuration: `{version, origins}`; empty origins if it is missing or broken. */
export function config() {
  try {
    const c = JSON.parse(document.getElementById('embed-config').textContent);
    return { version: c.version | 0, origins: Array.isArray(c.origins) ? c.origins : [] };
  } catch {
    return { version: 0, origins: [] };
  }
}

/**
 * Opens the channel (`capabilities`: comma-separated, for the hello). `refused(reason)` if the parent may not embed us (nothing is posted to it);
 * `accepted(origin)` once its origin checked out; `connected(key)` when the host's port arrived
 * (`key`: an API key the host gave, or null); `receive(json, bytes)` for each message on the port
 * (`bytes`: its ArrayBuffer `bytes` member, taken off, or null). Returns `{post(json, bytes)}`,
 * which drops messages until connected and hands `bytes` (or null) over as the message's `bytes`.
 */
export function open(capabilities, refused, accepted, connected, receive) {
  const { version, origins } = config();
  let origin = null;
  let port = null;
  const hello = () => window.parent.postMessage({ type: 'hello', version, capabilities: capabilities.split(',') }, origin);
  const accept = (o) => {
    origin = o;
    hello();
    accepted(o);
  };
  if (window.parent === window) {
    refused('This widget is meant to be embedded in a web page (with /embed.js).');
    return { post() {} };
  }
  const ancestors = document.location.ancestorOrigins;
  const ancestor = ancestors && ancestors.length > 0 ? ancestors[0] : null;
  if (ancestor !== null) {
    if (!originAllowed(ancestor, origins)) {
      refused(`${ancestor} may not embed this widget.`);
      return { post() {} };
    }
    accept(ancestor);
  }
  const onMessage = (e) => {
    if (e.source !== window.parent) {
      return;
    }
    if (origin === null) { // no ancestorOrigins: the first message tells who the parent is
      if (!originAllowed(e.origin, origins)) {
        window.removeEventListener('message', onMessage);
        refused(`${e.origin} may not embed this widget.`);
        return;
      }
      accept(e.origin);
    }
    if (e.origin !== origin || !e.data || port !== null) {
      return;
    }
    if (e.data.type === 'ping') {
      hello(); // a helper that missed our first hello
    } else if (e.data.type === 'connect' && e.ports && e.ports[0]) {
      port = e.ports[0];
      port.onmessage = (m) => {
        if (!m.data || typeof m.data !== 'object') {
          return;
        }
        const { bytes = null, ...fields } = m.data; // a file's content travels beside the message
        let json;
        try {
          json = JSON.stringify(fields);
        } catch {
          return;
        }
        receive(json, bytes instanceof ArrayBuffer ? bytes : null);
      };
      connected(typeof e.data.key === 'string' && e.data.key ? e.data.key : null);
    }
  };
  window.addEventListener('message', onMessage);
  return {
    post(json, bytes) {
      if (port !== null) {
        const message = JSON.parse(json);
        if (bytes) {
          message.bytes = bytes;
        }
        port.postMessage(message, bytes ? [bytes] : []);
      }
    },
  };
}

/** The decoded text of a base64url value (UTF-8); null if it is not one. */
export function base64UrlText(value) {
  try {
    const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** One option of the URL fragment (`#code=…&language=python`), or null. */
export function option(name) {
  return new URLSearchParams(location.hash.replace(/^#/, '')).get(name);
}

/** Calls `callback(height)` with the element's height whenever it changes (content grows or shrinks). */
export function observeHeight(element, callback) {
  let last = -1;
  new ResizeObserver(() => {
    const height = Math.ceil(element.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      callback(height);
    }
  }).observe(element);
}

/** Calls `callback()` once, the first time the element is on screen (in the top-level viewport). */
export function whenVisible(element, callback) {
  const o = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      o.disconnect();
      callback();
    }
  });
  o.observe(element);
}

export function setTheme(theme) {
  document.documentElement.dataset.theme = theme === 'dark' ? 'dark' : 'light';
}

/** A File of `bytes` (an ArrayBuffer) named `name`, for an upload. */
export function toFile(bytes, name) {
  return new File([bytes], name);
}

/** Reads a blob: URL of ours into an ArrayBuffer: `callback(bytes)`, null if it cannot be read. */
export function readBlobUrl(url, callback) {
  fetch(url).then((r) => r.arrayBuffer()).then((b) => callback(b), () => callback(null));
}
