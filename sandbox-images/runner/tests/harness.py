"""What the runner tests share. They drive the runner the two ways it is used:

* as the sandbox does: a subprocess (``python3 -u -P -m codeinterp_runner``, the package's parent
  on PYTHONPATH) speaking JSON lines (``RunnerProcess``);
* as Pyodide does: ``Runner(emit)`` in the test's own process, without threads (test_in_process).

Tests needing numpy, pandas or matplotlib skip when those are not importable; inside the sandbox
image they run.
"""

import importlib.util
import itertools
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER_DIR = os.path.dirname(HERE)
if RUNNER_DIR not in sys.path:
    sys.path.insert(0, RUNNER_DIR)

from codeinterp_runner.cells import Runner  # noqa: E402  (found next to this directory)

# As SandboxSpec.COMMAND starts it, with PYTHONPATH as the image sets it.
RUNNER_COMMAND = [sys.executable, '-u', '-P', '-m', 'codeinterp_runner']
RUNNER_PACKAGE = 'codeinterp_runner'  # in the file name of every runner frame

ANSI = re.compile(r'\x1b\[[0-9;]*m')


def importable(name):
    return importlib.util.find_spec(name) is not None


needs_numpy = unittest.skipUnless(importable('numpy'), 'numpy is not installed here')
needs_pandas = unittest.skipUnless(importable('pandas'), 'pandas is not installed here')
needs_matplotlib = unittest.skipUnless(importable('matplotlib'), 'matplotlib is not installed here')


# ---- helpers --------------------------------------------------------------------------------

def of_type(events, kind):
    return [e for e in events if e['type'] == kind]


def only(events, kind):
    found = of_type(events, kind)
    assert len(found) == 1, f'expected one {kind} event, got {len(found)}: {events}'
    return found[0]


def stream_text(events, name=None):
    return ''.join(e['text'] for e in of_type(events, 'stream') if name is None or e['name'] == name)


def stream_lines(events):
    """(name, line) for every line of stream output, in arrival order."""
    lines = []
    for event in of_type(events, 'stream'):
        lines.extend((event['name'], line) for line in event['text'].splitlines())
    return lines


def result_text(events):
    return only(events, 'execute_result')['data']['text/plain']


def plain_traceback(error):
    return ANSI.sub('', '\n'.join(error['traceback']))


def pngs(events):
    return [e['data']['image/png'] for e in events
            if e['type'] in ('display_data', 'execute_result') and 'image/png' in e['data']]


class RunnerProcess:
    """The runner as the sandbox runs it: JSON lines over the pipes of a subprocess.

    ``workspace`` ({name: text}) is written into its working directory before it starts.
    """

    def __init__(self, workspace=None):
        self.cwd = tempfile.mkdtemp(prefix='runner-test-')
        for name, text in (workspace or {}).items():
            os.makedirs(os.path.dirname(os.path.join(self.cwd, name)), exist_ok=True)
            with open(os.path.join(self.cwd, name), 'w') as f:
                f.write(text)
        # Its own /tmp, as the sandbox's tmpfs: a killed runner's files (bash's cell scripts) go with it.
        self.tmp = tempfile.mkdtemp(prefix='runner-tmp-')
        env = dict(os.environ, PYTHONPATH=RUNNER_DIR, TMPDIR=self.tmp)
        self.proc = subprocess.Popen(RUNNER_COMMAND, cwd=self.cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._events = queue.Queue()
        self._ids = itertools.count(1)
        threading.Thread(target=self._read, daemon=True).start()
        self.ready = self.next_event(timeout=20)

    def _read(self):
        for line in self.proc.stdout:
            self._events.put((time.monotonic(), json.loads(line)))  # every line must be JSON
        self._events.put((time.monotonic(), None))

    def send(self, message):
        self.send_bytes(json.dumps(message).encode())

    def send_bytes(self, line):
        self.proc.stdin.write(line + b'\n')
        self.proc.stdin.flush()

    def next_timed(self, timeout=20):
        try:
            at, event = self._events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f'no event from the runner within {timeout} s') from None
        if event is None:
            raise AssertionError('the runner exited: ' + self.proc.stderr.read().decode(errors='replace'))
        return at, event

    def next_event(self, timeout=20):
        return self.next_timed(timeout)[1]

    def assert_silent(self, seconds):
        try:
            at, event = self._events.get(timeout=seconds)
        except queue.Empty:
            return
        raise AssertionError(f'unexpected event: {event}')

    def execute(self, code, **fields):
        cell_id = f'cell-{next(self._ids)}'
        self.send({'type': 'execute', 'id': cell_id, 'code': code, **fields})
        return cell_id

    def collect_timed(self, cell_id, timeout=20):
        """(arrival time, event) up to and including the cell's finished event."""
        deadline = time.monotonic() + timeout
        events = []
        while True:
            at, event = self.next_timed(max(0.1, deadline - time.monotonic()))
            events.append((at, event))
            if event['type'] == 'finished' and event['id'] == cell_id:
                return events

    def run(self, code, timeout=20, **fields):
        cell_id = self.execute(code, **fields)
        events = [event for _, event in self.collect_timed(cell_id, timeout)]
        for event in events:
            assert event.get('id') == cell_id, f'event of another cell: {event}'
        return events

    def wait_for_stream(self, timeout=20):
        while True:
            event = self.next_event(timeout)
            if event['type'] == 'stream':
                return event

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                pipe.close()
            except OSError:
                pass
        shutil.rmtree(self.cwd, ignore_errors=True)
        shutil.rmtree(self.tmp, ignore_errors=True)


class ProcessTestCase(unittest.TestCase):
    def setUp(self):
        self.runner = RunnerProcess()
        self.addCleanup(self.runner.close)

    def run_cell(self, code, **fields):
        return self.runner.run(code, **fields)

    def assert_ok(self, events):
        self.assertEqual(of_type(events, 'error'), [])
        self.assertEqual(events[-1]['status'], 'ok')
