// Local mode's JavaScript worker through the runtime frame's own protocol
// (docs/local-runtime-protocol.md, "JavaScript and bash cells"): REPL semantics close to server
// mode's node_repl.js, counts across languages, and the frame's timeout, cap and restart.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openRuntime, run, textOf, finishedOf, errorOf, resultOf } from '../local-runtime.js';

let browser;
let shared;
before(async () => {
  browser = await launch();
  shared = await openRuntime(browser, { isolated: true });
});
after(async () => {
  await shared?.context.close();
  await browser?.close();
});

const js = (page, code, options = {}) => run(page, code, { ...options, language: 'javascript' });

describe('REPL semantics', () => {
  test('declarations persist and may be declared again, top-level await works, the last value is the result', async () => {
    const { page } = shared;
    assert.equal(resultOf(await js(page, 'const a = 1; let b = 2; class C {}; a + b')).data['text/plain'], '3');
    assert.equal(resultOf(await js(page, 'const a = 40; a + b')).data['text/plain'], '42', 'const declared again, as in Node\'s REPL');
    const awaited = resultOf(await js(page, 'const got = await new Promise((r) => setTimeout(() => r({ n: a, list: [1, "x"] }), 50));\ngot'));
    assert.equal(awaited.data['text/plain'], "{ n: 40, list: [ 1, 'x' ] }");
    assert.deepEqual(awaited.data['application/json'], { n: 40, list: [1, 'x'] });
    assert.equal(resultOf(await js(page, 'new C() instanceof C')).data['text/plain'], 'true');
    assert.equal(resultOf(await js(page, 'let nothing;')), undefined, 'no value, no result');
  });

  test('console.log is stdout and console.error stderr, in order; a late timer of an ended cell prints nowhere', async () => {
    const { page } = shared;
    const events = await js(page, 'console.log("one", 1, { k: [2] }); console.error("two"); console.info("three"); setTimeout(() => console.log("late"), 300)');
    assert.deepEqual(events.filter((e) => e.type === 'stream').map((e) => [e.name, e.text]),
      [['stdout', "one 1 { k: [ 2 ] }\n"], ['stderr', 'two\n'], ['stdout', 'three\n']]);
    await new Promise((r) => setTimeout(r, 500));
    const next = await js(page, '1');
    assert.equal(textOf(next), '', 'the late line did not land in the next cell');
  });

  test('errors carry the cell\'s own frames only; a SyntaxError shows where', async () => {
    const { page } = shared;
    const thrown = errorOf(await js(page, 'function inner() { throw new RangeError("too far"); }\ninner()'));
    assert.equal(thrown.ename, 'RangeError');
    assert.equal(thrown.evalue, 'too far');
    assert.equal(thrown.traceback[0], 'RangeError: too far');
    assert.ok(thrown.traceback.slice(1).every((l) => /^\s+at .*<cell-\d+>:\d+:\d+/.test(l)), JSON.stringify(thrown.traceback));
    assert.ok(thrown.traceback.length >= 3);
    const syntax = await js(page, 'let x = ;');
    assert.equal(finishedOf(syntax).status, 'error');
    assert.equal(errorOf(syntax).ename, 'SyntaxError');
    assert.deepEqual(errorOf(syntax).traceback.slice(1, 3), ['let x = ;', '        ^']);
    assert.equal(errorOf(await js(page, 'throw 7')).evalue, '7');
  });

  test('execution counts run across Python and JavaScript, as in one server session', async () => {
    const { page, context: own } = await openRuntime(browser, { isolated: true, context: await browser.newContext() });
    try {
      const counts = [];
      for (const [language, code] of [['python', '1'], ['javascript', '2'], ['javascript', '3'], ['python', '4'], ['bash', 'echo']]) {
        const events = await run(page, code, { language });
        counts.push(events.find((e) => e.type === 'started').execution_count);
        if (language !== 'bash') {
          assert.equal(resultOf(events).execution_count, counts.at(-1), `${language} ${code}`);
        }
      }
      assert.deepEqual(counts, [1, 2, 3, 4, 5]);
    } finally {
      await own.close();
    }
  });
});

describe('the frame\'s policies apply to JavaScript', () => {
  test('a timeout ends the worker: TimeoutError, restarted, and JavaScript starts fresh while Python keeps its state', async () => {
    const { page } = shared;
    await run(page, 'py_kept = 41');
    await js(page, 'var jsKept = 1');
    const events = await js(page, 'while (true) {}', { timeoutMs: 1000 });
    assert.equal(finishedOf(events).status, 'timeout');
    assert.equal(errorOf(events).ename, 'TimeoutError');
    assert.match(events.find((e) => e.type === 'restarted').reason, /JavaScript interpreter was replaced/);
    assert.equal(resultOf(await js(page, 'typeof jsKept')).data['text/plain'], "'undefined'");
    assert.equal(resultOf(await run(page, 'py_kept + 1')).data['text/plain'], '42');
  });

  test('the output cap holds: text past it is dropped and said so', async () => {
    const { page } = shared;
    const events = await js(page, 'for (let i = 0; i < 5000; i++) console.log("x".repeat(99))', { maxOutputBytes: 10000 });
    assert.equal(finishedOf(events).status, 'ok');
    assert.equal(Buffer.byteLength(textOf(events)), 10000);
    assert.equal(events.filter((e) => e.type === 'truncated').length, 1);
  });

  test('restart gives fresh interpreters in both languages', async () => {
    const { page } = shared;
    await js(page, 'var beforeRestart = 1');
    await page.evaluate(() => {
      const from = rt.messages.length;
      rt.send({ type: 'restart' });
      return rt.wait((m) => m.type === 'ready', 120000, from);
    });
    assert.equal(resultOf(await js(page, 'typeof beforeRestart')).data['text/plain'], "'undefined'");
  });
});
