"""A cell language that runs in a child process of its own, started on the cell that first needs it.

The child inherits fds 1 and 2, the pipes the OutputSink already reads, so its output is captured,
capped and ordered exactly like a Python subprocess's. It reports everything else (a cell's value,
its error, its end) as JSON lines on a control pipe; ``run`` turns those into the runner's events.
"""

import json
import os
import select
import signal
import subprocess
import time

from . import protocol
from .usage import SAMPLE_SECONDS, CellMeter, ChildUsage


class ChildLanguage:
    """One persistent interpreter (node, bash) for the life of the session, restarted if it dies."""

    def __init__(self):
        self._proc = None
        self._control = None
        self._buffer = b''
        self._usage = None  # the running child's ChildUsage
        self.cell_usage = (None, None)  # (cpu_ms, peak_memory_kb) of the last cell, for `finished`

    # -- what a language module provides --

    def argv(self, control_fd):
        raise NotImplementedError

    def send_cell(self, stdin, code, count):
        raise NotImplementedError

    def env(self):
        return dict(os.environ)

    def fence(self, stdin):
        """After an interrupted cell: asks the child to take in any interrupt still on its way and
        answer ``fenced``; True when it will. The runner sends the interrupt again every half second,
        so one can still be in flight when the cell ends, and must not stop the next cell."""
        return False

    def finish(self, done, sink, interrupted):
        """The cell's status from the child's `done` message."""
        status = done.get('status', 'ok')
        return 'interrupted' if interrupted or status == 'interrupted' else status

    # -- running a cell --

    def run(self, code, count, sink):
        """Runs one cell in the child; returns its status (``ok``/``error``/``interrupted``).

        Called with interrupts live: a KeyboardInterrupt here is passed on to the child, which
        stops the cell and keeps its state; we then wait for the child's own end of the cell.
        """
        interrupted = False
        self.cell_usage = (None, None)
        meter = None
        try:
            fresh = self._ensure_started()
            meter = CellMeter(self._usage, fresh)
            self.send_cell(self._proc.stdin, code, count)
        except KeyboardInterrupt:
            self._interrupt()
            interrupted = True
        except OSError as exc:  # e.g. the process cap left no room for the child
            self.close()
            if meter is not None:
                self.cell_usage = meter.end_after_exit()
            sink.send(protocol.error('ChildUnavailable', f'{self.name} could not start: {exc}', []))
            return 'error'
        while True:
            try:
                message = self._next_message(resend_interrupt=interrupted)
                if message is None:
                    exit_status = self._proc.wait()
                    self.close()
                    if meter is not None:
                        self.cell_usage = meter.end_after_exit()
                    sink.send(protocol.error('ExitCode', f'the {self.name} process exited (exit status {exit_status}); '
                                             'its state is lost and the next cell starts a fresh one', []))
                    return 'interrupted' if interrupted else 'error'
                kind = message.get('type')
                if kind == 'result':
                    sink.send(protocol.execute_result(count, message['data'], {}))
                elif kind == 'error':
                    sink.send(protocol.error(message['ename'], message['evalue'], message.get('traceback', [])))
                elif kind == 'done':
                    if meter is not None:
                        self.cell_usage = meter.end()
                    if interrupted:
                        self._drain_interrupts()
                    return self.finish(message, sink, interrupted)
            except KeyboardInterrupt:
                self._interrupt()
                interrupted = True

    def close(self):
        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self._proc.wait(timeout=5)
            except Exception:
                pass
        if self._control is not None:
            os.close(self._control)
        self._proc, self._control, self._buffer, self._usage = None, None, b'', None

    # -- the child --

    def _ensure_started(self):
        """Starts the child unless it runs; True when it was started now."""
        if self._proc is not None and self._proc.poll() is None:
            return False
        self.close()
        read_end, write_end = os.pipe()
        try:
            # Its own session: an interrupt reaches the child's whole process group, never the runner.
            self._proc = subprocess.Popen(self.argv(write_end), stdin=subprocess.PIPE, pass_fds=(write_end,),
                                          start_new_session=True, env=self.env())
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        self._control = read_end
        self._usage = ChildUsage(self._proc.pid)
        return True

    def _drain_interrupts(self):
        """Waits (up to 5 s) until the child says every interrupt sent to it has landed."""
        try:
            if not self.fence(self._proc.stdin):
                return
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                if not select.select([self._control], [], [], 0.1)[0] and b'\n' not in self._buffer:
                    continue
                message = self._next_message()
                if message is None or message.get('type') == 'fenced':
                    return
        except (OSError, KeyboardInterrupt):
            return  # the child went away, or another interrupt came: the next cell starts as it can

    def _interrupt(self):
        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGINT)
            except OSError:
                pass

    def _next_message(self, resend_interrupt=False):
        """The next control line as a dict; None at EOF (the child died).

        After an interrupt the signal is sent again every half second until the cell ends: one that
        lands just as a script finishes its synchronous part is swallowed by Node's SIGINT watchdog.
        While waiting, the child's processes' memory is sampled (``usage``).
        """
        quiet_since = time.monotonic()
        while b'\n' not in self._buffer:
            if not select.select([self._control], [], [], SAMPLE_SECONDS)[0]:
                if self._usage is not None:
                    self._usage.sample()
                if resend_interrupt and time.monotonic() - quiet_since >= 0.5:
                    self._interrupt()
                    quiet_since = time.monotonic()
                continue
            quiet_since = time.monotonic()
            chunk = os.read(self._control, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b'\n', 1)
        try:
            return json.loads(line)
        except ValueError:
            return {'type': 'ignored'}  # a cell that wrote to the control pipe itself
