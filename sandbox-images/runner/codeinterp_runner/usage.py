"""What a cell cost, as ``finished`` reports it: ``cpu_ms`` and ``peak_memory_kb``.

One meaning for every language: ``cpu_ms`` is the user+system CPU that the process running the
cell (the runner for Python, node or bash for theirs) and the commands it ran and waited for used
during the cell; ``peak_memory_kb`` is the high-water resident memory of that process or of a
command it ran, over the process's life so far (what ``ru_maxrss`` means).

Python cells read the runner's own getrusage (SELF and CHILDREN). node and bash are other
processes, read from /proc: utime+stime+cutime+cstime of /proc/<pid>/stat (the c* fields are the
children it waited for, so `sleep`/`python3 -c` in a bash cell count) and VmHWM of
/proc/<pid>/status. Only the process itself can ask the kernel for its waited children's peak
(RUSAGE_CHILDREN), which bash and node do not expose, so their descendants' VmHWM is sampled
while the cell runs (every SAMPLE_SECONDS): a command that lives shorter than that may be missed.
gVisor has neither VmHWM nor the children files: there VmRSS is sampled and /proc scanned.
The first cell in a language also pays for starting its interpreter.
"""

import functools
import os

try:
    import resource
except ImportError:  # Pyodide has no getrusage
    resource = None

SAMPLE_SECONDS = 0.02


def _rusage(who):
    """(cpu seconds, peak RSS KiB) from getrusage(RUSAGE_<who>), or None where it is missing."""
    if resource is None:
        return None
    try:
        usage = resource.getrusage(getattr(resource, 'RUSAGE_' + who))
    except Exception:  # a stub that exists but does not work
        return None
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def runner_usage():
    """(cpu seconds, peak RSS KiB) of this process and the children it waited for; None without getrusage."""
    own, waited = _rusage('SELF'), _rusage('CHILDREN')
    if own is None or waited is None:
        return None
    return own[0] + waited[0], max(own[1], waited[1])


def _reaped_usage():
    return _rusage('CHILDREN')


def _cpu_seconds(pid):
    """utime+stime+cutime+cstime of ``pid``, or None once it is gone."""
    try:
        with open(f'/proc/{pid}/stat', 'rb') as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(b')') + 2:].split()  # after "pid (comm) ": the name may hold spaces
    return sum(int(value) for value in fields[11:15]) / _ticks_per_second()


@functools.cache
def _ticks_per_second():  # asked only where there is a /proc (never in Pyodide)
    return os.sysconf('SC_CLK_TCK')


def _peak_kb(pid):
    """VmHWM of ``pid``; gVisor has no VmHWM, so there its current VmRSS (the samples make the peak)."""
    found = {}
    try:
        with open(f'/proc/{pid}/status', 'rb') as f:
            for line in f:
                if line.startswith((b'VmHWM:', b'VmRSS:')):
                    found[line[:5]] = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return found.get(b'VmHWM', found.get(b'VmRSS', 0))


def _children_of(pid):
    """Linux lists each thread's children in /proc; a whole-/proc scan only where it does not (gVisor)."""
    if not _children_files():
        return _children_by_scan(pid)
    kids = []
    try:
        for task in os.listdir(f'/proc/{pid}/task'):
            with open(f'/proc/{pid}/task/{task}/children', 'rb') as f:
                kids.extend(int(kid) for kid in f.read().split())
    except OSError:  # gone: its own figures still count
        pass
    return kids


@functools.cache
def _children_files():
    return os.path.exists(f'/proc/self/task/{os.getpid()}/children')


def _children_by_scan(pid):
    kids = []
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                with open(f'/proc/{name}/stat', 'rb') as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat[stat.rindex(b')') + 2:].split()[1]) == pid:
                kids.append(int(name))
    return kids


class ChildUsage:
    """The figures of one child interpreter (node, bash) and everything it starts, for its whole life."""

    def __init__(self, pid):
        self.pid = pid
        self.peak_kb = 0

    def cpu_seconds(self):
        return _cpu_seconds(self.pid)

    def sample(self):
        """Raises ``peak_kb`` to the child's and its live descendants' high-water marks."""
        pending, seen = [self.pid], set()
        while pending:
            pid = pending.pop()
            if pid in seen:
                continue
            seen.add(pid)
            self.peak_kb = max(self.peak_kb, _peak_kb(pid))
            pending.extend(_children_of(pid))


class CellMeter:
    """One cell's figures for a child: CPU since ``begin``, and the child's peak so far.

    When the child dies during the cell the runner reaps it, and its CPU and peak (with its own
    waited children's) arrive in the runner's RUSAGE_CHILDREN, which covers what /proc no longer can.
    """

    def __init__(self, child_usage, fresh):
        """``fresh``: the child was started for this cell, which then pays for its start-up too."""
        self._child = child_usage
        self._cpu_before = 0.0 if fresh else child_usage.cpu_seconds() or 0.0
        self._reaped_before = _reaped_usage()
        child_usage.sample()

    def end(self):
        """(cpu_ms, peak_memory_kb) of the cell."""
        self._child.sample()
        cpu_after = self._child.cpu_seconds()
        if cpu_after is not None:
            return round(max(0.0, cpu_after - self._cpu_before) * 1000), self._child.peak_kb or None
        return self.end_after_exit()

    def end_after_exit(self):
        """The figures once the child has exited and been reaped during the cell."""
        after = _reaped_usage()
        if after is None or self._reaped_before is None:
            return None, self._child.peak_kb or None
        cpu = after[0] - self._reaped_before[0] - self._cpu_before
        return round(max(0.0, cpu) * 1000), max(self._child.peak_kb, after[1]) or None
