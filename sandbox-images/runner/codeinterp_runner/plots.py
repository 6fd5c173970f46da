"""matplotlib in a cell: the Agg backend, and figures shown as PNG by plt.show() and at a cell's end.

pyplot is patched when the user imports it (an import hook), never imported here: nothing heavy
is loaded up front.
"""

import base64
import io
import os
import sys

_active = None  # the Runner executing a cell right now; the patched plt.show() reports to it


def activate(runner):
    """Makes ``runner`` (or None) the one plt.show() reports to; returns the one before."""
    global _active
    previous, _active = _active, runner
    return previous


def figure_png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format='png', bbox_inches='tight')
    return base64.b64encode(buffer.getvalue()).decode('ascii')


def is_figure(obj):
    figure_module = sys.modules.get('matplotlib.figure')  # only if the user imported matplotlib
    return figure_module is not None and isinstance(obj, figure_module.Figure)


def patch_pyplot(pyplot):
    """Makes plt.show() display the open figures (as PNG) of the running cell and close them."""
    if getattr(pyplot.show, '_codeinterp', False):
        return
    original = pyplot.show

    def show(*args, **kwargs):
        if _active is None:
            return original(*args, **kwargs)
        _active.show_figures()

    show._codeinterp = True
    show.__wrapped__ = original
    show.__doc__ = original.__doc__
    pyplot.show = show


class _PatchingLoader:
    """Wraps pyplot's loader so the module is patched as soon as it has run."""

    def __init__(self, loader):
        self._loader = loader

    def __getattr__(self, name):
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        patch_pyplot(module)


class _PyplotImportHook:
    """A meta-path finder that patches pyplot on import: a cell may import it and show() at once."""

    def find_spec(self, name, path=None, target=None):
        if name != 'matplotlib.pyplot':
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, 'find_spec'):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, 'exec_module'):
                    spec.loader = _PatchingLoader(spec.loader)
                return spec
        return None


def install():
    """The Agg backend and the pyplot import hook, once per process."""
    if 'matplotlib' not in sys.modules:
        os.environ['MPLBACKEND'] = 'Agg'  # read by matplotlib when (if ever) the user imports it
    if not any(isinstance(finder, _PyplotImportHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PyplotImportHook())
