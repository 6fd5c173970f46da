"""The runner's notebook semantics, driven the way the server drives it: a real subprocess
speaking JSON lines on stdin/stdout. Runs on the host's python3 and inside the sandbox image
(where numpy, pandas and matplotlib exist; those tests skip elsewhere)."""

import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import unittest

RUNNER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "runner.py")


def has(module):
    return importlib.util.find_spec(module) is not None


class RunnerProcess:
    def __init__(self):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-u", RUNNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=os.environ.get("TMPDIR", "/tmp"))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        ready = self.next()
        assert ready["type"] == "ready", ready
        self.counter = 0

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put((time.monotonic(), json.loads(raw)))
        self.lines.put((time.monotonic(), None))

    def next(self, timeout=20):
        return self.next_timed(timeout)[1]

    def next_timed(self, timeout=20):
        return self.lines.get(timeout=timeout)

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def execute(self, code, **extra):
        self.counter += 1
        cell_id = "cell-%d" % self.counter
        self.send(dict({"type": "execute", "id": cell_id, "code": code}, **extra))
        return cell_id

    def run(self, code, **extra):
        """Executes and returns the cell's events, started through finished."""
        cell_id = self.execute(code, **extra)
        events = []
        while True:
            event = self.next()
            if event.get("id") == cell_id:
                events.append(event)
            if event.get("type") == "finished" and event.get("id") == cell_id:
                return events

    def close(self):
        self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()


def stdout_of(events):
    return "".join(e["text"] for e in events if e["type"] == "stream" and e["name"] == "stdout")


