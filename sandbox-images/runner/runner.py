"""codeinterp runner: executes notebook-style cells and reports Jupyter-shaped events.

One dependency-free module with two homes (docs/runner-protocol.md):
  * in the server's sandbox it is the container's main process, driven by JSON lines on
    stdin/stdout (`python3 -u runner.py`);
  * in the browser, Pyodide imports it and calls `Runner(emit).execute(cell_id, code)`.
Both produce the same events for the same code.
"""

import ast
import base64
import builtins
import codecs
import importlib.abc
import importlib.util
import io
import json
import linecache
import os
import queue
import signal
import sys
import threading
import time
import traceback
import types

try:
    import resource
except ImportError:  # Pyodide
    resource = None

EMSCRIPTEN = sys.platform == "emscripten"
MAX_EVENT_TEXT = 64 * 1024
DEFAULT_MAX_OUTPUT = 1 << 20
FLUSH_INTERVAL = 0.05
BACKEND_MODULE = "codeinterp_mpl_backend"

# Rich representations, in the order Jupyter prefers them; binary types travel as base64.
REPR_METHODS = (
    ("_repr_html_", "text/html"),
    ("_repr_markdown_", "text/markdown"),
    ("_repr_svg_", "image/svg+xml"),
    ("_repr_png_", "image/png"),
    ("_repr_jpeg_", "image/jpeg"),
    ("_repr_latex_", "text/latex"),
    ("_repr_json_", "application/json"),
)
BINARY_MIMES = ("image/png", "image/jpeg")

RED, GREEN, CYAN, RESET = "\x1b[31m", "\x1b[32m", "\x1b[36m", "\x1b[0m"


class InputNotAvailable(RuntimeError):
    """input() and sys.stdin have no user behind them here; they fail instead of hanging."""


def _no_input(*_args, **_kwargs):
    raise InputNotAvailable(
        "input() is not available here: cells cannot read from the keyboard. "
        "Put the data in a variable or upload it as a file instead.")


class _NoStdin(io.TextIOBase):
    def readable(self):
        return True

    def read(self, *_args):
        _no_input()

    readline = read


class OutputStream(io.TextIOBase):
    """sys.stdout / sys.stderr of a cell: every write goes to the runner as stream text."""

    def __init__(self, runner, name, fd):
        self._runner = runner
        self.name = name
        self._fd = fd

    @property
    def encoding(self):
        return "utf-8"

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        if self._fd is None:
            raise io.UnsupportedOperation("fileno")
        return self._fd

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not " + type(text).__name__)
        self._runner.stream_text(self.name, text)
        return len(text)

    def flush(self):
        self._runner.flush_streams()


