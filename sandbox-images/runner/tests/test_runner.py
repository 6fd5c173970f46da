"""Behaviour of the runner (the codeinterp_runner package), driven the two ways it is used.

* As the sandbox drives it: a subprocess (``python3 -u -P -m codeinterp_runner``, the package's
  parent on PYTHONPATH) speaking JSON lines.
* As Pyodide drives it: ``Runner(emit)`` in this process, without threads.

Tests needing numpy, pandas or matplotlib skip when those are not importable; inside the sandbox
image they run.
"""

import base64
import builtins
import importlib.util
import itertools
import json
import os
import platform
import queue
import re
import shutil
import signal
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
        env = dict(os.environ, PYTHONPATH=RUNNER_DIR)
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


class ProcessTestCase(unittest.TestCase):
    def setUp(self):
        self.runner = RunnerProcess()
        self.addCleanup(self.runner.close)

    def run_cell(self, code, **fields):
        return self.runner.run(code, **fields)

    def assert_ok(self, events):
        self.assertEqual(of_type(events, 'error'), [])
        self.assertEqual(events[-1]['status'], 'ok')


# ---- lifecycle and protocol -----------------------------------------------------------------

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


# ---- notebook semantics ---------------------------------------------------------------------

class NamespaceTest(ProcessTestCase):
    def test_state_persists_across_cells(self):
        self.assert_ok(self.run_cell('x = 41\ndef f():\n    return x + 1'))
        self.assertEqual(result_text(self.run_cell('f()')), '42')

    def test_execution_count_increments_with_every_execute(self):
        counts = []
        for code in ['a = 1', '1/0', 'a']:
            events = self.run_cell(code)
            self.assertEqual(events[0]['execution_count'], events[-1]['execution_count'])
            counts.append(events[-1]['execution_count'])
        self.assertEqual(counts, [1, 2, 3])

    def test_a_trailing_expression_is_shown_as_out_n(self):
        self.run_cell('x = 2')
        result = only(self.run_cell('x = x * 21\nx'), 'execute_result')
        self.assertEqual(result['execution_count'], 2)
        self.assertEqual(result['data'], {'text/plain': '42'})
        self.assertEqual(result['metadata'], {})
        self.assertEqual(result_text(self.run_cell('"a" * 3')), "'aaa'")

    def test_none_and_statements_show_nothing(self):
        for code in ['None', 'x = 5', 'print("p")', 'def f():\n    return 1', 'if True:\n    7']:
            events = self.run_cell(code)
            self.assertEqual(of_type(events, 'execute_result'), [], code)
            self.assert_ok(events)

    def test_a_trailing_semicolon_hides_the_result(self):
        self.assertEqual(of_type(self.run_cell('1 + 1;'), 'execute_result'), [])
        self.assertEqual(of_type(self.run_cell('1 + 1; # quiet'), 'execute_result'), [])

    def test_underscore_holds_the_last_shown_result(self):
        self.run_cell('6 * 7')
        self.assertEqual(result_text(self.run_cell('_ + 1')), '43')

    def test_a_long_list_is_pretty_printed(self):
        text = result_text(self.run_cell('list(range(40))'))
        self.assertIn('\n', text)
        self.assertEqual(eval(text), list(range(40)))

    def test_cells_run_in_a_fresh_main_module_not_in_the_runner(self):
        text = result_text(self.run_cell("__name__, 'Runner' in globals(), 'main' in globals()"))
        self.assertEqual(text, "('__main__', False, False)")
        self.run_cell('if __name__ == "__main__":\n    ran = True')
        self.assertEqual(result_text(self.run_cell('ran')), 'True')

    def test_instances_of_classes_defined_in_cells_can_be_pickled(self):
        self.run_cell('import pickle\nclass Point:\n    def __init__(self, x):\n        self.x = x')
        self.assertEqual(result_text(self.run_cell('pickle.loads(pickle.dumps(Point(3))).x')), '3')

    def test_top_level_await_runs_the_coroutine(self):
        events = self.run_cell('import asyncio\nasync def f():\n    await asyncio.sleep(0.01)\n    return 7\n'
                               'x = await f()\nawait f() + x')
        self.assertEqual(result_text(events), '14')

    def test_modules_in_the_working_directory_can_be_imported(self):
        self.run_cell('open("helper_mod.py", "w").write("VALUE = 5\\n")')
        self.assertEqual(result_text(self.run_cell('import helper_mod\nhelper_mod.VALUE')), '5')


    def test_cells_see_neither_the_runners_directory_nor_its_pythonpath(self):
        text = result_text(self.run_cell('import os, sys\n'
                                         '(sys.path[0], "PYTHONPATH" in os.environ, '
                                         'any("codeinterp_runner" in os.listdir(p) for p in sys.path[1:] '
                                         'if os.path.isdir(p)))'))
        self.assertEqual(text, "('', False, False)")

