"""The cell runner: executes Python cells with notebook semantics and reports Jupyter-style events.

One module, two homes (the wire protocol is docs/runner-protocol.md):

* sandbox: ``python3 -u runner.py`` reads one JSON command per line on stdin and writes one JSON
  event per line on stdout (``main()`` below). The protocol keeps private copies of fds 0 and 1;
  the user's fd 0 is /dev/null and fds 1/2 are pipes, so subprocess output is captured too.
* Pyodide: the worker calls ``Runner(emit).execute(cell_id, code)``; events go to ``emit`` as
  they happen. No threads, fds or signals there; interrupts arrive as KeyboardInterrupt.

Standard library only, and nothing heavy up front: pandas and matplotlib are only touched once the
user has imported them.
"""

import ast
import base64
import builtins
import codecs
import io
import json
import linecache
import os
import re
import signal
import sys
import threading
import time
import traceback
import types

try:
    import resource
except ImportError:  # Pyodide has no getrusage
    resource = None

DEFAULT_MAX_OUTPUT_BYTES = 1 << 20
STREAM_CHUNK_BYTES = 64 * 1024  # the largest `text` of one stream event, in UTF-8 bytes
FLUSH_INTERVAL = 0.05  # seconds: small writes are coalesced for at most this long
IN_BROWSER = sys.platform == 'emscripten'

_COMPILE_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
_CO_COROUTINE = 0x0080  # inspect.CO_COROUTINE, without importing inspect
_THIS_FILE = (lambda: None).__code__.co_filename  # frames from this file are never shown to users
_ACTIVE = None  # the Runner executing a cell right now; the patched plt.show() reports to it


class StdinNotImplementedError(RuntimeError):
    """Raised by input() and sys.stdin reads: a cell cannot ask the user for input."""


# This module is __main__ in the sandbox and `runner` in Pyodide: one name keeps tracebacks equal.
StdinNotImplementedError.__module__ = 'builtins'


def _no_input_message(what):
    return (f'{what} is not available here: code runs without a keyboard. '
            'Put the data in the code, or upload a file and read it.')


def _source_lines(code):
    """The cell's lines as the compiler numbers them (\\n, \\r\\n and \\r end a line)."""
    return [line + '\n' for line in re.split(r'\r\n|\r|\n', code)]


def _input_unavailable(prompt=''):
    raise StdinNotImplementedError(_no_input_message('input()'))


# ---- output ---------------------------------------------------------------------------------

class _CellLock:
    """The output lock. While the main thread holds it, KeyboardInterrupt waits for the release.

    An interrupt raised half-way through sending an event would corrupt the protocol or lose
    output, so the SIGINT handler only marks it ``pending`` when ``depth`` > 0, and the outermost
    release on the main thread raises it.
    """

    def __init__(self):
        self._lock = threading.RLock()
        self._main = threading.main_thread().ident
        self.depth = 0
        self.pending = False

    def __enter__(self):
        if threading.get_ident() == self._main:
            self.depth += 1
        self._lock.acquire()

    def __exit__(self, *exc_info):
        self._lock.release()
        if threading.get_ident() == self._main:
            self.depth -= 1
            if self.depth == 0 and self.pending:
                self.pending = False
                raise KeyboardInterrupt


def _utf8_boundary(data, n):
    """The largest index <= n that does not split a UTF-8 character of ``data``."""
    if n >= len(data):
        return len(data)
    while n > 0 and data[n] & 0xC0 == 0x80:
        n -= 1
    return n


