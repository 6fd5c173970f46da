from codeinterp_runner.shell import Shell as InteractiveShell  # noqa: F401
