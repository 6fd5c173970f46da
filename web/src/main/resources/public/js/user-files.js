// Files the user hands the page: chosen in a file input, or dropped anywhere on the page.

/** Calls `onFile` with each file chosen in `input`, then clears it so the same file can be chosen again. */
export function onFilesPicked(input, onFile) {
  input.addEventListener('change', () => {
    Array.from(input.files || []).forEach((file) => onFile(file));
    input.value = '';
  });
}

/**
 * Calls `onFile` with each file dropped on `target`; while files are dragged over it, `target`
 * has the class `dropping`. Drags of anything but files (text, links) are left to the browser.
 */
export function onFilesDropped(target, onFile) {
  let depth = 0; // dragenter/dragleave pairs of the target's descendants
  const hasFiles = (e) => Boolean(e.dataTransfer) && Array.prototype.indexOf.call(e.dataTransfer.types, 'Files') >= 0;
  target.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) {
      return;
    }
    e.preventDefault();
    depth++;
    target.classList.add('dropping');
  });
  target.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) {
      return;
    }
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  target.addEventListener('dragleave', () => {
    if (--depth <= 0) {
      depth = 0;
      target.classList.remove('dropping');
    }
  });
  target.addEventListener('drop', (e) => {
    if (!hasFiles(e)) {
      return;
    }
    e.preventDefault();
    depth = 0;
    target.classList.remove('dropping');
    Array.from(e.dataTransfer.files).forEach((file) => onFile(file));
  });
}

/** Reads a File's bytes: `callback(arrayBuffer, null)`, or `callback(null, why)` if it cannot be read. */
export function readBytes(file, callback) {
  file.arrayBuffer().then((bytes) => callback(bytes, null), (e) => callback(null, String((e && e.message) || e)));
}