# ---- streaming ------------------------------------------------------------------------------

class StreamingTest(ProcessTestCase):
    def test_print_streams_before_the_cell_ends(self):
        cell_id = self.runner.execute('import time\nfor i in range(4):\n    print(i)\n    time.sleep(0.2)')
        timed = self.runner.collect_timed(cell_id)
        streams = [(at, e) for at, e in timed if e['type'] == 'stream']
        finished_at = timed[-1][0]
        self.assertGreater(finished_at - streams[0][0], 0.45)  # the first line came ~0.8 s early
        self.assertGreaterEqual(len(streams), 3)
        self.assertEqual(stream_text([e for _, e in timed]), '0\n1\n2\n3\n')

    def test_a_partial_line_is_sent_within_a_moment(self):
        cell_id = self.runner.execute('import time\nprint("working...", end="")\ntime.sleep(0.8)\nprint(" done")')
        timed = self.runner.collect_timed(cell_id)
        first_at, first = next((at, e) for at, e in timed if e['type'] == 'stream')
        self.assertEqual(first['text'], 'working...')
        self.assertGreater(timed[-1][0] - first_at, 0.5)

    def test_many_small_writes_are_coalesced_into_few_events(self):
        events = self.run_cell('for i in range(5000):\n    print(i)')
        self.assertEqual(stream_text(events), ''.join(f'{i}\n' for i in range(5000)))
        self.assertLess(len(of_type(events, 'stream')), 50)

    def test_stdout_and_stderr_keep_their_order(self):
        events = self.run_cell('import sys\nfor i in range(3):\n    print("out", i)\n'
                               '    print("err", i, file=sys.stderr)\nsys.stderr.write("tail\\n")')
        self.assertEqual(stream_lines(events), [
            ('stdout', 'out 0'), ('stderr', 'err 0'), ('stdout', 'out 1'), ('stderr', 'err 1'),
            ('stdout', 'out 2'), ('stderr', 'err 2'), ('stderr', 'tail')])

    def test_fd_level_output_and_subprocesses_are_captured_in_order(self):
        events = self.run_cell(
            'import os, subprocess, sys\nprint("a")\nos.write(1, b"b\\n")\nos.write(2, b"c\\n")\n'
            'subprocess.run(["sh", "-c", "echo d; echo e >&2"])\nprint("f")\n'
            'sys.stdout.buffer.write(b"g\\n")\nos.system("echo h")\nprint("i")')
        self.assert_ok(events)
        lines = stream_lines(events)
        # Each stream keeps its order, and fd output written before a print comes before it. (Two
        # raw fd writes to different pipes with no print between them have no order to keep.)
        self.assertEqual([line for name, line in lines if name == 'stdout'], list('abdfghi'))
        self.assertEqual([line for name, line in lines if name == 'stderr'], list('ce'))
        self.assertLess(lines.index(('stderr', 'e')), lines.index(('stdout', 'f')))

    def test_a_multibyte_character_split_across_fd_writes_arrives_whole(self):
        events = self.run_cell('import os, time\ndata = "héllo ✓\\n".encode()\n'
                               'os.write(1, data[:2])\ntime.sleep(0.15)\nos.write(1, data[2:])\n'
                               'os.write(1, b"bad \\xff\\n")')
        self.assertEqual(stream_text(events), 'héllo ✓\nbad \ufffd\n')

    def test_output_of_a_forked_child_is_captured(self):
        events = self.run_cell('import os\npid = os.fork()\nif pid == 0:\n    print("child")\n'
                               '    os._exit(0)\nos.waitpid(pid, 0)\nprint("parent")')
        self.assertEqual(stream_text(events), 'child\nparent\n')
        self.assertEqual(result_text(self.run_cell('1')), '1')

    def test_a_forked_child_that_does_not_exit_does_not_speak_for_the_runner(self):
        events = self.run_cell('import os\nif os.fork() == 0:\n    print("child")\nelse:\n'
                               '    os.wait()\n    print("parent")')
        self.assertEqual(stream_text(events), 'child\nparent\n')
        self.runner.assert_silent(0.3)  # no second finished from the child
        self.assertEqual(result_text(self.run_cell('1')), '1')

    def test_long_output_is_split_into_events_of_at_most_64_kib(self):
        events = self.run_cell('print("é" * 100_000)', max_output_bytes=10_000_000)
        streams = of_type(events, 'stream')
        self.assertGreater(len(streams), 2)
        for event in streams:
            self.assertLessEqual(len(event['text'].encode()), 64 * 1024)
        self.assertEqual(stream_text(events), 'é' * 100_000 + '\n')

    def test_output_over_the_cap_gives_one_truncated_event_and_the_cell_keeps_running(self):
        started = time.monotonic()
        events = self.run_cell('for i in range(100_000):\n    print("x" * 49)\n'
                               'import os\nos.write(1, b"y" * 100_000)\nprint("end")\ndone = True')
        self.assertLess(time.monotonic() - started, 15)
        truncated = only(events, 'truncated')
        self.assertEqual(truncated['limit_bytes'], 1 << 20)
        self.assertEqual(len(stream_text(events).encode()), 1 << 20)
        kinds = [e['type'] for e in events]
        self.assertEqual(kinds.index('truncated'), len(kinds) - 2)  # nothing after it but finished
        self.assertEqual(events[-1]['status'], 'ok')
        self.assertEqual(result_text(self.run_cell('done')), 'True')

    def test_the_cap_is_per_cell_and_set_by_max_output_bytes(self):
        events = self.run_cell('print("é" * 1000)', max_output_bytes=101)
        self.assertEqual(only(events, 'truncated')['limit_bytes'], 101)
        self.assertEqual(stream_text(events), 'é' * 50)  # never half a character
        events = self.run_cell('print("fits")', max_output_bytes=101)
        self.assertEqual(of_type(events, 'truncated'), [])
        self.assertEqual(stream_text(events), 'fits\n')


