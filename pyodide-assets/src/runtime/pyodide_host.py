"""Local mode's Python side: drives the runner inside Pyodide and watches the workspace.

The worker (worker.mjs) imports this module and calls ``Host.execute`` for each cell. Events
go out as runner-protocol JSON lines (``protocol.encode_line``, the encoder the sandbox uses), so
the app decodes both modes with one codec. Before a cell's ``finished`` line, one ``artifact``
line is sent per file the cell created or changed in the workspace, as the server does.
"""

import importlib.util
import os
import signal
import time

from codeinterp_runner import protocol
from codeinterp_runner.mime import mime_of
from codeinterp_runner.cells import Runner
from codeinterp_runner.output import utf8_boundary
from codeinterp_runner.transform import transform

WORKSPACE = '/workspace'
BURST_EVENTS = 200  # stream events sent at once before pacing starts...
EVENTS_PER_SECOND = 100  # ...and the rate at which that allowance refills
PACED_FLUSH = 0.05  # seconds: while paced, buffered output is sent at least this often
REPLY_POLL_MS = 100  # how long one wait for an answer to input() blocks before Python runs again


def snapshot():
    """{name: (size, mtime_ns)} of the regular files directly in the workspace."""
    files = {}
    if not os.path.isdir(WORKSPACE):  # a cell removed it; the worker makes it again
        return files
    with os.scandir(WORKSPACE) as entries:
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                stat = entry.stat(follow_symlinks=False)
                files[entry.name] = (stat.st_size, stat.st_mtime_ns)
    return files


def python_source(code):
    """The cell as plain Python (``!cmd`` and ``%magic`` rewritten), for the package loader's import scan."""
    try:
        return transform(code)
    except Exception:  # the runner reports whatever is wrong with the cell
        return code


def missing_modules(names):
    """The top-level module names of ``names`` that cannot be imported here."""
    importlib.invalidate_caches()  # packages loaded since the last look, files written by cells
    missing = []
    for name in names:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def reseed():
    """After a boot from a memory snapshot: what was seeded at start is seeded again (the runner's
    ``seeds`` is the one home of the rule)."""
    from codeinterp_runner import seeds
    seeds.reseed()


def check_cell():
    """After a boot from a memory snapshot: a small cell run through a throwaway runner.

    A snapshot whose header is valid but whose heap is damaged can load and still be broken, so
    the worker trusts it with the user's cells only once these lines (the cell's events as the
    protocol encodes them) say what the code below must say. The worker judges them in JavaScript,
    outside the heap: a damaged string in here would read the same to any comparison made here.
    The cell exercises compiling, arithmetic, an import from the standard library, printing and
    the trailing expression's result. A damaged heap may as well raise or trap on the way."""
    from codeinterp_runner import shell
    events = []
    active_shell = shell.get_ipython()
    runner = Runner(events.append, threaded=False, replies=NoReplies())
    try:
        runner.execute('boot-check', 'import json\nprint(json.dumps({"n": 6 * 7}))\n(1 + 1, sum(range(10)))')
    finally:
        runner.close()
        shell._shell = active_shell  # get_ipython() never answers with the throwaway runner's shell
    return [protocol.encode_line(event).decode('utf-8') for event in events]


class StreamPacer:
    """Bounds how many stream events a chatty cell sends to the page.

    Without threads the runner sends every line as it is printed: a loop printing a million
    short lines would post a million messages through the frame to the app. Normal output goes
    out at once; past a burst allowance, lines are merged (consecutive text of one stream, at
    most 64 KiB an event) and sent every PACED_FLUSH while output continues, before any other
    event, before time.sleep() and at the end of the cell.
    """

    def __init__(self, send):
        self._send = send
        self._tokens = float(BURST_EVENTS)
        self._refilled = time.monotonic()
        self._pending = []  # [[cell id, name, [text, ...]], ...]
        self._pending_since = 0.0

    def stream(self, event):
        now = time.monotonic()
        self._tokens = min(BURST_EVENTS, self._tokens + (now - self._refilled) * EVENTS_PER_SECOND)
        self._refilled = now
        if not self._pending and self._tokens >= 1:
            self._tokens -= 1
            self._send(event)
            return
        if not self._pending:
            self._pending_since = now
        last = self._pending[-1] if self._pending else None
        if last is not None and last[0] == event['id'] and last[1] == event['name']:
            last[2].append(event['text'])
        else:
            self._pending.append([event['id'], event['name'], [event['text']]])
        if now - self._pending_since >= PACED_FLUSH:
            self.flush()

    def flush(self):
        pending, self._pending = self._pending, []
        for cell_id, name, parts in pending:
            data = ''.join(parts).encode('utf-8', 'surrogatepass')
            start = 0
            while start < len(data):
                end = utf8_boundary(data, start + protocol.STREAM_CHUNK_BYTES)
                self._send(protocol.stream(cell_id, name, data[start:end].decode('utf-8', 'surrogatepass')))
                start = end


