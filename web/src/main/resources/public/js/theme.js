// The page's theme: auto (the system's), light or dark, kept in this browser. The choice resolves to
// light or dark on <html data-theme>, which app.css styles and every output frame is told of.

import { get, set } from './storage.js';

const KEY = 'codeinterp.theme';
const CHOICES = ['auto', 'light', 'dark'];
const system = window.matchMedia('(prefers-color-scheme: dark)');

/** The choice kept in this browser: 'auto', 'light' or 'dark'. */
export function chosen() {
  const value = get(KEY);
  return CHOICES.includes(value) ? value : 'auto';
}

function resolved(choice) {
  return choice === 'auto' ? (system.matches ? 'dark' : 'light') : choice;
}

function apply() {
  const theme = resolved(chosen());
  const root = document.documentElement;
  if (root.dataset.theme === theme) return;
  root.dataset.theme = theme;
  for (const frame of document.querySelectorAll('iframe.html-output, iframe.plotly-output')) {
    if (frame.contentWindow) frame.contentWindow.postMessage({ theme }, '*');
  }
}

/** Keeps `choice` in this browser and applies it. */
export function choose(choice) {
  set(KEY, CHOICES.includes(choice) ? choice : 'auto'); // where storage is refused, for this page only
  apply();
}

/** The theme shown now: 'light' or 'dark'. */
export function current() {
  return document.documentElement.dataset.theme || resolved(chosen());
}

/** Applies the kept choice, and follows the system's while the choice is auto. */
export function start() {
  apply();
  system.addEventListener('change', apply);
  window.addEventListener('storage', (e) => { if (e.key === KEY) apply(); });
}
