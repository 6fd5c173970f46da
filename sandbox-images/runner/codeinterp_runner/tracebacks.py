"""The user's view of an exception: their frames only, one line per string, ANSI coloured."""

import os
import re

# `traceback` is imported by the first error, not at start-up: a cell that raises nothing needs none of it.

# Frames from any module of this package (the IPython shim too) are never shown. (The name frames carry, as compiled.)
_RUNNER_DIR = os.path.dirname((lambda: None).__code__.co_filename)
_RUNNER_PREFIX = os.path.join(_RUNNER_DIR, '')
_RED, _GREEN, _CYAN, _BOLD_RED, _RESET = '\x1b[31m', '\x1b[32m', '\x1b[36m', '\x1b[1;31m', '\x1b[0m'
_FRAME_LINE = re.compile(r'^(\s*File ")(.*)(", line )(\d+)(?:(, in )(.*))?$')
_CAUSE = ['', 'The above exception was the direct cause of the following exception:', '']
_CONTEXT = ['', 'During handling of the above exception, another exception occurred:', '']


def safe_str(obj):
    try:
        return str(obj)
    except Exception:
        return f'<unprintable {type(obj).__name__} object>'


def describe_error(exc):
    """The evalue of an error event; a SyntaxError says where it is."""
    if not isinstance(exc, SyntaxError):
        return safe_str(exc)
    where = []
    if exc.filename and not exc.filename.startswith('<cell-'):
        where.append(exc.filename)
    if exc.lineno:
        where.append(f'line {exc.lineno}')
    if exc.offset:
        where.append(f'column {exc.offset}')
    return f"{exc.msg} ({', '.join(where)})" if where else safe_str(exc.msg)


def _user_frames(stack):
    """Drops the runner's frames, and any plumbing (asyncio) between the runner and the cell."""
    frames = [frame for frame in stack if not frame.filename.startswith(_RUNNER_PREFIX)]
    for index, frame in enumerate(frames):
        if frame.filename.startswith('<cell-'):
            return frames[index:]
    return frames


def _colour_lines(text):
    lines = []
    for line in text.rstrip('\n').split('\n'):
        match = _FRAME_LINE.match(line)
        if match:
            indent, filename, mid, lineno, in_, name = match.groups()
            line = f'{indent}{_GREEN}{filename}{_RESET}{mid}{_GREEN}{lineno}{_RESET}'
            if in_:
                line += f'{in_}{_CYAN}{name}{_RESET}'
        elif line.strip() and not line.strip().strip('^~'):
            line = f'{_RED}{line}{_RESET}'  # the ^^^^ under the failing expression
        lines.append(line)
    return lines


def _format_one(te):
    lines = []
    stack = _user_frames(te.stack)
    if stack:
        lines.append('Traceback (most recent call last):')
        for entry in type(te.stack).from_list(stack).format():  # traceback.StackSummary
            lines.extend(_colour_lines(entry))
    stype = getattr(te, 'exc_type_str', None)  # Python 3.13+ (Pyodide); exc_type is deprecated there
    if stype is None:
        stype = te.exc_type.__qualname__
        if te.exc_type.__module__ not in ('__main__', 'builtins'):
            stype = f'{te.exc_type.__module__}.{stype}'
    for piece in te.format_exception_only():
        for line in _colour_lines(piece):
            if line.startswith(stype) and line[len(stype):len(stype) + 1] in ('', ':'):
                line = f'{_BOLD_RED}{stype}{_RESET}{line[len(stype):]}'
            lines.append(line)
    for number, sub in enumerate(te.exceptions or (), 1):  # an ExceptionGroup's members
        lines.append(f'  +---------------- {number} ----------------')
        lines.extend('  | ' + line for line in _format_chain(sub))
    return lines


def _format_chain(te):
    links = []
    while te is not None:
        if te.__cause__ is not None:
            links.append((_CAUSE, te))
            te = te.__cause__
        elif te.__context__ is not None and not te.__suppress_context__:
            links.append((_CONTEXT, te))
            te = te.__context__
        else:
            links.append((None, te))
            te = None
    lines = []
    for message, te in reversed(links):  # oldest first, each after the message linking it
        if message:
            lines.extend(message)
        lines.extend(_format_one(te))
    return lines


def format_traceback(exc):
    """The user's view of an exception: their frames only, one line per string, ANSI coloured."""
    import traceback
    te = traceback.TracebackException(type(exc), exc, exc.__traceback__, compact=True)
    return _format_chain(te)


def runner_traceback(exc):
    """Every frame, the runner's too: for an error in the runner itself."""
    import traceback
    return traceback.format_exception(exc)
