// Syntax highlighting for cells: highlight.js (npm @highlightjs/cdn-assets, copied by the build to
// js/vendor/highlight/) with the grammars of the cell languages. highlight.js renders to an HTML
// string; we never use that: its token tree (the result's emitter) becomes spans built with text
// APIs, so hostile code in a cell can only ever be text.
import hljs from './vendor/highlight/core.min.js';
import python from './vendor/highlight/languages/python.min.js';
import javascript from './vendor/highlight/languages/javascript.min.js';
import bash from './vendor/highlight/languages/bash.min.js';

hljs.registerLanguage('python', python);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('bash', bash);

const MAX_HIGHLIGHTED = 200000; // longer cells are shown plain: highlighting them would stall typing

/**
 * Appends `code` to `element` as text, coloured as `language` (python, javascript or bash):
 * spans of class `tok-<scope>` (e.g. `tok-keyword`, `tok-string`, `tok-title tok-function`).
 */
export function highlightInto(code, language, element) {
  if (code.length > MAX_HIGHLIGHTED || !hljs.getLanguage(language)) {
    element.append(code);
    return;
  }
  let tree;
  try {
    tree = hljs.highlight(code, { language, ignoreIllegals: true })._emitter.rootNode;
  } catch {
    element.append(code); // a grammar that fails on odd input must not cost the cell its text
    return;
  }
  appendNode(tree, element);
}

function appendNode(node, into) {
  for (const child of node.children) {
    if (typeof child === 'string') {
      into.append(child);
      continue;
    }
    const span = document.createElement('span');
    if (typeof child.scope === 'string') {
      span.className = child.scope.split('.').map((part) => `tok-${part.replace(/[^a-z_-]/gi, '')}`).join(' ');
    }
    appendNode(child, span);
    into.append(span);
  }
}
