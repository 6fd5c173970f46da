// Lints the app's hand-written JavaScript (web/src/main/resources/public/**/*.js), run by
// tests/web-modules.test.js: ESLint's recommended rules plus a few that keep modules plain.
import js from '@eslint/js';

const browser = Object.fromEntries(['window', 'document', 'location', 'navigator', 'indexedDB', 'IDBKeyRange',
  'XMLHttpRequest', 'URL', 'Blob', 'fetch', 'setTimeout'].map((name) => [name, 'readonly']));

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
];
