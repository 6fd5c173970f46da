"""What a cold runner costs: CPU seconds and import time of starting it, alone and with one `1+1` cell.

Run inside the sandbox image, as the tests are (issue 9's figures come from here):
  docker run --rm --network none -v "$PWD/sandbox-images/runner/tools:/t:ro" "$CODEINTERP_IMAGE" python3 /t/startup_cost.py
"""

import json
import resource
import statistics
import subprocess
import sys

RUNNER = [sys.executable, '-u', '-P', '-m', 'codeinterp_runner']
ONE_CELL = (json.dumps({'type': 'execute', 'id': 'c1', 'code': '1+1'}) + '\n').encode()
RUNS = 21


def cpu_of(argv, stdin):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def import_ms():
    """(ms, modules): cumulative import time of the top-level imports but `site` (the runner's, and the
    interpreter's own few), and how many modules were imported in all."""
    err = subprocess.run([sys.executable, '-X', 'importtime', *RUNNER[1:]], input=b'', stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, check=True).stderr.decode()
    total, modules = 0, 0
    for line in err.splitlines():
        if not line.startswith('import time:') or 'cumulative' in line:
            continue
        _, cumulative, name = line[len('import time:'):].split('|')
        modules += 1
        if not name.startswith('  ') and name.strip() != 'site':  # top level: one space after the bar
            total += int(cumulative)
    return total / 1000, modules


def main():
    bare = statistics.median(cpu_of([sys.executable, '-c', 'pass'], b'') for _ in range(RUNS))
    start = statistics.median(cpu_of(RUNNER, b'') for _ in range(RUNS))
    cell = statistics.median(cpu_of(RUNNER, ONE_CELL) for _ in range(RUNS))
    imports = [import_ms() for _ in range(RUNS)]
    print(f'median of {RUNS} runs')
    print(f'bare python3 -c pass:        {bare:.4f} CPU-s')
    print(f'runner start, stdin closed:  {start:.4f} CPU-s')
    print(f'runner start + one 1+1 cell: {cell:.4f} CPU-s')
    print(f'runner imports (-X importtime, top level, no site): '
          f'{statistics.median(ms for ms, _ in imports):.1f} ms, {imports[0][1]} modules in all')


if __name__ == '__main__':
    main()
