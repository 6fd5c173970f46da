"""The preinstalled libraries analysis code reaches for first (the image's packages.txt)."""

import unittest

from .harness import ProcessTestCase, importable, only, result_text

LIBRARIES = ('sklearn', 'seaborn', 'sympy', 'statsmodels', 'networkx', 'bs4', 'lxml', 'plotly', 'requests', 'tabulate')


@unittest.skipUnless(all(importable(name) for name in LIBRARIES), 'the image libraries are not installed here')
class PreinstalledLibraries(ProcessTestCase):
    def test_every_library_imports_in_a_cell(self):
        # a first import of all ten reads thousands of files; beside a build on two cores that
        # took over 20 s. What is checked is that they import, not how fast.
        self.assert_ok(self.run_cell('import ' + ', '.join(LIBRARIES), timeout=120))

    def test_scikit_learn_fits_a_model(self):
        events = self.run_cell('from sklearn.linear_model import LinearRegression\n'
                               'LinearRegression().fit([[0], [1], [2]], [1, 3, 5]).coef_.round(3).tolist()')
        self.assertEqual(result_text(events), '[2.0]')


@unittest.skipUnless(importable('pandas') and importable('jinja2'), 'pandas with jinja2 is not installed here')
class StyledTables(ProcessTestCase):
    def test_a_styled_dataframe_shows_as_html_with_its_caption_and_format(self):
        events = self.run_cell("import pandas as pd\n"
                               "pd.DataFrame({'temp': [3.5, 19.25]}).style.format('{:.1f} °C').set_caption('Temperatures')")
        html = only(events, 'execute_result')['data']['text/html']
        self.assertIn('<caption>Temperatures</caption>', html)
        self.assertIn('19.2 °C', html)