class OutputSink:
    """Turns text written during a cell into ordered, coalesced, capped ``stream`` events.

    One buffer holds both streams, so stdout and stderr keep their write order. A write that ends
    a line (or a flush()) is sent at once if nothing was sent in the last FLUSH_INTERVAL; anything
    else is sent by the pump thread within FLUSH_INTERVAL, which bounds the event rate of chatty
    loops. Without threads (Pyodide) every completed line is sent as it is written.

    In the sandbox the pump also reads the pipes behind fds 1 and 2; a Python-level write first
    drains them, so ``os.system('echo a'); print('b')`` keeps its order.
    """

    def __init__(self, emit, lock, threaded, fd_pipes=None):
        self._emit = emit
        self._lock = lock
        self._threaded = threaded
        self.cell = None  # id of the running cell; output outside a cell is dropped
        self._segments = []  # [[name, [text, ...]], ...] not sent yet, in write order
        self._pending_chars = 0
        self._pending_since = 0.0
        self._last_flush = 0.0
        self._limit = DEFAULT_MAX_OUTPUT_BYTES
        self._used = 0
        self.truncated = False
        self._forked = False
        self._closed = False
        self._pipes = {}  # read fd -> (stream name, incremental UTF-8 decoder); threaded only
        for name, fd in (fd_pipes or {}).items() if threaded else ():
            self._pipes[fd] = (name, codecs.getincrementaldecoder('utf-8')('replace'))
        self._wake_w = None
        if threaded:
            import select
            self._probe = select.poll()  # used under the lock: "is fd output waiting?"
            self._pump_poll = select.poll()  # used only by the pump thread
            for fd in self._pipes:
                self._probe.register(fd, select.POLLIN)
                self._pump_poll.register(fd, select.POLLIN)
            self._wake_r, self._wake_w = os.pipe()
            os.set_blocking(self._wake_r, False)
            os.set_blocking(self._wake_w, False)
            self._pump_poll.register(self._wake_r, select.POLLIN)
            threading.Thread(target=self._pump, name='runner-output', daemon=True).start()
        if self._pipes and hasattr(os, 'register_at_fork'):
            os.register_at_fork(after_in_child=self._after_fork_in_child)

    # -- the cell's life --

    def begin(self, cell_id, limit):
        with self._lock:
            self.cell = None
            self._drain_pipes()  # fd output from between cells belongs to no cell
            self._segments = []
            self._pending_chars = 0
            self._limit = limit
            self._used = 0
            self.truncated = False
            self._last_flush = 0.0  # a cell's first line goes out at once, whatever the last cell did
            self.cell = cell_id

    def end(self):
        with self._lock:
            self._drain_pipes()
            self._flush()
            self.cell = None

    # -- writers --

    def write(self, name, text):
        if self._forked:  # a forked child (multiprocessing) writes like any subprocess would
            os.write(1 if name == 'stdout' else 2, text.encode('utf-8', 'replace'))
            return
        if self.cell is None or self.truncated:
            return
        with self._lock:
            if self.cell is not None:
                self._drain_pipes()
                self._append(name, text)

    def flush_requested(self):
        if self.cell is None or self.truncated or self._forked:
            return
        with self._lock:
            self._drain_pipes()
            if self._segments:
                self._flush_if_due(time.monotonic())

    def send(self, event):
        """Sends a cell event (display_data, error...) after all output written before it."""
        if self._forked:
            return
        with self._lock:
            if self.cell is None:
                return
            self._drain_pipes()
            self._flush()
            self._emit({'type': event.pop('type'), 'id': self.cell, **event})

    def close(self):
        self._closed = True
        self._wake()

    # -- under the lock --

    def _append(self, name, text):
        if self.truncated:
            return
        now = time.monotonic()
        if not self._segments:
            self._pending_since = now
            self._wake()
        if self._segments and self._segments[-1][0] == name:
            self._segments[-1][1].append(text)
        else:
            self._segments.append([name, [text]])
        self._pending_chars += len(text)
        if self._pending_chars >= STREAM_CHUNK_BYTES:
            self._flush()
        elif '\n' in text:
            self._flush_if_due(now)
        elif not self._threaded and now - self._pending_since >= FLUSH_INTERVAL:
            self._flush()

    def _flush_if_due(self, now):
        if not self._threaded or now - self._last_flush >= FLUSH_INTERVAL:
            self._flush()

    def _flush(self):
        if not self._segments:
            return  # nothing sent, so the rate limit's clock does not move
        segments, self._segments = self._segments, []
        self._pending_chars = 0
        self._last_flush = time.monotonic()
        for name, parts in segments:
            self._send_text(name, ''.join(parts))
            if self.truncated:
                break

    def _send_text(self, name, text):
        data = text.encode('utf-8', 'surrogatepass')
        room = max(self._limit - self._used, 0)
        over = len(data) > room
        if over:
            data = data[:_utf8_boundary(data, room)]
        self._used += len(data)
        start = 0
        while start < len(data):
            end = _utf8_boundary(data, start + STREAM_CHUNK_BYTES)
            self._emit({'type': 'stream', 'id': self.cell, 'name': name,
                        'text': data[start:end].decode('utf-8', 'surrogatepass')})
            start = end
        if over:
            self.truncated = True
            self._emit({'type': 'truncated', 'id': self.cell, 'limit_bytes': self._limit})

    def _drain_pipes(self):
        if self._pipes:
            for fd, _ in self._probe.poll(0):
                self._read_pipe(fd)

    def _read_pipe(self, fd):
        name, decoder = self._pipes[fd]
        for _ in range(16):  # at most 1 MiB at once: a flooding subprocess must not starve the cell
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                return
            if not data:  # every writer is gone (the user closed or replaced the fd)
                del self._pipes[fd]
                self._probe.unregister(fd)
                self._pump_poll.unregister(fd)
                return
            text = decoder.decode(data)  # keeps a split multibyte character for the next read
            if text and self.cell is not None:
                self._append(name, text)

    # -- background --

    def _wake(self):
        if self._wake_w is not None:
            try:
                os.write(self._wake_w, b'.')
            except (BlockingIOError, OSError):
                pass  # already awake

    def _pump(self):
        while not self._closed:
            with self._lock:
                due = self._pending_since + FLUSH_INTERVAL if self._segments else None
            timeout = None if due is None else max(0.0, due - time.monotonic()) * 1000 + 1
            ready = self._pump_poll.poll(timeout)
            with self._lock:
                try:
                    for fd, _ in ready:
                        if fd == self._wake_r:
                            os.read(self._wake_r, 4096)
                        elif fd in self._pipes:
                            self._read_pipe(fd)
                    if self._segments and time.monotonic() >= self._pending_since + FLUSH_INTERVAL:
                        self._flush()
                except Exception:  # e.g. an event that would not encode: keep pumping
                    pass
        wake_w, self._wake_w = self._wake_w, None
        os.close(wake_w)
        os.close(self._wake_r)

    def _after_fork_in_child(self):
        # The pump thread did not survive the fork and the lock may be held by it: the child must
        # never write protocol lines, its output goes through fds 1/2 to the parent's pipes.
        self._forked = True
        self._lock = _CellLock()
        self._pipes = {}  # the parent's to read


