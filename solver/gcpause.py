"""Counting without CPython's cyclic garbage collector.

A count allocates millions of small tuples and dicts (the states of the dynamic
program), none of them in a reference cycle: reference counting frees every one. The
cyclic collector still runs every few hundred allocations and, as the heap grows,
walks all of it: about 5-15% of a large solve and of a Manhunt plan, in pauses of
up to tens of milliseconds. :func:`no_cycle_collection` switches it off for the
duration and back on after, also when several threads count at once (the app): the
collector is re-enabled only when the last of them is done, and only if it was on.
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


__all__ = ["no_cycle_collection"]
