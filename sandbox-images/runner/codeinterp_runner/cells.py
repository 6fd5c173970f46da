"""Executing cells: one persistent namespace, notebook semantics, interrupts, exactly one ``finished``."""

import ast
import builtins
import linecache
import re
import signal
import sys
import time
import types

from . import plots, protocol, publish
from .languages import OtherLanguages
from .display import DisplayFormatter
from .shell import Shell, get_ipython, install_ipython_module
from .transform import transform
from .output import CellLock, OutputSink
from .pip_install import PipMagic
from .prompts import Prompts
from .streams import NoInput, OutputStream, input_unavailable
from .tracebacks import describe_error, format_traceback, runner_traceback, safe_str
from .usage import runner_usage

IN_BROWSER = sys.platform == 'emscripten'

_COMPILE_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
_CO_COROUTINE = 0x0080  # inspect.CO_COROUTINE, without importing inspect


def source_lines(code):
    """The cell's lines as the compiler numbers them (\\n, \\r\\n and \\r end a line)."""
    return [line + '\n' for line in re.split(r'\r\n|\r|\n', code)]


class Runner:
    """Executes cells in one persistent namespace and reports their events through ``emit``.

    ``threaded`` (default: not in Pyodide) runs a pump thread that flushes coalesced output;
    ``fd_pipes`` ({'stdout': fd, 'stderr': fd}, sandbox only) are the read ends of the pipes
    behind fds 1 and 2; ``replies`` is where answers to input() arrive (``prompts``), if anyone
    can answer; ``package_answers`` where the server's answers to %pip arrive (``pip_install``).
    """

    def __init__(self, emit, *, threaded=None, fd_pipes=None, replies=None, package_answers=None):
        self._emit = emit
        self.execution_count = 0
        self.module = types.ModuleType('__main__')
        self.module.__dict__['__builtins__'] = builtins
        self.namespace = self.module.__dict__
        self._lock = CellLock()
        self._sink = OutputSink(emit, self._lock, not IN_BROWSER if threaded is None else threaded,
                                fd_pipes)
        with_fds = fd_pipes is not None
        self._stdout = OutputStream(self._sink, 'stdout', 1 if with_fds else None)
        self._stderr = OutputStream(self._sink, 'stderr', 2 if with_fds else None)
        self._stdin = NoInput(0 if with_fds else None)
        self._prompts = Prompts(self._sink, replies)
        self._formatter = DisplayFormatter(warn=lambda text: self._sink.write('stderr', text))
        self._publisher = publish.DisplayPublisher(self._sink, self._formatter)
        self.shell = Shell(self.namespace, self._publisher, can_run_commands=not IN_BROWSER, fds_captured=with_fds)
        self.shell.pip_magic = PipMagic(self._sink.send, None if IN_BROWSER else package_answers)
        self.namespace['get_ipython'] = get_ipython  # as IPython puts it in the user's namespace
        self.shell.hide_current_names()
        self._in_cell = False  # True only while user code may run: SIGINT raises only then
        # An interrupt that lands after `started` but in the runner's own steps (before the user's
        # code, between it and the figures) waits here and is raised where user code runs next:
        # the client saw the cell start, so its interrupt must not be lost.
        self._cell_open = False
        self._interrupt_waiting = False
        self._loop = None  # event loop for top-level await, made on first use
        self._others = OtherLanguages(available=with_fds and not IN_BROWSER)
        plots.install()
        install_ipython_module()

    def close(self):
        self._others.close()
        self._sink.close()

    # -- executing --

    def execute(self, cell_id, code, max_output_bytes=protocol.DEFAULT_MAX_OUTPUT_BYTES, language='python',
                stdin=None, interactive=False):
        """Runs one cell: emits started, its output, then finished; returns the finished event.

        input() reads ``stdin``'s lines, or with ``interactive`` asks the user (see ``prompts``).
        """
        self.execution_count += 1
        count = self.execution_count
        usage_before = runner_usage()
        start = time.perf_counter()
        self._interrupt_waiting, self._cell_open = False, True
        self._emit(protocol.started(cell_id, count))
        if max_output_bytes is None:
            max_output_bytes = protocol.DEFAULT_MAX_OUTPUT_BYTES
        self._sink.begin(cell_id, max_output_bytes)
        self._formatter.shown_figures = []
        self.shell.execution_count = count
        self.shell.cell_filename = f'<cell-{count}>'
        status = 'error'
        self._prompts.begin(stdin, interactive)
        saved = self._enter_cell()
        try:
            if language == 'python':
                status = self._run_python(code, count)
            else:
                status = self._run_other(language, code, count)
        except Exception as exc:  # a runner bug: report it, and still finish the cell
            self._sink.send(protocol.error(type(exc).__name__, safe_str(exc), runner_traceback(exc)))
        finally:
            self._cell_open = self._interrupt_waiting = False
            self._leave_cell(saved)
            self._sink.end()
            self._formatter.shown_figures = []
            usage_after = runner_usage()
            finished = protocol.finished(cell_id, status, count, round((time.perf_counter() - start) * 1000))
            if language != 'python':  # the cell ran in the language's own process (``usage``)
                finished['cpu_ms'], finished['peak_memory_kb'] = self._others.cell_usage
            elif usage_before and usage_after:
                finished['cpu_ms'] = round((usage_after[0] - usage_before[0]) * 1000)
                finished['peak_memory_kb'] = usage_after[1]
            self._emit(finished)
        return finished

    def _run_python(self, code, count):
        error = self._protected(self._run_cell, code, count)
        if error is not None:
            self._report(error)
        figure_error = self._protected(self.show_figures, True)  # like Jupyter's inline backend
        if figure_error is not None:
            self._report(figure_error)
        if error is None:
            error = figure_error
        return 'ok' if error is None else 'interrupted' if isinstance(error, KeyboardInterrupt) else 'error'

    def _run_other(self, language, code, count):
        self._in_cell = True  # interrupts raise in the wait for the child, which passes them on
        self._others.cell_usage = (None, None)
        try:
            if self._take_waiting_interrupt():
                self._sink.send(protocol.error('KeyboardInterrupt', 'the cell was interrupted', []))
                return 'interrupted'
            return self._others.run(language, code, count, self._sink)
        finally:
            self._in_cell = False

    def _protected(self, work, *args):
        """Runs user-facing work with interrupts live; returns the exception it raised, if any."""
        self._in_cell = True
        try:
            if self._take_waiting_interrupt():
                raise KeyboardInterrupt
            work(*args)
            self._in_cell = False
        except BaseException as exc:  # KeyboardInterrupt and SystemExit too: the cell fails, not us
            self._in_cell = False
            return exc
        return None

    def _take_waiting_interrupt(self):
        waiting, self._interrupt_waiting = self._interrupt_waiting, False
        return waiting

    def _run_cell(self, code, count):
        filename = f'<cell-{count}>'
        # Registered so tracebacks, inspect and warnings can show the cell's lines.
        linecache.cache[filename] = (len(code), None, source_lines(code), filename)
        try:
            code = transform(code)  # !cmd and %magic become calls; the cache keeps what the user wrote
            tree = ast.parse(code, filename)
            last = self._take_trailing_expression(tree, code)
            body = compile(tree, filename, 'exec', _COMPILE_FLAGS, dont_inherit=True)
            if last is not None:
                last = compile(ast.Expression(last.value), filename, 'eval', _COMPILE_FLAGS, dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            raise exc.with_traceback(None)  # the compiler's frames mean nothing to the user
        self._run(body)
        if last is not None:
            value = self._run(last)
            if value is not None:
                self.namespace['_'] = value
                data, metadata = self._formatter.format(value)
                self._sink.send(protocol.execute_result(count, data, metadata))

    @staticmethod
    def _take_trailing_expression(tree, code):
        """Removes and returns the cell's last statement if it is an expression to show."""
        if not tree.body or not isinstance(tree.body[-1], ast.Expr):
            return None
        last = tree.body[-1]
        line = source_lines(code)[last.end_lineno - 1]
        rest = line.encode('utf-8')[last.end_col_offset:].decode('utf-8', 'replace')
        if rest.lstrip().startswith(';'):  # `x;` hides the value, as in Jupyter
            return None
        tree.body.pop()
        return last

    def _run(self, code_object):
        result = eval(code_object, self.namespace)
        if code_object.co_flags & _CO_COROUTINE:  # the cell used top-level await
            result = self._await(result)
        return result

    def _await(self, coroutine):
        if IN_BROWSER:
            coroutine.close()
            raise RuntimeError('top-level await is not supported in the browser runner')
        import asyncio
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        task = self._loop.create_task(coroutine)
        try:
            return self._loop.run_until_complete(task)
        finally:
            if not task.done():  # interrupted: do not let it resume in a later cell
                task.cancel()
                try:
                    self._loop.run_until_complete(task)
                except BaseException:
                    pass

    def _report(self, exc):
        self._sink.send(protocol.error(type(exc).__name__, describe_error(exc), format_traceback(exc)))

    # -- what a cell sees --

    def _enter_cell(self):
        saved = (sys.stdout, sys.stderr, sys.stdin, builtins.input,
                 getattr(builtins, 'display', None), sys.modules.get('__main__'), plots.activate(self),
                 publish.activate(self._publisher))
        sys.stdout, sys.stderr, sys.stdin = self._stdout, self._stderr, self._stdin
        builtins.input = input_unavailable
        self._prompts.enter()
        builtins.display = self._publisher.display
        self.shell.activate()
        sys.modules['__main__'] = self.module
        self._lock.pending = False
        if 'matplotlib.pyplot' in sys.modules:  # imported before this runner existed
            plots.patch_pyplot(sys.modules['matplotlib.pyplot'])
        # A previous cell may have set SIGINT to SIG_IGN (or anything): interrupts work again.
        try:
            saved_sigint = signal.signal(signal.SIGINT, self.on_sigint)
        except (ValueError, OSError, AttributeError, RuntimeError):  # not the main thread; no signals
            saved_sigint = False
        return saved + (saved_sigint,)

    def _leave_cell(self, saved):
        stdout, stderr, stdin, input_, display, main, active, publisher, sigint = saved
        self._prompts.leave()
        if sigint is not False:
            signal.signal(signal.SIGINT, signal.default_int_handler if sigint is None else sigint)
        self._lock.pending = False
        sys.stdout, sys.stderr, sys.stdin = stdout, stderr, stdin
        builtins.input = input_
        if display is None:
            builtins.__dict__.pop('display', None)
        else:
            builtins.display = display
        if main is not None:
            sys.modules['__main__'] = main
        plots.activate(active)
        publish.activate(publisher)

    def on_sigint(self, signum, frame):
        """SIGINT handler: KeyboardInterrupt in a running cell; harmless while idle."""
        if not self._in_cell:
            self._interrupt_waiting = self._cell_open
            return
        if self._lock.depth:
            self._lock.pending = True  # raised when the runner has finished writing an event
            return
        raise KeyboardInterrupt

    # -- display --

    def display(self, *objs, **kwargs):
        """Shows each object as rich output: IPython's display() (the ``display`` builtin)."""
        return self._publisher.display(*objs, **kwargs)

    def show_figures(self, at_cell_end=False):
        """Displays every open pyplot figure as PNG and closes them (plt.show(), end of a cell)."""
        pyplot = sys.modules.get('matplotlib.pyplot')
        if pyplot is None:
            return
        try:
            for number in pyplot.get_fignums():
                figure = pyplot.figure(number)
                if at_cell_end and any(figure is shown for shown in self._formatter.shown_figures):
                    continue  # already shown, as Out[n] or by display()
                self.display(figure)
        finally:
            pyplot.close('all')
