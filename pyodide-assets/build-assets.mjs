// Places local mode's static files in the jar's classpath (run by Maven after `npm ci`):
//
//   <out>/manifest.json            versions, and every file the server may serve (nothing else is served)
//   <out>/pyodide/<file>[.gz]      the Pyodide core from node_modules/pyodide
//   <out>/runtime/<file>[.gz]      our frame's page and modules, the worker's modules, the host module,
//                                  python-sources.json (the Python files the worker installs), the
//                                  JavaScript worker and its libraries (acorn.js, inspect.js,
//                                  repl_rewrite.js: the runner's cell rewrite, shared with node_repl.js)
//   <out>/runtime/codeinterp_runner/<module>.py[.gz]   the runner package
//
// Compressible files are stored gzipped only (level 9, done once here instead of per request);
// the server sends them as they are to clients that accept gzip and inflates them for the rest.
// The runner package is copied from sandbox-images/runner/codeinterp_runner: one source, two homes.
//
// Usage: node build-assets.mjs <out dir> <runner package dir>
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const [out, runnerDir] = process.argv.slice(2);
if (!out || !runnerDir) {
  console.error('usage: node build-assets.mjs <out dir> <runner package dir>');
  process.exit(2);
}
const here = new URL('.', import.meta.url).pathname;
const pyodideDir = join(here, 'node_modules', 'pyodide');
const pyodideVersion = JSON.parse(readFileSync(join(pyodideDir, 'package.json'), 'utf8')).version;

// What loadPyodide fetches in a module worker: the ES module, the Emscripten glue it imports,
// the WebAssembly binary, the standard library and the package lock file.
const PYODIDE_FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];
const RUNTIME_FILES = ['runtime.html', 'runtime.mjs', 'frame-config.mjs', 'workspace.mjs', 'cells.mjs', 'cell-limits.mjs',
  'cell-lines.mjs', 'cell-stop.mjs', 'running-cell.mjs', 'javascript.mjs', 'replies.mjs', 'core-assets.mjs',
  'python-workers.mjs', 'snapshot-keeper.mjs',
  'worker.mjs', 'input-replies.mjs', 'boot.mjs', 'snapshot.mjs', 'snapshot-pages.mjs', 'packages.mjs', 'workspace-fs.mjs', 'workspace-names.mjs',
  'errors.mjs', 'pyodide_host.py', 'js-worker.js'];
const RUNNER_PACKAGE = basename(runnerDir);

rmSync(out, { recursive: true, force: true });
const manifest = { pyodide: pyodideVersion, runtime: '', files: {} };

/** Stores one file (gzipped if that saves at least a tenth) and lists it in the manifest. */
function place(group, name, bytes) {
  mkdirSync(dirname(join(out, group, name)), { recursive: true });
  const gz = gzipSync(bytes, { level: 9 });
  const compress = gz.length < bytes.length * 0.9;
  writeFileSync(join(out, group, compress ? name + '.gz' : name), compress ? gz : bytes);
  manifest.files[`${group}/${name}`] = { size: bytes.length, gzip: compress ? gz.length : null };
}

for (const name of PYODIDE_FILES) {
  let bytes = readFileSync(join(pyodideDir, name));
  if (name === 'pyodide-lock.json') {
    bytes = Buffer.from(JSON.stringify(servableLock(JSON.parse(bytes))));
  }
  place('pyodide', name, bytes);
}

// The runtime is served under a hash of its contents, so its URLs can be cached forever.
const hash = createHash('sha256');
const runtime = RUNTIME_FILES.map(name => [name, readFileSync(join(here, 'src', 'runtime', name))]);
// The JavaScript worker's libraries from npm, as classic scripts it loads with importScripts:
// acorn's UMD build (sets self.acorn) and object-inspect (CommonJS: wrapped to set self.codeinterpInspect;
// its one require, Node's util.inspect, is left out in browsers as its package.json says).
runtime.push(['acorn.js', readFileSync(join(here, 'node_modules', 'acorn', 'dist', 'acorn.js'))]);
runtime.push(['inspect.js', Buffer.from('self.codeinterpInspect = (function () {\n'
  + 'var module = { exports: {} }; var require = function () { return {}; };\n'
  + readFileSync(join(here, 'node_modules', 'object-inspect', 'index.js'), 'utf8')
  + '\nreturn module.exports;\n})();\n')]);
// The cell rewrite node_repl.js uses too (one home, in the runner package): it sets self.codeinterpReplRewrite.
runtime.push(['repl_rewrite.js', readFileSync(join(runnerDir, 'repl_rewrite.js'))]);
// Every module of the runner package and its folders (the IPython shim in shims/), in a fixed
// order (bytecode and anything else stay behind).
for (const name of pythonModules(runnerDir)) {
  runtime.push([`${RUNNER_PACKAGE}/${name}`, readFileSync(join(runnerDir, name))]);
}
// What the worker writes into Pyodide's file system before it imports the host module, in one
// file ([[path, text], ...]): one request instead of ~60, and one the app can fetch from its HTTP
// cache for the frame, whose own fetches are never cached.
const pythonSources = runtime.filter(([name]) => name.endsWith('.py')).map(([name, bytes]) => [name, bytes.toString('utf8')]);
runtime.push(['python-sources.json', Buffer.from(JSON.stringify(pythonSources) + '\n')]);
for (const [name, bytes] of runtime) {
  hash.update(name).update('\0').update(bytes).update('\0');
}
hash.update(pyodideVersion);
manifest.runtime = hash.digest('hex').slice(0, 16);
for (const [name, bytes] of runtime) {
  place('runtime', name, bytes);
}

writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
const total = Object.values(manifest.files).reduce((sum, f) => sum + (f.gzip ?? f.size), 0);
console.log(`[pyodide-assets] pyodide ${pyodideVersion}, runtime ${manifest.runtime}: `
  + `${Object.keys(manifest.files).length} files, ${(total / 1048576).toFixed(1)} MiB stored in ${basename(out)}/`);

/** The .py files under `dir` as sorted relative paths ('/'-separated), __pycache__ left out. */
function pythonModules(dir, prefix = '') {
  const found = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== '__pycache__') {
      found.push(...pythonModules(dir, path));
    } else if (entry.isFile() && entry.name.endsWith('.py')) {
      found.push(path);
    }
  }
  return found.sort();
}

/**
 * The npm package holds the core only, but its lock file lists every package of the full
 * distribution. Served as it is, `import numpy` would make Pyodide fetch numpy and its
 * dependencies from us and fail on each 404. The lock we serve lists only the packages whose
 * files we actually ship (none today), so a missing package is known at once, without requests.
 * A deployer who points the package source at a full distribution gets that distribution's lock.
 */
function servableLock(lock) {
  const packages = {};
  for (const [name, info] of Object.entries(lock.packages)) {
    if (PYODIDE_FILES.includes(info.file_name)) {
      packages[name] = info;
    }
  }
  return { ...lock, packages };
}
