"""Shell commands from a Python cell (``!cmd``, ``x = !cmd``, ``%%bash``) and IPython's expansion
of ``$name`` and ``{expression}`` in them."""

import codecs
import os
import re
import shutil
import signal
import subprocess
import sys

_NAME = re.compile(r'[A-Za-z_][\w.]*')
_PIP = re.compile(r'^(?:pip3?|python3?\s+-m\s+pip)(?:\s+|$)')
UNAVAILABLE = ('shell commands need a real shell, which local mode (Python in this browser) does not have; '
               'switch this conversation to Server mode to run them')


class ShellUnavailable(RuntimeError):
    """``!cmd`` where there is no shell (local mode)."""


class LineList(list):
    """IPython's SList, the output of ``x = !cmd``: a list of lines with a few joined views."""

    @property
    def s(self):
        return ' '.join(self)

    @property
    def n(self):
        return '\n'.join(self)

    @property
    def l(self):  # noqa: E743 (IPython's name)
        return list(self)

    spstr, nlstr = s, n


class _Unexpandable(Exception):
    pass


def expand(command, frame):
    """``$name`` and ``{expression}`` replaced by their values in ``frame``, as IPython does.

    ``$$`` is a literal ``$``, ``{{``/``}}`` literal braces; ``$name`` inside single quotes and
    names that are not variables are left for the shell (``$HOME``). When an ``{expression}``
    fails (``awk '{print $1}'``) the command is run as it was written.
    """
    if '$' not in command and '{' not in command and '}' not in command:
        return command
    try:
        return ''.join(_expanded_parts(command, frame.f_globals, frame.f_locals))
    except _Unexpandable:
        return command


def _expanded_parts(command, globals_, locals_):
    quoted = False
    i = 0
    while i < len(command):
        char = command[i]
        if char == "'":
            quoted = not quoted
        elif char == '$' and command.startswith('$$', i):
            yield '$'
            i += 2
            continue
        elif char == '$' and not quoted and _NAME.match(command, i + 1):
            name = _NAME.match(command, i + 1).group(0).rstrip('.')
            try:
                yield str(eval(name, globals_, locals_))
            except Exception:
                yield '$' + name  # not a variable: the shell's to expand
            i += 1 + len(name)
            continue
        elif char in '{}' and command.startswith(char * 2, i):
            yield char
            i += 2
            continue
        elif char == '{':
            end = _closing_brace(command, i)
            try:
                yield str(eval(command[i + 1:end], globals_, locals_))
            except Exception:
                raise _Unexpandable() from None
            i = end + 1
            continue
        yield char
        i += 1


def _closing_brace(command, start):
    depth = 0
    for index in range(start, len(command)):
        if command[index] == '{':
            depth += 1
        elif command[index] == '}':
            depth -= 1
            if depth == 0:
                return index
    raise _Unexpandable()


def is_pip(command):
    return _PIP.match(command.strip()) is not None


def pip_arguments(command):
    return _PIP.sub('', command.strip(), count=1)


class ShellCommands:
    """Runs commands in bash (or sh), output streamed into the cell, interrupts passed on."""

    def __init__(self, available, fds_captured):
        self._available = available
        self._fds_captured = fds_captured  # fds 1/2 are the runner's pipes: children write there directly

    def _argv(self, command):
        if not self._available:
            raise ShellUnavailable(UNAVAILABLE)
        return [shutil.which('bash') or '/bin/sh', '-c', command]

    def system(self, command):
        """Runs ``command``; returns its exit status."""
        return self.run_script(self._argv(command))

    def run_script(self, argv, script=None):
        """Runs ``argv`` (with ``script`` on its stdin); its output goes to the cell as it comes."""
        if not self._available:
            raise ShellUnavailable(UNAVAILABLE)
        stdin = subprocess.DEVNULL if script is None else subprocess.PIPE
        if self._fds_captured:
            proc = subprocess.Popen(argv, stdin=stdin, start_new_session=True)
        else:
            proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        try:
            if script is not None:
                try:
                    proc.stdin.write(script.encode('utf-8'))
                    proc.stdin.close()
                except BrokenPipeError:
                    pass
            if not self._fds_captured:
                decoder = codecs.getincrementaldecoder('utf-8')('replace')
                for chunk in iter(lambda: os.read(proc.stdout.fileno(), 65536), b''):
                    sys.stdout.write(decoder.decode(chunk))
                proc.stdout.close()
            return proc.wait()
        except BaseException:  # KeyboardInterrupt above all: the command stops with the cell
            _stop(proc)
            raise

    def getoutput(self, command):
        """The command's stdout and stderr together, as text."""
        proc = subprocess.Popen(self._argv(command), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            output, _ = proc.communicate()
        except BaseException:
            _stop(proc)
            raise
        return output.decode('utf-8', 'replace')


def _stop(proc):
    for sig, wait in ((signal.SIGINT, 1), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except OSError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
