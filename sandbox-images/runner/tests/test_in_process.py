"""The runner as Pyodide drives it: Runner(emit) in this process, without threads."""

import builtins
import os
import signal
import sys
import threading
import unittest

from .harness import Runner, only, result_text, stream_text


class InProcessTest(unittest.TestCase):
    def setUp(self):
        self.events = []
        self.runner = Runner(self.events.append, threaded=False)
        self.addCleanup(self.runner.close)

    def execute(self, code, cell_id='c'):
        del self.events[:]
        finished = self.runner.execute(cell_id, code)
        self.assertEqual(self.events[-1], finished)
        return list(self.events)

    def test_the_same_events_come_from_a_direct_call(self):
        events = self.execute('print("hi")\n1 + 1')
        self.assertEqual([e['type'] for e in events], ['started', 'stream', 'execute_result', 'finished'])
        self.assertEqual(stream_text(events), 'hi\n')
        self.assertEqual(result_text(events), '2')
        self.assertTrue(all(e['id'] == 'c' for e in events))

    def test_without_threads_each_line_is_sent_as_it_is_written(self):
        self.runner.namespace['events'] = self.events
        self.execute('print("one")\nseen = [e["text"] for e in events if e["type"] == "stream"]\nprint("two")')
        self.assertEqual(self.runner.namespace['seen'], ['one\n'])
        self.assertEqual(stream_text(self.events), 'one\ntwo\n')

    def test_a_keyboard_interrupt_finishes_the_cell_as_interrupted_and_keeps_state(self):
        events = self.execute('x = 1\nraise KeyboardInterrupt')  # what Pyodide's interrupt buffer raises
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assertEqual(only(events, 'error')['ename'], 'KeyboardInterrupt')
        self.assertEqual(result_text(self.execute('x')), '1')

    def test_sigint_interrupts_a_cell_running_in_this_process(self):
        timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        self.addCleanup(timer.cancel)
        events = self.execute('import time\ntime.sleep(10)')
        self.assertEqual(events[-1]['status'], 'interrupted')

    def test_an_interrupt_that_lands_just_after_started_stops_the_cell_before_its_code(self):
        def interrupt_on_started(event):
            self.events.append(event)
            if event == {'type': 'started', 'id': 'stop me', 'execution_count': 1}:  # seen, then Stop
                self.runner.on_sigint(signal.SIGINT, None)
        runner = Runner(interrupt_on_started, threaded=False)
        self.addCleanup(runner.close)
        self.runner = runner
        events = self.execute('ran = True', cell_id='stop me')
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assertEqual(only(events, 'error')['ename'], 'KeyboardInterrupt')
        self.assertNotIn('ran', runner.namespace)
        self.assertEqual(self.execute('1 + 1')[-1]['status'], 'ok', 'the next cell is not interrupted')

    def test_an_interrupt_between_cells_is_not_kept_for_the_next_one(self):
        self.runner.on_sigint(signal.SIGINT, None)
        self.assertEqual(self.execute('1 + 1')[-1]['status'], 'ok')

    def test_the_process_is_left_as_it_was_between_cells(self):
        before = (sys.stdout, sys.stderr, sys.stdin, builtins.input, sys.modules['__main__'],
                  signal.getsignal(signal.SIGINT), hasattr(builtins, 'display'))
        events = self.execute('import sys, signal\nprint(sys.stdout is sys.__stdout__)\n'
                              'signal.signal(signal.SIGINT, signal.SIG_IGN)\ndisplay(1)')
        self.assertEqual(stream_text(events), 'False\n')
        after = (sys.stdout, sys.stderr, sys.stdin, builtins.input, sys.modules['__main__'],
                 signal.getsignal(signal.SIGINT), hasattr(builtins, 'display'))
        self.assertEqual(before, after)

    def test_execution_count_and_finished_fields(self):
        self.execute('a = 1')
        finished = self.execute('a')[-1]
        self.assertEqual(finished['execution_count'], 2)
        self.assertEqual(finished['status'], 'ok')
        self.assertIn('cpu_ms', finished)
        self.assertIn('peak_memory_kb', finished)

