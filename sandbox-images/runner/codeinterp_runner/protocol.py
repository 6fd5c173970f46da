"""The runner's messages: commands in (stdin in the sandbox) and events out, as JSON lines.

The shapes are documented in docs/runner-protocol.md; the server reads them with shared-model's
``WireCodec.decodeRunnerLine``. Events about a cell carry its ``id``; the cell's output sink adds
it to the events built without one here (``display_data``, ``execute_result``, ``error``).
"""

import json

DEFAULT_MAX_OUTPUT_BYTES = 1 << 20
LANGUAGES = ('python', 'javascript', 'bash')  # a cell's `language`; python when absent
STREAM_CHUNK_BYTES = 64 * 1024  # the largest `text` of one stream event, in UTF-8 bytes


# ---- in ---------------------------------------------------------------------------------------

def parse_command(line):
    """One stdin line as a command dict; ValueError with a message for the server otherwise."""
    try:
        message = json.loads(line)
    except ValueError as exc:
        raise ValueError(f'not JSON: {exc}') from None
    if not isinstance(message, dict):
        raise ValueError('a command must be a JSON object')
    kind = message.get('type')
    if kind == 'execute':
        if not isinstance(message.get('id'), str):
            raise ValueError("execute needs a string 'id'")
        if not isinstance(message.get('code'), str):
            raise ValueError("execute needs a string 'code'")
        language = message.setdefault('language', 'python')
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}; use one of {', '.join(LANGUAGES)}")
        install = message.get('install')
        if install is not None and not (isinstance(install, dict) and isinstance(install.get('artifacts'), list)):
            raise ValueError("'install' must be an object with a list of 'artifacts'")
        limit = message.get('max_output_bytes')
        if limit is None:
            message['max_output_bytes'] = DEFAULT_MAX_OUTPUT_BYTES
        elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise ValueError("'max_output_bytes' must be a non-negative integer")
        if message.setdefault('stdin', None) is not None and not isinstance(message['stdin'], str):
            raise ValueError("'stdin' must be a string")
        if not isinstance(message.setdefault('interactive', False), bool):
            raise ValueError("'interactive' must be true or false")
    elif kind == 'input_reply':
        if not isinstance(message.get('value'), str):
            raise ValueError("input_reply needs a string 'value'")
    elif kind == 'install':  # the answer to a cell's install_request (%pip)
        if not isinstance(message.get('artifacts'), list):
            raise ValueError("install needs a list of 'artifacts'")
    elif kind == 'install_refused':
        if not isinstance(message.get('message'), str):
            raise ValueError("install_refused needs a string 'message'")
    elif kind == 'replay':
        _line_number(message, 'from')
    elif kind not in ('interrupt', 'shutdown', 'ack', 'warm', 'reseed'):
        raise ValueError(f'unknown command type {kind!r}')
    if kind == 'ack' or 'ack' in message:
        _line_number(message, 'ack')
    return message


def _line_number(message, key):
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"'{key}' must be a line number (a non-negative integer)")


# ---- out --------------------------------------------------------------------------------------

def encode_line(event):
    try:
        return (json.dumps(event, ensure_ascii=False, separators=(',', ':'), default=str) + '\n').encode('utf-8')
    except UnicodeEncodeError:  # lone surrogates: let JSON escape them
        return (json.dumps(event, separators=(',', ':'), default=str) + '\n').encode('ascii')


def ready(python, pid):
    return {'type': 'ready', 'python': python, 'pid': pid}


def replay(start, lost):
    """The lines from number ``start`` follow again; ``lost`` older ones the server never stored are gone."""
    return {'type': 'replay', 'from': start, 'lost': lost}


def protocol_error(message):
    return {'type': 'protocol_error', 'message': message}


def started(cell_id, execution_count):
    return {'type': 'started', 'id': cell_id, 'execution_count': execution_count}


def stream(cell_id, name, text):
    return {'type': 'stream', 'id': cell_id, 'name': name, 'text': text}


def truncated(cell_id, limit_bytes):
    return {'type': 'truncated', 'id': cell_id, 'limit_bytes': limit_bytes}


def finished(cell_id, status, execution_count, duration_ms, cpu_ms=None, peak_memory_kb=None):
    return {'type': 'finished', 'id': cell_id, 'status': status, 'execution_count': execution_count,
            'duration_ms': duration_ms, 'cpu_ms': cpu_ms, 'peak_memory_kb': peak_memory_kb}


# Sent through the cell's output sink, which adds the id after all output written before them.

def display_data(data, metadata, display_id=None):
    event = {'type': 'display_data', 'data': data, 'metadata': metadata}
    if display_id is not None:
        event['transient'] = {'display_id': display_id}  # as Jupyter carries it
    return event


def update_display_data(data, metadata, display_id):
    """Replaces, wherever it is, the output shown earlier with this ``display_id``."""
    return {'type': 'update_display_data', 'data': data, 'metadata': metadata,
            'transient': {'display_id': display_id}}


def execute_result(execution_count, data, metadata):
    return {'type': 'execute_result', 'execution_count': execution_count, 'data': data, 'metadata': metadata}


def input_request(prompt, password):
    return {'type': 'input_request', 'prompt': prompt, 'password': password}


def error(ename, evalue, traceback):
    return {'type': 'error', 'ename': ename, 'evalue': evalue, 'traceback': traceback}


def clear_output(wait):
    """Clears the cell's outputs so far; with ``wait``, once its next output arrives (no flicker)."""
    return {'type': 'clear_output', 'wait': bool(wait)}
