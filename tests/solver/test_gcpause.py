"""The cyclic collector is off while counting and as it was after, also when nested or
when several threads count at once."""
from __future__ import annotations

import gc
import threading

from solver.gcpause import no_cycle_collection


def test_off_inside_and_restored_after():
    assert gc.isenabled()
    with no_cycle_collection():
        assert not gc.isenabled()
        with no_cycle_collection():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer count is still running
    assert gc.isenabled()


def test_left_off_when_it_was_off():
    gc.disable()
    try:
        with no_cycle_collection():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_restored_after_an_error():
    try:
        with no_cycle_collection():
            raise KeyError("x")
    except KeyError:
        pass
    assert gc.isenabled()


def test_threads_overlapping():
    inside = threading.Barrier(2)
    first_done = threading.Event()
    seen = []

    def first():
        with no_cycle_collection():
            inside.wait()
        first_done.set()

    def second():
        with no_cycle_collection():
            inside.wait()
            first_done.wait()
            seen.append(gc.isenabled())  # the first thread left: still off for this one

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [False] and gc.isenabled()
