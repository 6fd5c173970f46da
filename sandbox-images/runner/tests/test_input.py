"""input() and getpass(): lines sent with the cell, a question to the person, or a clear failure."""

import json
import unittest

from .harness import ProcessTestCase, Runner, of_type, only, result_text, stream_text


class InputFromStdinLinesTest(ProcessTestCase):
    def test_input_reads_the_cells_stdin_lines_in_order(self):
        events = self.run_cell('a = input("first? ")\nb = input()\n(a, b)', stdin='Ada\nLovelace\n')
        self.assert_ok(events)
        self.assertEqual(result_text(events), "('Ada', 'Lovelace')")
        self.assertEqual(stream_text(events, 'stdout'), 'first? Ada\nLovelace\n')
        self.assertEqual(of_type(events, 'input_request'), [])

    def test_input_past_the_last_line_raises_eof_error_as_a_piped_stdin_does(self):
        events = self.run_cell('input()\ninput("again? ")', stdin='only one')
        self.assertEqual(events[-1]['status'], 'error')
        error = only(events, 'error')
        self.assertEqual((error['ename'], error['evalue']), ('EOFError', 'EOF when reading a line'))

    def test_getpass_reads_a_line_and_does_not_echo_it(self):
        events = self.run_cell('import getpass\npw = getpass.getpass()\nlen(pw)', stdin='s3cret\n')
        self.assert_ok(events)
        self.assertEqual(result_text(events), '6')
        self.assertNotIn('s3cret', json.dumps(events))

    def test_stdin_lines_belong_to_their_cell_only(self):
        self.assert_ok(self.run_cell('input()', stdin='x\n'))
        events = self.run_cell('input("name? ")')
        self.assertEqual(only(events, 'error')['ename'], 'StdinNotImplementedError')

    def test_a_stdin_that_is_not_a_string_is_refused_and_nothing_runs(self):
        self.runner.execute('print("ran")', stdin=['a'])
        event = self.runner.next_event()
        self.assertEqual(event['type'], 'protocol_error')
        self.assertIn('stdin', event['message'])


class InteractiveInputTest(ProcessTestCase):
    def ask(self, code):
        cell_id = self.runner.execute(code, interactive=True)
        events = []
        while True:
            event = self.runner.next_event()
            events.append(event)
            if event['type'] == 'input_request':
                return cell_id, event, events

    def finish(self, cell_id, before):
        return before + [event for _, event in self.runner.collect_timed(cell_id)]

    def test_a_cell_that_asks_for_input_waits_for_the_reply(self):
        cell_id, request, before = self.ask('print("hello")\nname = input("name? ")\nprint("hi", name)')
        self.assertEqual(request, {'type': 'input_request', 'id': cell_id, 'prompt': 'name? ', 'password': False})
        self.assertEqual(stream_text(before), 'hello\n')  # output before the question comes first
        self.runner.assert_silent(0.3)  # waiting, not failing
        self.runner.send({'type': 'input_reply', 'value': 'Ada'})
        events = self.finish(cell_id, before)
        self.assertEqual(events[-1]['status'], 'ok')
        self.assertEqual(stream_text(events), 'hello\nname? Ada\nhi Ada\n')

    def test_getpass_asks_with_password_set_and_the_answer_is_not_echoed(self):
        cell_id, request, before = self.ask('import getpass\npw = getpass.getpass("Key: ")\nlen(pw)')
        self.assertEqual((request['prompt'], request['password']), ('Key: ', True))
        self.runner.send({'type': 'input_reply', 'value': 'hunter2'})
        events = self.finish(cell_id, before)
        self.assertEqual(result_text(events), '7')
        self.assertNotIn('hunter2', json.dumps(events))
        self.assertEqual(stream_text(events), 'Key: \n')

    def test_an_interrupt_cancels_the_wait_with_keyboard_interrupt_and_keeps_state(self):
        self.run_cell('x = 42')
        cell_id, _, before = self.ask('input("never answered? ")')
        self.runner.send({'type': 'interrupt'})
        events = self.finish(cell_id, before)
        self.assertEqual(events[-1]['status'], 'interrupted')
        self.assertEqual(only(events, 'error')['ename'], 'KeyboardInterrupt')
        self.assertEqual(result_text(self.run_cell('x')), '42')

    def test_a_reply_nobody_asked_for_is_not_taken_by_a_later_input(self):
        self.runner.send({'type': 'input_reply', 'value': 'stale'})
        cell_id, _, before = self.ask('input()')
        self.runner.send({'type': 'input_reply', 'value': 'fresh'})
        events = self.finish(cell_id, before)
        self.assertEqual(result_text(events), "'fresh'")

    def test_a_huge_reply_arrives_whole(self):
        cell_id, _, before = self.ask('len(input())')
        self.runner.send({'type': 'input_reply', 'value': 'x' * 3_000_000})
        events = self.finish(cell_id, before)
        self.assertEqual(result_text(events), '3000000')

    def test_a_reply_without_a_string_value_is_a_protocol_error(self):
        cell_id, _, before = self.ask('input()')
        self.runner.send({'type': 'input_reply', 'value': 5})
        self.assertEqual(self.runner.next_event()['type'], 'protocol_error')
        self.runner.send({'type': 'input_reply', 'value': 'ok'})
        self.assertEqual(self.finish(cell_id, before)[-1]['status'], 'ok')

    def test_without_interactive_input_fails_at_once_with_a_clear_message(self):
        events = self.run_cell('input("name? ")', timeout=5)
        error = only(events, 'error')
        self.assertEqual(error['ename'], 'StdinNotImplementedError')
        self.assertIn('stdin', error['evalue'])


class InProcessInputTest(unittest.TestCase):
    """As Pyodide's host drives it: the host supplies the wait (a SharedArrayBuffer there)."""

    def test_a_host_supplied_wait_answers_input(self):
        asked = []

        class Host:
            def discard(self):
                pass

            def wait(self):
                asked.append(events[-1])
                return 'from the host'

        events = []
        runner = Runner(events.append, threaded=False, replies=Host())
        self.addCleanup(runner.close)
        runner.execute('c', 'input("q? ")', interactive=True)
        self.assertEqual(asked[0]['type'], 'input_request')
        self.assertEqual(result_text(events), "'from the host'")

    def test_without_a_host_interactive_input_still_fails_clearly(self):
        events = []
        runner = Runner(events.append, threaded=False)
        self.addCleanup(runner.close)
        runner.execute('c', 'input()', interactive=True)
        self.assertEqual(only(events, 'error')['ename'], 'StdinNotImplementedError')

    def test_a_host_that_cannot_answer_says_why_instead_of_asking(self):
        class NotIsolated:
            unavailable = '{what} cannot ask here: no SharedArrayBuffer'

        events = []
        runner = Runner(events.append, threaded=False, replies=NotIsolated())
        self.addCleanup(runner.close)
        runner.execute('c', 'import getpass\ngetpass.getpass()', interactive=True)
        self.assertEqual(of_type(events, 'input_request'), [])
        self.assertEqual(only(events, 'error')['evalue'], 'getpass() cannot ask here: no SharedArrayBuffer')
