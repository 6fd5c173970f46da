"""What ``get_ipython()`` returns: enough of IPython's InteractiveShell for the calls code makes.

Magics themselves are in ``magics``; shell commands (``!cmd``) in ``commands``.
"""

import functools
import importlib.machinery
import os
import sys

SHIMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'shims')

_shell = None  # the shell of the runner whose cell ran last


def _tools():
    """The ``commands`` and ``magics`` modules, imported by the first magic or ``!cmd``: a plain
    cell needs neither, and with theirs (subprocess, timeit, shlex...) they were a third of the import time."""
    from . import commands, magics
    return commands, magics


def get_ipython():
    """The running interpreter's shell, as IPython.get_ipython() returns it."""
    return _shell


class _IPythonFinder:
    """Serves ``import IPython`` from SHIMS, ahead of any installed IPython (whose display() would
    print instead of reaching the conversation); cells' subprocesses never see it."""

    def find_spec(self, name, path=None, target=None):
        if name != 'IPython':
            return None
        return importlib.machinery.PathFinder.find_spec(name, [SHIMS], target)


def install_ipython_module():
    if not any(isinstance(finder, _IPythonFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _IPythonFinder())


class UsageError(Exception):
    """A magic used wrongly or not known: the message says how (IPython's UsageError)."""


UsageError.__module__ = 'IPython.core.error'  # where code imports it from, and what tracebacks name


class Events:
    """IPython's event callbacks (matplotlib registers post_execute); kept, triggered by the runner."""

    def __init__(self):
        self.callbacks = {'pre_execute': [], 'pre_run_cell': [], 'post_execute': [], 'post_run_cell': []}

    def register(self, event, function):
        self.callbacks.setdefault(event, []).append(function)

    def unregister(self, event, function):
        self.callbacks.get(event, []).remove(function)

    def trigger(self, event, *args, **kwargs):
        for function in list(self.callbacks.get(event, [])):
            function(*args, **kwargs)


class Shell:
    """The kernel-less shell of one runner: its namespace, magics and shell commands."""

    def __init__(self, namespace, publisher, can_run_commands, fds_captured):
        self.user_ns = namespace
        self.user_global_ns = namespace
        self.user_ns_hidden = {}
        self.config = {}  # no traitlets config; tqdm and others look for 'IPKernelApp' in it
        self.events = Events()
        self.kernel = None
        self.display_pub = publisher
        self.execution_count = 0
        self.cell_filename = '<cell>'  # of the running cell, for code that magics compile
        self._can_run_commands, self._fds_captured = can_run_commands, fds_captured

    # The magic tables and the command runner are made on first use (``_tools``).

    @functools.cached_property
    def magics(self):
        return _tools()[1].builtin_line_magics()

    @functools.cached_property
    def cell_magics(self):
        return _tools()[1].builtin_cell_magics()

    @functools.cached_property
    def commands(self):
        return _tools()[0].ShellCommands(self._can_run_commands, self._fds_captured)

    def activate(self):
        global _shell
        _shell = self

    def get_ipython(self):
        return self

    def hide_current_names(self):
        """Names in the namespace now are the runner's, not the user's (for %who)."""
        self.user_ns_hidden = dict.fromkeys(self.user_ns)

    # -- magics --

    def run_line_magic(self, magic_name, line, _stack_depth=1):
        if magic_name.startswith('%'):
            raise UsageError(f'Cell magic `%{magic_name}` must be on the first line of its cell.')
        function = self.magics.get(magic_name)
        if function is None:
            raise UsageError(f'Line magic function `%{magic_name}` not found.')
        frame = sys._getframe(_stack_depth)
        if not getattr(function, 'no_var_expand', False):
            line = _tools()[0].expand(line, frame)
        return function(self, line, frame)

    def run_cell_magic(self, magic_name, line, cell):
        function = self.cell_magics.get(magic_name)
        if function is None:
            hint = ' (it is a line magic: use one %)' if magic_name in self.magics else ''
            raise UsageError(f'Cell magic `%%{magic_name}` not found{hint}.')
        frame = sys._getframe(1)
        if not getattr(function, 'no_var_expand', False):
            line = _tools()[0].expand(line, frame)
        return function(self, line, cell, frame)

    def magic(self, arg_s):
        """The old spelling: magic('name args')."""
        name, _, line = arg_s.lstrip('%').partition(' ')
        return self.run_line_magic(name, line, _stack_depth=2)

    def find_line_magic(self, name):
        return self.magics.get(name)

    def find_cell_magic(self, name):
        return self.cell_magics.get(name)

    def register_magic_function(self, func, magic_kind='line', magic_name=None):
        """A user function as a magic: ``func(line)`` for a line magic, ``func(line, cell)`` for a cell magic."""
        name = magic_name or func.__name__
        if magic_kind in ('line', 'line_cell'):
            self.magics[name] = lambda shell, line, frame: func(line)
        if magic_kind in ('cell', 'line_cell'):
            self.cell_magics[name] = lambda shell, line, cell, frame: func(line, cell)

    # -- shell commands --

    def system(self, cmd):
        """``!cmd``: runs it in a shell, output streamed into the cell; sets ``_exit_code``."""
        commands, magics = _tools()
        command = commands.expand(cmd, sys._getframe(1))
        if commands.is_pip(command):
            return magics.pip(self, commands.pip_arguments(command), None)
        self.user_ns['_exit_code'] = self.commands.system(command)

    def getoutput(self, cmd, split=True):
        """``x = !cmd``: the command's output (stdout and stderr), as a list of lines."""
        commands = _tools()[0]
        output = self.commands.getoutput(commands.expand(cmd, sys._getframe(1)))
        return commands.LineList(output.splitlines()) if split else output

    # -- the rest of the surface code reaches for --

    def push(self, variables, interactive=True):
        if isinstance(variables, str):
            frame = sys._getframe(1)
            variables = {name: eval(name, frame.f_globals, frame.f_locals) for name in variables.split()}
        self.user_ns.update(variables)

    def ev(self, expr):
        return eval(expr, self.user_ns)

    def ex(self, cmd):
        exec(cmd, self.user_ns)

    def enable_gui(self, gui=None):
        pass  # figures are always shown inline

    def enable_matplotlib(self, gui=None):
        return 'inline', 'module://matplotlib_inline.backend_inline'

    def __repr__(self):
        return '<codeinterp shell: IPython-compatible, kernel-less>'
