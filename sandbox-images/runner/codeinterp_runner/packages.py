"""Installing a cell's packages inside the sandbox, offline (docs/runner-protocol.md, ``install``).

The server fetched and verified the artifacts on the host and binds its cache read-only at
``/packages``; here each file is hashed again (the name the server gives must be its content) and
unpacked into the session's own storage, the workspace, so installs outlive a restart and no two
sessions share one: wheels into ``.packages/python`` (put on sys.path), npm tarballs at their
lockfile paths under ``node_modules`` (where ``require`` looks from the workspace). Nothing
fetched is executed: wheels and tarballs are only unpacked, never built, and no install scripts run.
"""

import importlib
import os
import sys
import time

from . import protocol

# hashlib, shutil, zipfile and tarfile are imported in the functions that install: only installs
# need them, and every sandbox's start would pay for them (several ms of CPU).

CACHE = '/packages'
WORKSPACE = os.getcwd()  # the runner starts in the session's workspace
PYTHON_TARGET = os.path.join(WORKSPACE, '.packages', 'python')
_DONE = os.path.join(WORKSPACE, '.packages', 'installed')
_CHUNK = 1 << 16


class InstallError(Exception):
    """An artifact is missing, altered, or not a package we can unpack."""


def activate():
    """Puts the session's Python packages on sys.path (at start too: they survive a restart)."""
    if os.path.isdir(PYTHON_TARGET) and PYTHON_TARGET not in sys.path:
        sys.path.insert(1 if sys.path and sys.path[0] == '' else 0, PYTHON_TARGET)
    importlib.invalidate_caches()


def run_install(cell_id, request, emit):
    """The ``install`` of an execute command: emits ``install``, or ``error`` and ``finished``; True when the cell may run."""
    start = time.perf_counter()
    try:
        install(request)
    except Exception as exc:  # the cell must end, whatever went wrong
        emit(dict(protocol.error('InstallError', str(exc), []), id=cell_id))
        emit(protocol.finished(cell_id, 'error', None, round((time.perf_counter() - start) * 1000)))
        return False
    install_ms = round((time.perf_counter() - start) * 1000)
    emit({'type': 'install', 'id': cell_id, 'language': request.get('language', 'python'),
          'packages': list(request.get('packages', [])), 'cached': bool(request.get('cached')),
          'duration_ms': int(request.get('fetch_ms') or 0) + install_ms})
    return True


def install(request):
    """Installs ``request['artifacts']`` (each {path, sha256, dest}) for ``request['language']``.

    The entry point for anything else that installs (``%pip``): the same shape as the execute
    command's ``install``. Artifacts installed before in this session are skipped.
    """
    import hashlib
    language = request.get('language', 'python')
    artifacts = sorted(request.get('artifacts') or [], key=lambda a: a.get('dest') or '')
    os.makedirs(_DONE, exist_ok=True)
    for artifact in artifacts:
        sha256 = artifact.get('sha256')
        path = _cached_path(artifact.get('path'), sha256)
        marker = os.path.join(_DONE, hashlib.sha256(f"{sha256}\0{artifact.get('dest') or ''}".encode()).hexdigest())
        if os.path.exists(marker):
            continue
        _verify(path, sha256)
        if language == 'python':
            _unpack_wheel(path, PYTHON_TARGET)
        elif language == 'javascript':
            _unpack_npm(path, _npm_dest(artifact.get('dest')))
        else:
            raise InstallError(f'packages are not installed for {language}')
        open(marker, 'w').close()
    if language == 'python':
        activate()


def _cached_path(path, sha256):
    if not isinstance(sha256, str) or len(sha256) != 64 or path != f'{CACHE}/{sha256}':
        raise InstallError(f'not an artifact of the package cache: {path!r}')
    return path


def _verify(path, sha256):
    import hashlib
    digest = hashlib.sha256()
    try:
        with open(path, 'rb') as f:
            for chunk in iter(lambda: f.read(_CHUNK), b''):
                digest.update(chunk)
    except OSError as exc:
        raise InstallError(f'the package cache has no {os.path.basename(path)}: {exc.strerror}') from None
    if digest.hexdigest() != sha256:
        raise InstallError(f'{os.path.basename(path)} does not match its hash; refusing to install it')


def _inside(root, relative):
    """``root/relative``, or InstallError when the name would leave root (absolute, ``..``)."""
    parts = [p for p in relative.replace('\\', '/').split('/') if p not in ('', '.')]
    if relative.startswith('/') or '..' in parts or not parts:
        raise InstallError(f'refusing a file outside the package: {relative!r}')
    return os.path.join(root, *parts)


def _unpack_wheel(path, target):
    import shutil
    import zipfile
    try:
        with zipfile.ZipFile(path) as wheel:
            for info in wheel.infolist():
                name = info.filename
                head, _, rest = name.partition('/')
                if head.endswith('.data'):
                    kind, _, rest = rest.partition('/')
                    if kind not in ('purelib', 'platlib'):
                        continue  # scripts, headers, data: not importable, not needed by a cell
                    name = rest
                if info.is_dir() or not name:
                    continue
                destination = _inside(target, name)
                os.makedirs(os.path.dirname(destination), exist_ok=True)
                with wheel.open(info) as src, open(destination, 'wb') as dst:
                    shutil.copyfileobj(src, dst, _CHUNK)
    except zipfile.BadZipFile as exc:
        raise InstallError(f'not a wheel: {exc}') from None


def _npm_dest(dest):
    if not isinstance(dest, str) or not dest.startswith('node_modules/'):
        raise InstallError(f'not a place for an npm package: {dest!r}')
    return _inside(WORKSPACE, dest)


def _unpack_npm(path, destination):
    """An npm tarball (its files under one top folder, usually ``package/``) into ``destination``."""
    import shutil
    import tarfile
    if os.path.isdir(destination) and not os.path.islink(destination):
        shutil.rmtree(destination)  # another version was there: this one replaces it, as npm would
    os.makedirs(destination, exist_ok=True)
    try:
        with tarfile.open(path, 'r:gz') as tar:
            for member in tar:
                if not member.isfile():
                    continue  # folders come with their files; links and devices are not unpacked
                _, _, name = member.name.partition('/')
                if not name:
                    continue
                target = _inside(destination, name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with tar.extractfile(member) as src, open(target, 'wb') as dst:
                    shutil.copyfileobj(src, dst, _CHUNK)
                if member.mode & 0o111:
                    os.chmod(target, 0o755)
    except tarfile.TarError as exc:
        raise InstallError(f'not an npm package: {exc}') from None
