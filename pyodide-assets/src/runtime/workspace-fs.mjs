// The workspace in Pyodide's file system: the frame's file requests, name checks, and the mirror
// of what cells wrote (the frame keeps a copy, so files survive a reset).

import { describe } from './errors.mjs';
import { checkName, NameError } from './workspace-names.mjs';

export const WORKSPACE = '/workspace';

export class WorkspaceFs {
  /** `mimeOf(name)` is the host module's guess; files over `mirrorFileLimit` are mirrored without bytes. */
  constructor(pyodide, mirrorFileLimit, mimeOf) {
    this.FS = pyodide.FS;
    this.mirrorFileLimit = mirrorFileLimit;
    this.mimeOf = mimeOf;
  }

  /** A frame file request (writeFile, listFiles, readFile, deleteFile) as [answer, transfer]. */
  answer(message) {
    try {
      const name = message.kind === 'listFiles' ? null : checkName(message.name);
      const path = `${WORKSPACE}/${name}`;
      switch (message.kind) {
        case 'writeFile': {
          const size = this.write(name, message.bytes);
          return [{ result: { type: 'fileWritten', name, size } }, []];
        }
        case 'listFiles':
          return [{ result: { type: 'files', files: this.list() } }, []];
        case 'readFile': {
          this.regularFile(path, name);
          const bytes = this.FS.readFile(path);
          return [{ result: { type: 'fileContent', name, mime: this.mimeOf(name), bytes: bytes.buffer } }, [bytes.buffer]];
        }
        case 'deleteFile':
          this.regularFile(path, name);
          this.FS.unlink(path);
          return [{ result: { type: 'fileDeleted', name } }, []];
        default:
          throw new NameError(`'${message.kind}' is not a file request`);
      }
    } catch (error) {
      return [{ error: error instanceof NameError ? error.message : `${message.name ?? 'workspace'}: ${fsMessage(error)}` }, []];
    }
  }

  /** What a cell changed, for the frame's mirror: {files, deleted, transfer}. */
  mirror(changed, deleted) {
    const files = [];
    for (const name of changed) {
      try {
        const stat = this.FS.stat(`${WORKSPACE}/${name}`);
        if (stat.size > this.mirrorFileLimit) {
          files.push({ name, bytes: null, modified: mtimeMs(stat) });
          continue;
        }
        const bytes = this.FS.readFile(`${WORKSPACE}/${name}`);
        files.push({ name, bytes: bytes.buffer, modified: mtimeMs(stat) });
      } catch {
        deleted.push(name);
      }
    }
    return { files, deleted, transfer: files.filter((f) => f.bytes).map((f) => f.bytes) };
  }

  ensure() {
    if (!this.FS.analyzePath(WORKSPACE).exists) {
      this.FS.mkdirTree(WORKSPACE);
    }
  }

  write(name, bytes) {
    this.ensure();
    const path = `${WORKSPACE}/${name}`;
    if (this.FS.analyzePath(path).exists) {
      this.regularFile(path, name); // never write through a symlink or over a directory
    }
    const data = new Uint8Array(bytes);
    this.FS.writeFile(path, data);
    return data.length;
  }

  list() {
    this.ensure();
    const files = [];
    for (const name of this.FS.readdir(WORKSPACE)) {
      if (name === '.' || name === '..') {
        continue;
      }
      const stat = this.FS.lstat(`${WORKSPACE}/${name}`);
      if (this.FS.isFile(stat.mode)) {
        files.push({ name, size: stat.size, modified: mtimeMs(stat), mime: this.mimeOf(name) });
      }
    }
    return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  regularFile(path, name) {
    let stat;
    try {
      stat = this.FS.lstat(path);
    } catch {
      throw new NameError(`no file named '${name}'`);
    }
    if (!this.FS.isFile(stat.mode)) {
      throw new NameError(`'${name}' is not a regular file`);
    }
    return stat;
  }
}

function mtimeMs(stat) {
  const mtime = stat.mtime;
  return mtime instanceof Date ? mtime.getTime() : Number(mtime);
}

function fsMessage(error) {
  if (error && error.name === 'ErrnoError') {
    return `file system error ${error.errno}`;
  }
  return describe(error);
}
