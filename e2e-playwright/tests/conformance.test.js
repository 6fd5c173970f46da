// One list of cells, run through the app in server mode and in local mode: the stored event
// sequences must match (text, MIME keys, error names, artifacts, statuses). The documented
// differences (docs/local-runtime-protocol.md) are left out of the comparison: tracebacks' text,
// timings, CPU and memory figures, and the hint local mode prints to stderr before a
// ModuleNotFoundError.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, runCell, finished, BASE_URL } from '../browser.js';

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

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function runAll(page) {
  for (const code of CELLS) {
    const turn = await runCell(page, code);
    for (const answer of ANSWERS[code] || []) {
      const field = turn.locator('[data-testid="input-field"]:not([disabled])');
      await field.fill(answer);
      await field.press('Enter');
    }
    await finished(turn);
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
        if (e.name === 'stderr' && e.text.startsWith('Local mode: ')) break; // local's hint on a missing module
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
      default:
        out.push([e.type]);
    }
  }
  return [...byExecution.values()];
}

test('the same cells give equivalent events in server mode and in local mode', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(BASE_URL + '/');
    await page.getByTestId('status').filter({ hasText: 'connected' }).waitFor({ timeout: 30000 });
    await runAll(page);
    const server = await page.evaluate(async () => {
      const id = location.hash.replace('#/s/', '');
      const token = localStorage.getItem('codeinterp.token.' + id);
      const r = await fetch(`/api/v1/sessions/${id}/events`, { headers: { Authorization: 'Bearer ' + token } });
      return (await r.json()).events;
    });

    await page.getByTestId('mode-local').click();
    await page.getByTestId('status').filter({ hasText: 'Local' }).filter({ hasText: 'ready' }).waitFor({ timeout: 60000 });
    await runAll(page);
    await page.waitForTimeout(400); // the history's last batch is written
    const local = await page.evaluate(() => new Promise((resolve, reject) => {
      const id = location.hash.replace('#/l/', '');
      const open = indexedDB.open('codeinterp-local');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('events').objectStore('events').getAll(IDBKeyRange.bound([id, 0], [id, Infinity]));
        all.onsuccess = () => resolve(all.result.map((json) => JSON.parse(json)));
      };
    }));

    const s = comparable(server);
    const l = comparable(local);
    assert.equal(s.length, CELLS.length);
    assert.equal(l.length, CELLS.length);
    for (let i = 0; i < CELLS.length; i++) {
      assert.deepEqual(l[i], s[i], `cell ${i + 1}: ${CELLS[i]}`);
    }
  } finally {
    await context.close();
  }
});
