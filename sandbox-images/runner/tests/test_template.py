"""A runner warmed for a template, and a copy of it reseeded: what the server's template sessions rely on."""

from .harness import ProcessTestCase, needs_numpy, result_text, stream_text

from codeinterp_runner import warmup  # noqa: E402  (the harness put the runner on sys.path)


class WarmedRunnerTest(ProcessTestCase):
    def test_warm_loads_the_libraries_says_ready_again_and_leaves_the_namespace_and_count_alone(self):
        self.runner.send({'type': 'warm'})
        again = self.runner.next_event(timeout=60)
        self.assertEqual(again['type'], 'ready')
        self.assertEqual(again['pid'], self.runner.proc.pid)
        events = self.run_cell("import sys\nprint(sorted(n for n in %r if n in sys.modules))\n"
                               "[n for n in ('numpy', 'pandas', 'np', 'pd', 'plt') if n in globals()]" % (warmup.MODULES,))
        self.assertEqual(events[0]['execution_count'], 1, 'warming ran no cell')
        loaded = eval(stream_text(events))  # noqa: S307 (our own cell's print)
        self.assertEqual(loaded, sorted(m for m in warmup.MODULES if _importable(m)))
        self.assertEqual(result_text(events), '[]', 'no name in the cells\' namespace')

    def test_reseed_draws_new_numbers_where_a_copy_would_repeat_the_old_ones(self):
        self.run_cell('import random, tempfile\nrandom.seed(1)')
        self.runner.send({'type': 'reseed'})
        first = result_text(self.run_cell('random.random()'))
        self.assertNotEqual(first, '0.13436424411240122', 'random.seed(1) would have drawn this')
        self.runner.assert_silent(0.2)


class SeedsTest(ProcessTestCase):
    @needs_numpy
    def test_numpys_global_generator_is_reseeded_too(self):
        self.run_cell('import numpy\nnumpy.random.seed(1)')
        self.runner.send({'type': 'reseed'})
        self.assertNotEqual(result_text(self.run_cell('float(numpy.random.rand())')), '0.417022004702574')


def _importable(name):
    import importlib.util
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False
