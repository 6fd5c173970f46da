"""IPython.display: rich output objects and the functions that publish them into the cell's events.

Each object only says what it is through ``_repr_*_`` methods; the runner's DisplayFormatter turns
it into a MIME bundle, as it does for any object.
"""

import base64
import json as _json
import os

from codeinterp_runner import publish
from codeinterp_runner.mime import mime_of
from codeinterp_runner.publish import DisplayHandle

__all__ = ['display', 'update_display', 'clear_output', 'publish_display_data', 'DisplayHandle', 'DisplayObject',
           'HTML', 'Markdown', 'Latex', 'Math', 'JSON', 'SVG', 'Image', 'Pretty', 'Javascript', 'Code',
           'display_html', 'display_markdown', 'display_latex', 'display_json', 'display_svg', 'display_png',
           'display_jpeg', 'display_pretty']


def _publisher():
    publisher = publish.active()
    if publisher is None:
        raise RuntimeError('IPython.display works only while a cell runs')
    return publisher


def display(*objs, **kwargs):
    """Shows each object as rich output; with ``display_id`` returns a DisplayHandle to update it."""
    return _publisher().display(*objs, **kwargs)


def update_display(obj, *, display_id, **kwargs):
    """Replaces the output shown with ``display_id`` by ``obj``."""
    _publisher().update(obj, display_id=display_id, **kwargs)


def clear_output(wait=False):
    _publisher().clear_output(wait=wait)


def publish_display_data(data, metadata=None, source=None, *, transient=None, **kwargs):
    display_id = (transient or {}).get('display_id')
    _publisher().publish(dict(data), metadata, display_id, kwargs.get('update', False))


def _display_as(mime):
    def show(*objs, raw=False, metadata=None):
        if raw:
            for obj in objs:
                _publisher().publish({mime: obj}, metadata)
        else:
            _publisher().display(*objs, include=[mime], metadata=metadata)
    show.__name__ = 'display_' + mime.split('/')[-1].split('+')[0]
    return show


display_html = _display_as('text/html')
display_markdown = _display_as('text/markdown')
display_latex = _display_as('text/latex')
display_json = _display_as('application/json')
display_svg = _display_as('image/svg+xml')
display_png = _display_as('image/png')
display_jpeg = _display_as('image/jpeg')
display_pretty = _display_as('text/plain')


class DisplayObject:
    """Data given directly, or read from ``filename``; ``data`` that names an existing file is read too."""

    _read_flags = 'r'

    def __init__(self, data=None, url=None, filename=None, metadata=None):
        if isinstance(data, os.PathLike):
            data = os.fspath(data)
        if filename is None and isinstance(data, str) and len(data) < 4096 and '\n' not in data \
                and not data.lstrip().startswith('<') and os.path.isfile(data):
            filename, data = data, None
        self.data, self.url, self.filename = data, url, filename
        self.metadata = dict(metadata or {})
        if filename is not None:
            with open(filename, self._read_flags, **({} if 'b' in self._read_flags else {'encoding': 'utf-8'})) as f:
                self.data = f.read()

    def __repr__(self):
        return f'<IPython.core.display.{type(self).__name__} object>'

    def _data_and_metadata(self):
        return (self.data, self.metadata) if self.metadata else self.data


class TextDisplayObject(DisplayObject):
    def __init__(self, data=None, url=None, filename=None, metadata=None):
        super().__init__(data, url, filename, metadata)
        if isinstance(self.data, bytes):
            self.data = self.data.decode('utf-8', 'replace')


class Pretty(TextDisplayObject):
    def __repr__(self):
        return '' if self.data is None else str(self.data)


class HTML(TextDisplayObject):
    def _repr_html_(self):
        return self._data_and_metadata()

    def __html__(self):
        return self.data


class Markdown(TextDisplayObject):
    def _repr_markdown_(self):
        return self._data_and_metadata()


class Latex(TextDisplayObject):
    def _repr_latex_(self):
        return self._data_and_metadata()


