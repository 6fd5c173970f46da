"""The built-in magics. A line magic is ``f(shell, line, frame)``, a cell magic
``f(shell, line, cell, frame)``; ``frame`` is the cell code's frame (its variables)."""

import os
import shlex
import sys

from . import timing
from .pip_install import PipMagic
from .transform import transform

_SHELL_ALIASES = ('cat', 'cp', 'ls', 'mkdir', 'mv', 'rm', 'rmdir')  # IPython's default aliases


def _no_var_expand(function):
    function.no_var_expand = True  # the line is code: `$x` and `{x}` keep their Python meaning
    return function


def _usage_error(message):
    from .shell import UsageError
    return UsageError(message)


def pip(shell, line, frame):
    """%pip / %conda / !pip: one place, through the server's allowlisted package path (pip_install)."""
    magic = getattr(shell, 'pip_magic', None) or PipMagic(None, None)
    return magic(line)


@_no_var_expand
def time_line(shell, line, frame):
    return timing.run_timed(line, shell.cell_filename, frame.f_lineno, frame.f_globals, frame.f_locals)


@_no_var_expand
def time_cell(shell, line, cell, frame):
    return timing.run_timed(transform(cell), shell.cell_filename, frame.f_lineno + 1, frame.f_globals,
                            frame.f_locals)


@_no_var_expand
def timeit_line(shell, line, frame):
    return timing.timeit(line, None, frame.f_globals, frame.f_locals)


@_no_var_expand
def timeit_cell(shell, line, cell, frame):
    return timing.timeit(line, cell, frame.f_globals, frame.f_locals)


def cd(shell, line, frame):
    target = line.strip()
    if target == '-':
        target = getattr(shell, 'previous_dir', os.getcwd())
    target = os.path.expanduser(_unquoted(target) or '~')
    previous = os.getcwd()
    try:
        os.chdir(target)
    except OSError as exc:
        raise _usage_error(f'%cd: {exc.strerror}: {target}') from None
    shell.previous_dir = previous
    print(os.getcwd())


def pwd(shell, line, frame):
    return os.getcwd()


def env(shell, line, frame):
    """%env (all, as a dict), %env NAME (its value), %env NAME=value or %env NAME value (sets it)."""
    line = line.strip()
    if not line:
        return dict(os.environ)
    if '=' in line:
        name, value = line.split('=', 1)
    elif ' ' in line:
        name, value = line.split(None, 1)
    else:
        if line not in os.environ:
            raise _usage_error(f'Environment does not have key: {line}')
        return os.environ[line]
    name, value = name.strip(), _unquoted(value.strip())
    os.environ[name] = value
    print(f'env: {name}={value}')


def who(shell, line, frame):
    wanted = set(line.split())
    names = sorted(name for name, value in shell.user_ns.items()
                   if not name.startswith('_') and name not in shell.user_ns_hidden
                   and (not wanted or type(value).__name__ in wanted))
    print('\t'.join(names) if names else 'Interactive namespace is empty.')


def reset(shell, line, frame):
    """%reset -f: forgets every variable the cells defined."""
    if '-f' not in line.split():
        raise _usage_error('%reset asks for confirmation in IPython; use %reset -f here')
    for name in [name for name in shell.user_ns if name not in shell.user_ns_hidden]:
        del shell.user_ns[name]


def matplotlib(shell, line, frame):
    backend = line.strip()
    if backend and backend not in ('inline', 'agg', 'Agg'):
        print(f'%matplotlib {backend}: figures are always shown inline here', file=sys.stderr)


def ignored(shell, line, frame):
    """Notebook setup with nothing to do here (%config InlineBackend..., %autoreload)."""


def load_ext(shell, line, frame):
    if line.strip() != 'autoreload':
        raise _usage_error(f'The extension {line.strip()!r} is not available here.')


def lsmagic(shell, line, frame):
    print('Line magics: ' + ' '.join('%' + name for name in sorted(shell.magics)))
    print('Cell magics: ' + ' '.join('%%' + name for name in sorted(shell.cell_magics)))


def _alias(command):
    return lambda shell, line, frame: shell.commands.system(f'{command} {line}'.rstrip())


def writefile(shell, line, cell, frame):
    """%%writefile [-a] name: the cell's text (never run) into a file."""
    words = shlex.split(line)
    append = '-a' in words or '--append' in words
    names = [word for word in words if word not in ('-a', '--append')]
    if len(names) != 1:
        raise _usage_error('%%writefile needs one file name: %%writefile [-a] name')
    path = os.path.expanduser(names[0])
    exists = os.path.exists(path)
    print(('Appending to ' if append else 'Overwriting ' if exists else 'Writing ') + names[0])
    with open(path, 'a' if append else 'w', encoding='utf-8') as f:
        f.write(cell if cell.endswith('\n') else cell + '\n')


def _script(interpreter):
    def run(shell, line, cell, frame):
        shell.user_ns['_exit_code'] = shell.commands.run_script([interpreter, '-s', *shlex.split(line)], cell)
    return run


def script(shell, line, cell, frame):
    words = shlex.split(line)
    if not words:
        raise _usage_error('%%script needs an interpreter: %%script bash')
    shell.user_ns['_exit_code'] = shell.commands.run_script(words, cell)


def _shown_as(class_name):
    def show(shell, line, cell, frame):
        from IPython import display
        shell.display_pub.display(getattr(display, class_name)(cell))
    return show


def builtin_line_magics():
    magics = {
        'time': time_line, 'timeit': timeit_line, 'cd': cd, 'pwd': pwd, 'env': env, 'who': who,
        'reset': reset, 'matplotlib': matplotlib, 'pip': pip, 'conda': pip, 'config': ignored,
        'autoreload': ignored, 'load_ext': load_ext, 'lsmagic': lsmagic,
    }
    magics.update((name, _alias(name)) for name in _SHELL_ALIASES)
    return magics


def builtin_cell_magics():
    return {
        'time': time_cell, 'timeit': timeit_cell, 'writefile': writefile, 'bash': _script('bash'),
        'sh': _script('sh'), 'script': script, 'html': _shown_as('HTML'), 'markdown': _shown_as('Markdown'),
        'latex': _shown_as('Latex'), 'svg': _shown_as('SVG'),
    }


def _unquoted(text):
    if len(text) >= 2 and text[0] == text[-1] and text[0] in '\'"':
        return text[1:-1]
    return text
