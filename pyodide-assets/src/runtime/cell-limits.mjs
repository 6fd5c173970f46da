// Local mode's frame: the languages a cell may name, the server's limits as the page gives them,
// and how a duration is said in what the cells report.

export const LANGUAGES = ['python', 'javascript', 'bash'];

export const BASH_UNAVAILABLE = {
  ename: 'LanguageUnavailable',
  evalue: 'Bash needs a real shell, and local mode runs in this browser, which has none: '
    + 'switch to Server mode to run bash cells',
};

/** One of the server's limits from the page's configuration; a page without it is the server's bug, said at once. */
export function limit(config, name) {
  const value = config[name];
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`the runtime page's configuration has no ${name} (the server gives it with the page)`);
  }
  return value;
}

export function positive(value, fallback) {
  return typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : fallback;
}

export function seconds(ms) {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