class Math(TextDisplayObject):
    def _repr_latex_(self):
        text = (self.data or '').strip('$')
        return f'$\\displaystyle {text}$'


class Javascript(TextDisplayObject):
    def _repr_javascript_(self):
        return self.data


class Code(TextDisplayObject):
    def __init__(self, data=None, url=None, filename=None, language=None):
        super().__init__(data, url, filename)
        self.language = language

    def __repr__(self):
        return self.data or ''


class SVG(DisplayObject):
    def __init__(self, data=None, url=None, filename=None, metadata=None):
        super().__init__(data, url, filename, metadata)
        if isinstance(self.data, bytes):
            self.data = self.data.decode('utf-8', 'replace')
        if isinstance(self.data, str) and '<svg' in self.data:  # drop an XML prolog or doctype before it
            self.data = self.data[self.data.index('<svg'):]

    def _repr_svg_(self):
        return self._data_and_metadata()


class JSON(DisplayObject):
    """A JSON-able value (or JSON text) shown as application/json; ``expanded`` and ``root`` as in IPython."""

    def __init__(self, data=None, url=None, filename=None, expanded=False, metadata=None, root='root', **kwargs):
        super().__init__(data, url, filename, metadata)
        if isinstance(self.data, (str, bytes)):
            self.data = _json.loads(self.data)
        self.metadata.update(expanded=expanded, root=root)

    def _repr_json_(self):
        return self.data, self.metadata


_IMAGE_SIGNATURES = ((b'\x89PNG\r\n\x1a\n', 'png'), (b'\xff\xd8', 'jpeg'), (b'GIF8', 'gif'))
_EMBEDDED_FORMATS = ('png', 'jpeg', 'gif')  # what Image embeds; their types come from the shared table


class Image(DisplayObject):
    """A PNG, JPEG or GIF from bytes, a file, or base64 text; a URL is shown as an <img> link."""

    _read_flags = 'rb'

    def __init__(self, data=None, url=None, filename=None, format=None, embed=None, width=None, height=None,
                 retina=False, unconfined=False, metadata=None, alt=None):
        if isinstance(data, str) and data.startswith(('http://', 'https://')) and url is None:
            url, data = data, None
        super().__init__(data, url, filename, metadata)
        if isinstance(self.data, str):  # base64 text
            self.data = base64.b64decode(self.data)
        name = filename or url or ''
        if format is None and '.' in name:
            format = name.rsplit('.', 1)[-1].lower()
        if format is None and isinstance(self.data, (bytes, bytearray)):
            format = next((kind for signature, kind in _IMAGE_SIGNATURES if self.data.startswith(signature)), 'png')
        self.format = 'jpeg' if format == 'jpg' else (format or 'png')
        self.embed = self.data is not None if embed is None else embed
        self.width, self.height, self.alt = width, height, alt
        if self.format not in _EMBEDDED_FORMATS:
            raise ValueError(f'Cannot embed the {self.format!r} image format')

    def _size_metadata(self):
        metadata = dict(self.metadata)
        for key in ('width', 'height', 'alt'):
            if getattr(self, key) is not None:
                metadata[key] = getattr(self, key)
        return metadata

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self.embed and self.data is not None:
            mime = mime_of('image.' + self.format)
            metadata = self._size_metadata()
            return {mime: base64.b64encode(self.data).decode('ascii')}, ({mime: metadata} if metadata else {})
        if self.url:
            size = ''.join(f' {key}="{int(value)}"' for key, value in (('width', self.width), ('height', self.height))
                           if value is not None)
            return {'text/html': f'<img src="{_escape(self.url)}"{size}/>'}, {}
        return {}, {}

    def _repr_png_(self):
        return self.data if self.format == 'png' else None

    def _repr_jpeg_(self):
        return self.data if self.format == 'jpeg' else None


def _escape(text):
    return text.replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;').replace('>', '&gt;')
