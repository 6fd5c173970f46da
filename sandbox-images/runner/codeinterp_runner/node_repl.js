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
 * The cell rewritten as Node's REPL does: top-level const/let/class become var-like globals, so a
 * later cell may declare them again; with top-level await the body runs in an async function whose
 * last expression is returned, its declarations hoisted to globals first.
 */
function rewrite(code) {
  if (!acorn) return { script: code, async: false };
  let ast;
  try {
    ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true,
                              allowReturnOutsideFunction: false, allowHashBang: true });
  } catch (e) {
    return { script: code, async: false }; // let V8 report the syntax error with its own message
  }
  const hasAwait = containsTopLevelAwait(ast);
  const edits = [];
  const names = [];
  for (const node of ast.body) {
    if (node.type === 'VariableDeclaration' && node.kind !== 'var') {
      if (hasAwait) {
        for (const d of node.declarations) collectNames(d.id, names);
        // `const {a} = x;` -> `void ({a} = x);`; declarations without a value stay undefined
        const parts = node.declarations.filter((d) => d.init)
          .map((d) => '(' + code.slice(d.id.start, d.id.end) + ' = ' + code.slice(d.init.start, d.init.end) + ')');
        edits.push([node.start, node.end, parts.length ? 'void (' + parts.join(', ') + ');' : ';']);
      } else {
        edits.push([node.start, node.start + node.kind.length, 'var']);
      }
    } else if (node.type === 'ClassDeclaration' || (hasAwait && node.type === 'FunctionDeclaration')) {
      names.push(node.id.name);
      const decl = code.slice(node.start, node.end);
      edits.push([node.start, node.end, (hasAwait ? '' : 'var ') + node.id.name + ' = ' + decl + ';']);
    } else if (hasAwait && node.type === 'VariableDeclaration') {
      for (const d of node.declarations) collectNames(d.id, names);
      edits.push([node.start, node.start + 3, '']);
    }
  }
  const last = ast.body[ast.body.length - 1];
  if (hasAwait && last && last.type === 'ExpressionStatement') {
    edits.push([last.start, last.end, 'return (' + code.slice(last.expression.start, last.expression.end) + ');']);
  }
  let out = code;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  if (!hasAwait) return { script: out, async: false };
  const prelude = names.length ? 'var ' + [...new Set(names)].join(', ') + ';\n' : '';
  return { prelude, script: '(async () => {\n' + out + '\n})()', async: true };
}

function collectNames(pattern, names) {
  if (!pattern) return;
  switch (pattern.type) {
    case 'Identifier': names.push(pattern.name); break;
    case 'ObjectPattern': pattern.properties.forEach((p) => collectNames(p.type === 'RestElement' ? p.argument : p.value, names)); break;
    case 'ArrayPattern': pattern.elements.forEach((e) => collectNames(e, names)); break;
    case 'RestElement': collectNames(pattern.argument, names); break;
    case 'AssignmentPattern': collectNames(pattern.left, names); break;
  }
}

function containsTopLevelAwait(ast) {
  let found = false;
  const visit = (node) => {
    if (found || !node || typeof node.type !== 'string') return;
    if (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await)) { found = true; return; }
    if (/Function/.test(node.type) || node.type === 'ClassBody') return; // their awaits are their own
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach(visit); else if (child && typeof child === 'object') visit(child);
    }
  };
  ast.body.forEach(visit);
  return found;
}

function isPlainData(value, depth = 0) {
  if (depth > 20) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isPlainData(v, depth + 1));
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    return (proto === Object.prototype || proto === null) && Object.values(value).every((v) => isPlainData(v, depth + 1));
  }
  return false;
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
    const { code, execution_count: n } = JSON.parse(queue.shift());
    await runCell(code, n || ++count);
  }
  running = false;
}
