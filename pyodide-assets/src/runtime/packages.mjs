// Loading what a cell imports before it runs: packages of the configured package source (by the
// lock file's import names), then wheels of the server's wheelhouse whose top-level names match.

export class Packages {
  /**
   * `hostModule.missing_modules` says what cannot be imported; `wheelsURL` is the wheelhouse;
   * `onProgress(text)` shows the loader's steps on the frame's status line.
   */
  constructor(pyodide, hostModule, wheelsURL, onProgress) {
    this.pyodide = pyodide;
    this.hostModule = hostModule;
    this.wheelsURL = wheelsURL;
    this.onProgress = onProgress;
  }

  /** Loads what `code` imports; returns one stderr note per module still missing, shown after `started`. */
  async prepare(code) {
    let missing = this.missingModules(this.importedModules(code));
    if (missing.length === 0) {
      return [];
    }
    const callbacks = {
      messageCallback: (text) => this.onProgress(text),
      errorCallback: (text) => console.warn(text),
    };
    try {
      await this.pyodide.loadPackagesFromImports(code, callbacks);
      missing = this.missingModules(missing);
      const wheels = missing.length ? await this.wheelsFor(missing) : [];
      for (const url of wheels) {
        await this.pyodide.loadPackage(url, { ...callbacks, checkIntegrity: false });
      }
      if (wheels.length) {
        missing = this.missingModules(missing);
      }
    } catch (error) {
      console.warn('loading packages failed', error);
    }
    return missing.length ? [missingSentence(missing)] : [];
  }

  importedModules(code) {
    let found;
    try {
      found = this.pyodide.pyodide_py.code.find_imports(this.hostModule.python_source(code));
    } catch {
      return []; // a syntax error: the runner reports it
    }
    try {
      return found.toJs();
    } finally {
      found.destroy();
    }
  }

  missingModules(names) {
    if (names.length === 0) {
      return [];
    }
    const missing = this.hostModule.missing_modules(names);
    try {
      return missing.toJs();
    } finally {
      missing.destroy();
    }
  }

  /** URLs of the wheelhouse's wheels providing any of `names` (asked anew: wheels come and go). */
  async wheelsFor(names) {
    const response = await fetch(this.wheelsURL + 'index.json', { cache: 'no-cache' });
    if (!response.ok) {
      return [];
    }
    const index = await response.json();
    const wanted = new Set(names);
    return (index.wheels || [])
      .filter((wheel) => (wheel.imports || []).some((name) => wanted.has(name)))
      .map((wheel) => this.wheelsURL + encodeURIComponent(wheel.file));
  }
}

/**
 * One plain sentence for a cell's missing modules, each named once by its package ('matplotlib'
 * for 'matplotlib' and 'matplotlib.pyplot'), with the ways out.
 */
export function missingSentence(modules) {
  const names = [...new Set(modules.map((name) => String(name).split('.')[0]))];
  const listed = names.length === 1 ? names[0] : names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
  return `${listed} ${names.length === 1 ? 'is' : 'are'} not available in local mode: run this cell in Server mode, `
    + `or ask whoever runs this server to add ${names.length === 1 ? 'it' : 'them'} to the local package source.\n`;
}
