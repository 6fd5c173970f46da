"""The runner's life and its protocol: ready, one started and one finished per cell, bad lines, exit."""

import json
import platform

from .harness import ProcessTestCase, RunnerProcess, result_text, stream_text


class LifecycleTest(ProcessTestCase):
    def test_ready_comes_first_with_the_python_version_and_pid(self):
        ready = self.runner.ready
        self.assertEqual(ready['type'], 'ready')
        self.assertEqual(ready['python'], platform.python_version())
        self.assertEqual(ready['pid'], self.runner.proc.pid)

    def test_every_execute_gets_exactly_one_started_then_one_finished(self):
        cells = ['1', 'print(1)', '1/0', 'x = (', 'raise KeyboardInterrupt', 'import sys; sys.exit()',
                 'display(1, 2)', '']
        for number, code in enumerate(cells, 1):
            events = self.run_cell(code)
            kinds = [e['type'] for e in events]
            self.assertEqual(kinds[0], 'started', code)
            self.assertEqual(kinds[-1], 'finished', code)
            self.assertEqual(kinds.count('started'), 1, code)
            self.assertEqual(kinds.count('finished'), 1, code)
            self.assertEqual(events[0]['execution_count'], number)
        self.runner.assert_silent(0.2)

    def test_finished_reports_duration_cpu_time_and_peak_memory(self):
        events = self.run_cell('import time\nt = time.process_time()\n'
                               'while time.process_time() - t < 0.2:\n    pass\ntime.sleep(0.1)')
        finished = events[-1]
        self.assertEqual(finished['status'], 'ok')
        for key in ('duration_ms', 'cpu_ms', 'peak_memory_kb'):
            self.assertIsInstance(finished[key], int, key)
        self.assertGreaterEqual(finished['duration_ms'], 250)  # gVisor's clocks are coarse
        self.assertGreaterEqual(finished['cpu_ms'], 150)
        self.assertLessEqual(finished['cpu_ms'], finished['duration_ms'] + 100)
        self.assertGreater(finished['peak_memory_kb'], 1000)

    def test_a_malformed_line_gets_a_protocol_error_and_the_runner_carries_on(self):
        bad = [b'not json', b'[1, 2]', b'\xff\xfe\x00', json.dumps({'type': 'bogus'}).encode(),
               json.dumps({'type': 'execute', 'id': 'no-code'}).encode(),
               json.dumps({'type': 'execute', 'id': 'x', 'code': '1', 'max_output_bytes': 'lots'}).encode()]
        for line in bad:
            self.runner.send_bytes(line)
        for _ in bad:
            event = self.runner.next_event()
            self.assertEqual(event['type'], 'protocol_error')
            self.assertTrue(event['message'])
        self.assertEqual(result_text(self.run_cell('1 + 1')), '2')

    def test_shutdown_exits_with_status_zero(self):
        self.run_cell('print("bye")')
        self.runner.send({'type': 'shutdown'})
        self.assertEqual(self.runner.proc.wait(10), 0)

    def test_eof_ends_the_runner_after_the_queued_cells(self):
        cell_id = self.runner.execute('import time\ntime.sleep(0.2)\nprint("last")')
        self.runner.proc.stdin.close()
        events = [event for _, event in self.runner.collect_timed(cell_id)]
        self.assertEqual(stream_text(events), 'last\n')
        self.assertEqual(self.runner.proc.wait(10), 0)

    def test_a_package_of_the_same_name_in_the_workspace_does_not_replace_the_runner(self):
        impostor = RunnerProcess(workspace={'codeinterp_runner/__init__.py': '',
                                            'codeinterp_runner/__main__.py': 'print("impostor")\n'})
        self.addCleanup(impostor.close)
        self.assertEqual(impostor.ready['type'], 'ready')
        self.assertEqual(result_text(impostor.run('1 + 1')), '2')

    def test_the_runner_never_writes_to_its_own_stderr(self):
        self.run_cell('import os, sys\nprint("e", file=sys.stderr)\nos.write(2, b"fd2\\n")\n1/0')
        self.runner.send({'type': 'shutdown'})
        self.assertEqual(self.runner.proc.wait(10), 0)
        self.assertEqual(self.runner.proc.stderr.read(), b'')
