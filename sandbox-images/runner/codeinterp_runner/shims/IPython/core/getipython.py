from codeinterp_runner.shell import get_ipython  # noqa: F401
