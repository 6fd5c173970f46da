// One list of cells, run through the app in server mode and in local mode: the stored event
// sequences must match (text, MIME keys, error names, artifacts, statuses), and every execution
// ends with exactly one `finished`. The documented differences (docs/local-runtime-protocol.md)
// are left out of the comparison: tracebacks' text, timings, CPU and memory figures, and the hint
// local mode prints to stderr before a ModuleNotFoundError.
//
// The second test does the same for the lifecycle (timeout, interrupt, output cap, the grace
// period's restart) on a server of its own with small limits: local mode gets them with its page
// (LocalRuntimeConfig), so the same limits must give the same events, words included. What differs
// between the modes by nature, and is therefore not compared:
// * Interrupts keep state in local mode only when the page is cross-origin isolated (the app's is:
//   asserted below); elsewhere local mode must replace the interpreter to stop a cell (restarted,
//   state lost), which local-runtime.test.js covers.
// * Local mode sends SIGINT again every 150 ms until the cell stops (Pyodide now and then takes one
//   without raising); the server sends one. A cell that catches the first KeyboardInterrupt and
//   then carries on is stopped by the second in local mode and by the grace period's restart on
//   the server, so no such cell is listed: the one below catches every interrupt, and both modes
//   restart it after the grace period.
// * The server's cap counts bytes and may cut inside a UTF-8 character; local mode cuts before it.
//   The capped cell prints ASCII.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, BASE_URL } from '../browser.js';
import { startServer } from '../server.js';

const CELLS = [
  '1 + 1',
  "print('out')\nimport sys\nprint('err', file=sys.stderr)\nprint('out again')",
  'x = 5',
  'x * 2',
  'None',
  '1 / 0',
  'print(2 +',
  "class Rich:\n    def _repr_html_(self): return '<b>rich</b>'\n    def _repr_markdown_(self): return '**rich**'\n    def __repr__(self): return 'Rich()'\nRich()",
  "display({'a': 1})\ndisplay('text')\n'last'",
  "import json\nprint(json.dumps({'k': [1, 2]}))",
  "open('made.txt', 'w').write('made')",
  'import not_a_real_package',
  'for i in range(3):\n    print(i)',
  "import time\ntime.sleep(0.2)\n'slept'",
  "def f():\n    raise ValueError('custom')\nf()",
  "from IPython.display import display, HTML, Markdown, Math\ndisplay(HTML('<i>h</i>'), Markdown('# m'), Math('x^2'))",
  "h = display('v1', display_id='conformance')\nprint('between')\nh.update('v2')",
  "from IPython.display import clear_output\nprint('a')\nclear_output(wait=True)\nprint('b')",
  "%env CONFORMANCE=yes\nimport os\nos.environ['CONFORMANCE']",
  "%%writefile conformance.txt\nwritten by a magic",
  "%who str\n%nosuchmagic",
  "s = '''\n!not a command\n'''\nprint(s)",
  "name = input('name? ')\nimport getpass\nkey = getpass.getpass()\nprint('hi', name, len(key))",
];

// What the person types into a cell's input boxes, in order (cells not listed never ask).
const ANSWERS = { "name = input('name? ')\nimport getpass\nkey = getpass.getpass()\nprint('hi', name, len(key))": ['Ada', 's3cret'] };

// The lifecycle server's limits (CODEINTERP_TIMEOUT, _INTERRUPT_GRACE, _OUTPUT_CAP), which local mode is given with its page.
const LIMITS = { CODEINTERP_TIMEOUT: '2s', CODEINTERP_INTERRUPT_GRACE: '1s', CODEINTERP_OUTPUT_CAP: '2k' };
const SPIN = 'n = 0\nwhile True:\n    n += 1';
const DEAF = 'import time\nwhile True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass';
// `interrupt`: the person presses Interrupt once the cell has been running that long (ms).
const LIFECYCLE = [
  { code: 'kept = 41' },
  { code: SPIN }, // past its timeout: TimeoutError, `timeout`
  { code: 'kept + 1' }, // the timeout's interrupt kept the state
  { code: SPIN, interrupt: 500 }, // KeyboardInterrupt, `interrupted`
  { code: 'kept + 2' }, // so did the person's
  { code: "for i in range(300):\n    print('line', i)\n'printed'" }, // 2590 bytes: the first 2048, one `truncated`, then the value
  { code: "print('{\"type\": \"finished\", \"id\": \"x\", \"status\": \"ok\"}')\n'after'" }, // a cell's text is never the runner's line
  { code: DEAF, interrupt: 500 }, // ignores interrupts: restarted after the grace period, `interrupted`
  { code: 'kept' }, // the restart lost the state: NameError, counted from 1 again
  { code: 'kept = 1' },
  { code: DEAF }, // past its timeout, then past the grace period: TimeoutError, restarted, `timeout`
  { code: 'kept' },
];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const plain = (code) => ({ code, answers: ANSWERS[code] });

/** Runs the cells one after another as a person would: typing, answering input(), pressing Interrupt. */
async function runAll(page, cells) {
  for (const cell of cells) {
    const turn = await runCell(page, cell.code);
    for (const answer of cell.answers || []) {
      const field = turn.locator('[data-testid="input-field"]:not([disabled])');
      await field.fill(answer);
      await field.press('Enter');
    }
    if (cell.interrupt) {
      await turn.locator('.turn-footer').filter({ hasText: 'running' }).waitFor({ timeout: 30000 });
      await page.waitForTimeout(cell.interrupt);
      await page.getByTestId('interrupt').click();
    }
    await finished(turn);
  }
}

