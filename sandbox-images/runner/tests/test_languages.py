"""JavaScript and bash cells: the same events as Python, a persistent interpreter per language."""

import shutil
import unittest

from .harness import ProcessTestCase, Runner, of_type, only, result_text, stream_text

needs_node = unittest.skipUnless(shutil.which('node'), 'node is not installed here')


def js(runner, code, **fields):
    return runner.run_cell(code, language='javascript', **fields)


def sh(runner, code, **fields):
    return runner.run_cell(code, language='bash', **fields)


class BashCells(ProcessTestCase):
    def test_output_streams_and_the_shell_keeps_cwd_and_exports(self):
        events = sh(self, 'echo $((6*7)); mkdir -p sub && cd sub; export GREETING=hi')
        self.assert_ok(events)
        self.assertEqual(stream_text(events, 'stdout'), '42\n')
        events = sh(self, 'basename "$PWD"; echo $GREETING; f() { echo "f:$1"; }')
        self.assertEqual(stream_text(events, 'stdout'), 'sub\nhi\n')
        self.assertEqual(stream_text(sh(self, 'f x'), 'stdout'), 'f:x\n')

    def test_a_non_zero_exit_status_is_an_error_with_the_code(self):
        events = sh(self, 'echo before; (exit 3)')
        self.assertEqual(events[-1]['status'], 'error')
        error = only(events, 'error')
        self.assertEqual((error['ename'], error['evalue']), ('ExitCode', 'exit status 3'))
        self.assertEqual(stream_text(events), 'before\n')

    def test_exit_ends_the_shell_and_the_next_cell_gets_a_fresh_one(self):
        sh(self, 'export KEPT=1')
        events = sh(self, 'exit 4')
        self.assertEqual(events[-1]['status'], 'error')
        self.assertIn('exit status 4', only(events, 'error')['evalue'])
        self.assertEqual(stream_text(sh(self, 'echo "[$KEPT]"')), '[]\n')

    def test_a_cell_cannot_read_the_commands_meant_for_the_shell(self):
        events = sh(self, 'cat; read line; echo "read:$line"')
        self.assertEqual(stream_text(events), 'read:\n')
        self.assert_ok(sh(self, 'true'))

    def test_an_interrupt_stops_the_cell_and_keeps_the_shell(self):
        sh(self, 'export KEPT=yes')
        cell = self.runner.execute('echo go; sleep 30; echo never', language='bash')
        self.runner.wait_for_stream()
        self.runner.send({'type': 'interrupt'})
        events = [e for _, e in self.runner.collect_timed(cell, timeout=10)]
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assertNotIn('never', stream_text(events))
        self.assertEqual(stream_text(sh(self, 'echo $KEPT')), 'yes\n')

    def test_a_busy_shell_loop_is_interrupted_too(self):
        cell = self.runner.execute('echo go; while true; do :; done', language='bash')
        self.runner.wait_for_stream()
        self.runner.send({'type': 'interrupt'})
        events = [e for _, e in self.runner.collect_timed(cell, timeout=10)]
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assert_ok(sh(self, 'true'))

    def test_flooding_output_hits_the_cells_cap(self):
        events = sh(self, 'yes spam | head -c 3000000', max_output_bytes=10000)
        self.assertEqual(len(of_type(events, 'truncated')), 1)
        self.assertLessEqual(len(stream_text(events).encode()), 10000)


