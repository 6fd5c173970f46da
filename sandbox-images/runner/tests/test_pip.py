"""%pip install / !pip install: parsed here, asked of the server, installed offline from the cache."""

import hashlib
import io
import os
import sys
import tempfile
import unittest
import zipfile

from .harness import ProcessTestCase, Runner, of_type, only, stream_text
from codeinterp_runner import packages
from codeinterp_runner.pip_install import PackageAnswers, PackageRefused, parse


class ParseTest(unittest.TestCase):
    def test_names_pins_and_harmless_flags_are_accepted(self):
        self.assertEqual(parse('install -q Demo-Pkg numpy==1.26.4 -U'), ('install', ['Demo-Pkg', 'numpy==1.26.4'], True))
        self.assertEqual(parse('install requests'), ('install', ['requests'], False))

    def test_anything_that_could_reach_past_the_allowlist_is_refused_by_name(self):
        for line, named in (('install https://evil.example/x.whl', 'https://evil.example/x.whl'),
                            ('install -r requirements.txt', '-r'),
                            ('install --index-url http://evil/ demo', '--index-url'),
                            ('install ./local_dir', './local_dir'),
                            ('install git+https://github.com/a/b', 'git+https://github.com/a/b'),
                            ('install "demo>=1.0"', 'demo>=1.0'),
                            ('install demo; rm -rf /', 'demo;')):
            with self.assertRaises(PackageRefused, msg=line) as caught:
                parse(line)
            self.assertIn(repr(named), str(caught.exception))

    def test_other_pip_commands_and_empty_installs_say_how_to_use_it(self):
        for line in ('uninstall numpy', 'download x', 'install', 'install -q', ''):
            with self.assertRaisesRegex(PackageRefused, 'Usage: %pip install NAME', msg=line):
                parse(line)


class PipAsksTheServerTest(ProcessTestCase):
    def ask(self, code):
        cell_id = self.runner.execute(code)
        before = []
        while True:
            event = self.runner.next_event()
            if event['type'] == 'install_request':
                return cell_id, event, before
            before.append(event)

    def finish(self, cell_id, before):
        return before + [event for _, event in self.runner.collect_timed(cell_id)]

    def test_pip_install_asks_the_server_and_waits_for_its_answer(self):
        cell_id, request, before = self.ask('print("before")\n%pip install -q codeinterp-demo==1.0 other\nprint("after")')
        self.assertEqual(request, {'type': 'install_request', 'id': cell_id, 'language': 'python',
                                   'packages': ['codeinterp-demo==1.0', 'other']})
        self.assertEqual(stream_text(before), 'before\n')  # the cell's output so far comes first
        self.runner.assert_silent(0.3)  # waiting, not failing
        self.runner.send({'type': 'install', 'id': cell_id, 'language': 'python', 'packages': ['codeinterp-demo==1.0'],
                          'cached': True, 'fetch_ms': 5, 'artifacts': []})
        events = self.finish(cell_id, before)
        install = only(events, 'install')
        self.assertEqual((install['packages'], install['cached']), (['codeinterp-demo==1.0'], True))
        self.assertGreaterEqual(install['duration_ms'], 5)
        self.assertEqual(stream_text(events), 'before\nafter\n')  # -q: nothing printed on success
        self.assertEqual(events[-1]['status'], 'ok')

    def test_a_refusal_raises_in_the_cell_naming_the_package(self):
        message = "python package 'requests' is not on this server's package allowlist, so the cell did not install it"
        cell_id, _, before = self.ask('try:\n    !pip install requests\nexcept Exception as e:\n    print(type(e).__name__)\n'
                                      '%pip install requests\nprint("not reached")')
        self.runner.send({'type': 'install_refused', 'id': cell_id, 'ename': 'PackageRefused', 'message': message})
        while (event := self.runner.next_event())['type'] != 'install_request':  # the second %pip
            before.append(event)
        self.runner.send({'type': 'install_refused', 'id': cell_id, 'ename': 'PackageRefused', 'message': message})
        events = self.finish(cell_id, before)
        self.assertIn('PackageRefused\n', stream_text(events))  # catchable, as pip's CalledProcessError would not be
        error = only(events, 'error')
        self.assertEqual((error['ename'], error['evalue']), ('PackageRefused', message))
        self.assertNotIn('not reached', stream_text(events))
        self.assertEqual(events[-1]['status'], 'error')

    def test_a_refused_argument_never_reaches_the_server(self):
        events = self.run_cell('%pip install --index-url http://evil.example/simple demo')
        self.assertEqual(of_type(events, 'install_request'), [])
        error = only(events, 'error')
        self.assertEqual(error['ename'], 'PackageRefused')
        self.assertIn("'--index-url'", error['evalue'])

    def test_an_interrupt_cancels_the_wait_and_a_late_answer_is_ignored(self):
        cell_id, _, before = self.ask('x = 1\n%pip install slow-package')
        self.runner.send({'type': 'interrupt'})
        events = self.finish(cell_id, before)
        self.assertEqual(only(events, 'error')['ename'], 'KeyboardInterrupt')
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.runner.send({'type': 'install_refused', 'id': cell_id, 'ename': 'PackageRefused', 'message': 'late'})
        cell_id, _, before = self.ask('%pip install other\nprint(x)')
        self.runner.send({'type': 'install', 'id': cell_id, 'packages': ['other'], 'artifacts': []})
        events = self.finish(cell_id, before)
        self.assertEqual(of_type(events, 'error'), [], 'the late answer of the interrupted cell was dropped')
        self.assertEqual(stream_text(events), 'Requirement already satisfied: other\n1\n')

    def test_an_answer_that_is_not_an_install_is_a_protocol_error(self):
        self.runner.send({'type': 'install', 'id': 'x', 'artifacts': 'all of them'})
        self.assertEqual(self.runner.next_event()['type'], 'protocol_error')


