"""Bash cells: one persistent shell per session (cwd, variables and functions carry over)."""

import os
import shutil
import tempfile

from . import protocol
from .child import ChildLanguage

# An interrupt returns from the sourced cell (the shell and its state survive); `N` is the control fd.
_PRELUDE = "trap 'return 130 2>/dev/null' INT\n"


class Bash(ChildLanguage):
    name = 'bash'

    def __init__(self):
        super().__init__()
        self._dir = None
        self._control_fd = None

    def argv(self, control_fd):
        self._control_fd = control_fd
        return ['bash', '--norc', '--noprofile', '-s']

    def env(self):
        env = dict(os.environ)
        env.pop('PYTHONPATH', None)
        return env

    def send_cell(self, stdin, code, count):
        if self._dir is None or not os.path.isdir(self._dir):
            self._dir = tempfile.mkdtemp(prefix='bash-cells-')
        path = os.path.join(self._dir, f'cell-{count}.sh')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(code if code.endswith('\n') else code + '\n')
        fd = self._control_fd
        # The cell is sourced (not run) so its cd/export/functions stay; it cannot read our stdin
        # nor touch the control pipe, and its status is reported whatever it was.
        command = (_PRELUDE + f". '{path}' </dev/null {fd}>&-; __ci_status=$?; rm -f '{path}'; "
                   f"printf '{{\"type\":\"done\",\"exit\":%d}}\\n' \"$__ci_status\" >&{fd}\n")
        stdin.write(command.encode('utf-8'))
        stdin.flush()

    def close(self):
        super().close()
        # A killed shell never ran its cell's `rm`: the directory goes with the shell.
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def finish(self, done, sink, interrupted):
        code = done.get('exit', 0)
        if interrupted:
            sink.send(protocol.error('KeyboardInterrupt', 'the cell was interrupted', []))
            return 'interrupted'
        if code != 0:
            sink.send(protocol.error('ExitCode', f'exit status {code}', []))
            return 'error'
        return 'ok'
