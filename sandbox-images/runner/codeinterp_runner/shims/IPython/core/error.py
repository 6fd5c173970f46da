from codeinterp_runner.shell import UsageError  # noqa: F401