class Runner:
    """The interpreter state of one session, and the execution of its cells."""

    def __init__(self, emit, threaded=False):
        self._emit = emit
        self._threaded = threaded
        self._lock = threading.RLock()
        self._pending = []  # [name, text] runs not yet sent, in order
        self._last_flush = time.monotonic()
        self.namespace = {"__name__": "__main__", "__builtins__": builtins}
        self.execution_count = 0
        self.executing = False
        self._cell_id = None
        self._drain = lambda: None
        self._max_output = DEFAULT_MAX_OUTPUT
        self._output_bytes = 0
        self._truncated = False
        self.stdout = OutputStream(self, "stdout", 1 if threaded else None)
        self.stderr = OutputStream(self, "stderr", 2 if threaded else None)
        self._install()

    # ---- set-up -------------------------------------------------------------------------

    def _install(self):
        sys.stdout, sys.stderr = self.stdout, self.stderr
        sys.stdin = _NoStdin()
        builtins.input = _no_input
        builtins.display = self.display
        self.namespace["display"] = self.display
        _install_matplotlib_backend(self)

    # ---- output -------------------------------------------------------------------------

    def stream_text(self, name, text):
        if not text:
            return
        with self._lock:
            if self._pending and self._pending[-1][0] == name:
                self._pending[-1][1] += text
            else:
                self._pending.append([name, text])
            # live, but bounded: a newline flushes at most every 10 ms; the pump does the rest
            if "\n" in text and (not self._threaded or time.monotonic() - self._last_flush > 0.01):
                self.flush_streams()
            elif sum(len(t) for _, t in self._pending) > MAX_EVENT_TEXT:
                self.flush_streams()

    def flush_streams(self):
        with self._lock:
            pending, self._pending = self._pending, []
            self._last_flush = time.monotonic()
            for name, text in pending:
                self._send_text(name, text)

    def _sync(self):
        """Output written below Python so far, then everything pending, goes out before what follows."""
        self._drain()
        self.flush_streams()

    def flush_if_stale(self):
        with self._lock:
            if self._pending and time.monotonic() - self._last_flush >= FLUSH_INTERVAL:
                self.flush_streams()

    def _send_text(self, name, text):
        if self._cell_id is None or self._truncated:
            return
        data = text.encode("utf-8", "surrogatepass")
        room = self._max_output - self._output_bytes
        if len(data) > room:
            text = data[:max(room, 0)].decode("utf-8", "ignore")
            data = text.encode("utf-8", "surrogatepass")
        self._output_bytes += len(data)
        for start in range(0, len(text), MAX_EVENT_TEXT):
            self._event("stream", name=name, text=text[start:start + MAX_EVENT_TEXT])
        if self._output_bytes >= self._max_output:
            self._truncated = True
            self._event("truncated", limit_bytes=self._max_output)

    def _event(self, type_, **fields):
        event = {"type": type_, "id": self._cell_id}
        event.update(fields)
        with self._lock:
            self._emit(event)

    def display(self, *objs, **_kwargs):
        """Jupyter's display(): each object as a display_data bundle."""
        for obj in objs:
            self._sync()
            self._event("display_data", data=mime_bundle(obj), metadata={})

    def show_figures(self):
        """Every open matplotlib figure as a PNG, then closed (plt.show and the cell's end)."""
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        for number in list(pyplot.get_fignums()):
            figure = pyplot.figure(number)
            buffer = io.BytesIO()
            try:
                figure.savefig(buffer, format="png", bbox_inches="tight")
            except Exception as e:  # a broken figure must not break the cell's report
                self.stream_text("stderr", "could not render figure %d: %s\n" % (number, e))
                pyplot.close(figure)
                continue
            pyplot.close(figure)
            self._sync()
            self._event("display_data", data={
                "image/png": base64.b64encode(buffer.getvalue()).decode("ascii"),
                "text/plain": "<Figure %d>" % number}, metadata={})

    # ---- execution ----------------------------------------------------------------------

    def execute(self, cell_id, code, max_output_bytes=DEFAULT_MAX_OUTPUT, drain=None):
        """Runs one cell; emits started, its outputs, and exactly one finished."""
        self.execution_count += 1
        count = self.execution_count
        with self._lock:
            self._cell_id = cell_id
            self._max_output = max(0, int(max_output_bytes))
            self._output_bytes = 0
            self._truncated = False
            self._pending = []
            self._drain = drain or (lambda: None)
        self._event("started", execution_count=count)
        started, cpu_before = time.monotonic(), _cpu_seconds()
        status = self._run(code, count)
        try:
            self.show_figures()
        except KeyboardInterrupt:
            status = "interrupted"
        self._sync()
        self._event("finished", status=status, execution_count=count,
                    duration_ms=int((time.monotonic() - started) * 1000),
                    cpu_ms=None if cpu_before is None else int((_cpu_seconds() - cpu_before) * 1000),
                    peak_memory_kb=_peak_memory_kb())
        with self._lock:
            self._cell_id = None
        return status

    def _run(self, code, count):
        filename = "<cell-%d>" % count
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        try:
            tree = ast.parse(code, filename, "exec")
            trailing = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                trailing = ast.Expression(tree.body.pop().value)
            body = compile(tree, filename, "exec")
            tail = compile(trailing, filename, "eval") if trailing is not None else None
        except (SyntaxError, ValueError, OverflowError) as e:
            self._report_error(e, syntax=isinstance(e, SyntaxError))
            return "error"
        if hasattr(signal, "SIGINT") and self._threaded:
            signal.signal(signal.SIGINT, self._on_sigint)  # the cell before may have changed it
        try:
            self.executing = True
            try:
                exec(body, self.namespace)
                value = eval(tail, self.namespace) if tail is not None else None
            finally:
                self.executing = False
            if value is not None:
                self.namespace["_"] = value
                self._sync()
                self._event("execute_result", execution_count=count, data=mime_bundle(value), metadata={})
            return "ok"
        except KeyboardInterrupt as e:
            self._report_error(e)
            return "interrupted"
        except SystemExit as e:
            if e.code in (None, 0):
                return "ok"
            self._report_error(e)
            return "error"
        except BaseException as e:
            self._report_error(e)
            return "error"

    def _on_sigint(self, _signum, _frame):
        if self.executing:
            raise KeyboardInterrupt()

    def _report_error(self, error, syntax=False):
        self._sync()
        ename = type(error).__name__
        if syntax:
            evalue = "%s (line %s, column %s)" % (error.msg, error.lineno, error.offset)
            lines = traceback.format_exception_only(type(error), error)
            lines = [line.rstrip("\n") for line in lines[:-1]] + [RED + ename + RESET + ": " + evalue]
        else:
            evalue = str(error)
            tb = error.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename == _RUNNER_FILE:
                tb = tb.tb_next  # the user's frames only
            lines = ["Traceback (most recent call last):"] if tb is not None else []
            for frame in traceback.extract_tb(tb):
                if frame.filename == _RUNNER_FILE:
                    continue
                where = "  File %s%s%s, line %s%d%s, in %s" % (
                    GREEN, frame.filename, RESET, CYAN, frame.lineno, RESET, frame.name)
                lines.append(where)
                if frame.line:
                    lines.append("    " + frame.line.strip())
            lines.append(RED + ename + RESET + (": " + evalue if evalue else ""))
        self._event("error", ename=ename, evalue=evalue, traceback=lines)


