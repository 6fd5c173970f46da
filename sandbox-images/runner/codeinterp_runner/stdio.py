"""The sandbox's transport: JSON lines on stdin/stdout, kept out of the cells' reach."""

import os
import signal
import threading

from . import protocol


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
        data = memoryview(protocol.encode_line(event))
        with self._lock:
            try:
                while data:
                    data = data[os.write(self._out, data):]
            except BrokenPipeError:
                os._exit(0)  # the server is gone: nobody to report to

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
                if message['type'] == 'interrupt':
                    os.kill(os.getpid(), signal.SIGINT)
                elif message['type'] == 'input_reply':
                    if reply is not None:
                        reply(message['value'])
                elif message['type'] in ('install', 'install_refused'):
                    if answer is not None:
                        answer(message)
                else:
                    deliver(message)
        deliver(None)
