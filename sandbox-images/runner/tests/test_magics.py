"""IPython's syntax in Python cells: shell escapes (!cmd), line and cell magics."""

import os
import re
import time
import unittest

from .harness import ProcessTestCase, of_type, only, plain_traceback, result_text, stream_text
from codeinterp_runner import commands
from codeinterp_runner.transform import transform


class TransformTest(unittest.TestCase):
    """The rewrite itself: only where a statement starts, never inside strings or brackets."""

    def test_plain_python_is_left_exactly_as_it_is(self):
        code = 'x = 10 % 3\ny = x != 1\nprint(f"{x!r:>5}")\n'
        self.assertIs(transform(code), code)

    def test_lines_inside_strings_are_never_rewritten(self):
        code = 's = """\n!rm -rf /\n%cd /\n"""\nt = f"""\n!ls {s}\n"""\nu = \'\'\'\nx = !ls\n\'\'\''
        self.assertEqual(transform(code), code)

    def test_continued_lines_are_never_rewritten(self):
        code = 'x = (1\n%2)\ny = 1 + \\\n%time\nz = [\n!1]\n'
        self.assertEqual(transform(code), code)

    def test_a_string_closing_on_a_magic_looking_line_is_seen_through(self):
        code = 's = """\n!echo """ + "tail"\n!echo real'
        lines = transform(code).split('\n')
        self.assertEqual(lines[:2], ['s = """', '!echo """ + "tail"'])
        self.assertEqual(lines[2], "get_ipython().system('echo real')")

    def test_escapes_become_calls_on_their_own_line_with_their_indentation(self):
        code = 'for f in fs:\n    !wc -l {f}\n    n = !ls\n    %cd ..\n!!date'
        self.assertEqual(transform(code).split('\n'), [
            'for f in fs:',
            "    get_ipython().system('wc -l {f}')",
            "    n = get_ipython().getoutput('ls')",
            "    get_ipython().run_line_magic('cd', '..')",
            "get_ipython().getoutput('date')"])

    def test_a_cell_magic_takes_the_whole_cell_as_text(self):
        self.assertEqual(transform('\n%%writefile a.txt\n"""\n!x'),
                         "\nget_ipython().run_cell_magic('writefile', 'a.txt', '\"\"\"\\n!x')")


