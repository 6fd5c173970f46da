"""What a cell sees as sys.stdout, sys.stderr, sys.stdin and input()."""

import codecs
import io


class StdinNotImplementedError(RuntimeError):
    """Raised by input() and sys.stdin reads: a cell cannot ask the user for input."""


# Tracebacks show it as plain `StdinNotImplementedError`, with no module path of the runner's.
StdinNotImplementedError.__module__ = 'builtins'


def no_input_message(what):
    return (f'{what} is not available here: code runs without a keyboard. '
            'Put the data in the code, or upload a file and read it.')


def input_unavailable(prompt=''):
    raise StdinNotImplementedError(no_input_message('input()'))


class OutputStream(io.TextIOBase):
    """sys.stdout / sys.stderr during a cell: text goes to the sink."""

    encoding = 'utf-8'
    errors = 'strict'

    def __init__(self, sink, name, fd=None):
        super().__init__()
        self._sink = sink
        self._name = name
        self._fd = fd
        self.buffer = _BinaryWriter(self)

    @property
    def name(self):
        return f'<{self._name}>'

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        if self._fd is None:
            raise io.UnsupportedOperation('fileno')
        return self._fd

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f'write() argument must be str, not {type(text).__name__}')
        if text:
            self._sink.write(self._name, text)
        return len(text)

    def flush(self):
        self._sink.flush_requested()

    def close(self):
        pass  # exit() and careless code close sys.stdout; later output must still arrive


class _BinaryWriter(io.RawIOBase):
    """sys.stdout.buffer: bytes are decoded as UTF-8 and written as text."""

    def __init__(self, text_stream):
        super().__init__()
        self._text = text_stream
        self._decoder = codecs.getincrementaldecoder('utf-8')('replace')

    def writable(self):
        return True

    def write(self, data):
        self._text.write(self._decoder.decode(bytes(data)))
        return len(data)

    def flush(self):
        self._text.flush()

    def fileno(self):
        return self._text.fileno()

    def close(self):
        pass


class NoInput(io.TextIOBase):
    """sys.stdin during a cell: reading fails at once instead of hanging or eating the protocol."""

    encoding = 'utf-8'
    errors = 'strict'
    name = '<stdin>'

    def __init__(self, fd=None):
        super().__init__()
        self._fd = fd

    def readable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        if self._fd is None:
            raise io.UnsupportedOperation('fileno')
        return self._fd

    def read(self, size=-1):
        raise StdinNotImplementedError(no_input_message('sys.stdin'))

    readline = read

    def readlines(self, hint=-1):
        return self.read()

    def close(self):
        pass  # exit() closes sys.stdin
