"""The sandbox home: ``python3 -u -P -m codeinterp_runner`` runs cells sent as JSON lines on stdin.

The image puts this package's parent on PYTHONPATH; ``-P`` keeps the working directory (the
user's workspace) off sys.path while the runner starts, so no file there can stand in for it.
"""

import os
import queue
import signal
import sys
import threading

from . import packages, protocol, seeds, warmup
from .cells import Runner
from .pip_install import PackageAnswers
from .prompts import InputReplies
from .stdio import StdioTransport

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the dir holding this package


def _leave_the_cells_environment_as_the_server_gave_it():
    if sys.path and os.path.abspath(sys.path[0]) == _ROOT:
        sys.path[0] = ''  # cells import modules from the working directory, as in Jupyter
    if os.environ.get('PYTHONPATH') == _ROOT:
        del os.environ['PYTHONPATH']  # how the runner was found is no business of cells' subprocesses


def main():
    transport = StdioTransport()
    replies = InputReplies()
    answers = PackageAnswers()
    runner = Runner(transport.emit, fd_pipes=transport.pipes, replies=replies, package_answers=answers)
    signal.signal(signal.SIGINT, runner.on_sigint)  # idle interrupts are harmless
    _leave_the_cells_environment_as_the_server_gave_it()
    packages.activate()  # what this session installed before a restart
    inbox = queue.SimpleQueue()
    threading.Thread(target=transport.read_commands, args=(inbox.put, replies.put, answers.put), name='runner-stdin',
                     daemon=True).start()
    transport.emit(protocol.ready('%d.%d.%d' % sys.version_info[:3], os.getpid()))
    while True:
        message = inbox.get()
        if message is None or message['type'] == 'shutdown':
            break
        if message['type'] == 'warm':  # a template: libraries loaded, then ready again, to be checkpointed
            warmup.warm()
            transport.emit(protocol.ready('%d.%d.%d' % sys.version_info[:3], os.getpid()))
            continue
        if message['type'] == 'reseed':  # a copy of a template: its generators are the template's
            seeds.reseed()
            continue
        if message.get('install') and not packages.run_install(message['id'], message['install'], transport.emit):
            continue  # the packages did not install: the cell ended without running
        runner.execute(message['id'], message['code'], message['max_output_bytes'], message['language'],
                       stdin=message['stdin'], interactive=message['interactive'])
        if transport.forked:
            os._exit(0)  # a cell's forked child: the runner's shells and their files are the parent's
    runner.close()  # the bash and node children, and bash's cell files, go with the runner
    os._exit(0)  # threads a cell left running must not keep the sandbox alive


if __name__ == '__main__':
    main()
