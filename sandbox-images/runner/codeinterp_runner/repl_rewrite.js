// The JavaScript cell rewrite with REPL semantics, one home for both hosts: node_repl.js (server
// mode, loads it with require) and local mode's js-worker.js (a classic worker, loads it with
// importScripts, where it sets self.codeinterpReplRewrite). Each host passes its own acorn and
// keeps what differs between them (how a value is shown, how an error's stack is trimmed, how the
// async body is wrapped and run).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory();
  } else {
    root.codeinterpReplRewrite = factory();
  }
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /**
   * The cell rewritten as Node's REPL does: top-level const/let/class become var-like globals, so a
   * later cell may declare them again. With top-level await (`async`) the body is meant to run in
   * an async function: its last expression is returned and its declarations are hoisted to globals
   * by `prelude` ('var a, b; ', run first). Without await, the last expression statement's value is
   * assigned to `resultTarget` when one is given (a host that cannot read a script's completion
   * value). A cell acorn cannot parse comes back unchanged, with acorn's error as `syntaxError`.
   * Returns {prelude, body, async, syntaxError}; the host wraps `body` when `async`.
   */
  function rewriteCell(acorn, code, resultTarget) {
    let ast;
    try {
      ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true,
        allowReturnOutsideFunction: false, allowHashBang: true });
    } catch (error) {
      return { prelude: '', body: code, async: false, syntaxError: error };
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
        edits.push([node.start, node.end, (hasAwait ? '' : 'var ') + node.id.name + ' = ' + code.slice(node.start, node.end) + ';']);
      } else if (hasAwait && node.type === 'VariableDeclaration') {
        for (const d of node.declarations) collectNames(d.id, names);
        edits.push([node.start, node.start + 3, '']);
      }
    }
    const last = ast.body[ast.body.length - 1];
    if (last && last.type === 'ExpressionStatement' && (hasAwait || resultTarget)) {
      const expression = '(' + code.slice(last.expression.start, last.expression.end) + ')';
      edits.push([last.start, last.end, hasAwait ? `return ${expression};` : `${resultTarget} = ${expression};`]);
    }
    let body = code;
    for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) {
      body = body.slice(0, start) + text + body.slice(end);
    }
    const prelude = hasAwait && names.length ? 'var ' + [...new Set(names)].join(', ') + '; ' : '';
    return { prelude, body, async: hasAwait, syntaxError: null };
  }

  function collectNames(pattern, names) {
    if (!pattern) return;
    switch (pattern.type) {
      case 'Identifier': names.push(pattern.name); break;
      case 'ObjectPattern': pattern.properties.forEach((p) => collectNames(p.type === 'RestElement' ? p.argument : p.value, names)); break;
      case 'ArrayPattern': pattern.elements.forEach((e) => collectNames(e, names)); break;
      case 'RestElement': collectNames(pattern.argument, names); break;
      case 'AssignmentPattern': collectNames(pattern.left, names); break;
      default: break;
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

  /** Whether the value is JSON as it is (finite numbers, plain objects and arrays, not too deep). */
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

  return { rewriteCell, isPlainData };
});