class OutputStream(io.TextIOBase):
    """sys.stdout / sys.stderr during a cell: text goes to the sink."""

    encoding = 'utf-8'
    errors = 'strict'

    def __init__(self, sink, name, fd=None):
        super().__init__()
        self._sink = sink
        self._name = name
        self._fd = fd
        self.buffer = _BinaryWriter(self)

    @property
    def name(self):
        return f'<{self._name}>'

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        if self._fd is None:
            raise io.UnsupportedOperation('fileno')
        return self._fd

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f'write() argument must be str, not {type(text).__name__}')
        if text:
            self._sink.write(self._name, text)
        return len(text)

    def flush(self):
        self._sink.flush_requested()

    def close(self):
        pass  # exit() and careless code close sys.stdout; later output must still arrive


class _BinaryWriter(io.RawIOBase):
    """sys.stdout.buffer: bytes are decoded as UTF-8 and written as text."""

    def __init__(self, text_stream):
        super().__init__()
        self._text = text_stream
        self._decoder = codecs.getincrementaldecoder('utf-8')('replace')

    def writable(self):
        return True

    def write(self, data):
        self._text.write(self._decoder.decode(bytes(data)))
        return len(data)

    def flush(self):
        self._text.flush()

    def fileno(self):
        return self._text.fileno()

    def close(self):
        pass


