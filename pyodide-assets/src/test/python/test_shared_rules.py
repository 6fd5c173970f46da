"""The runner's Python copy of a shared rule answers shared-model's table of cases alike.

The Java copy (dev.codeinterp.model.rules.MimeTypes) is tested on the same file by shared-model;
local mode's artifacts (pyodide_host) and the IPython shim's images take their types from this copy.
"""
import json
import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
sys.path[:0] = [os.path.join(ROOT, 'pyodide-assets', 'src', 'runtime'), os.path.join(ROOT, 'sandbox-images', 'runner')]

import pyodide_host  # noqa: E402  (after the path is set)
from codeinterp_runner import mime  # noqa: E402


def shared_table(name):
    with open(os.path.join(ROOT, 'shared-model', 'src', 'test', 'resources', 'rules', name), encoding='utf-8') as f:
        return json.load(f)


class MimeTypesTest(unittest.TestCase):
    def test_an_artifact_gets_the_type_the_shared_table_gives_its_name(self):
        for case in shared_table('mime-types.json')['types']:
            with self.subTest(name=case['name']):
                self.assertEqual(mime.mime_of(case['name']), case['mime'])

    def test_every_extension_of_the_mirror_is_exercised_by_a_shared_case(self):
        covered = {c['name'].lower().rsplit('.', 1)[-1] for c in shared_table('mime-types.json')['types']}
        self.assertLessEqual(set(mime.MIME_BY_EXTENSION), covered)

    def test_local_mode_types_its_artifacts_with_the_runners_copy(self):
        self.assertIs(pyodide_host.mime_of, mime.mime_of)


if __name__ == '__main__':
    unittest.main()
