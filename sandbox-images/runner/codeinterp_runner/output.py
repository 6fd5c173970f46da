"""A cell's output: text written during a cell becomes ordered, coalesced, capped ``stream`` events."""

import codecs
import os
import threading
import time

from . import protocol

FLUSH_INTERVAL = 0.05  # seconds: small writes are coalesced for at most this long


class CellLock:
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


def utf8_boundary(data, n):
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
        self._limit = protocol.DEFAULT_MAX_OUTPUT_BYTES
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
        if self._pending_chars >= protocol.STREAM_CHUNK_BYTES:
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
            data = data[:utf8_boundary(data, room)]
        self._used += len(data)
        start = 0
        while start < len(data):
            end = utf8_boundary(data, start + protocol.STREAM_CHUNK_BYTES)
            self._emit(protocol.stream(self.cell, name, data[start:end].decode('utf-8', 'surrogatepass')))
            start = end
        if over:
            self.truncated = True
            self._emit(protocol.truncated(self.cell, self._limit))

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
        self._lock = CellLock()
        self._pipes = {}  # the parent's to read