_RUNNER_FILE = Runner.execute.__code__.co_filename


def mime_bundle(obj):
    """The MIME bundle Jupyter would show for obj: its rich reprs plus text/plain."""
    data = {}
    if not isinstance(obj, type):
        method = getattr(obj, "_repr_mimebundle_", None)
        if callable(method):
            try:
                bundle = method()
                if isinstance(bundle, tuple):
                    bundle = bundle[0]
                if isinstance(bundle, dict):
                    data.update({str(k): v for k, v in bundle.items()})
            except Exception:
                pass
        for name, mime in REPR_METHODS:
            if mime in data:
                continue
            method = getattr(obj, name, None)
            if not callable(method):
                continue
            try:
                value = method()
            except Exception:
                continue
            if isinstance(value, tuple):
                value = value[0]
            if value is None:
                continue
            if mime in BINARY_MIMES and isinstance(value, (bytes, bytearray)):
                value = base64.b64encode(bytes(value)).decode("ascii")
            if mime == "application/json":
                try:
                    json.dumps(value, allow_nan=False)
                except (TypeError, ValueError):
                    continue
            elif not isinstance(value, str):
                continue
            data[mime] = value
    for mime, value in list(data.items()):
        if isinstance(value, (bytes, bytearray)):
            data[mime] = base64.b64encode(bytes(value)).decode("ascii")
    try:
        text = repr(obj)
    except Exception as e:
        text = "<unrepresentable %s: %s>" % (type(obj).__name__, e)
    data["text/plain"] = text if len(text) <= DEFAULT_MAX_OUTPUT else text[:DEFAULT_MAX_OUTPUT] + "…"
    return data


def _install_matplotlib_backend(runner):
    """A matplotlib backend whose show() hands figures to the runner while Agg draws them.
    Found by an import hook, so matplotlib is imported only when the user imports it."""

    class BackendFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path=None, target=None):
            return importlib.util.spec_from_loader(name, self) if name == BACKEND_MODULE else None

        def create_module(self, spec):
            return None

        def exec_module(self, module):
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            module.FigureCanvas = FigureCanvasAgg
            module.show = lambda *args, **kwargs: runner.show_figures()

    if not any(type(f).__name__ == "BackendFinder" for f in sys.meta_path):
        sys.meta_path.append(BackendFinder())
    os.environ["MPLBACKEND"] = "module://" + BACKEND_MODULE


def _cpu_seconds():
    if resource is None:
        return None
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _peak_memory_kb():
    if resource is None:
        return None
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


