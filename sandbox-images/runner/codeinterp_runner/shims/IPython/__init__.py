"""IPython's public surface for cells run by codeinterp's runner (which is not an IPython kernel).

``IPython.display`` publishes into the runner's events; ``get_ipython()`` is the runner's shell.
The runner serves this package for ``import IPython`` ahead of any installed IPython, so display
output always reaches the conversation. The version is the IPython API level this follows.
"""

from codeinterp_runner.shell import Shell as InteractiveShell
from codeinterp_runner.shell import get_ipython

from . import core, display  # noqa: E402  (IPython.display works after a bare `import IPython`, as in IPython)

__version__ = '8.5.0'
version_info = (8, 5, 0, '')

__all__ = ['InteractiveShell', 'get_ipython', 'version_info']