# ---- rich display ---------------------------------------------------------------------------

RICH_CLASS = '''
class Rich:
    def _repr_html_(self): return "<b>rich</b>"
    def _repr_markdown_(self): return "**rich**"
    def _repr_latex_(self): return "$r$"
    def _repr_svg_(self): return "<svg xmlns='http://www.w3.org/2000/svg'></svg>"
    def _repr_png_(self): return b"\\x89PNG fake"
    def _repr_jpeg_(self): return b"\\xff\\xd8 fake"
    def _repr_json_(self): return {"a": [1, 2]}
    def __repr__(self): return "Rich()"
'''


class DisplayTest(ProcessTestCase):
    def test_rich_reprs_become_a_mime_bundle(self):
        data = only(self.run_cell(RICH_CLASS + 'Rich()'), 'execute_result')['data']
        self.assertEqual(data['text/html'], '<b>rich</b>')
        self.assertEqual(data['text/markdown'], '**rich**')
        self.assertEqual(data['text/latex'], '$r$')
        self.assertIn('<svg', data['image/svg+xml'])
        self.assertEqual(base64.b64decode(data['image/png']), b'\x89PNG fake')
        self.assertEqual(base64.b64decode(data['image/jpeg']), b'\xff\xd8 fake')
        self.assertEqual(json.loads(data['application/json']), {'a': [1, 2]})
        self.assertEqual(data['text/plain'], 'Rich()')

    def test_repr_mimebundle_is_used_and_completed_by_the_other_reprs(self):
        data = only(self.run_cell(
            'class B:\n    def _repr_mimebundle_(self, include=None, exclude=None):\n'
            '        return {"application/vnd.custom+json": {"k": 1}, "text/html": "<i>b</i>"}\n'
            '    def _repr_markdown_(self): return "*b*"\nB()'), 'execute_result')['data']
        self.assertEqual(json.loads(data['application/vnd.custom+json']), {'k': 1})
        self.assertEqual(data['text/html'], '<i>b</i>')
        self.assertEqual(data['text/markdown'], '*b*')
        self.assertIn('B object', data['text/plain'])

    def test_display_shows_each_argument_in_order_as_display_data(self):
        events = self.run_cell(RICH_CLASS + 'print("before")\ndisplay(Rich(), "text", 3)\n'
                                            'display({"text/markdown": "# raw"}, raw=True)\nprint("after")')
        kinds = [e['type'] for e in events][1:-1]
        self.assertEqual(kinds, ['stream'] + ['display_data'] * 4 + ['stream'])
        shown = of_type(events, 'display_data')
        self.assertEqual(shown[0]['data']['text/html'], '<b>rich</b>')
        self.assertEqual(shown[1]['data'], {'text/plain': "'text'"})
        self.assertEqual(shown[2]['data'], {'text/plain': '3'})
        self.assertEqual(shown[3]['data'], {'text/markdown': '# raw'})
        self.assertEqual(of_type(events, 'execute_result'), [])

    def test_a_failing_repr_method_falls_back_to_plain_text(self):
        events = self.run_cell('class Bad:\n    def _repr_html_(self): raise ValueError("nope")\n'
                               '    def __repr__(self): return "Bad()"\nBad()')
        self.assert_ok(events)
        self.assertEqual(result_text(events), 'Bad()')
        self.assertNotIn('text/html', only(events, 'execute_result')['data'])
        self.assertIn('nope', stream_text(events, 'stderr'))

    def test_a_class_is_not_rendered_with_its_instances_reprs(self):
        events = self.run_cell(RICH_CLASS + 'Rich')
        self.assertEqual(list(only(events, 'execute_result')['data']), ['text/plain'])

    def test_nothing_heavy_is_imported_up_front(self):
        text = result_text(self.run_cell(
            'import sys\nsorted(m for m in ("numpy", "pandas", "matplotlib") if m in sys.modules)'))
        self.assertEqual(text, '[]')

    @needs_numpy
    def test_a_numpy_array_shows_its_repr(self):
        self.assertEqual(result_text(self.run_cell('import numpy as np\nnp.arange(3)')), 'array([0, 1, 2])')

    @needs_pandas
    def test_a_dataframe_gives_html_and_plain_text(self):
        data = only(self.run_cell('import pandas as pd\npd.DataFrame({"col": [1, 2]})'), 'execute_result')['data']
        self.assertIn('<table', data['text/html'])
        self.assertIn('col', data['text/plain'])
        events = self.run_cell('display(pd.DataFrame({"c": [3]}))')
        self.assertIn('<table', only(events, 'display_data')['data']['text/html'])


