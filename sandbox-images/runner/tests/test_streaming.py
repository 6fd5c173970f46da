"""Output while a cell runs: live, ordered, coalesced, fd-level and forked output, the cap."""

import time

from .harness import ProcessTestCase, of_type, only, result_text, stream_lines, stream_text


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
