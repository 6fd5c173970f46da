"""input() and getpass.getpass() during a cell: the lines sent with the cell, the person at the UI, or a
clear failure.

How a cell may read input is decided per cell by whoever sends it (docs/runner-protocol.md):

* ``stdin`` (a string) — input() reads its lines in order, and raises EOFError after the last one,
  as Python does with a piped stdin (REST and MCP callers, who cannot answer a question);
* ``interactive`` — input() sends an ``input_request{prompt, password}`` event and waits for the
  ``input_reply{value}`` the person sends back (the browser UI); an interrupt cancels the wait with
  KeyboardInterrupt;
* neither — input() fails at once with StdinNotImplementedError, never hangs.

The prompt and the answer are written to the cell's stdout afterwards (the answer only when it is
not a password), so the conversation's history shows the exchange as a terminal would.
"""

import builtins
import collections
import getpass
import queue

from . import protocol
from .streams import StdinNotImplementedError


class InputReplies:
    """The sandbox's mailbox for ``input_reply`` commands: the stdin reader thread puts, the cell waits.

    Pyodide has no threads; its host passes an object with the same ``wait()`` and ``discard()``
    that blocks on a SharedArrayBuffer instead, or one whose ``unavailable`` says why nobody can
    answer there ('{what}' is filled in with input() or getpass()).
    """

    unavailable = None

    def __init__(self):
        self._values = queue.SimpleQueue()

    def put(self, value):
        self._values.put(value)

    def discard(self):
        """Drops replies no one asked for (a late one, or one sent twice)."""
        while True:
            try:
                self._values.get_nowait()
            except queue.Empty:
                return

    def wait(self):
        # The acquire inside get() is interruptible: SIGINT's handler raises KeyboardInterrupt here.
        return self._values.get()


class Prompts:
    """What ``input`` and ``getpass.getpass`` are while a cell runs."""

    def __init__(self, sink, replies=None):
        self._sink = sink
        self._replies = replies  # None: nobody can answer (in-process use without a host)
        self._lines = None
        self._interactive = False
        self._saved = None

    def begin(self, stdin=None, interactive=False):
        """Sets how the next cell reads input: from ``stdin``'s lines, by asking, or not at all."""
        self._lines = None if stdin is None else collections.deque(stdin.splitlines())
        self._interactive = bool(interactive) and self._replies is not None

    def enter(self):
        self._saved = (builtins.input, getpass.getpass)
        builtins.input = self.input
        getpass.getpass = self.getpass

    def leave(self):
        if self._saved is not None:
            builtins.input, getpass.getpass = self._saved
            self._saved = None
        self._lines = None
        self._interactive = False

    # -- what the cell calls --

    def input(self, prompt=''):
        return self._ask(str(prompt), False, 'input()')

    def getpass(self, prompt='Password: ', stream=None):
        return self._ask(str(prompt), True, 'getpass()')

    def _ask(self, prompt, password, what):
        if self._lines is not None:
            if not self._lines:
                self._sink.write('stdout', prompt)
                raise EOFError('EOF when reading a line')
            value = self._lines.popleft()
        elif self._interactive:
            unavailable = getattr(self._replies, 'unavailable', None)
            if unavailable:  # the host knows nobody can answer here, and says why
                raise StdinNotImplementedError(unavailable.format(what=what))
            self._replies.discard()
            self._sink.send(protocol.input_request(prompt, password))  # after the output before it
            value = self._replies.wait()
            if not isinstance(value, str):
                value = '' if value is None else str(value)
        else:
            raise StdinNotImplementedError(
                f'{what} is not available here: nobody is there to answer it. Send the answers as the '
                "request's `stdin` lines, put the data in the code, or upload a file and read it.")
        self._sink.write('stdout', prompt + ('' if password else value) + '\n')
        return value
