"""Rich display: the MIME bundle of an object, as IPython builds it (_repr_*_ methods + text/plain)."""

import base64
import json

from . import plots

_BINARY_MIMES = ('image/png', 'image/jpeg', 'application/pdf')


class DisplayFormatter:
    """Builds the MIME bundle of an object, as IPython does: _repr_*_ methods plus text/plain."""

    REPR_METHODS = (
        ('text/html', '_repr_html_'),
        ('text/markdown', '_repr_markdown_'),
        ('text/latex', '_repr_latex_'),
        ('image/svg+xml', '_repr_svg_'),
        ('image/png', '_repr_png_'),
        ('image/jpeg', '_repr_jpeg_'),
        ('application/pdf', '_repr_pdf_'),
        ('application/json', '_repr_json_'),
    )

    def __init__(self, warn):
        self._warn = warn  # reports a failing _repr_*_ method without failing the cell
        self.shown_figures = []  # matplotlib figures displayed in this cell

    def format(self, obj, include=None, exclude=None):
        """(data, metadata) of ``obj``; ``include``/``exclude`` are MIME types, as IPython takes them."""
        data, metadata = {}, {}
        if plots.is_figure(obj):
            data['image/png'] = plots.figure_png(obj)
            self.shown_figures.append(obj)
        elif not isinstance(obj, type):  # a class's _repr_html_ is an unbound function
            bundle = self._call(obj, '_repr_mimebundle_', include=include, exclude=exclude)
            if isinstance(bundle, tuple) and len(bundle) == 2:
                bundle, extra = bundle
                if isinstance(extra, dict):
                    metadata.update(extra)
            if isinstance(bundle, dict):
                for mime, value in bundle.items():
                    self.put(data, mime, value)
            for mime, method in self.REPR_METHODS:
                if mime in data:
                    continue
                value = self._call(obj, method)
                if isinstance(value, tuple) and len(value) == 2:  # (data, metadata)
                    value, extra = value
                    if isinstance(extra, dict) and extra:
                        metadata[mime] = extra
                self.put(data, mime, value)
        if 'text/plain' not in data:
            data['text/plain'] = self.plain(obj)
        if include:
            data = {mime: value for mime, value in data.items() if mime in include}
        if exclude:
            data = {mime: value for mime, value in data.items() if mime not in exclude}
        return data, metadata

    def raw(self, bundle):
        """A MIME bundle given as it is (``display(..., raw=True)``), in the protocol's strings."""
        data = {}
        for mime, value in dict(bundle).items():
            self.put(data, mime, value)
        return data

    @staticmethod
    def plain(obj):
        text = repr(obj)
        if len(text) > 79 and type(obj) in (dict, list, tuple, set, frozenset) and len(obj) <= 1000:
            import pprint
            text = pprint.pformat(obj, width=79, sort_dicts=False)
        return text

    def _call(self, obj, name, **kwargs):
        try:
            method = getattr(obj, name, None)
        except Exception:
            return None
        if not callable(method):
            return None
        try:
            return method(**kwargs)
        except Exception as exc:
            self._warn(f'{type(obj).__name__}.{name}() failed: {type(exc).__name__}: {exc}\n')
            return None

    @staticmethod
    def put(data, mime, value):
        """Stores ``value`` as the string the protocol wants, or skips a value of the wrong type."""
        if value is None:
            return
        if mime in _BINARY_MIMES:
            if isinstance(value, (bytes, bytearray, memoryview)):
                value = base64.b64encode(value).decode('ascii')
        elif mime == 'application/json' or mime.endswith('+json'):
            if not isinstance(value, str):
                value = json.dumps(value, default=repr)
        elif isinstance(value, (bytes, bytearray)):
            value = bytes(value).decode('utf-8', 'replace')
        if isinstance(value, str):
            data[mime] = value
