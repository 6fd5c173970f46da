"""``%pip install`` / ``!pip install`` in a cell, through the server's allowlisted package path.

The sandbox has no network, so pip itself cannot run here. Instead the cell asks the server with an
``install_request{language, packages}`` event and waits (docs/runner-protocol.md): the server checks
its allowlist, fetches on the host and answers ``install{...}`` (the shape ``packages.install``
takes: artifacts in the read-only cache) or ``install_refused{ename, message}``. The answer arrives
on the stdin reader thread, as input()'s does; an interrupt cancels the wait with KeyboardInterrupt.
Only plain names and ``name==version`` pins are accepted, with the harmless flags below: anything
else (a URL, a path, ``-r file``, ``--index-url``) is refused here, naming what was refused.
"""

import os
import queue
import re
import shlex
import sys
import time

from . import packages

_QUIET = ('-q', '--quiet', '-qq')
_HARMLESS = _QUIET + ('-U', '--upgrade')
# A PyPI name (PEP 508's letters, digits, '.', '_', '-') with an optional exact pin.
_REQUIREMENT = re.compile(r'^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:==[A-Za-z0-9][A-Za-z0-9.+!_-]*)?$')
_USAGE = ('%pip install NAME [NAME==VERSION ...] (optionally -q, -U); %pip list; %pip show NAME. '
          'Packages come from the server\'s allowlisted package source.')
LOCAL_MODE = ('%pip installs nothing in local mode: the modules a cell imports are loaded before it runs from '
              "the browser's package source and the server's wheelhouse. Switch to Server mode to install "
              'allowlisted packages with %pip or the "packages" field.')


class PackageRefused(Exception):
    """The server (or this parser) will not install what the cell asked for."""


class PackageFetchError(Exception):
    """The server could not fetch an allowed package."""


class PackageAnswers:
    """The sandbox's mailbox for the server's ``install``/``install_refused``: the reader thread puts, the cell waits."""

    def __init__(self):
        self._answers = queue.SimpleQueue()

    def put(self, answer):
        self._answers.put(answer)

    def discard(self):
        """Drops an answer to a request an interrupt already gave up on."""
        while True:
            try:
                self._answers.get_nowait()
            except queue.Empty:
                return

    def wait(self):
        return self._answers.get()  # interruptible: SIGINT's handler raises KeyboardInterrupt here


def parse(line):
    """``(command, names, quiet)`` of a %pip line; PackageRefused naming anything not allowed."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise PackageRefused(f'%pip: {exc}') from None
    if not words:
        raise PackageRefused(f'%pip needs a command. Usage: {_USAGE}')
    command, rest = words[0], words[1:]
    if command in ('list', 'freeze'):
        return command, [], False
    if command == 'show':
        if not rest:
            raise PackageRefused('%pip show needs a package name')
        return command, rest, False
    if command != 'install':
        raise PackageRefused(f'%pip {command} is not available here. Usage: {_USAGE}')
    refused = [word for word in rest if word not in _HARMLESS and not _REQUIREMENT.match(word)]
    if refused:
        raise PackageRefused(f"%pip install: refused {', '.join(repr(w) for w in refused)}: only package names "
                             'and name==version pins from the allowlist can be installed here (flags: -q, -U)')
    names = [word for word in rest if word not in _HARMLESS]
    if not names:
        raise PackageRefused(f'%pip install needs at least one package name. Usage: {_USAGE}')
    return command, names, any(word in _QUIET for word in rest)


class PipMagic:
    """What ``%pip`` does in this runner. ``send`` puts a cell event out (after the cell's output so
    far); ``answers`` is the mailbox, or None where no server can answer (local mode, in-process use)."""

    def __init__(self, send, answers):
        self._send = send
        self._answers = answers

    def __call__(self, line):
        command, names, quiet = parse(line)
        if command in ('list', 'freeze'):
            return _list(command)
        if command == 'show':
            return _show(names)
        if self._answers is None:
            print(LOCAL_MODE, file=sys.stderr)
            return None
        self._install(names, quiet)

    def _install(self, names, quiet):
        self._answers.discard()
        self._send({'type': 'install_request', 'language': 'python', 'packages': names})
        answer = self._answers.wait()
        if answer.get('type') == 'install_refused':
            error = PackageFetchError if answer.get('ename') == 'PackageFetchError' else PackageRefused
            raise error(answer.get('message') or 'the server refused the install')
        start = time.perf_counter()
        packages.install(answer)
        install_ms = round((time.perf_counter() - start) * 1000)
        cached = bool(answer.get('cached'))
        self._send({'type': 'install', 'language': 'python', 'packages': list(answer.get('packages') or names),
                    'cached': cached, 'duration_ms': int(answer.get('fetch_ms') or 0) + install_ms})
        if not quiet:
            _report(names, bool(answer.get('artifacts')), cached)


def _report(names, installed_any, cached):
    for requirement in names:
        name = requirement.split('==')[0]
        version = _version(name)
        if not installed_any:
            print(f'Requirement already satisfied: {name}' + (f' ({version})' if version else ''))
        else:
            print(f'Installed {name}' + (f'-{version}' if version else '') + (' (cached)' if cached else ''))


def _metadata():
    """importlib.metadata, imported on first use: at the top it cost every sandbox's start ~18 ms of CPU."""
    import importlib.metadata
    return importlib.metadata


def _version(name):
    metadata = _metadata()
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _session_distributions():
    if not os.path.isdir(packages.PYTHON_TARGET):
        return []
    found = _metadata().distributions(path=[packages.PYTHON_TARGET])
    return sorted({(d.metadata['Name'], d.version) for d in found if d.metadata['Name']}, key=lambda d: d[0].lower())


def _list(command):
    """What this session installed (the image's own packages are not listed: they are always there)."""
    installed = _session_distributions()
    if command == 'freeze':
        for name, version in installed:
            print(f'{name}=={version}')
        return None
    if not installed:
        print('No packages installed in this session yet (the image\'s own are always there).')
        return None
    width = max(len(name) for name, _ in installed)
    print('Package'.ljust(width) + ' Version')
    print('-' * width + ' -------')
    for name, version in installed:
        print(name.ljust(width) + ' ' + version)


def _show(names):
    metadata = _metadata()
    for name in names:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            print(f'WARNING: Package(s) not found: {name}', file=sys.stderr)
            continue
        print(f"Name: {dist.metadata['Name']}\nVersion: {dist.version}\nSummary: {dist.metadata.get('Summary') or ''}")
        print(f'Location: {dist.locate_file("")}')
