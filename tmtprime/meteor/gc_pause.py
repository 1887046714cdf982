"""Pausing Python's cyclic garbage collector around allocation-heavy work that makes no reference cycles.

The collector runs after every few hundred container allocations, and each
full collection walks every live object. Work that creates many short-lived
lists and tuples while keeping many results alive (parsing a paraphrase
table, scoring thousands of segments) triggers it again and again for
nothing: reference counting frees all of it. Any cycle made meanwhile is
collected after the pause.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic collector off inside the block (left as it was if the caller had it off already)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
