"""Rich display: MIME bundles from _repr_*_ methods, display(), matplotlib figures as PNG."""

import base64
import json

from .harness import ProcessTestCase, needs_matplotlib, needs_numpy, needs_pandas, of_type, only, pngs, result_text, stream_text


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
