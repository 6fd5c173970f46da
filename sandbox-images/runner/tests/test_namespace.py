"""Notebook semantics: one persistent namespace, Out[n], the cell's own __main__."""

from .harness import ProcessTestCase, of_type, only, result_text


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
