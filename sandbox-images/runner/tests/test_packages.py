"""Installing packages offline from the read-only cache: verified by hash, unpacked into the session's storage only."""

import hashlib
import io
import os
import sys
import tarfile
import tempfile
import unittest
import zipfile

from codeinterp_runner import packages


def _wheel(files):
    data = io.BytesIO()
    with zipfile.ZipFile(data, 'w') as z:
        for name, text in files.items():
            z.writestr(name, text)
    return data.getvalue()


def _tarball(files):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode='w:gz') as t:
        for name, text in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(text)
            t.addfile(info, io.BytesIO(text.encode()))
    return data.getvalue()


class OfflineInstall(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = self.tmp.name
        self.cache = os.path.join(root, 'cache')
        os.makedirs(self.cache)
        self.workspace = os.path.join(root, 'workspace')
        saved = (packages.CACHE, packages.WORKSPACE, packages.PYTHON_TARGET, packages._DONE, list(sys.path))
        packages.CACHE = self.cache
        packages.WORKSPACE = self.workspace
        packages.PYTHON_TARGET = os.path.join(self.workspace, '.packages', 'python')
        packages._DONE = os.path.join(self.workspace, '.packages', 'installed')

        def restore():
            packages.CACHE, packages.WORKSPACE, packages.PYTHON_TARGET, packages._DONE, sys.path[:] = saved
            sys.modules.pop('offline_demo', None)
            self.tmp.cleanup()
        self.addCleanup(restore)

    def cached(self, content, dest=None):
        sha = hashlib.sha256(content).hexdigest()
        with open(os.path.join(self.cache, sha), 'wb') as f:
            f.write(content)
        return {'path': f'{self.cache}/{sha}', 'sha256': sha, 'dest': dest}

    def test_a_wheel_is_unpacked_into_the_sessions_folder_and_imports(self):
        wheel = self.cached(_wheel({'offline_demo/__init__.py': 'VALUE = 7\n',
                                    'offline_demo-1.0.data/purelib/offline_demo/extra.py': 'X = 1\n',
                                    'offline_demo-1.0.data/scripts/tool': '#!/bin/sh\n'}))
        packages.install({'language': 'python', 'artifacts': [wheel]})
        import offline_demo
        self.assertEqual(offline_demo.VALUE, 7)
        self.assertTrue(os.path.exists(os.path.join(packages.PYTHON_TARGET, 'offline_demo', 'extra.py')))
        self.assertFalse(os.path.exists(os.path.join(packages.PYTHON_TARGET, 'tool')))

    def test_an_npm_tarball_goes_to_its_lockfile_path(self):
        tgz = self.cached(_tarball({'package/index.js': 'module.exports = 1', 'package/lib/a.js': ''}), 'node_modules/is-odd')
        packages.install({'language': 'javascript', 'artifacts': [tgz]})
        self.assertTrue(os.path.isfile(os.path.join(self.workspace, 'node_modules', 'is-odd', 'lib', 'a.js')))

    def test_a_file_altered_in_the_cache_is_refused(self):
        wheel = self.cached(_wheel({'offline_demo/__init__.py': ''}))
        with open(wheel['path'], 'ab') as f:
            f.write(b'tampered')
        with self.assertRaisesRegex(packages.InstallError, 'does not match its hash'):
            packages.install({'language': 'python', 'artifacts': [wheel]})

    def test_paths_outside_the_cache_or_the_package_are_refused(self):
        with self.assertRaisesRegex(packages.InstallError, 'not an artifact of the package cache'):
            packages.install({'language': 'python', 'artifacts': [{'path': '/etc/passwd', 'sha256': 'a' * 64}]})
        escape = self.cached(_wheel({'../../evil.py': 'x'}))
        with self.assertRaisesRegex(packages.InstallError, 'outside the package'):
            packages.install({'language': 'python', 'artifacts': [escape]})
        tgz = self.cached(_tarball({'package/../../evil.js': 'x'}), 'node_modules/x')
        with self.assertRaisesRegex(packages.InstallError, 'outside the package'):
            packages.install({'language': 'javascript', 'artifacts': [tgz]})
        other = self.cached(_tarball({'package/a.js': ''}), '../outside')
        with self.assertRaisesRegex(packages.InstallError, 'not a place for an npm package'):
            packages.install({'language': 'javascript', 'artifacts': [other]})
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, 'evil.py')))

    def test_a_failed_install_ends_the_cell_without_running_it_and_a_good_one_is_an_event(self):
        events = []
        self.assertFalse(packages.run_install('c1', {'language': 'python', 'artifacts': [{'path': 'x', 'sha256': 'y'}]},
                                              events.append))
        self.assertEqual([e['type'] for e in events], ['error', 'finished'])
        self.assertEqual(events[0]['ename'], 'InstallError')
        self.assertEqual(events[1]['status'], 'error')
        events.clear()
        wheel = self.cached(_wheel({'offline_demo/__init__.py': ''}))
        self.assertTrue(packages.run_install('c2', {'language': 'python', 'packages': ['offline-demo'], 'cached': True,
                                                    'fetch_ms': 5, 'artifacts': [wheel]}, events.append))
        self.assertEqual(events[0]['type'], 'install')
        self.assertEqual(events[0]['packages'], ['offline-demo'])
        self.assertGreaterEqual(events[0]['duration_ms'], 5)


if __name__ == '__main__':
    unittest.main()
