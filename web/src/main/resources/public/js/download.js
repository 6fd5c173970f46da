// Saving bytes to the user's disk, from a blob: URL (so no token or file content is ever in a URL
// the browser could log or share).

const REVOKE_AFTER_MS = 60000;

/** Offers the blob as a download named `name`; the URL is let go of a minute later. */
export function saveAs(blobUrl, name) {
  const a = document.createElement('a');
  a.href = blobUrl;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(blobUrl), REVOKE_AFTER_MS);
}

/** A blob: URL of the bytes (an ArrayBuffer or typed array) with this MIME type. */
export function blobUrl(bytes, mime) {
  return URL.createObjectURL(new Blob([bytes], { type: mime }));
}
