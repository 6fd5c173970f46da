"""The timing magics: ``%time``/``%%time`` and ``%timeit``/``%%timeit``, printed as IPython prints them."""

import ast
import math
import shlex
import time
import timeit as timeit_module

# %timeit stops repeating once its runs have taken this long: the cell has a server-side timeout
# (30 s by default), and a slow statement gets fewer runs rather than a timed-out cell.
TIMEIT_BUDGET_SECONDS = 5.0
_AUTORANGE_TARGET = 0.2  # seconds one run of the loop should take, as IPython aims for


def format_time(seconds, precision=3):
    """IPython's _format_time: 1.5 ms, 12.3 µs, 2min 3s."""
    if seconds >= 60.0:
        minutes, rest = divmod(seconds, 60)
        hours, minutes = divmod(minutes, 60)
        parts = [(hours, 'h'), (minutes, 'min'), (rest, 's')]
        return ' '.join(f'{int(value)}{unit}' for value, unit in parts if value >= 1 or unit == 's')
    units, scaling = ['s', 'ms', '\xb5s', 'ns'], [1, 1e3, 1e6, 1e9]
    order = min(-int(math.floor(math.log10(seconds)) // 3), 3) if seconds > 0.0 else 3
    return '%.*g %s' % (precision, seconds * scaling[order], units[order])


def _cpu_times():
    """(user, system) CPU seconds of this process, as IPython's %time counts them; system is 0 where unknown."""
    try:
        import resource
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime, usage.ru_stime
    except Exception:  # Pyodide: no getrusage
        return time.process_time(), 0.0


def run_timed(source, filename, first_line, globals_, locals_):
    """Runs ``source`` (statements, maybe ending in an expression) and prints its times; returns the value."""
    tree = ast.parse(source, filename)
    ast.increment_lineno(tree, first_line - 1)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = compile(ast.Expression(tree.body.pop().value), filename, 'eval')
    body = compile(tree, filename, 'exec')
    user0, system0 = _cpu_times()
    wall0 = time.perf_counter()
    exec(body, globals_, locals_)
    value = eval(last, globals_, locals_) if last is not None else None
    wall = time.perf_counter() - wall0
    user1, system1 = _cpu_times()
    user, system = user1 - user0, system1 - system0
    print(f'CPU times: user {format_time(user)}, sys: {format_time(system)}, total: {format_time(user + system)}')
    print(f'Wall time: {format_time(wall)}')
    return value


class TimeitResult:
    """What ``%timeit -o`` returns, with IPython's attribute names."""

    def __init__(self, loops, repeat, all_runs, precision=3):
        self.loops, self.repeat, self.all_runs, self._precision = loops, repeat, all_runs, precision
        self.timings = [run / loops for run in all_runs]
        self.best, self.worst = min(self.timings), max(self.timings)
        self.average = sum(self.timings) / len(self.timings)
        self.stdev = math.sqrt(sum((t - self.average) ** 2 for t in self.timings) / len(self.timings))

    def __str__(self):
        runs = len(self.all_runs)
        return (f'{format_time(self.average, self._precision)} \xb1 {format_time(self.stdev, self._precision)} '
                f'per loop (mean \xb1 std. dev. of {runs} run{"s" if runs != 1 else ""}, '
                f'{self.loops:,} loop{"s" if self.loops != 1 else ""} each)')

    __repr__ = __str__


def timeit(line, cell, globals_, locals_):
    """``%timeit [-n N] [-r R] [-q] [-o] stmt`` (with ``cell``: the line is the setup)."""
    options, rest = _options(line)
    stmt, setup = (cell, rest or 'pass') if cell is not None else (rest, 'pass')
    namespace = dict(globals_)
    if locals_ is not globals_:
        namespace.update(locals_)
    timer = timeit_module.Timer(stmt, setup, timer=time.perf_counter, globals=namespace)
    loops = options.get('n')
    started = time.perf_counter()
    if loops is None:
        loops = 1
        while True:
            first = timer.timeit(loops)
            if first >= _AUTORANGE_TARGET or loops >= 10 ** 9:
                break
            loops *= 10 if first * 10 < _AUTORANGE_TARGET else 2
    else:
        first = timer.timeit(loops)
    runs = [first]
    wanted = options.get('r', 7)
    while len(runs) < wanted and time.perf_counter() - started + first <= TIMEIT_BUDGET_SECONDS:
        runs.append(timer.timeit(loops))
    result = TimeitResult(loops, wanted, runs, options.get('p', 3))
    if not options.get('q'):
        print(result)
    return result if options.get('o') else None


def _options(line):
    """IPython's -n/-r/-p (with a value), -q/-o (flags), and the statement after them."""
    options = {}
    words = line.lstrip()
    while words.startswith('-'):
        head, _, tail = words.partition(' ')
        flag = head[1:2]
        if flag in ('q', 'o') and len(head) == 2:
            options[flag] = True
            words = tail.lstrip()
            continue
        if flag in ('n', 'r', 'p'):
            value = head[2:]
            if not value:
                value, _, tail = tail.lstrip().partition(' ')
            options[flag] = max(1, int(shlex.split(value)[0]))
            words = tail.lstrip()
            continue
        break
    return options, words
