// The embed widget's `files` option: the manifest and the files it lists are fetched from the
// host's side, only from origins the server lets frame the widget (the page's #embed-config), with
// no cookies or credentials, no redirects elsewhere, and within a size limit. The manifest's JSON is
// read by the widget's own codec (shared-model EmbedManifest); this module only moves bytes.
import { config, originAllowed } from './embed-channel.js';

/** `url` resolved against `base` if it may be fetched, else null. */
function allowedUrl(url, base) {
  let u;
  try {
    u = new URL(url, base || undefined);
  } catch {
    return null;
  }
  return originAllowed(u.origin, config().origins) ? u : null;
}

/**
 * GETs `url` (relative to `base`, or absolute) as text; `done(text, null, finalUrl)` or
 * `done(null, sentence)`.
 */
export function fetchText(url, base, maxBytes, done) {
  fetchAllowed(url, base, maxBytes).then(({ blob, at }) => blob.text().then((t) => done(t, null, at)), (e) => done(null, e.message));
}

/** GETs `url` as a File named `name`; `done(file, null)` or `done(null, sentence)`. */
export function fetchFile(url, base, name, maxBytes, done) {
  fetchAllowed(url, base, maxBytes).then(({ blob }) => done(new File([blob], name, { type: blob.type }), null), (e) => done(null, e.message));
}

async function fetchAllowed(url, base, maxBytes) {
  const u = allowedUrl(url, base);
  if (u === null) {
    throw new Error(`${String(url).slice(0, 200)} is not on an origin this widget may fetch from`);
  }
  let r;
  try {
    r = await fetch(u.href, { credentials: 'omit', redirect: 'error', cache: 'no-cache' });
  } catch {
    throw new Error(`${u.href} could not be fetched (offline, a redirect, or no CORS header from its server)`);
  }
  if (!r.ok) {
    throw new Error(`${u.href} answered ${r.status}`);
  }
  const length = Number(r.headers.get('Content-Length'));
  if (length > maxBytes) {
    throw new Error(`${u.href} is larger than ${maxBytes} bytes`);
  }
  const blob = await r.blob();
  if (blob.size > maxBytes) {
    throw new Error(`${u.href} is larger than ${maxBytes} bytes`);
  }
  return { blob, at: u.href };
}