class SharedReplies:
    """Answers to input() in the browser: the frame writes them into a SharedArrayBuffer that
    ``poll(ms)`` (input-replies.mjs) reads. Polled in short waits: after each, the poll checks the
    interrupt buffer, so an interrupt ends the wait with KeyboardInterrupt."""

    unavailable = None

    def __init__(self, poll, discard):
        self._poll = poll
        self._discard = discard

    def discard(self):
        self._discard()

    def wait(self):
        while True:
            value = self._poll(REPLY_POLL_MS)
            if value is not None:
                return value


class NoReplies:
    """Not cross-origin isolated: no SharedArrayBuffer, so nobody can answer input() here."""

    unavailable = ('{what} cannot ask for input here: local mode needs a cross-origin isolated page '
                   'for that, and this one is not. Put the data in the code, upload a file, or use server mode.')

    def discard(self):
        pass

    def wait(self):
        raise RuntimeError('unreachable: input() checks `unavailable` first')


class Host:
    """One interpreter's runner plus the bookkeeping the browser needs around each cell.

    ``post_line(type, line)`` sends one protocol line; ``files_changed(changed, deleted)`` tells
    the worker which workspace files to mirror into the frame (so they survive a reset);
    ``heap_kb()`` is the size of WebAssembly memory, the browser's analogue of peak RSS;
    ``take_fd_output()`` returns the text written to fds 1 and 2 since it was last called;
    ``poll_reply(ms)`` and ``discard_reply()`` reach the answers to input() (None: not isolated).
    """

    def __init__(self, post_line, files_changed, heap_kb, take_fd_output, poll_reply=None, discard_reply=None):
        self._post_line = post_line
        self._files_changed = files_changed
        self._heap_kb = heap_kb
        self._take_fd_output = take_fd_output
        self._cell = None
        self._before = {}
        self._notes = []
        self._pacer = StreamPacer(self._send)
        replies = SharedReplies(poll_reply, discard_reply) if poll_reply is not None else NoReplies()
        self.runner = Runner(self._emit, replies=replies)
        # As the sandbox's __main__ does: an interrupt between cells is ignored, not raised.
        signal.signal(signal.SIGINT, self.runner.on_sigint)
        sleep = time.sleep

        def paced_sleep(seconds):
            self._take_fd_text()
            self._pacer.flush()  # what a cell printed before sleeping shows while it sleeps
            sleep(seconds)

        paced_sleep.__doc__ = sleep.__doc__
        time.sleep = paced_sleep

    def execute(self, cell_id, code, max_output_bytes, notes=()):
        """Runs one cell; ``notes`` are stderr lines to show right after ``started``."""
        self._fd_text()  # written between cells: nobody's output
        self._cell = cell_id
        self._notes = list(notes)
        self._before = snapshot()
        try:
            self.runner.execute(cell_id, code, max_output_bytes, interactive=True)
        finally:
            self._cell = None

    def _fd_text(self):
        return self._take_fd_output().to_py()

    def _take_fd_text(self):
        """Sends what the cell wrote to fds 1 and 2 so far, in order before the next event."""
        if self._cell is None:
            return
        for name, text in self._fd_text():
            self._pacer.stream(protocol.stream(self._cell, name, text))

    def _emit(self, event):
        kind = event['type']
        if kind != 'started':
            self._take_fd_text()
        if kind == 'stream':
            self._pacer.stream(event)
            return
        self._pacer.flush()
        if kind == 'finished' and event.get('id') == self._cell:
            self._report_files()
            if event.get('peak_memory_kb') is None:
                event['peak_memory_kb'] = self._heap_kb()
        self._send(event)
        if kind == 'started' and event.get('id') == self._cell:
            notes, self._notes = self._notes, []
            for text in notes:
                self._send(protocol.stream(self._cell, 'stderr', text))

    def _send(self, event):
        self._post_line(event['type'], protocol.encode_line(event).decode('utf-8').rstrip('\n'))

    def _report_files(self):
        try:
            after = snapshot()
        except OSError:  # the cell removed or replaced the workspace itself
            after = {}
        changed = [name for name, state in after.items() if self._before.get(name) != state]
        deleted = [name for name in self._before if name not in after]
        for name in sorted(changed):
            self._send({'type': 'artifact', 'id': self._cell, 'name': name, 'size': after[name][0],
                        'mime': mime_of(name), 'url': ''})
        if changed or deleted:
            self._files_changed(changed, deleted)