class _NoInput(io.TextIOBase):
    """sys.stdin during a cell: reading fails at once instead of hanging or eating the protocol."""

    encoding = 'utf-8'
    errors = 'strict'
    name = '<stdin>'

    def __init__(self, fd=None):
        super().__init__()
        self._fd = fd

    def readable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        if self._fd is None:
            raise io.UnsupportedOperation('fileno')
        return self._fd

    def read(self, size=-1):
        raise StdinNotImplementedError(_no_input_message('sys.stdin'))

    readline = read

    def readlines(self, hint=-1):
        return self.read()

    def close(self):
        pass  # exit() closes sys.stdin


# ---- rich display ---------------------------------------------------------------------------

_BINARY_MIMES = ('image/png', 'image/jpeg', 'application/pdf')


def _figure_png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format='png', bbox_inches='tight')
    return base64.b64encode(buffer.getvalue()).decode('ascii')


def _is_figure(obj):
    figure_module = sys.modules.get('matplotlib.figure')  # only if the user imported matplotlib
    return figure_module is not None and isinstance(obj, figure_module.Figure)


class DisplayFormatter:
    """Builds the MIME bundle of an object, as IPython does: _repr_*_ methods plus text/plain."""

    REPR_METHODS = (
        ('text/html', '_repr_html_'),
        ('text/markdown', '_repr_markdown_'),
        ('text/latex', '_repr_latex_'),
        ('image/svg+xml', '_repr_svg_'),
        ('image/png', '_repr_png_'),
        ('image/jpeg', '_repr_jpeg_'),
        ('application/pdf', '_repr_pdf_'),
        ('application/json', '_repr_json_'),
    )

    def __init__(self, warn):
        self._warn = warn  # reports a failing _repr_*_ method without failing the cell
        self.shown_figures = []  # matplotlib figures displayed in this cell

    def format(self, obj):
        data, metadata = {}, {}
        if _is_figure(obj):
            data['image/png'] = _figure_png(obj)
            self.shown_figures.append(obj)
        elif not isinstance(obj, type):  # a class's _repr_html_ is an unbound function
            bundle = self._call(obj, '_repr_mimebundle_', include=None, exclude=None)
            if isinstance(bundle, tuple) and len(bundle) == 2:
                bundle, extra = bundle
                if isinstance(extra, dict):
                    metadata.update(extra)
            if isinstance(bundle, dict):
                for mime, value in bundle.items():
                    self._put(data, mime, value)
            for mime, method in self.REPR_METHODS:
                if mime in data:
                    continue
                value = self._call(obj, method)
                if isinstance(value, tuple) and len(value) == 2:  # (data, metadata)
                    value, extra = value
                    if isinstance(extra, dict) and extra:
                        metadata[mime] = extra
                self._put(data, mime, value)
        if 'text/plain' not in data:
            data['text/plain'] = self.plain(obj)
        return data, metadata

    @staticmethod
    def plain(obj):
        text = repr(obj)
        if len(text) > 79 and type(obj) in (dict, list, tuple, set, frozenset) and len(obj) <= 1000:
            import pprint
            text = pprint.pformat(obj, width=79, sort_dicts=False)
        return text

    def _call(self, obj, name, **kwargs):
        try:
            method = getattr(obj, name, None)
        except Exception:
            return None
        if not callable(method):
            return None
        try:
            return method(**kwargs)
        except Exception as exc:
            self._warn(f'{type(obj).__name__}.{name}() failed: {type(exc).__name__}: {exc}\n')
            return None

    @staticmethod
    def _put(data, mime, value):
        """Stores ``value`` as the string the protocol wants, or skips a value of the wrong type."""
        if value is None:
            return
        if mime in _BINARY_MIMES:
            if isinstance(value, (bytes, bytearray, memoryview)):
                value = base64.b64encode(value).decode('ascii')
        elif mime == 'application/json' or mime.endswith('+json'):
            if not isinstance(value, str):
                value = json.dumps(value, default=repr)
        elif isinstance(value, (bytes, bytearray)):
            value = bytes(value).decode('utf-8', 'replace')
        if isinstance(value, str):
            data[mime] = value


