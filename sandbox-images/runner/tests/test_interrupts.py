"""Interrupts: KeyboardInterrupt in the running cell, state kept, harmless when idle."""

import os
import signal

from .harness import ProcessTestCase, RUNNER_PACKAGE, only, plain_traceback, result_text, stream_text


class InterruptTest(ProcessTestCase):
    def interrupt_running_cell(self, code, interrupt):
        cell_id = self.runner.execute(code)
        self.runner.wait_for_stream()
        interrupt()
        return [event for _, event in self.runner.collect_timed(cell_id, timeout=10)]

    def send_interrupt(self):
        self.runner.send({'type': 'interrupt'})

    def send_sigint(self):
        os.kill(self.runner.proc.pid, signal.SIGINT)

    def assert_interrupted(self, events):
        self.assertEqual(events[-1]['status'], 'interrupted')
        error = only(events, 'error')
        self.assertEqual(error['ename'], 'KeyboardInterrupt')
        self.assertNotIn(RUNNER_PACKAGE, plain_traceback(error))

    def test_an_interrupt_message_raises_keyboard_interrupt_and_keeps_state(self):
        self.run_cell('x = 42')
        events = self.interrupt_running_cell(
            'import time\nprint("sleeping")\nwhile True:\n    time.sleep(0.05)', self.send_interrupt)
        self.assert_interrupted(events)
        self.assertIn('<cell-2>', plain_traceback(only(events, 'error')))
        self.assertEqual(result_text(self.run_cell('x')), '42')

    def test_an_external_sigint_interrupts_a_busy_cell_and_keeps_state(self):
        self.run_cell('x = 42')
        events = self.interrupt_running_cell('print("spinning")\nwhile True:\n    pass', self.send_sigint)
        self.assert_interrupted(events)
        self.assertEqual(result_text(self.run_cell('x')), '42')

    def test_an_interrupt_while_idle_is_harmless(self):
        self.run_cell('x = 1')
        self.send_interrupt()
        self.send_sigint()
        self.runner.assert_silent(0.3)
        events = self.run_cell('x + 1')
        self.assert_ok(events)
        self.assertEqual(result_text(events), '2')

    def test_a_cell_that_ignores_sigint_does_not_disarm_later_cells(self):
        self.assert_ok(self.run_cell('import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)'))
        events = self.interrupt_running_cell('import time\nprint("go")\ntime.sleep(30)', self.send_interrupt)
        self.assert_interrupted(events)

    def test_an_interrupt_during_heavy_printing_leaves_the_protocol_intact(self):
        events = self.interrupt_running_cell('while True:\n    print("spam " * 20)', self.send_interrupt)
        self.assert_interrupted(events)  # every line parsed as JSON on the way
        events = self.run_cell('print("clean")\n1 + 1')
        self.assertEqual(stream_text(events), 'clean\n')
        self.assertEqual(result_text(events), '2')
