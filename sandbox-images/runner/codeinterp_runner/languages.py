"""The cell languages besides Python: each runs in a child process of its own (sandbox only)."""

from . import protocol

# Where there are no fds to capture a child's output (Pyodide, in-process use) only Python runs.
_UNAVAILABLE = {
    'javascript': 'JavaScript runs in server mode for now; switch this conversation to Server mode',
    'bash': 'Bash needs a real shell; use Server mode to run bash cells',
}


class OtherLanguages:
    """The session's node and bash processes, each started by the first cell in its language."""

    def __init__(self, available):
        self._available = available
        self._children = {}
        self.cell_usage = (None, None)  # (cpu_ms, peak_memory_kb) of the last cell (``usage``)

    def run(self, language, code, count, sink):
        """Runs a cell and returns its status; interrupts (KeyboardInterrupt) go on to the child."""
        self.cell_usage = (None, None)
        if not self._available:
            sink.send(protocol.error('LanguageUnavailable', _UNAVAILABLE[language], []))
            return 'error'
        child = self._children.get(language)
        if child is None:
            child = self._children[language] = self._make(language)
        try:
            return child.run(code, count, sink)
        finally:
            self.cell_usage = child.cell_usage

    @staticmethod
    def _make(language):
        if language == 'javascript':
            from .javascript import JavaScript
            return JavaScript()
        from .bash import Bash
        return Bash()

    def close(self):
        for child in self._children.values():
            child.close()
        self._children = {}