# ---- matplotlib -----------------------------------------------------------------------------

def _patch_pyplot(pyplot):
    """Makes plt.show() display the open figures (as PNG) of the running cell and close them."""
    if getattr(pyplot.show, '_codeinterp', False):
        return
    original = pyplot.show

    def show(*args, **kwargs):
        if _ACTIVE is None:
            return original(*args, **kwargs)
        _ACTIVE.show_figures()

    show._codeinterp = True
    show.__wrapped__ = original
    show.__doc__ = original.__doc__
    pyplot.show = show


class _PatchingLoader:
    """Wraps pyplot's loader so the module is patched as soon as it has run."""

    def __init__(self, loader):
        self._loader = loader

    def __getattr__(self, name):
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _patch_pyplot(module)


class _PyplotImportHook:
    """A meta-path finder that patches pyplot on import: a cell may import it and show() at once."""

    def find_spec(self, name, path=None, target=None):
        if name != 'matplotlib.pyplot':
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, 'find_spec'):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, 'exec_module'):
                    spec.loader = _PatchingLoader(spec.loader)
                return spec
        return None


def _install_matplotlib_support():
    if 'matplotlib' not in sys.modules:
        os.environ['MPLBACKEND'] = 'Agg'  # read by matplotlib when (if ever) the user imports it
    if not any(isinstance(finder, _PyplotImportHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PyplotImportHook())


# ---- errors ---------------------------------------------------------------------------------

_RED, _GREEN, _CYAN, _BOLD_RED, _RESET = '\x1b[31m', '\x1b[32m', '\x1b[36m', '\x1b[1;31m', '\x1b[0m'
_FRAME_LINE = re.compile(r'^(\s*File ")(.*)(", line )(\d+)(?:(, in )(.*))?$')
_CAUSE = ['', 'The above exception was the direct cause of the following exception:', '']
_CONTEXT = ['', 'During handling of the above exception, another exception occurred:', '']


def _safe_str(obj):
    try:
        return str(obj)
    except Exception:
        return f'<unprintable {type(obj).__name__} object>'


def describe_error(exc):
    """The evalue of an error event; a SyntaxError says where it is."""
    if not isinstance(exc, SyntaxError):
        return _safe_str(exc)
    where = []
    if exc.filename and not exc.filename.startswith('<cell-'):
        where.append(exc.filename)
    if exc.lineno:
        where.append(f'line {exc.lineno}')
    if exc.offset:
        where.append(f'column {exc.offset}')
    return f"{exc.msg} ({', '.join(where)})" if where else _safe_str(exc.msg)


def _user_frames(stack):
    """Drops the runner's frames, and any plumbing (asyncio) between the runner and the cell."""
    frames = [frame for frame in stack if frame.filename != _THIS_FILE]
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
        for entry in traceback.StackSummary.from_list(stack).format():
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
    te = traceback.TracebackException(type(exc), exc, exc.__traceback__, compact=True)
    return _format_chain(te)


# ---- the runner -----------------------------------------------------------------------------

def _usage():
    """(cpu seconds, peak RSS in KiB) of this process, or None where getrusage is missing."""
    if resource is None:
        return None
    try:
        usage = resource.getrusage(resource.RUSAGE_SELF)
    except Exception:  # a stub that exists but does not work
        return None
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


class Runner:
    """Executes cells in one persistent namespace and reports their events through ``emit``.

    ``threaded`` (default: not in Pyodide) runs a pump thread that flushes coalesced output;
    ``fd_pipes`` ({'stdout': fd, 'stderr': fd}, sandbox only) are the read ends of the pipes
    behind fds 1 and 2.
    """

    def __init__(self, emit, *, threaded=None, fd_pipes=None):
        self._emit = emit
        self.execution_count = 0
        self.module = types.ModuleType('__main__')
        self.module.__dict__['__builtins__'] = builtins
        self.namespace = self.module.__dict__
        self._lock = _CellLock()
        self._sink = OutputSink(emit, self._lock, not IN_BROWSER if threaded is None else threaded,
                                fd_pipes)
        with_fds = fd_pipes is not None
        self._stdout = OutputStream(self._sink, 'stdout', 1 if with_fds else None)
        self._stderr = OutputStream(self._sink, 'stderr', 2 if with_fds else None)
        self._stdin = _NoInput(0 if with_fds else None)
        self._formatter = DisplayFormatter(warn=lambda text: self._sink.write('stderr', text))
        self._in_cell = False  # True only while user code may run: SIGINT raises only then
        self._loop = None  # event loop for top-level await, made on first use
        _install_matplotlib_support()

    def close(self):
        self._sink.close()

    # -- executing --

    def execute(self, cell_id, code, max_output_bytes=DEFAULT_MAX_OUTPUT_BYTES):
        """Runs one cell: emits started, its output, then finished; returns the finished event."""
        self.execution_count += 1
        count = self.execution_count
        usage_before = _usage()
        start = time.perf_counter()
        self._emit({'type': 'started', 'id': cell_id, 'execution_count': count})
        if max_output_bytes is None:
            max_output_bytes = DEFAULT_MAX_OUTPUT_BYTES
        self._sink.begin(cell_id, max_output_bytes)
        self._formatter.shown_figures = []
        status = 'error'
        saved = self._enter_cell()
        try:
            error = self._protected(self._run_cell, code, count)
            if error is not None:
                self._report(error)
            figure_error = self._protected(self.show_figures, True)  # like Jupyter's inline backend
            if figure_error is not None:
                self._report(figure_error)
            if error is None:
                error = figure_error
            status = ('ok' if error is None else
                      'interrupted' if isinstance(error, KeyboardInterrupt) else 'error')
        except Exception as exc:  # a runner bug: report it, and still finish the cell
            self._sink.send({'type': 'error', 'ename': type(exc).__name__, 'evalue': _safe_str(exc),
                             'traceback': traceback.format_exception(exc)})
        finally:
            self._leave_cell(saved)
            self._sink.end()
            self._formatter.shown_figures = []
            usage_after = _usage()
            finished = {
                'type': 'finished', 'id': cell_id, 'status': status, 'execution_count': count,
                'duration_ms': round((time.perf_counter() - start) * 1000),
                'cpu_ms': None, 'peak_memory_kb': None,
            }
            if usage_before and usage_after:
                finished['cpu_ms'] = round((usage_after[0] - usage_before[0]) * 1000)
                finished['peak_memory_kb'] = usage_after[1]
            self._emit(finished)
        return finished

    def _protected(self, work, *args):
        """Runs user-facing work with interrupts live; returns the exception it raised, if any."""
        self._in_cell = True
        try:
            work(*args)
            self._in_cell = False
        except BaseException as exc:  # KeyboardInterrupt and SystemExit too: the cell fails, not us
            self._in_cell = False
            return exc
        return None

    def _run_cell(self, code, count):
        filename = f'<cell-{count}>'
        # Registered so tracebacks, inspect and warnings can show the cell's lines.
        linecache.cache[filename] = (len(code), None, _source_lines(code), filename)
        try:
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
                self._sink.send({'type': 'execute_result', 'execution_count': count,
                                 'data': data, 'metadata': metadata})

    @staticmethod
    def _take_trailing_expression(tree, code):
        """Removes and returns the cell's last statement if it is an expression to show."""
        if not tree.body or not isinstance(tree.body[-1], ast.Expr):
            return None
        last = tree.body[-1]
        line = _source_lines(code)[last.end_lineno - 1]
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
        self._sink.send({'type': 'error', 'ename': type(exc).__name__, 'evalue': describe_error(exc),
                         'traceback': format_traceback(exc)})

    # -- what a cell sees --

    def _enter_cell(self):
        global _ACTIVE
        saved = (sys.stdout, sys.stderr, sys.stdin, builtins.input,
                 getattr(builtins, 'display', None), sys.modules.get('__main__'), _ACTIVE)
        sys.stdout, sys.stderr, sys.stdin = self._stdout, self._stderr, self._stdin
        builtins.input = _input_unavailable
        builtins.display = self.display
        sys.modules['__main__'] = self.module
        _ACTIVE = self
        self._lock.pending = False
        if 'matplotlib.pyplot' in sys.modules:  # imported before this runner existed
            _patch_pyplot(sys.modules['matplotlib.pyplot'])
        # A previous cell may have set SIGINT to SIG_IGN (or anything): interrupts work again.
        try:
            saved_sigint = signal.signal(signal.SIGINT, self.on_sigint)
        except (ValueError, OSError, AttributeError, RuntimeError):  # not the main thread; no signals
            saved_sigint = False
        return saved + (saved_sigint,)

    def _leave_cell(self, saved):
        global _ACTIVE
        stdout, stderr, stdin, input_, display, main, active, sigint = saved
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
        _ACTIVE = active

    def on_sigint(self, signum, frame):
        """SIGINT handler: KeyboardInterrupt in a running cell; harmless while idle."""
        if not self._in_cell:
            return
        if self._lock.depth:
            self._lock.pending = True  # raised when the runner has finished writing an event
            return
        raise KeyboardInterrupt

    # -- display --

    def display(self, *objs, raw=False, metadata=None, include=None, exclude=None, **kwargs):
        """Shows each object as rich output, like IPython's display()."""
        for obj in objs:
            if raw:
                data, meta = {}, {}
                for mime, value in dict(obj).items():
                    DisplayFormatter._put(data, mime, value)
            else:
                data, meta = self._formatter.format(obj)
            if include:
                data = {mime: value for mime, value in data.items() if mime in include}
            if exclude:
                data = {mime: value for mime, value in data.items() if mime not in exclude}
            if metadata:
                meta.update(metadata)
            self._sink.send({'type': 'display_data', 'data': data, 'metadata': meta})

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


# ---- the sandbox home: stdio ----------------------------------------------------------------

def encode_line(event):
    try:
        return (json.dumps(event, ensure_ascii=False, separators=(',', ':'), default=str) + '\n').encode('utf-8')
    except UnicodeEncodeError:  # lone surrogates: let JSON escape them
        return (json.dumps(event, separators=(',', ':'), default=str) + '\n').encode('ascii')


def parse_command(line):
    """One stdin line as a command dict; ValueError with a message for the server otherwise."""
    try:
        message = json.loads(line)
    except ValueError as exc:
        raise ValueError(f'not JSON: {exc}') from None
    if not isinstance(message, dict):
        raise ValueError('a command must be a JSON object')
    kind = message.get('type')
    if kind == 'execute':
        if not isinstance(message.get('id'), str):
            raise ValueError("execute needs a string 'id'")
        if not isinstance(message.get('code'), str):
            raise ValueError("execute needs a string 'code'")
        limit = message.get('max_output_bytes')
        if limit is None:
            message['max_output_bytes'] = DEFAULT_MAX_OUTPUT_BYTES
        elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise ValueError("'max_output_bytes' must be a non-negative integer")
    elif kind == 'write_file':
        if not isinstance(message.get('name'), str) or not isinstance(message.get('content_base64'), str):
            raise ValueError("write_file needs a string 'name' and 'content_base64'")
    elif kind not in ('interrupt', 'shutdown'):
        raise ValueError(f'unknown command type {kind!r}')
    return message


def write_workspace_file(name, content_base64):
    """Places an input file in the working directory; the name must be one plain path segment
    and an existing symlink is never followed."""
    if name in ('', '.', '..') or '/' in name or '\\' in name or any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise ValueError('not a plain file name')
    data = base64.b64decode(content_base64, validate=True)
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, 'O_NOFOLLOW', 0), 0o644)
    with os.fdopen(fd, 'wb') as f:
        f.write(data)


