// The app's requests to its own server. Credentials go only in the Authorization header, never
// in a URL (which would end up in logs and history). Every callback gets a status; 0 means the
// request never got an answer (network error, or cut off).

/**
 * A JSON request; `authorization` (or null) is the whole header value; `embedOrigin` (or null) is
 * the origin of the page an embed widget sits on, which a publishable embed key is checked against.
 */
export function jsonRequest(method, url, body, authorization, embedOrigin, callback) {
  const x = new XMLHttpRequest();
  x.open(method, url);
  x.setRequestHeader('Content-Type', 'application/json');
  if (authorization) {
    x.setRequestHeader('Authorization', authorization);
  }
  if (embedOrigin) {
    x.setRequestHeader('X-CodeInterp-Embed-Origin', embedOrigin);
  }
  x.onload = () => callback(x.status, x.responseText, x.getResponseHeader('Retry-After'));
  x.onerror = () => callback(0, '', null);
  x.send(body);
}

/** A request without a body, with the session's token. */
export function tokenRequest(method, url, token, callback) {
  const x = withToken(method, url, token);
  x.onload = () => callback(x.status, x.responseText);
  x.onerror = () => callback(0, '');
  x.send();
}

/** PUTs a browser File; the browser streams it and reports progress as (loaded, total). */
export function upload(url, token, file, progress, done) {
  const x = withToken('PUT', url, token);
  x.upload.onprogress = (e) => progress(e.loaded, e.lengthComputable ? e.total : file.size);
  x.onload = () => done(x.status, x.responseText);
  x.onerror = () => done(0, '');
  x.send(file);
}

/** GETs with the token and hands back a blob: URL of the bytes (null unless 200). */
export function fetchBlobUrl(url, token, callback) {
  const x = withToken('GET', url, token);
  x.responseType = 'blob';
  x.onload = () => callback(x.status, x.status === 200 ? URL.createObjectURL(x.response) : null);
  x.onerror = () => callback(0, null);
  x.send();
}

function withToken(method, url, token) {
  const x = new XMLHttpRequest();
  x.open(method, url);
  x.setRequestHeader('Authorization', 'Bearer ' + token);
  return x;
}
