"""Errors as the user sees them: ename, evalue, their own frames only; no input, no exit."""

from .harness import ProcessTestCase, RUNNER_PACKAGE, only, plain_traceback, result_text, stream_text


class ErrorTest(ProcessTestCase):
    def test_an_error_has_ename_evalue_and_a_traceback_of_user_frames_only(self):
        events = self.run_cell('def f():\n    return 1 / 0\n\nf()')
        self.assertEqual(events[-1]['status'], 'error')
        error = only(events, 'error')
        self.assertEqual(error['ename'], 'ZeroDivisionError')
        self.assertEqual(error['evalue'], 'division by zero')
        self.assertTrue(all(isinstance(line, str) for line in error['traceback']))
        self.assertTrue(any('\x1b[' in line for line in error['traceback']))  # coloured
        text = plain_traceback(error)
        self.assertIn('File "<cell-1>", line 4, in <module>', text)
        self.assertIn('File "<cell-1>", line 2, in f', text)
        self.assertIn('return 1 / 0', text)  # the cell's own source line
        self.assertNotIn(RUNNER_PACKAGE, text)
        self.assertTrue(text.endswith('ZeroDivisionError: division by zero'))

    def test_library_frames_are_kept_but_runner_frames_are_not(self):
        error = only(self.run_cell('import json\njson.loads("{")'), 'error')
        self.assertEqual(error['ename'], 'JSONDecodeError')
        text = plain_traceback(error)
        self.assertIn('<cell-1>', text)
        self.assertIn('json', text.split('<cell-1>', 1)[1])
        self.assertNotIn(RUNNER_PACKAGE, text)

    def test_chained_exceptions_show_both(self):
        error = only(self.run_cell('try:\n    1 / 0\nexcept Exception as e:\n    raise ValueError("bad") from e'),
                     'error')
        text = plain_traceback(error)
        self.assertLess(text.index('ZeroDivisionError'), text.index('direct cause'))
        self.assertLess(text.index('direct cause'), text.index('ValueError: bad'))
        self.assertNotIn(RUNNER_PACKAGE, text)

    def test_a_syntax_error_reports_line_and_column(self):
        code = 'a = 1\nb = a +* 2\n'
        try:
            compile(code, '<x>', 'exec')
        except SyntaxError as exc:
            line, column = exc.lineno, exc.offset
        events = self.run_cell(code)
        self.assertEqual(events[-1]['status'], 'error')
        error = only(events, 'error')
        self.assertEqual(error['ename'], 'SyntaxError')
        self.assertIn(f'line {line}', error['evalue'])
        self.assertIn(f'column {column}', error['evalue'])
        text = plain_traceback(error)
        self.assertIn('File "<cell-1>", line 2', text)
        self.assertIn('b = a +* 2', text)
        self.assertIn('^', text)
        self.assertNotIn('Traceback', text)  # no frames: nothing ran
        self.assertNotIn(RUNNER_PACKAGE, text)
        self.assertEqual(result_text(self.run_cell('"a" in globals()')), 'False')

    def test_an_indentation_error_is_reported_not_a_crash(self):
        error = only(self.run_cell('if True:\nprint(1)'), 'error')
        self.assertEqual(error['ename'], 'IndentationError')
        self.assertIn('line 2', error['evalue'])
        self.assertEqual(result_text(self.run_cell('1')), '1')

    def test_sys_exit_exit_and_quit_do_not_kill_the_runner(self):
        for code, value in [('import sys; sys.exit(3)', '3'), ('exit()', 'None'), ('quit(0)', '0'),
                            ('raise SystemExit("bye")', 'bye')]:
            events = self.run_cell(code)
            error = only(events, 'error')
            self.assertEqual((error['ename'], error['evalue']), ('SystemExit', value), code)
            self.assertEqual(events[-1]['status'], 'error')
        self.assertEqual(stream_text(self.run_cell('print("alive")')), 'alive\n')

    def test_errors_raised_inside_the_runner_show_the_cell_and_no_runner_module(self):
        for code in ['input("name? ")', 'import sys\nsys.stdin.read()', 'display(1, raw=True)',
                     'import sys\nsys.stdout.write(5)']:
            error = only(self.run_cell(code, timeout=5), 'error')
            text = plain_traceback(error)
            self.assertIn('<cell-', text, code)
            self.assertNotIn(RUNNER_PACKAGE, text, code)

    def test_input_fails_fast_with_a_clear_message(self):
        events = self.run_cell('input("name? ")', timeout=5)
        error = only(events, 'error')
        self.assertEqual(error['ename'], 'StdinNotImplementedError')
        self.assertIn('input() is not available', error['evalue'])
        self.assertLess(events[-1]['duration_ms'], 1000)

    def test_reading_stdin_fails_fast_and_leaves_the_protocol_alone(self):
        error = only(self.run_cell('import sys\nsys.stdin.readline()', timeout=5), 'error')
        self.assertIn('not available', error['evalue'])
        self.assertEqual(result_text(self.run_cell('import os\nos.read(0, 100)', timeout=5)), "b''")
        events = self.run_cell('import subprocess\nsubprocess.run(["cat"], capture_output=True, timeout=5).stdout')
        self.assertEqual(result_text(events), "b''")
        self.assertEqual(result_text(self.run_cell('1 + 1')), '2')

    def test_warnings_appear_on_stderr_with_the_cell_line(self):
        events = self.run_cell('import warnings\nwarnings.warn("careful")')
        self.assert_ok(events)
        self.assertIn('UserWarning: careful', stream_text(events, 'stderr'))
