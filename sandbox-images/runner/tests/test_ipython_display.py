"""IPython.display in a cell: the rich objects, display ids and their updates, get_ipython()."""

import base64
import json
import os
import struct
import zlib

from .harness import ProcessTestCase, needs_matplotlib, needs_pandas, of_type, only, pngs, result_text, stream_text


def tiny_png():
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    header = struct.pack('>IIBBBBB', 1, 1, 8, 0, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(b'\x00\x00'))
            + chunk(b'IEND', b''))


class IPythonDisplayTest(ProcessTestCase):
    def test_the_rich_objects_of_ipython_display_give_their_mime_types(self):
        events = self.run_cell(
            'from IPython.display import display, HTML, Markdown, Latex, Math, JSON, SVG, Pretty\n'
            'display(HTML("<b>h</b>"), Markdown("# m"), Latex(r"\\alpha"), Math("x^2"),\n'
            '        JSON({"k": [1, 2]}), SVG("<?xml version=\'1.0\'?><svg xmlns=\'http://www.w3.org/2000/svg\'/>"),\n'
            '        Pretty("plain words"))')
        self.assert_ok(events)
        shown = [e['data'] for e in of_type(events, 'display_data')]
        self.assertEqual(shown[0]['text/html'], '<b>h</b>')
        self.assertEqual(shown[1]['text/markdown'], '# m')
        self.assertEqual(shown[2]['text/latex'], '\\alpha')
        self.assertEqual(shown[3]['text/latex'], '$\\displaystyle x^2$')
        self.assertEqual(json.loads(shown[4]['application/json']), {'k': [1, 2]})
        self.assertTrue(shown[5]['image/svg+xml'].startswith('<svg'), 'the XML prolog is dropped')
        self.assertEqual(shown[6], {'text/plain': 'plain words'})
        self.assertEqual(shown[0]['text/plain'], '<IPython.core.display.HTML object>')

    def test_an_image_comes_from_bytes_a_file_or_base64_with_its_size(self):
        png = tiny_png()
        with open(os.path.join(self.runner.cwd, 'dot.png'), 'wb') as f:
            f.write(png)
        events = self.run_cell(
            'from IPython.display import Image\nimport base64\n'
            'raw = open("dot.png", "rb").read()\n'
            'display(Image(raw), Image(filename="dot.png", width=40), Image("dot.png"),\n'
            '        Image(data=base64.b64encode(raw).decode()), Image(b"\\xff\\xd8\\xff jpeg"))')
        self.assert_ok(events)
        shown = of_type(events, 'display_data')
        for event in shown[:4]:
            self.assertEqual(base64.b64decode(event['data']['image/png']), png)
        self.assertEqual(shown[1]['metadata'], {'image/png': {'width': 40}})
        self.assertIn('image/jpeg', shown[4]['data'])

    def test_objects_with_repr_methods_give_their_mime_types_through_ipython_display(self):
        events = self.run_cell(
            'class Chart:\n'
            '    def _repr_mimebundle_(self, include=None, exclude=None):\n'
            '        return {"application/vnd.plotly.v1+json": {"data": []}, "text/html": "<div/>"}\n'
            'class Formula:\n    def _repr_latex_(self): return "$e$"\n'
            'from IPython.display import display\ndisplay(Chart(), Formula())\n'
            'display(Chart(), exclude=["text/html"])')
        shown = [e['data'] for e in of_type(events, 'display_data')]
        self.assertEqual(json.loads(shown[0]['application/vnd.plotly.v1+json']), {'data': []})
        self.assertEqual(shown[1]['text/latex'], '$e$')
        self.assertNotIn('text/html', shown[2])

    def test_an_update_replaces_the_output_with_that_display_id(self):
        events = self.run_cell(
            'from IPython.display import display, update_display, Markdown\n'
            'handle = display(Markdown("step 0"), display_id=True)\n'
            'print("working")\n'
            'handle.update(Markdown("step 1"))\n'
            'display("named", display_id="progress")\n'
            'update_display("named, updated", display_id="progress");')
        self.assert_ok(events)
        kinds = [e['type'] for e in events[1:-1]]
        self.assertEqual(kinds, ['display_data', 'stream', 'update_display_data', 'display_data', 'update_display_data'])
        first, update = events[1], events[3]
        handle_id = first['transient']['display_id']
        self.assertEqual(update['transient'], {'display_id': handle_id})
        self.assertEqual(update['data']['text/markdown'], 'step 1')
        self.assertEqual(events[4]['transient'], {'display_id': 'progress'})
        self.assertEqual(events[5]['data']['text/plain'], "'named, updated'")
        self.assertNotIn('transient', only(self.run_cell('display(1)'), 'display_data'))

    def test_a_later_cell_can_update_an_earlier_cells_output(self):
        self.run_cell('h = display("old", display_id=True)')
        events = self.run_cell('h.update("new")')
        update = only(events, 'update_display_data')
        self.assertEqual(update['data'], {'text/plain': "'new'"})
        self.assertEqual(update['id'], events[-1]['id'], 'it belongs to the cell that sent it')

    def test_display_is_a_builtin_and_takes_display_ids_too(self):
        events = self.run_cell('h = display({"a": 1}, display_id="x")\nprint(type(h).__name__, h.display_id)')
        self.assertEqual(only(events, 'display_data')['transient'], {'display_id': 'x'})
        self.assertEqual(stream_text(events), 'DisplayHandle x\n')

    def test_get_ipython_gives_a_shell_good_for_common_calls(self):
        events = self.run_cell(
            'ip = get_ipython()\nimport IPython\nassert IPython.get_ipython() is ip\n'
            'ip.user_ns["planted"] = 7\n'
            'print(planted, ip.run_line_magic("env", "HOME") == __import__("os").environ["HOME"])\n'
            'ip.system("echo from system")\n'
            'print(ip.getoutput("echo one; echo two"))\n'
            'print("IPKernelApp" in ip.config, ip.kernel)\n'
            'ip.events.register("post_execute", lambda: None)\n'
            'from IPython.core.magic import register_line_magic\n'
            '@register_line_magic\ndef shout(line):\n    return line.upper()\n'
            '%shout hello')
        self.assert_ok(events)
        self.assertEqual(stream_text(events), "7 True\nfrom system\n['one', 'two']\nFalse None\n")
        self.assertEqual(result_text(events), "'HELLO'")

    def test_a_bare_import_of_ipython_reaches_its_display_module(self):
        events = self.run_cell('import IPython\nIPython.display.display(IPython.display.HTML("<i>bare</i>"))\n'
                               'IPython.version_info >= (8,)')
        self.assertEqual(only(events, 'display_data')['data']['text/html'], '<i>bare</i>')
        self.assertEqual(result_text(events), 'True')

    def test_a_library_importing_ipython_display_reaches_the_events(self):
        events = self.run_cell(
            'def library_show(html):\n'
            '    from IPython.core.display import HTML, display\n'
            '    display(HTML(html))\n'
            'library_show("<p>lib</p>")')
        self.assertEqual(only(events, 'display_data')['data']['text/html'], '<p>lib</p>')

    def test_a_failing_ipython_display_call_shows_only_the_users_frames(self):
        events = self.run_cell('from IPython.display import Image\nImage(filename="missing.png")')
        error = only(events, 'error')
        self.assertEqual(error['ename'], 'FileNotFoundError')
        self.assertNotIn('codeinterp_runner', '\n'.join(error['traceback']))

    def test_clear_output_comes_after_the_output_before_it_with_its_wait_flag(self):
        events = self.run_cell('from IPython.display import clear_output\nprint(1, end="")\nclear_output(wait=True)\n'
                               'print(2)\nclear_output()\ndisplay("x", clear=True)')
        self.assert_ok(events)
        shown = [(e['type'], e.get('text', e.get('wait'))) for e in events[1:-1]]
        self.assertEqual(shown, [('stream', '1'), ('clear_output', True), ('stream', '2\n'), ('clear_output', False),
                                 ('clear_output', True), ('display_data', None)])

    @needs_matplotlib
    def test_pyplot_imported_after_ipython_still_shows_figures_inline(self):
        events = self.run_cell('import IPython\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\n'
                               '%matplotlib inline')
        self.assert_ok(events)
        self.assertEqual(len(pngs(events)), 1)

    @needs_pandas
    def test_a_dataframe_through_ipython_display_is_html_and_text(self):
        events = self.run_cell('import pandas as pd\nfrom IPython.display import display\n'
                               'display(pd.DataFrame({"a": [1, 2]}))')
        data = only(events, 'display_data')['data']
        self.assertIn('<table', data['text/html'])
        self.assertIn('a', data['text/plain'])
