"""What an interpreter seeded at start, seeded again after it was copied.

A copy of a running interpreter (a memory snapshot in the browser, a template checkpoint on the
server) holds the state of every generator created before it was taken, so without this every
session made from one copy would draw the same "random" numbers. One home for the rule; both
modes call it.
"""

import sys


def reseed():
    """``random``'s and numpy's global generators reseeded from the OS's entropy; tempfile's name
    sequence dropped (made again, freshly seeded, on next use). ``os.urandom``, ``secrets`` and
    ``uuid`` read the OS at each call; str hashes keep the copy's seed (fixed once an interpreter runs)."""
    if 'random' in sys.modules:
        sys.modules['random'].seed()
    if 'numpy.random' in sys.modules:
        sys.modules['numpy.random'].seed()
    if 'tempfile' in sys.modules:
        sys.modules['tempfile']._name_sequence = None
