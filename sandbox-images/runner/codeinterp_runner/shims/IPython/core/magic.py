"""Registering magics of one's own: the decorators of IPython.core.magic, for plain functions."""

from codeinterp_runner.shell import get_ipython


def _register(kind):
    def register(arg):
        def decorate(function, name=None):
            get_ipython().register_magic_function(function, kind, name)
            return function
        if callable(arg):
            return decorate(arg)
        return lambda function: decorate(function, arg)
    return register


register_line_magic = _register('line')
register_cell_magic = _register('cell')
register_line_cell_magic = _register('line_cell')
