"""Publishing rich output: display(), display ids and their in-place updates, clear_output().

The MIME bundles themselves come from ``display.DisplayFormatter``; this module decides which
event carries them. IPython.display (the shim in ``shims/``) reports to the active publisher.
"""

from . import protocol

_active = None  # the DisplayPublisher of the running cell


def activate(publisher):
    """Makes ``publisher`` (or None) the one IPython.display reports to; returns the one before."""
    global _active
    previous, _active = _active, publisher
    return previous


def active():
    return _active


class DisplayHandle:
    """What ``display(obj, display_id=...)`` returns: updates that output later, as IPython's does."""

    def __init__(self, display_id=None):
        self.display_id = display_id if display_id is not None else _new_display_id()

    def __repr__(self):
        return f'<{type(self).__name__} display_id={self.display_id}>'

    def display(self, obj, **kwargs):
        _require_active().display(obj, display_id=self.display_id, **kwargs)

    def update(self, obj, **kwargs):
        _require_active().display(obj, display_id=self.display_id, update=True, **kwargs)


def _new_display_id():
    import uuid  # here, not at the top: uuid (and platform, which it imports) would slow every start-up
    return uuid.uuid4().hex


def _require_active():
    if _active is None:
        raise RuntimeError('display() works only while a cell runs')
    return _active


class DisplayPublisher:
    """Sends display_data / update_display_data / clear_output through a cell's output sink."""

    def __init__(self, sink, formatter):
        self._sink = sink  # sends an event after all output written before it
        self._formatter = formatter

    def display(self, *objs, include=None, exclude=None, metadata=None, transient=None, display_id=None,
                raw=False, clear=False, update=False, **kwargs):
        """IPython's display(): each object as rich output; a DisplayHandle when display_id is given."""
        if transient and display_id is None:
            display_id = transient.get('display_id')
        if display_id is True:
            display_id = _new_display_id()
        if clear:
            self.clear_output(wait=True)
        for obj in objs:
            if raw:
                data, meta = self._formatter.raw(obj), {}
            else:
                data, meta = self._formatter.format(obj, include, exclude)
            if metadata:
                meta.update(metadata)
            self.publish(data, meta, display_id, update)
        if display_id is not None and not update:
            return DisplayHandle(display_id)
        return None

    def publish(self, data, metadata=None, display_id=None, update=False):
        """Sends one bundle: a new output, or (``update``) the replacement of output ``display_id``."""
        metadata = metadata or {}
        if update:
            if display_id is None:
                raise TypeError('update_display needs a display_id')
            self._sink.send(protocol.update_display_data(data, metadata, str(display_id)))
        else:
            self._sink.send(protocol.display_data(data, metadata, None if display_id is None else str(display_id)))

    def update(self, obj, *, display_id, **kwargs):
        """IPython's update_display()."""
        self.display(obj, display_id=display_id, update=True, **kwargs)

    def clear_output(self, wait=False):
        """IPython's clear_output(): the app clears the cell's outputs (with ``wait``, at its next output)."""
        self._sink.send(protocol.clear_output(wait))