@needs_node
class JavaScriptCells(ProcessTestCase):
    def test_console_streams_and_the_last_expression_is_the_result(self):
        events = js(self, 'console.log(1+1); console.error("warn"); 6*7')
        self.assert_ok(events)
        self.assertEqual(stream_text(events, 'stdout'), '2\n')
        self.assertEqual(stream_text(events, 'stderr'), 'warn\n')
        self.assertEqual(result_text(events), '42')

    def test_plain_data_comes_as_json_too(self):
        result = only(js(self, '({n: 1, xs: [1, 2, "three"]})'), 'execute_result')
        self.assertEqual(result['data']['application/json'], {'n': 1, 'xs': [1, 2, 'three']})
        self.assertIn("xs: [ 1, 2, 'three' ]", result['data']['text/plain'])
        self.assertNotIn('application/json', only(js(self, 'new Map([[1, 2]])'), 'execute_result')['data'])

    def test_declarations_persist_and_const_may_be_declared_again(self):
        js(self, 'const a = 1; let b = 2; class Point {}; function twice(x) { return 2 * x }')
        self.assertEqual(result_text(js(self, 'twice(a + b)')), '6')
        events = js(self, 'const a = 10; a')
        self.assert_ok(events)
        self.assertEqual(result_text(events), '10')

    def test_top_level_await_keeps_its_declarations(self):
        events = js(self, 'const v = await new Promise(r => setTimeout(() => r(41), 10)); v + 1')
        self.assertEqual(result_text(events), '42')
        self.assertEqual(result_text(js(self, 'v')), '41')

    def test_errors_carry_name_message_and_the_users_frames_only(self):
        events = js(self, 'function inner() { throw new TypeError("bad input") }\ninner()')
        self.assertEqual(events[-1]['status'], 'error')
        error = only(events, 'error')
        self.assertEqual((error['ename'], error['evalue']), ('TypeError', 'bad input'))
        trace = '\n'.join(error['traceback'])
        self.assertIn('<cell-', trace)
        self.assertIn('inner', trace)
        self.assertNotIn('node_repl.js', trace)
        self.assertNotIn('node:internal', trace)

    def test_a_syntax_error_is_an_error_event(self):
        error = only(js(self, 'let x = ;'), 'error')
        self.assertEqual(error['ename'], 'SyntaxError')

    def test_require_and_files_in_the_working_directory(self):
        events = js(self, 'const fs = require("fs"); fs.writeFileSync("note.txt", "hi"); fs.readFileSync("note.txt", "utf8")')
        self.assertEqual(result_text(events), "'hi'")
        self.assertEqual(result_text(js(self, '(await import("path")).join("a", "b")')), "'a/b'")

    def test_an_interrupt_stops_an_endless_loop_and_keeps_state(self):
        js(self, 'var kept = 7')
        cell = self.runner.execute('console.log("spinning"); while (true) {}', language='javascript')
        self.runner.wait_for_stream()
        self.runner.send({'type': 'interrupt'})
        events = [e for _, e in self.runner.collect_timed(cell, timeout=10)]
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assertEqual(result_text(js(self, 'kept')), '7')

    def test_an_interrupt_stops_a_cell_awaiting_forever(self):
        cell = self.runner.execute('console.log("waiting"); await new Promise(() => {})', language='javascript')
        self.runner.wait_for_stream()
        self.runner.send({'type': 'interrupt'})
        events = [e for _, e in self.runner.collect_timed(cell, timeout=10)]
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assertEqual(result_text(js(self, '1 + 1')), '2')

    def test_flooding_output_hits_the_cells_cap(self):
        events = js(self, 'for (let i = 0; i < 100000; i++) console.log("spam spam spam")', max_output_bytes=10000)
        self.assertEqual(len(of_type(events, 'truncated')), 1)
        self.assertLessEqual(len(stream_text(events).encode()), 10000)
        self.assert_ok(events)


class LanguagesBeside(ProcessTestCase):
    @needs_node
    def test_each_language_keeps_its_own_state_in_one_session(self):
        self.run_cell('x = "py"')
        js(self, 'var x = "js"')
        sh(self, 'x=sh')
        self.assertEqual(result_text(self.run_cell('x')), "'py'")
        self.assertEqual(result_text(js(self, 'x')), "'js'")
        self.assertEqual(stream_text(sh(self, 'echo $x')), 'sh\n')

    def test_an_unknown_language_is_a_protocol_error(self):
        self.runner.execute('1', language='cobol')
        event = self.runner.next_event()
        self.assertEqual(event['type'], 'protocol_error')
        self.assertIn("unknown language 'cobol'", event['message'])


class LanguagesInProcess(unittest.TestCase):
    def test_without_the_sandbox_fds_other_languages_say_where_they_run(self):
        events = []
        runner = Runner(events.append, threaded=False)
        runner.execute('c1', 'console.log(1)', language='javascript')
        runner.execute('c2', 'echo 1', language='bash')
        errors = of_type(events, 'error')
        self.assertIn('server mode', errors[0]['evalue'])
        self.assertIn('Server mode', errors[1]['evalue'])
        self.assertEqual([e['status'] for e in of_type(events, 'finished')], ['error', 'error'])


if __name__ == '__main__':
    unittest.main()