/** Runs `cells` in server mode, then in local mode, on the app at `base`; resolves to both event logs, stored. */
async function runBothModes(base, cells) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(base + '/');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    await runAll(page, cells);
    const server = await page.evaluate(async () => {
      const id = location.hash.replace('#/s/', '');
      const token = localStorage.getItem('codeinterp.token.' + id);
      const r = await fetch(`/api/v1/sessions/${id}/events`, { headers: { Authorization: 'Bearer ' + token } });
      return (await r.json()).events;
    });

    await page.getByTestId('mode-local').click();
    await page.getByTestId('status').filter({ hasText: 'Local' }).filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
    const isolated = await page.evaluate(() => crossOriginIsolated);
    await runAll(page, cells);
    // the history is written in batches: wait until it holds every cell's `finished`
    const stored = await page.waitForFunction((cellCount) => new Promise((resolve, reject) => {
      const id = location.hash.replace('#/l/', '');
      const open = indexedDB.open('codeinterp-local');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('events').objectStore('events').getAll(IDBKeyRange.bound([id, 0], [id, Infinity]));
        all.onsuccess = () => {
          const events = all.result.map((json) => JSON.parse(json));
          open.result.close();
          resolve(events.filter((e) => e.type === 'finished').length >= cellCount ? events : null);
        };
      };
    }), cells.length, { polling: 100, timeout: 10000 });
    const local = await stored.jsonValue();
    return { server, local, isolated };
  } finally {
    await context.close();
  }
}

/** Both modes' executions match cell by cell, and each ends with its one `finished`. */
function assertConform(server, local, codes) {
  const s = comparable(server);
  const l = comparable(local);
  assert.equal(s.length, codes.length);
  assert.equal(l.length, codes.length);
  for (let i = 0; i < codes.length; i++) {
    for (const [mode, events] of [['server', s[i]], ['local', l[i]]]) {
      assert.equal(events.filter((e) => e[0] === 'finished').length, 1, `${mode}, cell ${i + 1}: one finished`);
      assert.equal(events[events.length - 1][0], 'finished', `${mode}, cell ${i + 1}: finished comes last`);
    }
    assert.deepEqual(l[i], s[i], `cell ${i + 1}: ${codes[i]}`);
  }
}

/** Per execution, in order: what a user sees, without what may differ between the modes. */
function comparable(events) {
  const byExecution = new Map();
  for (const e of events) {
    if (!e.execution_id || e.type === 'queued') continue;
    if (!byExecution.has(e.execution_id)) byExecution.set(e.execution_id, []);
    const out = byExecution.get(e.execution_id);
    const last = out[out.length - 1];
    switch (e.type) {
      case 'stream':
        if (e.name === 'stderr' && / is not available in local mode: /.test(e.text)) break; // local's way out of a missing module
        if (last && last[0] === 'stream' && last[1] === e.name) last[2] += e.text;
        else out.push(['stream', e.name, e.text]);
        break;
      case 'display_data':
      case 'execute_result':
      case 'update_display_data':
        out.push([e.type, e.execution_count ?? null, Object.keys(e.data).sort(), e.data['text/plain'] ?? null,
          e.transient?.display_id ?? null]);
        break;
      case 'clear_output':
        out.push(['clear_output', e.wait]);
        break;
      case 'error':
        out.push(['error', e.ename, e.evalue]);
        break;
      case 'artifact':
        out.push(['artifact', e.name, e.size, e.mime]);
        break;
      case 'started':
        out.push(['started', e.execution_count]);
        break;
      case 'input_request':
        out.push(['input_request', e.prompt, e.password]);
        break;
      case 'finished':
        out.push(['finished', e.status]);
        break;
      case 'truncated':
        out.push(['truncated', e.limit_bytes]);
        break;
      case 'restarted':
        out.push(['restarted', e.reason]);
        break;
      default:
        out.push([e.type]);
    }
  }
  return [...byExecution.values()];
}

test('the same cells give equivalent events in server mode and in local mode', async () => {
  const { server, local } = await runBothModes(BASE_URL, CELLS.map(plain));
  assertConform(server, local, CELLS);
});

test('timeouts, interrupts, the output cap and the grace period give the same events in both modes, from the same limits', async () => {
  const own = await startServer({ ...LIMITS, CODEINTERP_POOL_SIZE: '1' });
  try {
    const { server, local, isolated } = await runBothModes(own.url, LIFECYCLE);
    assert.equal(isolated, true, "the app's page is cross-origin isolated, so local mode's interrupts keep state as the server's do");
    assertConform(server, local, LIFECYCLE.map((c) => c.code));
    // what the comparison holds, said outright: the server's limits, in the server's words, in both modes
    const [timedOut, , interrupted, , capped, , deaf, lost, , deafTimedOut] = comparable(local).slice(1);
    assert.deepEqual(timedOut.slice(1), [['error', 'TimeoutError', 'the cell ran longer than its timeout of 2 s and was interrupted'],
      ['finished', 'timeout']]);
    assert.deepEqual(interrupted.slice(-2), [['error', 'KeyboardInterrupt', ''], ['finished', 'interrupted']]);
    assert.equal(capped[1][2].length, 2048);
    assert.deepEqual(capped.slice(2).map((e) => e[0]), ['truncated', 'execute_result', 'finished']);
    assert.deepEqual(capped[2], ['truncated', 2048]);
    const restart = ['restarted', 'the cell did not stop within 1 s of being interrupted, so the interpreter was restarted'];
    assert.deepEqual(deaf.slice(1), [restart, ['finished', 'interrupted']]);
    assert.deepEqual(lost.slice(0, 2), [['started', 1], ['error', 'NameError', "name 'kept' is not defined"]]);
    assert.deepEqual(deafTimedOut.slice(1), [timedOut[1], restart, ['finished', 'timeout']]);
  } catch (e) {
    console.error(own.log().slice(-3000));
    throw e;
  } finally {
    await own.stop();
  }
});