class MagicsTest(ProcessTestCase):
    def test_a_shell_escape_streams_in_order_with_python_output(self):
        events = self.run_cell('print("before")\n!echo out; echo err >&2\nprint("after")')
        self.assert_ok(events)
        self.assertEqual(stream_text(events, 'stdout'), 'before\nout\nafter\n')
        self.assertEqual(stream_text(events, 'stderr'), 'err\n')

    def test_a_shell_escape_streams_while_it_runs(self):
        cell_id = self.runner.execute('!echo first; sleep 1.5; echo second')
        events = self.runner.collect_timed(cell_id)
        arrivals = {e['text']: at for at, e in events if e['type'] == 'stream'}
        self.assertGreater(arrivals['second\n'] - arrivals['first\n'], 1.0)

    def test_dollar_names_and_braced_expressions_expand_as_in_ipython(self):
        events = self.run_cell(
            'name = "world"\nn = 3\n'
            '!echo hello $name {n * 2} $$ {{braces}} $UNSET_SHELL_VAR\n'
            "!echo '$name' | awk '{print $1}'")
        self.assertEqual(stream_text(events), 'hello world 6 $ {braces}\n$name\n')

    def test_an_expansion_can_not_inject_through_the_cells_own_strings(self):
        events = self.run_cell('s = """\n!echo injected\n"""\nprint(len(s))')
        self.assertEqual(stream_text(events), '16\n')

    def test_output_is_captured_as_a_list_of_lines(self):
        events = self.run_cell('files = !printf "a\\nb\\n"; echo oops >&2\nprint(files, files.s)\n!!echo x')
        self.assertEqual(stream_text(events), "['a', 'b', 'oops'] a b oops\n")
        self.assertEqual(result_text(events), "['x']")

    def test_the_exit_status_is_kept_and_does_not_fail_the_cell(self):
        events = self.run_cell('!exit 3\nprint(_exit_code)')
        self.assert_ok(events)
        self.assertEqual(stream_text(events), '3\n')

    def test_an_interrupt_stops_a_shell_command_and_the_cell(self):
        cell_id = self.runner.execute('!echo started; sleep 30; echo never')
        self.runner.wait_for_stream()
        started = time.monotonic()
        self.runner.send({'type': 'interrupt'})
        events = [e for _, e in self.runner.collect_timed(cell_id)]
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assertLess(time.monotonic() - started, 5)
        self.assertNotIn('never', stream_text(events))

    def test_time_prints_cpu_and_wall_time_and_gives_the_value(self):
        events = self.run_cell('%time sum(range(1000))')
        self.assertRegex(stream_text(events), r'^CPU times: user .+, sys: .+, total: .+\nWall time: .+\n$')
        self.assertEqual(result_text(events), '499500')

    def test_cell_time_runs_the_cell_with_its_own_magics_and_gives_its_last_value(self):
        events = self.run_cell('%%time\nx = 2\n!echo inner\nx * 21')
        self.assertIn('inner\n', stream_text(events))
        self.assertIn('Wall time:', stream_text(events))
        self.assertEqual(result_text(events), '42')

    def test_an_error_under_time_points_at_the_cells_line(self):
        events = self.run_cell('y = 1\n%%time\n', )
        self.assertIn('must be on the first line', only(events, 'error')['evalue'])
        error = only(self.run_cell('%%time\na = 1\n1 / 0'), 'error')
        self.assertIn('line 3', plain_traceback(error))

    def test_timeit_reports_runs_and_loops(self):
        events = self.run_cell('%timeit -n 5 -r 3 sum(range(10))\nr = %timeit -o -q -n 2 -r 2 pass\nprint(r.loops, len(r.all_runs))')
        self.assertRegex(stream_text(events), r'per loop \(mean ± std\. dev\. of 3 runs, 5 loops each\)\n2 2\n$')

    def test_timeit_of_a_slow_statement_makes_fewer_runs_within_its_budget(self):
        started = time.monotonic()
        events = self.run_cell('import time\n%timeit time.sleep(2)', timeout=30)
        self.assertLess(time.monotonic() - started, 8)
        self.assertRegex(stream_text(events), r'of [12] runs?, 1 loop each\)')

    def test_cell_timeit_takes_setup_on_its_line(self):
        events = self.run_cell('%%timeit -n 3 -r 1 data = list(range(100))\nsorted(data)')
        self.assertIn('of 1 run, 3 loops each', stream_text(events))

    def test_cd_changes_the_working_directory_for_later_cells(self):
        os.mkdir(os.path.join(self.runner.cwd, 'sub dir'))
        self.run_cell('%cd "sub dir"')
        events = self.run_cell('import os\nprint(os.path.basename(os.getcwd()))\n%cd -\n%pwd')
        self.assertEqual(stream_text(events).splitlines()[0], 'sub dir')
        self.assertEqual(result_text(events), repr(os.path.realpath(self.runner.cwd)))

    def test_env_sets_reads_and_lists_variables(self):
        events = self.run_cell('%env GREETING=hi there\n!echo $GREETING\nv = %env GREETING\nenv = %env\nprint(v, env["GREETING"])')
        self.assertEqual(stream_text(events), 'env: GREETING=hi there\nhi there\nhi there hi there\n')

    def test_writefile_writes_the_cell_text_without_running_it(self):
        events = self.run_cell('%%writefile script.py\nprint("from the file")\n!never run')
        self.assertEqual(stream_text(events), 'Writing script.py\n')
        self.run_cell('%%writefile -a script.py\n# more')
        with open(os.path.join(self.runner.cwd, 'script.py')) as f:
            self.assertEqual(f.read(), 'print("from the file")\n!never run\n# more\n')
        self.run_cell('%%writefile run.py\nprint("ran", 6 * 7)')
        self.assertEqual(stream_text(self.run_cell('!python3 run.py')), 'ran 42\n')

    def test_who_lists_the_users_variables_only(self):
        self.assertEqual(stream_text(self.run_cell('%who')), 'Interactive namespace is empty.\n')
        events = self.run_cell('alpha = 1\nbeta = "b"\n_hidden = 2\n%who\n%who str')
        self.assertEqual(stream_text(events), 'alpha\tbeta\nbeta\n')

    def test_matplotlib_inline_and_notebook_setup_are_accepted(self):
        events = self.run_cell('%matplotlib inline\n%config InlineBackend.figure_format = "retina"\n'
                               '%load_ext autoreload\n%autoreload 2')
        self.assert_ok(events)
        self.assertEqual(stream_text(events), '')

    def test_an_unknown_magic_is_an_error_naming_it(self):
        error = only(self.run_cell('x = 1\n%frobnicate now'), 'error')
        self.assertEqual((error['ename'], error['evalue']), ('UsageError', 'Line magic function `%frobnicate` not found.'))
        self.assertIn('%frobnicate now', plain_traceback(error), 'the traceback shows the line as written')
        error = only(self.run_cell('%%frobnicate\nbody'), 'error')
        self.assertEqual(error['evalue'], 'Cell magic `%%frobnicate` not found.')

    def test_a_syntax_error_keeps_its_line_number_after_magic_lines(self):
        error = only(self.run_cell('!true\n%who\nx = = 1'), 'error')
        self.assertEqual(error['ename'], 'SyntaxError')
        self.assertIn('line 3', error['evalue'])

    def test_cell_magics_for_other_languages_and_rich_text(self):
        events = self.run_cell('%%bash\nA=1\necho "bash $A"')
        self.assertEqual(stream_text(events), 'bash 1\n')
        events = self.run_cell('%%html\n<b>{not expanded}</b>')
        self.assertEqual(only(events, 'display_data')['data']['text/html'], '<b>{not expanded}</b>')


class LocalModeTest(unittest.TestCase):
    def test_without_a_shell_a_command_fails_clearly_and_suggests_server_mode(self):
        shell = commands.ShellCommands(available=False, fds_captured=False)
        with self.assertRaisesRegex(commands.ShellUnavailable, 'Server mode'):
            shell.system('ls')
        with self.assertRaisesRegex(commands.ShellUnavailable, 'Server mode'):
            shell.getoutput('ls')


if __name__ == '__main__':
    unittest.main()
