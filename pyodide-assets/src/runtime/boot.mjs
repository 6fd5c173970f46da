// Starting Pyodide in this worker, with the workarounds it needs here, and placing our Python code
// (the host module and the runner package) in its file system.

import { describe } from './errors.mjs';

const CODE_DIR = '/opt/codeinterp';

let assetsArrived = null;
/**
 * What the frame hands over before Pyodide loads: `files` (url -> Blob of the core's files and our
 * Python sources, which the frame keeps across workers; a file missing here is fetched from its URL),
 * `snapshot` (a Blob of a kept memory snapshot to boot from, or null) and `took` (the app's
 * {step: ms} getting them). Blobs, so that handing them over copies no bytes: this worker reads them.
 */
const assets = new Promise((resolve) => {
  assetsArrived = resolve;
});

/** The frame's `assets` message: init is waiting for it, so it is not queued. */
export function receiveAssets(message) {
  assetsArrived({
    files: new Map((message.files || []).filter((file) => file.bytes instanceof Blob).map((file) => [file.url, file.bytes])),
    snapshot: message.snapshot instanceof Blob ? message.snapshot : null,
    took: message.took && typeof message.took === 'object' ? message.took : {},
  });
}

/** Resolves to what the frame handed over (see `assets`). */
export function handedOver() {
  return assets;
}

/**
 * The Python files of the runtime as [[path under CODE_DIR, text], ...]: the build puts them all in
 * python-sources.json (pyodide_host.py, then every module of the runner package). From the bytes
 * the frame handed over when it has them (the app's HTTP cache), else fetched.
 */
export async function pythonSources(runtimeURL, files) {
  const url = runtimeURL + 'python-sources.json';
  const handed = files.get(url);
  return JSON.parse(handed ? await handed.text() : await fetchText(url));
}

/**
 * Pyodide's two ES modules, `pyodide.mjs` (loadPyodide) and `pyodide.asm.mjs` (the Emscripten glue):
 * imported from the bytes the frame handed over (as blob: modules made here, which the page's CSP
 * allows) or from their URLs. What an opaque-origin frame fetches is never cached, so on a return
 * visit the app's copies (from its HTTP cache) save their 0.26 MiB. Resolves to
 * {loadPyodide, createPyodideModule}.
 */
export async function pyodideModules(indexURL, files) {
  const load = (name) => {
    const blob = files.get(indexURL + name);
    if (!blob) {
      return import(indexURL + name);
    }
    const url = URL.createObjectURL(blob.slice(0, blob.size, 'text/javascript'));
    return import(url).finally(() => URL.revokeObjectURL(url));
  };
  const [main, glue] = await Promise.all([load('pyodide.mjs'), load('pyodide.asm.mjs')]);
  return { loadPyodide: main.loadPyodide, createPyodideModule: glue.default };
}

/**
 * Starts compiling the core's WebAssembly from the Blob the frame handed over, so that it compiles
 * while the worker imports Pyodide's modules and reads a snapshot rather than after. Resolves to a
 * WebAssembly.Module, or is null when no core was handed over (Pyodide then fetches and compiles
 * it itself); `timings.precompile` gets the time it took.
 */
export function compileCore(config, files, timings) {
  const wasm = files.get(config.indexURL + 'pyodide.asm.wasm');
  if (!wasm) {
    return null;
  }
  const begun = performance.now();
  const compiled = WebAssembly.compileStreaming(new Response(wasm, { headers: { 'Content-Type': 'application/wasm' } }))
    .finally(() => {
      timings.precompile = Math.round(performance.now() - begun);
    });
  compiled.catch(() => {}); // reported where Pyodide instantiates it
  return compiled;
}

/**
 * Loads Pyodide with `modules` (pyodideModules), answering its fetches of the big core files from
 * the Blobs the frame handed over. `snapshot` (optional Uint8Array): boot from this memory snapshot
 * (snapshot.mjs) instead of starting the interpreter; `makeSnapshot`: load so that one can be taken
 * later; `core` (optional): compileCore's promise, instantiated instead of compiling the core here.
 * `timings.compile` gets the time WebAssembly instantiation took (compiling, or waiting for `core`, included).
 */
