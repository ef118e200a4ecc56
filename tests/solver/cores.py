"""The counting cores the solver's tests run on: the compiled one where it is built,
and always the Python one. ``make test`` runs the suite once, on the compiled core
(the default); the tests that compare a count with an answer known another way (the
brute-force counter, the worked examples) ask each core in turn, and
tests/solver/test_cores.py compares the two cores bit for bit on 2,000 engine states
and the Manhunt planner's queries. (Sampling always runs on the Python counter.)"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

import pytest

import solver.counting as counting

#: the cores this machine has, the default one first
CORES: tuple[str, ...] = ("compiled", "python") if counting.compiled_available() else ("python",)


@contextlib.contextmanager
def counting_on(core: str) -> Iterator[None]:
    """New counters (and so ``solve``) use ``core`` inside the block."""
    before = counting.core_in_use()
    counting.use_core(core)
    assert counting.core_in_use() == core
    try:
        yield
    finally:
        counting.use_core(before)


def solve_on_each_core(source: Any, **options: Any) -> dict[str, Any]:
    """``solve(source)`` on each core: {core: posterior}."""
    from solver.exact import solve

    out = {}
    for core in CORES:
        with counting_on(core):
            out[core] = solve(source, **options)
    return out


@pytest.fixture(params=CORES)
def core(request) -> Iterator[str]:
    """The test runs once per core, counting on it."""
    with counting_on(request.param):
        yield request.param
