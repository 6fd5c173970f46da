"""A runner warmed for a template: the libraries most cells import, loaded before any cell runs.

The server checkpoints a warmed runner once and starts new sessions from that checkpoint, so a
first ``import pandas`` costs nothing. Loaded into ``sys.modules`` only: no name appears in the
cells' namespace, and the execution count stays at 0.
"""

import importlib

#: What the image's cells import most (and most slowly); a module missing from an image is skipped.
MODULES = ('numpy', 'pandas', 'matplotlib', 'matplotlib.pyplot')


def warm():
    for name in MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