def of_type(events, type_):
    return [e for e in events if e["type"] == type_]


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.runner = RunnerProcess()

    def tearDown(self):
        self.runner.close()

    def test_state_persists_across_cells_and_execution_count_increments(self):
        first = self.runner.run("x = 41")
        second = self.runner.run("x + 1")
        self.assertEqual(of_type(first, "started")[0]["execution_count"], 1)
        self.assertEqual(of_type(second, "execute_result")[0]["execution_count"], 2)
        self.assertEqual(of_type(second, "execute_result")[0]["data"]["text/plain"], "42")

    def test_a_trailing_expression_is_shown_as_out_n_and_none_is_not(self):
        self.assertEqual(of_type(self.runner.run("'a' * 3"), "execute_result")[0]["data"]["text/plain"], "'aaa'")
        self.assertEqual(of_type(self.runner.run("None"), "execute_result"), [])
        self.assertEqual(of_type(self.runner.run("x = 5"), "execute_result"), [])
        self.assertEqual(of_type(self.runner.run("_"), "execute_result")[0]["data"]["text/plain"], "'aaa'")

    def test_every_execute_gets_exactly_one_started_and_one_finished_in_order(self):
        for code in ["1", "print(2 +", "raise ValueError('x')", "import sys; sys.exit(2)", "pass"]:
            events = self.runner.run(code)
            self.assertEqual(events[0]["type"], "started", code)
            self.assertEqual(events[-1]["type"], "finished", code)
            self.assertEqual(len(of_type(events, "started")), 1)
            self.assertEqual(len(of_type(events, "finished")), 1)

    def test_print_streams_before_the_cell_ends(self):
        cell = self.runner.execute("import time\nfor i in range(5):\n    print('line', i)\n    time.sleep(0.2)")
        first_line_at = finished_at = None
        while finished_at is None:
            at, event = self.runner.next_timed()
            if event["type"] == "stream" and first_line_at is None:
                self.assertTrue(event["text"].startswith("line 0"))
                first_line_at = at
            if event["type"] == "finished" and event["id"] == cell:
                finished_at = at
        self.assertGreater(finished_at - first_line_at, 0.6)

    def test_stdout_and_stderr_stay_in_order(self):
        events = self.runner.run("import sys\nprint('a')\nprint('b', file=sys.stderr)\nprint('c')")
        streams = [(e["name"], e["text"]) for e in of_type(events, "stream")]
        self.assertEqual(streams, [("stdout", "a\n"), ("stderr", "b\n"), ("stdout", "c\n")])

    def test_output_written_below_python_is_captured(self):
        events = self.runner.run("import os, subprocess\nos.write(1, b'raw\\n')\nsubprocess.run(['echo', 'child'])")
        self.assertEqual(stdout_of(events), "raw\nchild\n")

    def test_five_megabytes_of_output_is_cut_at_the_cap_with_one_truncated_event(self):
        events = self.runner.run("for _ in range(5):\n    print('x' * (1024 * 1024))\nprint('after')",
                                 max_output_bytes=100000)
        self.assertEqual(len(stdout_of(events).encode()), 100000)
        self.assertEqual(len(of_type(events, "truncated")), 1)
        self.assertEqual(events[-1]["status"], "ok")
        self.assertTrue(all(len(e["text"]) <= 64 * 1024 for e in of_type(events, "stream")))

    def test_rich_reprs_and_display_become_mime_bundles(self):
        code = ("class Rich:\n"
                "    def _repr_html_(self): return '<b>hi</b>'\n"
                "    def _repr_png_(self): return b'\\x89PNG'\n"
                "    def _repr_markdown_(self): return '**hi**'\n"
                "    def _repr_json_(self): return {'a': 1}\n"
                "display(Rich(), 3)\n"
                "Rich()")
        events = self.runner.run(code)
        shown = of_type(events, "display_data")
        self.assertEqual(len(shown), 2)
        self.assertEqual(shown[0]["data"]["text/html"], "<b>hi</b>")
        self.assertEqual(shown[0]["data"]["image/png"], "iVBORw==")
        self.assertEqual(shown[0]["data"]["application/json"], {"a": 1})
        self.assertEqual(shown[1]["data"], {"text/plain": "3"})
        self.assertEqual(of_type(events, "execute_result")[0]["data"]["text/markdown"], "**hi**")

    def test_a_syntax_error_is_reported_with_line_and_column(self):
        events = self.runner.run("x = 1\nprint(2 +")
        error = of_type(events, "error")[0]
        self.assertEqual(error["ename"], "SyntaxError")
        self.assertIn("line 2", error["evalue"])
        self.assertIn("column", error["evalue"])
        self.assertEqual(events[-1]["status"], "error")

    def test_a_traceback_shows_the_users_frames_only(self):
        events = self.runner.run("def inner():\n    return 1 / 0\ninner()")
        error = of_type(events, "error")[0]
        text = "\n".join(error["traceback"])
        self.assertEqual(error["ename"], "ZeroDivisionError")
        self.assertIn("return 1 / 0", text)
        self.assertNotIn("runner.py", text)

    def test_an_interrupt_message_stops_the_cell_and_keeps_the_state(self):
        self.runner.run("kept = 7")
        cell = self.runner.execute("while True: pass")
        self.assertEqual(self.runner.next()["type"], "started")
        time.sleep(0.2)
        self.runner.send({"type": "interrupt"})
        events = []
        while not events or events[-1]["type"] != "finished":
            events.append(self.runner.next())
        self.assertEqual(events[-1]["status"], "interrupted")
        self.assertEqual(of_type(events, "error")[0]["ename"], "KeyboardInterrupt")
        self.assertEqual(of_type(self.runner.run("kept"), "execute_result")[0]["data"]["text/plain"], "7")
        self.assertEqual(cell, events[-1]["id"])

    def test_an_external_sigint_interrupts_too_and_is_harmless_when_idle(self):
        self.runner.proc.send_signal(signal.SIGINT)
        self.assertEqual(self.runner.run("1")[-1]["status"], "ok")
        self.runner.execute("import time\ntime.sleep(30)")
        self.assertEqual(self.runner.next()["type"], "started")
        time.sleep(0.2)
        self.runner.proc.send_signal(signal.SIGINT)
        while True:
            event = self.runner.next()
            if event["type"] == "finished":
                break
        self.assertEqual(event["status"], "interrupted")

    def test_input_fails_fast_with_a_clear_message(self):
        started = time.monotonic()
        events = self.runner.run("input('name? ')")
        self.assertLess(time.monotonic() - started, 5)
        self.assertIn("input() is not available", of_type(events, "error")[0]["evalue"])
        events = self.runner.run("import sys\nsys.stdin.read()")
        self.assertEqual(events[-1]["status"], "error")

    def test_sys_exit_does_not_kill_the_runner(self):
        self.assertEqual(of_type(self.runner.run("import sys\nsys.exit(3)"), "error")[0]["ename"], "SystemExit")
        self.assertEqual(self.runner.run("exit()")[-1]["status"], "ok")
        self.assertEqual(of_type(self.runner.run("40 + 2"), "execute_result")[0]["data"]["text/plain"], "42")

    def test_a_malformed_line_gets_a_protocol_error_and_the_runner_carries_on(self):
        self.runner.proc.stdin.write(b"this is not json\n[1, 2]\n")
        self.runner.proc.stdin.flush()
        self.assertEqual(self.runner.next()["type"], "protocol_error")
        self.assertEqual(self.runner.next()["type"], "protocol_error")
        self.assertEqual(self.runner.run("1")[-1]["status"], "ok")

    def test_write_file_places_a_file_the_next_cell_can_read(self):
        import base64
        name = "input-%d.txt" % os.getpid()
        try:
            self.runner.send({"type": "write_file", "name": name, "content_base64": base64.b64encode(b"hello").decode()})
            self.runner.send({"type": "write_file", "name": "../escape.txt", "content_base64": "aGk="})
            self.assertEqual(self.runner.next()["type"], "protocol_error")
            self.assertEqual(stdout_of(self.runner.run("print(open(%r).read())" % name)), "hello\n")
        finally:
            path = os.path.join(os.environ.get("TMPDIR", "/tmp"), name)
            if os.path.exists(path):
                os.remove(path)

    def test_finished_reports_duration_cpu_and_peak_memory(self):
        finished = self.runner.run("sum(range(10**6))")[-1]
        self.assertGreaterEqual(finished["duration_ms"], 0)
        self.assertGreaterEqual(finished["cpu_ms"], 0)
        self.assertGreater(finished["peak_memory_kb"], 1000)

    @unittest.skipUnless(has("matplotlib"), "matplotlib is not installed here")
    def test_a_chart_gives_exactly_one_png_with_or_without_show(self):
        with_show = self.runner.run("import matplotlib.pyplot as plt\nplt.bar(['a', 'b', 'c'], [10, 20, 30])\nplt.show()")
        without = self.runner.run("plt.plot([1, 2, 3])")
        for events in (with_show, without):
            pngs = [e for e in of_type(events, "display_data") if "image/png" in e["data"]]
            self.assertEqual(len(pngs), 1)
            self.assertEqual(events[-1]["status"], "ok")

    @unittest.skipUnless(has("pandas"), "pandas is not installed here")
    def test_a_dataframe_is_shown_as_html_and_text(self):
        events = self.runner.run("import pandas as pd\npd.DataFrame({'a': [1, 2], 'b': [3, 4]})")
        data = of_type(events, "execute_result")[0]["data"]
        self.assertIn("<table", data["text/html"])
        self.assertIn("a  b", data["text/plain"])


class InProcessRunnerTest(unittest.TestCase):
    """The Pyodide home: no threads, no fds, events handed to a callback."""

    def test_the_runner_works_synchronously_through_a_callback(self):
        spec = importlib.util.spec_from_file_location("codeinterp_runner", RUNNER)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        saved = sys.stdout, sys.stderr, sys.stdin
        events = []
        try:
            runner = module.Runner(events.append)
            runner.execute("a", "print('hi')\n6 * 7")
        finally:
            sys.stdout, sys.stderr, sys.stdin = saved
        self.assertEqual([e["type"] for e in events], ["started", "stream", "execute_result", "finished"])
        self.assertEqual(events[1]["text"], "hi\n")
        self.assertEqual(events[2]["data"]["text/plain"], "42")


if __name__ == "__main__":
    unittest.main()
