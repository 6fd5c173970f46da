// What went wrong, as one line for the frame: worker failures, Pyodide errors, file system errors.

/** The message of an Error (or of anything with one), else the thing itself as text. */
export function describe(error) {
  if (error && typeof error.message === 'string') {
    return error.message;
  }
  return String(error);
}
