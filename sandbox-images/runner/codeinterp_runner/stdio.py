"""The sandbox's transport: JSON lines on stdin/stdout, kept out of the cells' reach."""

import collections
import os
import signal
import threading
import time

from . import protocol

# A cell's start and its results may wait this long (seconds) to share one write with the events
# after them. Every write crosses the container's pipe, the engine's shim and the engine before the
# server reads it, and that crossing, not the bytes, is what an event costs: a quick cell's started,
# result and finished used to cost three crossings and now cost one. 20 ms is below what a person
# notices and under the 50 ms by which OutputSink already paces a chatty cell's output.
LINGER = 0.02

# The events that may wait. Text a cell writes does not (OutputSink paces it), so what a cell
# printed just before its process died is out, as before. Everything else goes at once and takes
# what waits with it: a cell's end (finished), a question the runner waits on (input_request,
# install_request), and what is no cell's progress (ready, protocol_error, install).
_MAY_LINGER = frozenset({'started', 'display_data', 'update_display_data', 'execute_result', 'error', 'clear_output'})

# What the runner wrote and the server has not acknowledged stays here, so a server that restarts
# (or died) gets it again: while no server is attached, the engine throws the sandbox's output
# away. The newest line is always kept; older ones go once the journal holds more than this.
JOURNAL_BYTES = 16 << 20


class Journal:
    """Every line written, numbered from 0, kept until acknowledged (within JOURNAL_BYTES)."""

    def __init__(self, limit=JOURNAL_BYTES):
        self._limit = limit
        self._lines = collections.deque()
        self._bytes = 0
        self.first = 0  # the number of the oldest line kept
        self.written = 0  # how many lines were written in all

    def add(self, line):
        self._lines.append(line)
        self._bytes += len(line)
        self.written += 1
        while self._bytes > self._limit and len(self._lines) > 1:
            self._drop_oldest()

    def acknowledge(self, upto):
        """The server stored every line numbered below ``upto``."""
        while self._lines and self.first < min(upto, self.written):
            self._drop_oldest()

    def since(self, start):
        """The number of the first line still kept at or after ``start``, and the lines from there on."""
        begin = max(start, self.first)
        return begin, list(self._lines)[begin - self.first:]

    def _drop_oldest(self):
        self._bytes -= len(self._lines.popleft())
        self.first += 1


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
        self._lock = threading.Condition(threading.Lock())
        self._held = []  # encoded lines not written yet, in order
        self._held_since = 0.0
        self._journal = Journal()
        self._flusher_waits_for_work = False
        self.forked = False
        threading.Thread(target=self._write_lingering, name='runner-linger', daemon=True).start()
        os.register_at_fork(after_in_child=self._after_fork_in_child)

    def _after_fork_in_child(self):
        self.forked = True  # a child that forgot os._exit() must not speak for the runner
        self._lock = threading.Condition(threading.Lock())
        self._held = []

    def emit(self, event):
        if self.forked:
            return
        data = protocol.encode_line(event)
        with self._lock:
            self._held.append(data)
            if event.get('type') not in _MAY_LINGER:
                self._write_held()
            elif len(self._held) == 1:
                self._held_since = time.monotonic()
                if self._flusher_waits_for_work:
                    self._lock.notify()

    def _write_held(self):
        """Writes every held line in one write, keeping each in the journal; under the lock."""
        for line in self._held:
            self._journal.add(line)
        self._write(b''.join(self._held))
        self._held = []

    def _write(self, data):
        data = memoryview(data)
        try:
            while data:
                data = data[os.write(self._out, data):]
        except BrokenPipeError:
            os._exit(0)  # the server is gone: nobody to report to

    def _write_lingering(self):
        """The flusher thread: whatever waited LINGER is written, so a long cell's progress is not held back."""
        with self._lock:
            while True:
                if not self._held:
                    self._flusher_waits_for_work = True
                    self._lock.wait()
                    self._flusher_waits_for_work = False
                    continue
                left = self._held_since + LINGER - time.monotonic()
                if left > 0:
                    self._lock.wait(left)
                else:
                    self._write_held()

    def acknowledge(self, upto):
        with self._lock:
            self._journal.acknowledge(upto)

    def replay(self, start):
        """A server (re)attached and has stored the lines numbered below ``start``: the ones after it
        go again, behind a ``replay`` line that says where they begin (not itself numbered)."""
        with self._lock:
            if self._held:
                self._write_held()
            begin, lines = self._journal.since(start)
            self._write(protocol.encode_line(protocol.replay(begin, begin - start)) + b''.join(lines))

    def read_commands(self, deliver, reply=None, answer=None):
        """Reader thread: interrupts act at once, ``input_reply`` values go to ``reply`` (a waiting
        input()), ``install``/``install_refused`` to ``answer`` (a waiting %pip), other commands to
        ``deliver``; EOF → None."""
        with os.fdopen(self._in, 'rb') as lines:
            for line in lines:
                if not line.strip():
                    continue
                try:
                    message = protocol.parse_command(line)
                except ValueError as exc:
                    self.emit(protocol.protocol_error(str(exc)))
                    continue
                if 'ack' in message:  # may ride on any command
                    self.acknowledge(message['ack'])
                if message['type'] == 'interrupt':
                    os.kill(os.getpid(), signal.SIGINT)
                elif message['type'] == 'input_reply':
                    if reply is not None:
                        reply(message['value'])
                elif message['type'] == 'replay':
                    self.replay(message['from'])
                elif message['type'] == 'ack':
                    pass
                elif message['type'] in ('install', 'install_refused'):
                    if answer is not None:
                        answer(message)
                else:
                    deliver(message)
        deliver(None)
