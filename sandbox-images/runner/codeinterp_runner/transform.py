"""IPython's syntax in a Python cell: ``!cmd``, ``!!cmd``, ``%magic``, ``x = !cmd``, ``%%magic``.

Each is rewritten into a call on ``get_ipython()``, as IPython does. Only a line where a statement
starts is rewritten, and the tokenizer says which lines those are: a line inside a string or in
the middle of a bracketed or backslash-continued statement is never touched. None of the forms
is valid Python there, so valid code keeps its meaning. A rewritten line stays one line, so
tracebacks keep the cell's line numbers.
"""

import re
import tokenize

_NEWLINES = re.compile(r'\r\n|\r|\n')
# `name = !cmd`, `a, b = %magic ...`: one line's shape (the tokenizer decides whether it is a statement).
_ASSIGNED = re.compile(r'^([ \t]*)([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)[ \t]*=[ \t]*([!%].*)$')
_MAGIC_NAME = re.compile(r'^%?([A-Za-z_][\w.]*)[ \t]*(.*)$', re.DOTALL)
_SKIPPED = (tokenize.NL, tokenize.COMMENT)
_STATEMENT_END = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)


def transform(code):
    """The cell as plain Python (the same text when it uses none of IPython's syntax)."""
    cell = _cell_magic(code)
    if cell is not None:
        return cell
    lines = _NEWLINES.split(code)
    rewritten = {}
    for number, line in enumerate(lines):
        call = _rewrite(line)
        if call is not None:
            rewritten[number] = call
    if not rewritten:
        return code
    while True:  # drop each rewrite the tokenizer finds inside a statement, until none is left
        current = [rewritten.get(number, line) for number, line in enumerate(lines)]
        starts = _statement_rows(current)
        wrong = [number for number in rewritten if number not in starts]
        if not wrong:
            return '\n'.join(current)
        for number in wrong:
            del rewritten[number]


def _cell_magic(code):
    """``%%name args`` on the cell's first non-blank line: the whole cell becomes one call."""
    lines = _NEWLINES.split(code)
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first == len(lines) or not lines[first].startswith('%%'):
        return None
    match = _MAGIC_NAME.match(lines[first][2:])
    if match is None:
        return None
    name, args = match.groups()
    body = '\n'.join(lines[first + 1:])
    return '\n' * first + f'get_ipython().run_cell_magic({name!r}, {args.rstrip()!r}, {body!r})'


def _rewrite(line):
    """The call replacing one line of IPython syntax, or None when the line has none."""
    stripped = line.lstrip(' \t')
    indent = line[:len(line) - len(stripped)]
    target = ''
    if not stripped.startswith(('!', '%')):
        match = _ASSIGNED.match(line)
        if match is None:
            return None
        indent, names, stripped = match.groups()
        target = names + ' = '
    if stripped.startswith('!'):
        if target or stripped.startswith('!!'):  # `x = !cmd` and `!!cmd` capture the output
            command = stripped[2:] if stripped.startswith('!!') else stripped[1:]
            return f'{indent}{target}get_ipython().getoutput({command.strip()!r})'
        return f'{indent}get_ipython().system({stripped[1:].strip()!r})'
    match = _MAGIC_NAME.match(stripped[1:])
    if match is None:
        return None
    name, args = match.groups()
    if stripped.startswith('%%'):
        name = '%' + name  # a cell magic that is not on the first line: run_line_magic says so
    return f'{indent}{target}get_ipython().run_line_magic({name!r}, {args.rstrip()!r})'


def _statement_rows(lines):
    """The (0-based) numbers of the lines whose first token starts a statement."""
    rows = set()
    at_start = True
    source = iter([line + '\n' for line in lines])
    try:
        for token in tokenize.generate_tokens(lambda: next(source, '')):
            if token.type in _SKIPPED:
                continue
            if token.type in _STATEMENT_END:
                at_start = True
                continue
            if token.type == tokenize.ENDMARKER:
                break
            if at_start:
                rows.add(token.start[0] - 1)
            at_start = False
    except (tokenize.TokenError, SyntaxError):
        pass  # the cell has a syntax error the compiler will report; rows before it are known
    return rows
