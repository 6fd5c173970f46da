// Which file names may enter the local workspace: the JavaScript copy of shared-model's
// WorkspaceNames (dev.codeinterp.model.rules), kept alike by the shared table of cases
// shared-model/src/test/resources/rules/workspace-names.json (e2e-playwright/tests/shared-rules.test.js).
// Same checks, same order, same messages; whitespace is Java's Character.isWhitespace, not JS's trim().

export const MAX_NAME_BYTES = 255;
export const TEMP_PREFIX = '.codeinterp-upload-';
const SLASH_LOOKALIKES = '\u2044\u2215\u29F8\u29F9\u2216\u29F5\u29F6\u29F7\uFE68\u3033\u3035';
const JAVA_WHITESPACE = /^(?:[\t\n\u000B\f\r\u001C-\u001F]|(?![\u00A0\u2007\u202F])[\p{Zs}\p{Zl}\p{Zp}])$/u;
const CONTROL = /^\p{Cc}$/u;
const INVISIBLE = /^[\p{Cf}\p{Zl}\p{Zp}]$/u;
const UNASSIGNED = /^[\p{Cs}\p{Co}\p{Cn}]$/u;

export class NameError extends Error {}

/** The name, in NFC, if it is acceptable; otherwise a NameError saying why. */
export function checkName(name) {
  if (typeof name !== 'string' || name === '') {
    throw new NameError('a file name is required');
  }
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) {
    throw new NameError(`file name longer than ${MAX_NAME_BYTES} bytes`);
  }
  const folded = name.normalize('NFKC');
  if (folded === '.' || folded === '..' || isBlank(folded)) {
    throw new NameError(`'${name}' is not a file name`);
  }
  for (const c of name) {
    if (c === '/' || c === '\\') {
      throw new NameError('file names may not contain path separators');
    }
    if (SLASH_LOOKALIKES.includes(c)) {
      throw new NameError('file names may not contain characters that look like path separators');
    }
    if (CONTROL.test(c)) {
      throw new NameError('file names may not contain control characters');
    }
    if (INVISIBLE.test(c)) {
      throw new NameError('file names may not contain invisible or text-direction characters');
    }
    if (UNASSIGNED.test(c)) {
      throw new NameError('file names may not contain unassigned or private-use characters');
    }
  }
  if (folded.includes('/') || folded.includes('\\')) {
    throw new NameError('file names may not contain characters that look like path separators');
  }
  if (folded.startsWith('..')) {
    throw new NameError("file names may not start with '..'");
  }
  if (isWhitespace(folded[0]) || isWhitespace(folded[folded.length - 1])) {
    throw new NameError('file names may not start or end with spaces');
  }
  if (name.startsWith(TEMP_PREFIX)) {
    throw new NameError(`names starting with ${TEMP_PREFIX} are reserved`);
  }
  return name.normalize('NFC');
}

function isWhitespace(c) {
  return JAVA_WHITESPACE.test(c);
}

function isBlank(s) {
  return [...s].every(isWhitespace);
}
