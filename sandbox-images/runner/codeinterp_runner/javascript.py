"""JavaScript cells: one Node.js process per session (node_repl.js) with the REPL's semantics."""

import json
import os

from .child import ChildLanguage

_HOST = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'node_repl.js')


class JavaScript(ChildLanguage):
    name = 'node'

    def argv(self, control_fd):
        # --expose-internals reaches Node's own acorn where no system acorn is installed
        return ['node', '--expose-internals', '--experimental-vm-modules', '--stack-trace-limit=20', _HOST, str(control_fd)]

    def env(self):
        env = dict(os.environ)
        env.pop('PYTHONPATH', None)
        env.setdefault('HOME', '/tmp')
        env['NODE_DISABLE_COLORS'] = '1'
        return env

    def fence(self, stdin):
        stdin.write(b'{"fence": true}\n')
        stdin.flush()
        return True

    def send_cell(self, stdin, code, count):
        stdin.write((json.dumps({'code': code, 'execution_count': count}) + '\n').encode('utf-8'))
        stdin.flush()