@needs_matplotlib
class MatplotlibTest(ProcessTestCase):
    def assert_png(self, encoded):
        self.assertTrue(base64.b64decode(encoded).startswith(b'\x89PNG'))

    def test_matplotlib_renders_with_agg(self):
        text = result_text(self.run_cell('import matplotlib\nmatplotlib.get_backend()'))
        self.assertEqual(text.lower(), "'agg'")

    def test_a_chart_without_show_gives_exactly_one_png(self):
        events = self.run_cell('import matplotlib.pyplot as plt\nplt.bar(["a", "b"], [1, 2])\nNone')
        self.assert_ok(events)
        [png] = pngs(events)
        self.assert_png(png)
        figure = only(events, 'display_data')
        self.assertIn('Figure', figure['data']['text/plain'])
        self.assertEqual(result_text(self.run_cell('plt.get_fignums()')), '[]')  # closed after showing

    def test_a_chart_with_show_gives_exactly_one_png_where_show_was_called(self):
        events = self.run_cell('import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()\nprint("after")')
        self.assert_ok(events)
        self.assertEqual(len(pngs(events)), 1)
        kinds = [e['type'] for e in events]
        self.assertLess(kinds.index('display_data'), kinds.index('stream'))

    def test_every_open_figure_is_shown_once(self):
        events = self.run_cell('import matplotlib.pyplot as plt\nplt.figure()\nplt.plot([1])\n'
                               'plt.figure()\nplt.plot([2])\nplt.show()\nplt.figure()\nplt.plot([3])')
        self.assertEqual(len(pngs(events)), 3)

    def test_a_figure_as_the_trailing_expression_is_shown_once(self):
        events = self.run_cell('import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2])\nfig')
        self.assertEqual(len(pngs(events)), 1)
        self.assert_png(only(events, 'execute_result')['data']['image/png'])

    def test_pyplot_imported_in_an_earlier_cell_still_shows(self):
        self.run_cell('import matplotlib.pyplot as plt')
        self.assertEqual(len(pngs(self.run_cell('plt.plot([1, 2])\nplt.show()'))), 1)
        self.assertEqual(len(pngs(self.run_cell('plt.plot([2, 1]);'))), 1)

    @needs_pandas
    def test_a_pandas_plot_shows_one_png(self):
        events = self.run_cell('import pandas as pd\npd.Series([1, 3, 2]).plot();')
        self.assert_ok(events)
        self.assertEqual(len(pngs(events)), 1)


# ---- errors ---------------------------------------------------------------------------------

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


# ---- interrupts -----------------------------------------------------------------------------

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


# ---- in process, as in Pyodide --------------------------------------------------------------

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


if __name__ == '__main__':
    unittest.main()