export async function startPyodide(config, modules, { snapshot = null, makeSnapshot = false, core = null, timings = {} } = {}) {
  const wasm = watchWasmFailure();
  const restoreFetch = serveAssets(config.bigAssets);
  const restoreInstantiate = instantiateCore(core, timings);
  try {
    return await Promise.race([wasm.failed, modules.loadPyodide({
      indexURL: config.indexURL,
      lockFileURL: config.packagesURL + 'pyodide-lock.json',
      packageBaseUrl: config.packagesURL,
      createPyodideModule: modules.createPyodideModule,
      // Output outside cells (package loader chatter) goes to the console, never to the app.
      stdout: (text) => console.log(text),
      stderr: (text) => console.warn(text),
      ...(snapshot ? { _loadSnapshot: snapshot } : {}),
      ...(makeSnapshot ? { _makeSnapshot: true } : {}),
    })]);
  } finally {
    wasm.stop();
    restoreFetch();
    restoreInstantiate();
  }
}

/** Lets the handed files go once the worker has started. */
export function releaseAssets() {
  assets.then((handed) => handed.files.clear());
}

/**
 * Writes the sources under CODE_DIR (packages as folders) and puts CODE_DIR on sys.path (unless
 * `onPath`: an interpreter restored from a snapshot has it there already, but a fresh file system).
 */
export function installPythonSources(pyodide, sources, onPath = false) {
  const FS = pyodide.FS;
  for (const [path, text] of sources) {
    const file = `${CODE_DIR}/${path}`;
    FS.mkdirTree(file.slice(0, file.lastIndexOf('/')));
    FS.writeFile(file, text);
  }
  if (onPath) {
    return;
  }
  pyodide.runPython(`import sys\nsys.path.append(${JSON.stringify(CODE_DIR)})`);
}

/**
 * Output written below sys.stdout (os.write(1, ...), C code) reaches Pyodide's fd 1 and 2. It is
 * kept in `output` ([[stream name, text], ...]) until the host takes it into the running cell, as
 * the sandbox's pipes do there: the write happens without the GIL, so it cannot call into Python.
 */
export function routeFdOutput(pyodide, output) {
  for (const [name, set] of [['stdout', pyodide.setStdout], ['stderr', pyodide.setStderr]]) {
    const decoder = new TextDecoder();
    set.call(pyodide, {
      isatty: false,
      write: (bytes) => {
        const text = decoder.decode(bytes, { stream: true });
        if (text) {
          output.push([name, text]);
        }
        return bytes.length;
      },
    });
  }
}

/**
 * While Pyodide loads, its fetches of the files the frame handed over are answered from those
 * bytes; anything else (and a file the frame could not get) goes to the network as usual.
 */
function serveAssets(bigAssets) {
  const realFetch = self.fetch;
  self.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (bigAssets.includes(url)) {
      const blob = (await assets).files.get(url);
      if (blob) {
        const type = url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
        return new Response(blob, { status: 200, headers: { 'Content-Type': type } });
      }
    }
    return realFetch(input, init);
  };
  return () => {
    self.fetch = realFetch;
  };
}

/**
 * While Pyodide loads, its WebAssembly.instantiateStreaming of the core instantiates `core` (the
 * module compileCore compiled) when there is one, else compiles as usual; the time it takes
 * (compilation of the 9.2 MiB core, which V8 compiles lazily, plus instantiation) goes into
 * `timings.compile`, for the figures.
 */
function instantiateCore(core, timings) {
  const real = WebAssembly.instantiateStreaming;
  if (typeof real !== 'function') {
    return () => {};
  }
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const begun = performance.now();
    try {
      if (core) {
        const module = await core;
        return { module, instance: await WebAssembly.instantiate(module, imports) };
      }
      return await real.call(WebAssembly, source, imports);
    } finally {
      timings.compile = Math.round(performance.now() - begun);
    }
  };
  return () => {
    WebAssembly.instantiateStreaming = real;
  };
}

/**
 * Pyodide catches a failed WebAssembly instantiation (a 404, a truncated download), logs it with
 * two console.warn calls and then waits forever. `failed` rejects with the logged error instead.
 */
function watchWasmFailure() {
  const warn = console.warn;
  let stop = () => {};
  const failed = new Promise((_, reject) => {
    let next = false;
    console.warn = (...args) => {
      warn.apply(console, args);
      if (next) {
        reject(new Error(`WebAssembly could not be loaded: ${describe(args[0])}`));
      }
      next = args[0] === 'wasm instantiation failed!';
    };
    stop = () => {
      console.warn = warn;
    };
  });
  return { failed, stop };
}

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url} answered ${response.status}`);
  }
  return response.text();
}
