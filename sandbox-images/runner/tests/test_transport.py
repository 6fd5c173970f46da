"""How the sandbox transport writes: a quick cell's events share one write; nothing waits long.

The runner's stdout here is a SOCK_SEQPACKET socket, so each read returns exactly one of the
runner's writes: the tests see how the events were grouped, not just the lines.
"""

import json
import os
import socket
import subprocess
import time
import unittest

from .harness import RUNNER_COMMAND, RUNNER_DIR


class WritesTest(unittest.TestCase):
    def setUp(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.addCleanup(ours.close)
        self.proc = subprocess.Popen(RUNNER_COMMAND, env=dict(os.environ, PYTHONPATH=RUNNER_DIR),
                                     stdin=subprocess.PIPE, stdout=theirs, stderr=subprocess.DEVNULL)
        theirs.close()
        self.addCleanup(self._stop)
        self.out = ours
        self.assertEqual([e['type'] for e in self.next_write()], ['ready'])

    def _stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdin.close()

    def next_write(self, timeout=20):
        """The events of the runner's next write; [] when it has exited."""
        self.out.settimeout(timeout)
        data = self.out.recv(1 << 20)
        return [json.loads(line) for line in data.decode().splitlines()]

    def execute(self, code, cell_id='c1'):
        self.proc.stdin.write(json.dumps({'type': 'execute', 'id': cell_id, 'code': code}).encode() + b'\n')
        self.proc.stdin.flush()

    def test_a_quick_cell_reports_started_result_and_finished_in_one_write(self):
        self.execute('6 * 7')
        events = self.next_write()
        self.assertEqual([e['type'] for e in events], ['started', 'execute_result', 'finished'])
        self.assertEqual(events[1]['data']['text/plain'], '42')

    def test_a_quick_cell_that_fails_reports_its_error_and_finished_in_one_write(self):
        self.execute('1 / 0')
        self.assertEqual([e['type'] for e in self.next_write()], ['started', 'error', 'finished'])

    def test_a_long_cell_is_reported_started_at_once_not_when_it_ends(self):
        sent = time.monotonic()
        self.execute('import time\ntime.sleep(1.5)')
        self.assertEqual([e['type'] for e in self.next_write()], ['started'])
        self.assertLess(time.monotonic() - sent, 0.5)
        self.assertEqual([e['type'] for e in self.next_write()], ['finished'])

    def test_what_a_cell_printed_is_out_before_its_process_dies(self):
        self.execute('print("last words", flush=True)\nimport os\nos._exit(3)')
        seen = []
        while (events := self.next_write()):
            seen += events
        self.assertIn({'type': 'stream', 'id': 'c1', 'name': 'stdout', 'text': 'last words\n'}, seen)
        self.assertEqual(seen[0]['type'], 'started')


if __name__ == '__main__':
    unittest.main()
