// Local mode's frame: the workspace. runtime.mjs creates one with `workspace(frame)`; `frame` is
// runtime.mjs's view of the worker.
//
// Owns the app's file requests (writeFile, listFiles, readFile, deleteFile): kept until the
// worker is ready, answered in order, handed to the next worker when one is replaced. And the
// mirror: the bytes of uploads and of files cells wrote, so a fresh worker starts with the same
// workspace after a reset.

const MIRROR_LIMIT = 256 << 20; // bytes of workspace files kept here to survive a reset
export const MIRROR_FILE_LIMIT = 64 << 20; // the largest file a worker reports for the mirror

export function workspace(frame) {
  const { config, toApp } = frame;
  const fileOps = []; // file requests waiting for the worker
  const pendingFiles = new Map(); // seq -> file request the worker has not answered yet
  let fileSeq = 0;
  const mirror = new Map(); // name -> {bytes, modified}: workspace files to put back after a reset
  let mirrorBytes = 0;

  function onFileRequest(m) {
    const request = { kind: m.type, requestId: m.requestId, name: m.name, bytes: null };
    if (m.type === 'writeFile') {
      const bytes = m.bytes instanceof ArrayBuffer ? m.bytes
        : ArrayBuffer.isView(m.bytes) ? m.bytes.buffer.slice(m.bytes.byteOffset, m.bytes.byteOffset + m.bytes.byteLength)
          : null;
      if (!bytes) {
        return fileFailed(request, 'writeFile needs the bytes as an ArrayBuffer');
      }
      if (typeof config.maxUploadBytes === 'number' && bytes.byteLength > config.maxUploadBytes) {
        return fileFailed(request, `${m.name}: larger than the upload limit of ${config.maxUploadBytes} bytes`);
      }
      request.bytes = bytes;
    }
    if (frame.fatal) {
      return fileFailed(request, frame.fatal);
    }
    fileOps.push(request);
    flush();
    return undefined;
  }

  function fileFailed(request, message) {
    toApp({ type: 'fileError', requestId: request.requestId, message });
  }

  /** Sends the waiting file requests to the worker, once it is ready. */
  function flush() {
    while (frame.ready && fileOps.length) {
      const request = fileOps.shift();
      const seq = ++fileSeq;
      pendingFiles.set(seq, request);
      // Not transferred: the frame keeps written bytes for its mirror.
      frame.worker.postMessage({ kind: request.kind, seq, name: request.name, bytes: request.bytes });
    }
  }

  /** Python cannot load: every waiting request fails with this message. */
  function failAll(message) {
    for (const request of [...pendingFiles.values(), ...fileOps]) {
      fileFailed(request, message);
    }
    pendingFiles.clear();
    fileOps.length = 0;
  }

  /** The worker is gone: requests it never answered go first to the next one. */
  function requeueUnanswered() {
    const unanswered = [...pendingFiles.values()];
    pendingFiles.clear();
    fileOps.unshift(...unanswered);
  }

  /** The mirrored files, for a new worker's `init`. */
  function mirroredFiles() {
    const files = [];
    for (const [name, file] of mirror) {
      files.push({ name, bytes: file.bytes });
    }
    return files;
  }

  function onFileReply(m) {
    const request = pendingFiles.get(m.seq);
    if (!request) {
      return;
    }
    pendingFiles.delete(m.seq);
    if (typeof m.error === 'string' || !m.result) {
      fileFailed(request, String(m.error));
      return;
    }
    const result = { ...m.result, requestId: request.requestId };
    if (result.type === 'fileWritten') {
      remember(request.name, request.bytes, Date.now());
    } else if (result.type === 'fileDeleted') {
      forget(request.name);
    }
    toApp(result, result.type === 'fileContent' && result.bytes instanceof ArrayBuffer ? [result.bytes] : []);
  }

  /** What a cell wrote or removed, so the next worker starts with the same workspace. */
  function updateMirror(files, deleted) {
    for (const name of Array.isArray(deleted) ? deleted : []) {
      forget(name);
    }
    for (const file of Array.isArray(files) ? files : []) {
      forget(file.name);
      if (file.bytes instanceof ArrayBuffer) {
        remember(file.name, file.bytes, file.modified);
      }
    }
  }

  function remember(name, bytes, modified) {
    forget(name);
    if (typeof name === 'string' && bytes && mirrorBytes + bytes.byteLength <= MIRROR_LIMIT) {
      mirror.set(name, { bytes, modified });
      mirrorBytes += bytes.byteLength;
    }
  }

  function forget(name) {
    const old = mirror.get(name);
    if (old) {
      mirrorBytes -= old.bytes.byteLength;
      mirror.delete(name);
    }
  }

  return { onFileRequest, onFileReply, updateMirror, flush, failAll, requeueUnanswered, mirroredFiles };
}