class StdioTransport:
    """The sandbox home: JSON lines on private copies of fds 0 and 1.

    The user's fd 0 becomes /dev/null and fds 1/2 become pipes read by the OutputSink, so nothing
    a cell (or its subprocesses) does can read or corrupt the protocol.
    """

    def __init__(self):
        self._in = os.dup(0)
        self._out = os.dup(1)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        self.pipes = {}
        for name, fd in (('stdout', 1), ('stderr', 2)):
            read_end, write_end = os.pipe()
            os.dup2(write_end, fd)
            os.close(write_end)
            os.set_blocking(read_end, False)
            self.pipes[name] = read_end
        self._lock = threading.Lock()
        self.forked = False
        os.register_at_fork(after_in_child=self._after_fork_in_child)

    def _after_fork_in_child(self):
        self.forked = True  # a child that forgot os._exit() must not speak for the runner
        self._lock = threading.Lock()

    def emit(self, event):
        if self.forked:
            return
        data = memoryview(encode_line(event))
        with self._lock:
            try:
                while data:
                    data = data[os.write(self._out, data):]
            except BrokenPipeError:
                os._exit(0)  # the server is gone: nobody to report to

    def read_commands(self, deliver):
        """Reader thread: interrupts act at once, other commands go to ``deliver``; EOF → None."""
        with os.fdopen(self._in, 'rb') as lines:
            for line in lines:
                if not line.strip():
                    continue
                try:
                    message = parse_command(line)
                except ValueError as exc:
                    self.emit({'type': 'protocol_error', 'message': str(exc)})
                    continue
                if message['type'] == 'interrupt':
                    os.kill(os.getpid(), signal.SIGINT)
                else:
                    deliver(message)
        deliver(None)


def main():
    import queue
    transport = StdioTransport()
    runner = Runner(transport.emit, fd_pipes=transport.pipes)
    signal.signal(signal.SIGINT, runner.on_sigint)  # idle interrupts are harmless
    if sys.path and sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
        sys.path[0] = ''  # cells import modules from the working directory, as in Jupyter
    inbox = queue.SimpleQueue()
    threading.Thread(target=transport.read_commands, args=(inbox.put,), name='runner-stdin',
                     daemon=True).start()
    transport.emit({'type': 'ready', 'python': '%d.%d.%d' % sys.version_info[:3], 'pid': os.getpid()})
    while True:
        message = inbox.get()
        if message is None or message['type'] == 'shutdown':
            break
        if message['type'] == 'write_file':
            try:
                write_workspace_file(message['name'], message['content_base64'])
            except (ValueError, OSError) as exc:
                transport.emit({'type': 'protocol_error', 'message': f"could not write {message['name']!r}: {exc}"})
            continue
        runner.execute(message['id'], message['code'], message['max_output_bytes'])
        if transport.forked:
            break
    os._exit(0)  # threads a cell left running must not keep the sandbox alive


if __name__ == '__main__':
    main()