class StdioTransport:
    """The sandbox home: protocol on private copies of fds 0 and 1; fds 1 and 2 become pipes
    so output written below Python (os.write, subprocesses, C libraries) is captured too."""

    def __init__(self):
        self._out_fd = os.dup(1)
        self._in_fd = os.dup(0)
        self._write_lock = threading.Lock()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        self._pipes = {}
        for fd, name in ((1, "stdout"), (2, "stderr")):
            read_end, write_end = os.pipe()
            os.dup2(write_end, fd)
            os.close(write_end)
            os.set_blocking(read_end, False)
            self._pipes[read_end] = (name, codecs.getincrementaldecoder("utf-8")("replace"))
        self._pump_lock = threading.RLock()
        self.commands = queue.Queue()
        self.runner = None

    def emit(self, event):
        try:
            line = json.dumps(event, ensure_ascii=True, allow_nan=False)
        except (TypeError, ValueError):
            if "data" in event:
                event = dict(event, data={k: v for k, v in event["data"].items() if isinstance(v, str)})
            line = json.dumps(event, ensure_ascii=True, default=str)
        data = (line + "\n").encode("ascii")
        with self._write_lock:
            view = memoryview(data)
            while view:
                written = os.write(self._out_fd, view)
                view = view[written:]

    def start(self, runner):
        self.runner = runner
        for target, name in ((self._read_commands, "commands"), (self._pump, "pump")):
            threading.Thread(target=target, name=name, daemon=True).start()

    def drain(self):
        """Everything already written to fds 1 and 2 becomes stream text, now."""
        with self._pump_lock:
            for fd, (name, decoder) in self._pipes.items():
                while True:
                    try:
                        chunk = os.read(fd, 65536)
                    except BlockingIOError:
                        break
                    if not chunk:
                        break
                    self.runner.stream_text(name, decoder.decode(chunk))

    def _pump(self):
        import select
        fds = list(self._pipes)
        while True:
            try:
                readable, _, _ = select.select(fds, [], [], FLUSH_INTERVAL)
                if readable:
                    self.drain()
                self.runner.flush_if_stale()
            except Exception as e:  # keep pumping whatever one chunk did
                try:
                    self.emit({"type": "protocol_error", "message": "output pump: %s" % e})
                except Exception:
                    pass

    def _read_commands(self):
        with os.fdopen(self._in_fd, "rb") as stdin:
            for raw in stdin:
                try:
                    message = json.loads(raw.decode("utf-8"))
                    if not isinstance(message, dict):
                        raise ValueError("a message must be a JSON object")
                except ValueError as e:
                    self.emit({"type": "protocol_error", "message": "malformed line: %s" % e})
                    continue
                if message.get("type") == "interrupt":
                    if self.runner.executing:
                        os.kill(os.getpid(), signal.SIGINT)
                else:
                    self.commands.put(message)
        self.commands.put(None)


def write_workspace_file(name, content_base64):
    """Places an input file in the working directory; the name must be one plain segment."""
    if not isinstance(name, str) or not isinstance(content_base64, str):
        raise ValueError("write_file needs a string name and content_base64")
    if name in ("", ".", "..") or "/" in name or "\\" in name or any(ord(c) < 32 for c in name):
        raise ValueError("not a plain file name")
    data = base64.b64decode(content_base64, validate=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(name, flags, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def main():
    transport = StdioTransport()
    runner = Runner(transport.emit, threaded=True)
    signal.signal(signal.SIGINT, runner._on_sigint)
    transport.emit({"type": "ready", "python": sys.version.split()[0], "pid": os.getpid()})
    transport.start(runner)
    while True:
        try:
            message = transport.commands.get()
        except KeyboardInterrupt:
            continue
        if message is None or message.get("type") == "shutdown":
            break
        if message.get("type") == "write_file":
            try:
                write_workspace_file(message.get("name"), message.get("content_base64"))
            except (ValueError, OSError) as e:
                transport.emit({"type": "protocol_error", "message": "could not write %r: %s" % (message.get("name"), e)})
            continue
        if message.get("type") != "execute":
            transport.emit({"type": "protocol_error", "message": "unknown message type %r" % message.get("type")})
            continue
        cell_id, code = message.get("id"), message.get("code")
        limit = message.get("max_output_bytes", DEFAULT_MAX_OUTPUT)
        if not isinstance(cell_id, str) or not isinstance(code, str) or not isinstance(limit, int):
            transport.emit({"type": "protocol_error", "message": "execute needs a string id and code"})
            continue
        try:
            runner.execute(cell_id, code, limit, drain=transport.drain)
        except KeyboardInterrupt:
            pass  # an interrupt that landed between cells
    os._exit(0)


if __name__ == "__main__":
    main()
