// Lints the app's hand-written JavaScript (web/src/main/resources/public/**/*.js), run by
// tests/web-modules.test.js: ESLint's recommended rules plus a few that keep modules plain.
import js from '@eslint/js';

const browser = Object.fromEntries(['window', 'document', 'location', 'navigator', 'indexedDB', 'IDBKeyRange',
  'XMLHttpRequest', 'URL', 'Blob', 'fetch', 'setTimeout', 'clearTimeout', 'atob', 'TextDecoder', 'URLSearchParams',
  'ResizeObserver', 'IntersectionObserver', 'File', 'MessageChannel', 'performance'].map((name) => [name, 'readonly']));

export default [
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: browser },
    rules: {
      ...js.configs.recommended.rules,
      eqeqeq: 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      'no-implicit-globals': 'error',
      'no-restricted-globals': ['error', 'event', 'name', 'status'],
    },
  },
  {
    // /embed.js: a classic script for other sites' pages, defining only window.CodeInterp
    files: ['**/public/embed.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { ...browser, getComputedStyle: 'readonly', matchMedia: 'readonly', MutationObserver: 'readonly',
        MessageChannel: 'readonly', TextEncoder: 'readonly', btoa: 'readonly' },
    },
  },
];
