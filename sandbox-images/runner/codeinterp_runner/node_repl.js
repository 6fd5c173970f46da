// The JavaScript cell host (javascript.py starts it): cells arrive as JSON lines on stdin, run in
// this process's global context with REPL semantics, and their value, error and end go out as JSON
// lines on the control fd (argv[2]). console output is fds 1/2, which the Python runner captures.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const util = require('util');
const vm = require('vm');
const { createRequire } = require('module');
const { rewriteCell, isPlainData } = require('./repl_rewrite.js');

const controlFd = Number(process.argv[2]);
const send = (message) => fs.writeSync(controlFd, JSON.stringify(message) + '\n');

// Debian ships acorn as a system module; Node's own copy is reachable with --expose-internals.
let acorn = null;
for (const name of ['acorn', 'internal/deps/acorn/acorn/dist/acorn']) {
  try { acorn = require(name); break; } catch (e) { /* try the next */ }
}

globalThis.require = createRequire(path.join(process.cwd(), '<repl>'));
globalThis.module = { exports: {}, require: globalThis.require };
globalThis.__filename = path.join(process.cwd(), '<repl>');
globalThis.__dirname = process.cwd();

// Between cells an interrupt must not kill the host (a cell running under breakOnSigint gets it as an error).
let interruptWaiting = null;
process.on('SIGINT', () => { if (interruptWaiting) interruptWaiting(); });
process.on('uncaughtException', (e) => process.stderr.write('Uncaught ' + util.inspect(e) + '\n'));
process.on('unhandledRejection', (e) => process.stderr.write('Unhandled promise rejection: ' + util.inspect(e) + '\n'));

/**
 * The cell with REPL semantics (repl_rewrite.js); with top-level await, its body runs in an async
 * function whose declarations the prelude hoists to globals first.
 */
function rewrite(code) {
  if (!acorn) return { script: code, async: false };
  // a cell acorn cannot parse comes back as it is: V8 reports the syntax error with its own message
  const { prelude, body, async } = rewriteCell(acorn, code);
  return async ? { prelude, script: '(async () => {\n' + body + '\n})()', async } : { script: body, async };
}

function describe(error, filename) {
  if (!(error instanceof Error)) {
    return { ename: 'Uncaught', evalue: util.inspect(error), traceback: ['Uncaught ' + util.inspect(error)] };
  }
  const lines = String(error.stack || error).split('\n');
  // the user's frames only: drop this host's and Node's internals
  const kept = lines.filter((l) => !/^\s+at /.test(l) || l.includes(filename));
  while (kept.length && kept[kept.length - 1].trim() === '') kept.pop();
  return { ename: error.name || 'Error', evalue: error.message, traceback: kept };
}

let count = 0;
async function runCell(code, executionCount) {
  const filename = `<cell-${executionCount}>`;
  const { prelude, script, async } = rewrite(code);
  try {
    if (prelude) vm.runInThisContext(prelude, { filename });
    let value = vm.runInThisContext(script, { filename, breakOnSigint: true,
      importModuleDynamically: (specifier) => import(specifier.startsWith('.') ? path.resolve(specifier) : specifier) });
    if (async) {
      value = await Promise.race([value, new Promise((_, reject) => {
        interruptWaiting = () => reject(Object.assign(new Error('Script execution interrupted.'), { code: 'ERR_SCRIPT_EXECUTION_INTERRUPTED' }));
      })]);
    }
    if (value !== undefined) {
      globalThis._ = value;
      const data = { 'text/plain': util.inspect(value, { depth: 4, colors: false }) };
      if (isPlainData(value) && typeof value === 'object') data['application/json'] = value;
      send({ type: 'result', data });
    }
    send({ type: 'done', status: 'ok' });
  } catch (error) {
    const interrupted = error && error.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED';
    if (interrupted) {
      send({ type: 'error', ename: 'KeyboardInterrupt', evalue: 'the cell was interrupted', traceback: [] });
    } else {
      send({ type: 'error', ...describe(error, filename) });
    }
    send({ type: 'done', status: interrupted ? 'interrupted' : 'error' });
  } finally {
    interruptWaiting = null;
  }
}

// One cell at a time: the next line is read only after the previous cell ended.
const lines = readline.createInterface({ input: process.stdin, terminal: false });
const queue = [];
let running = false;
lines.on('line', (line) => { queue.push(line); pump(); });
lines.on('close', () => process.exit(0));
async function pump() {
  if (running) return;
  running = true;
  while (queue.length) {
    const { code, execution_count: n, fence } = JSON.parse(queue.shift());
    if (fence) {
      // after an interrupted cell: a SIGINT the runner sent again that is still on its way is taken
      // (and dropped, no cell waiting) in this turn's poll phase, before the next cell can arrive
      await new Promise((resolve) => setImmediate(resolve));
      send({ type: 'fenced' });
      continue;
    }
    await runCell(code, n || ++count);
  }
  running = false;
}
