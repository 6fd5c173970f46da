"""The cell runner: executes Python cells with notebook semantics and reports Jupyter-style events.

One package, two homes (the wire protocol is docs/runner-protocol.md):

* sandbox: ``python3 -u -P -m codeinterp_runner`` (with this package's parent on PYTHONPATH) reads
  one JSON command per line on stdin and writes one JSON event per line on stdout
  (``__main__``). The transport keeps private copies of fds 0 and 1; the user's fd 0 is /dev/null
  and fds 1/2 are pipes, so subprocess output is captured too (``stdio``).
* Pyodide: the worker's ``pyodide_host`` calls ``cells.Runner(emit).execute(cell_id, code)``;
  events go to ``emit`` as they happen. No threads, fds or signals there; interrupts arrive as
  KeyboardInterrupt.

Modules: ``protocol`` (the messages in and out), ``cells`` (execution, namespace, interrupts),
``output`` (coalesced, capped streams), ``streams`` (sys.stdout/stderr/stdin of a cell),
``display`` (MIME bundles), ``plots`` (matplotlib capture), ``tracebacks`` (the user's view of
an error), ``stdio`` (the sandbox's JSON-lines transport).

Standard library only, and nothing heavy up front: pandas and matplotlib are only touched once the
user has imported them.
"""
