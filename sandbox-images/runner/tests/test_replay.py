"""A server that restarts gets again what the runner wrote while it was away.

While no server is attached the engine throws the sandbox's output away, so the runner keeps every
line until the server says it stored it (``ack``), and a server that (re)attaches asks for the rest
(``replay``). Lines are numbered from 0 in the order written; the ``replay`` line itself is not.
"""

import json
import os
import subprocess
import unittest

from codeinterp_runner.stdio import Journal

from .harness import RUNNER_COMMAND, RUNNER_DIR


class JournalTest(unittest.TestCase):
    def test_an_acknowledged_line_is_not_sent_again(self):
        journal = Journal()
        for n in range(5):
            journal.add(b'line %d\n' % n)
        journal.acknowledge(3)
        self.assertEqual(journal.since(0), (3, [b'line 3\n', b'line 4\n']))
        self.assertEqual(journal.since(4), (4, [b'line 4\n']))
        self.assertEqual(journal.since(5), (5, []))

    def test_past_its_bound_the_oldest_lines_go_but_never_the_newest(self):
        journal = Journal(limit=10)
        journal.add(b'aaaaaa\n')
        journal.add(b'bbbbbb\n')
        self.assertEqual(journal.since(0), (1, [b'bbbbbb\n']))
        journal.add(b'x' * 50 + b'\n')
        self.assertEqual(journal.since(0), (2, [b'x' * 50 + b'\n']))

    def test_an_acknowledgement_beyond_what_was_written_keeps_counting_right(self):
        journal = Journal()
        journal.add(b'a\n')
        journal.acknowledge(99)
        journal.add(b'b\n')
        self.assertEqual(journal.since(1), (1, [b'b\n']))


class RunnerReplayTest(unittest.TestCase):
    def setUp(self):
        self.proc = subprocess.Popen(RUNNER_COMMAND, env=dict(os.environ, PYTHONPATH=RUNNER_DIR),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.addCleanup(self._stop)
        self.assertEqual(self.read()['type'], 'ready')  # line 0

    def _stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()

    def send(self, message):
        self.proc.stdin.write(json.dumps(message).encode() + b'\n')
        self.proc.stdin.flush()

    def read(self):
        return json.loads(self.proc.stdout.readline())

    def run_cell(self, cell_id, code):
        self.send({'type': 'execute', 'id': cell_id, 'code': code})
        events = []
        while not events or events[-1]['type'] != 'finished':
            events.append(self.read())
        return events

    def test_a_reattached_server_gets_every_line_after_what_it_stored_and_nothing_before(self):
        first = self.run_cell('c1', 'x = 41\nprint("one")')  # lines 1..n
        second = self.run_cell('c2', 'print("two"); x + 1')
        self.send({'type': 'replay', 'from': 1 + len(first)})
        self.assertEqual(self.read(), {'type': 'replay', 'from': 1 + len(first), 'lost': 0})
        self.assertEqual([self.read() for _ in second], second)

    def test_what_was_acknowledged_is_gone_and_the_replay_says_how_much_was_lost(self):
        first = self.run_cell('c1', 'print("one")')
        self.send({'type': 'ack', 'ack': 1 + len(first)})
        self.run_cell('c2', 'print("two")')
        self.send({'type': 'replay', 'from': 0})
        self.assertEqual(self.read(), {'type': 'replay', 'from': 1 + len(first), 'lost': 1 + len(first)})

    def test_an_acknowledgement_rides_on_the_next_cell(self):
        first = self.run_cell('c1', 'print("one")')
        self.send({'type': 'execute', 'id': 'c2', 'code': '2', 'ack': 1 + len(first)})
        second = []
        while not second or second[-1]['type'] != 'finished':
            second.append(self.read())
        self.send({'type': 'replay', 'from': 0})
        self.assertEqual(self.read()['from'], 1 + len(first))
        self.assertEqual([self.read() for _ in second], second)

    def test_a_bad_line_number_is_refused_and_the_runner_goes_on(self):
        self.send({'type': 'replay', 'from': -1})
        self.assertEqual(self.read()['type'], 'protocol_error')
        self.send({'type': 'ack', 'ack': 'all'})
        self.assertEqual(self.read()['type'], 'protocol_error')
        self.assertEqual(self.run_cell('c1', '6 * 7')[-1]['status'], 'ok')


if __name__ == '__main__':
    unittest.main()
