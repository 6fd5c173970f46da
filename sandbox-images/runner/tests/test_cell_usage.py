"""`finished`'s cpu_ms and peak_memory_kb mean the same in every language: the CPU the cell's
process and the commands it waited for used during the cell, and that process tree's peak memory."""

import sys
import unittest

from .harness import ProcessTestCase
from .test_languages import js, needs_node, sh

BURN_PYTHON = 'import time\nt = time.process_time()\nwhile time.process_time() - t < 0.25: pass'
# a command that burns 0.25 CPU-s, on one line for `!cmd` and bash
BURN_COMMAND = (f"{sys.executable} -c 'import time; t = time.process_time(); "
                "any(iter(lambda: time.process_time() - t > 0.25, True))'")
# 100 MiB written (so resident, not just reserved), held long enough for the sampler to see it
ALLOCATE_100_MB = f"{sys.executable} -c 'import time; x = b\"x\" * (100 << 20); time.sleep(0.3)'"


class Figures:
    def figures(self, events):
        finished = events[-1]
        self.assertEqual(finished['type'], 'finished')
        self.assertEqual(finished['status'], 'ok', events)
        self.assertIsInstance(finished['cpu_ms'], int, finished)
        self.assertIsInstance(finished['peak_memory_kb'], int, finished)
        return finished['cpu_ms'], finished['peak_memory_kb']


@needs_node
class JavaScriptUsage(ProcessTestCase, Figures):
    def test_a_cell_burning_cpu_reports_it_and_an_idle_one_does_not(self):
        js(self, '1')  # node's own start-up is the first cell's
        idle, _ = self.figures(js(self, '1 + 1'))
        busy, _ = self.figures(js(self, 'const t = process.cpuUsage(); '
                                        'while (process.cpuUsage(t).user < 200000) {}'))
        self.assertGreaterEqual(busy, 180)
        self.assertGreater(busy, idle + 150)
        self.assertLess(idle, 50)

    def test_peak_memory_is_nodes_not_the_runners(self):
        _, before = self.figures(js(self, '1'))
        self.assertGreater(before, 10_000)  # node's own heap, far above nothing
        _, after = self.figures(js(self, 'globalThis.big = Buffer.alloc(100 * 1024 * 1024, 1); big.length'))
        self.assertGreater(after, 100 * 1024)
        self.assertGreater(after, before + 90 * 1024)

    def test_a_child_process_node_waits_for_counts(self):
        js(self, '1')
        cpu, _ = self.figures(js(self, f'require("child_process").execSync("{BURN_COMMAND}"); 1'))
        self.assertGreaterEqual(cpu, 230)


class BashUsage(ProcessTestCase, Figures):
    def test_commands_the_shell_waited_for_count_as_the_cells_cpu(self):
        sh(self, 'true')
        idle, _ = self.figures(sh(self, 'sleep 0.3'))
        busy, _ = self.figures(sh(self, BURN_COMMAND))
        self.assertGreaterEqual(busy, 230)
        self.assertGreater(busy, idle + 150)  # sleeping costs only starting `sleep` (~0.1 s in gVisor)

    def test_a_command_allocating_100_mb_shows_in_the_peak(self):
        _, small = self.figures(sh(self, 'echo hi'))
        self.assertLess(small, 50 * 1024)  # bash itself is small
        _, big = self.figures(sh(self, ALLOCATE_100_MB))
        self.assertGreater(big, 100 * 1024)

    def test_the_cost_of_a_cell_whose_shell_exits_is_still_reported(self):
        sh(self, 'true')
        events = sh(self, BURN_COMMAND + '; exit 3')
        finished = events[-1]
        self.assertEqual(finished['status'], 'error')
        self.assertGreaterEqual(finished['cpu_ms'], 230)
        self.assertGreater(finished['peak_memory_kb'], 1000)


class PythonUsage(ProcessTestCase, Figures):
    def test_a_shell_command_the_cell_waited_for_counts_too(self):
        cpu, _ = self.figures(self.run_cell('!' + BURN_COMMAND))
        self.assertGreaterEqual(cpu, 230)

    def test_the_runners_own_work_counts(self):
        cpu, peak = self.figures(self.run_cell(BURN_PYTHON))
        self.assertGreaterEqual(cpu, 230)
        self.assertGreater(peak, 1000)


if __name__ == '__main__':
    unittest.main()