def _wheel(name, version, module, source):
    data = io.BytesIO()
    with zipfile.ZipFile(data, 'w') as z:
        z.writestr(f'{module}/__init__.py', source)
        z.writestr(f'{module}-{version}.dist-info/METADATA', f'Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n')
    return data.getvalue()


class AnsweredAnswers(PackageAnswers):
    """The server's side of the exchange, for a runner in this process: answers each request with ``answer``."""

    def __init__(self, answer):
        super().__init__()
        self.answer = answer

    def wait(self):
        return self.answer


class PipInstallsInProcessTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        cache, workspace = os.path.join(self.tmp.name, 'cache'), os.path.join(self.tmp.name, 'workspace')
        os.makedirs(cache)
        saved = (packages.CACHE, packages.WORKSPACE, packages.PYTHON_TARGET, packages._DONE, list(sys.path))
        packages.CACHE, packages.WORKSPACE = cache, workspace
        packages.PYTHON_TARGET = os.path.join(workspace, '.packages', 'python')
        packages._DONE = os.path.join(workspace, '.packages', 'installed')

        def restore():
            packages.CACHE, packages.WORKSPACE, packages.PYTHON_TARGET, packages._DONE, sys.path[:] = saved
            sys.modules.pop('pip_demo', None)
            self.tmp.cleanup()
        self.addCleanup(restore)
        content = _wheel('pip-demo', '1.0', 'pip_demo', 'VALUE = 42\n')
        sha = hashlib.sha256(content).hexdigest()
        with open(os.path.join(cache, sha), 'wb') as f:
            f.write(content)
        self.answer = {'type': 'install', 'language': 'python', 'packages': ['pip-demo'], 'cached': False,
                       'fetch_ms': 0, 'artifacts': [{'path': f'{cache}/{sha}', 'sha256': sha, 'dest': None}]}
        self.events = []
        self.runner = Runner(self.events.append, threaded=False, package_answers=AnsweredAnswers(self.answer))
        self.addCleanup(self.runner.close)

    def execute(self, code):
        del self.events[:]
        self.runner.execute('c', code)
        return list(self.events)

    def test_a_package_installed_mid_cell_imports_at_once_and_in_the_next_cell(self):
        events = self.execute('%pip install pip-demo\nimport pip_demo\nprint(pip_demo.VALUE)')
        self.assertEqual(of_type(events, 'error'), [])
        self.assertEqual(stream_text(events), 'Installed pip-demo-1.0\n42\n')
        self.assertEqual(only(events, 'install')['packages'], ['pip-demo'])
        events = self.execute('import pip_demo\nprint(pip_demo.VALUE + 1)\n%pip list')
        self.assertIn('43\n', stream_text(events))
        self.assertIn('pip-demo 1.0', stream_text(events))

    def test_an_altered_artifact_fails_the_cell_and_installs_nothing(self):
        with open(self.answer['artifacts'][0]['path'], 'ab') as f:
            f.write(b'tampered')
        events = self.execute('%pip install pip-demo')
        self.assertEqual(only(events, 'error')['ename'], 'InstallError')
        self.assertEqual(of_type(events, 'install'), [])


class LocalModeTest(unittest.TestCase):
    def test_without_a_server_pip_says_what_local_mode_does_instead(self):
        events = []
        runner = Runner(events.append, threaded=False)
        self.addCleanup(runner.close)
        runner.execute('c', '%pip install requests')
        self.assertEqual(events[-1]['status'], 'ok')
        self.assertIn('Switch to Server mode', stream_text(events, 'stderr'))
        self.assertEqual(of_type(events, 'install_request'), [])
