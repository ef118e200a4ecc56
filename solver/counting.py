"""The counting core's public interface: what the solver and the Manhunt planner ask.

A *counter* counts the consistent hidden histories of a record's :class:`Facts`
(docs/model.md) and answers questions about them::

    counter = new_counter(facts)
    total, by_position = counter.marginals()   # position -> {number: histories}
    counter.through({17, 21})                  # histories with both face down
    counter.sprint_classes(3)                  # the Manhunt planner's queries ...
    counter.pair_counts((5, 30))
    counter.fixed_joint(4, 27)

Two cores give the same integers: the compiled core (C++, ``solver/compiled/``, built
by ``pip install`` / ``make venv``) and the Python reference (:mod:`solver.count`).
``new_counter`` uses the compiled core when it is there; ``FUGITIVE_CORE=python`` (or
:func:`use_core`, ``fugitive solve --core python``) picks the Python one. If the
compiled core cannot be loaded, counting runs on the Python core and says so once
(a warning on standard error; :func:`core_report`, ``fugitive doctor``).

Every answer is an exact integer. Sprint sets are told apart by their class
*composition* (how many cards of each class: deck 0-3 x odd/even, see ``CLASS_OF``),
an opaque key made and read by :func:`composition`, :func:`composition_of` and
:func:`composition_counts`. A ``deadline`` (a ``time.perf_counter()`` value) makes a
query raise :class:`OutOfTime` once it is past.
"""
from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Any, Callable, Iterable, Protocol

from ._packing import BITS, CLASS_BIT, CLASS_MEMBERS, CLASS_OF, CLASS_SPRINT, MASK, N_CLASSES
from .count import Counter as PythonCounter, OutOfTime
from .facts import Facts

#: a class composition of a set of sprint cards (a key; read it with composition_counts)
Composition = int
#: (a, b, {compositions under the fixed hideouts: (first, second)}), see pair_counts
PairCounts = tuple[int, int, dict[tuple[Composition, ...], tuple[dict[Any, int], dict[Any, int]]]]


class HistoryCounter(Protocol):
    """What every counting core gives (the Python reference and the compiled core
    give the same integers)."""

    #: "python" or "compiled"
    core: str

    @property
    def free_cards(self) -> tuple[int, ...]:
        """Free cards per class (not the Marshal's, not face up)."""

    def total(self, deadline: float | None = None) -> int:
        """The number of consistent hidden histories."""

    def marginals(self, deadline: float | None = None) -> tuple[int, list[dict[int, int]]]:
        """The total and, by position (index 1..n), number -> histories with it there
        (face-down positions; empty for the face-up ones before the first face-down)."""

    def through(self, numbers: Iterable[int]) -> int:
        """Histories in which every one of ``numbers`` is a face-down hideout."""

    def sprint_classes(self, i: int, deadline: float | None = None) -> dict[int, set[Composition]]:
        """For a face-down position i before the last: number x -> the compositions of
        the sprint sets under x at i in at least one history."""

    def pair_counts(self, *fixed: tuple[int, int], deadline: float | None = None) -> PairCounts | None:
        """For a Manhunt node with two face-down positions a < b besides the ``fixed``
        (position, hideout) pairs: ``(a, b, {compositions: (first, second)})``, with
        ``first[(y, comp_a)][z]`` the histories with y at a over sprint cards of
        composition comp_a and z at b, ``second[(y, comp_b)][z]`` the same with y at b,
        and the compositions those of the sprint cards under the fixed hideouts, in the
        order given. None for a record of another shape."""

    def pair_shares(self, hit: tuple[int, int], at: tuple[int, int], deadline: float | None = None) -> PairCounts | None:
        """``pair_counts(hit, at)`` with each count divided by the sprint sets of the
        hit's composition the free cards allow besides the four hideouts: the histories
        of one such set (see :mod:`solver.count_planner`)."""

    def fixed_joint(self, p: int, x: int, deadline: float | None = None) -> dict[Composition, dict[tuple[int, ...], int]] | None:
        """For a Manhunt node and hideout x at its face-down position p: composition of
        p's sprint cards -> tuple of the other face-down hideouts -> histories. None for
        a record of another shape."""

    def stored_states(self) -> int:
        """How many states the counter keeps (what a cache of posteriors weighs)."""


CORES = ("compiled", "python")

_compiled_counter: ModuleType | None
try:  # the compiled core, if it was built and loads
    from . import compiled_counter as _compiled_counter
    _COMPILED_ERROR = ""
except ImportError as exc:  # not built (no compiler at install) or not loadable here
    from importlib.util import find_spec

    _compiled_counter = None
    if find_spec("solver._compiled") is None:
        _COMPILED_ERROR = ("solver._compiled was not built: the install found no C++ compiler or Python "
                           "headers, or was made with FUGITIVE_COMPILED_CORE=OFF")
    else:
        _COMPILED_ERROR = f"solver._compiled does not load: {exc}"


class CoreUnavailable(RuntimeError):
    """The compiled core was asked for but could not be loaded."""


def _core_from_environment() -> str:
    name = os.environ.get("FUGITIVE_CORE", "").strip().lower()
    if name and name not in CORES:
        raise ValueError(f"FUGITIVE_CORE={name!r}: use one of {', '.join(CORES)}")
    return name or "compiled"


_wanted = _core_from_environment()
_warned = False


def compiled_available() -> bool:
    """Whether the compiled core was built and loads."""
    return _compiled_counter is not None


def use_core(name: str) -> None:
    """Count with this core from now on ("compiled" or "python"). Raises
    :class:`CoreUnavailable` for "compiled" when it cannot be loaded."""
    global _wanted
    if name not in CORES:
        raise ValueError(f"unknown counting core {name!r}: use one of {', '.join(CORES)}")
    if name == "compiled" and _compiled_counter is None:
        raise CoreUnavailable(f"the compiled counting core cannot be loaded: {_COMPILED_ERROR}")
    _wanted = name


def core_in_use() -> str:
    """The core new counters use: "compiled" or "python"."""
    return "compiled" if _wanted == "compiled" and _compiled_counter is not None else "python"


def core_report() -> str:
    """One line on the counting core in use (for ``fugitive doctor`` and the app)."""
    if core_in_use() == "compiled":
        return "counting core: compiled (C++, exact modulo primes; FUGITIVE_CORE=python for the Python core)"
    if _wanted == "python":
        return "counting core: python (chosen; the compiled core is " + (
            "available)" if _compiled_counter is not None else f"not available: {_COMPILED_ERROR})")
    return (f"counting core: python, because the compiled core cannot be loaded ({_COMPILED_ERROR}); "
            "counts are the same, about 10-30x slower. Reinstall with a C++ compiler (make venv) to build it")


def _warn_once() -> None:
    global _warned
    if not _warned:
        _warned = True
        print(f"warning: {core_report()}", file=sys.stderr)


def announce() -> None:
    """Say once on standard error which core counts (the CLI's commands that count)."""
    global _warned
    if not _warned:
        _warned = True
        print(core_report() if core_in_use() == "compiled" or _wanted == "python" else f"warning: {core_report()}",
              file=sys.stderr)


def new_counter(facts: Facts, core: str | None = None) -> HistoryCounter:
    """A counter for ``facts`` on the core in use (or on ``core``).

    A record beyond the compiled core's limits (more than 12 relevant missed
    multi-number guesses, or a count bound beyond its primes) is counted by the
    Python core."""
    name = core or _wanted
    if name == "compiled":
        if _compiled_counter is None:
            _warn_once()
        else:
            counter: HistoryCounter | None = _compiled_counter.make(facts)
            if counter is not None:
                return counter
    elif name != "python":
        raise ValueError(f"unknown counting core {name!r}: use one of {', '.join(CORES)}")
    return PythonCounter(facts)


def planner_sums() -> Callable[..., Any] | None:
    """The compiled Manhunt planner's sum over sprint sets (``caught_by_tags`` of
    :mod:`solver.compiled_counter`) when the compiled core is in use, else None (the
    planner then takes its Python reference, ``advisor.manhunt.tags._caught_by_inc``)."""
    if _compiled_counter is None or core_in_use() != "compiled":
        return None
    sums: Callable[..., Any] = _compiled_counter.caught_by_tags
    return sums


def compiled_search(counter: HistoryCounter) -> Any:
    """``counter`` when it is compiled (its ``value_guess`` runs the Manhunt planner's
    last levels in the core), else None (the planner then searches in Python, its
    reference)."""
    if _compiled_counter is not None and isinstance(counter, _compiled_counter.CompiledCounter):
        return counter
    return None


def composition(cards: Iterable[int]) -> Composition:
    """The class composition of a set of cards."""
    return sum(CLASS_BIT[c] for c in cards)


def composition_of(per_class: Iterable[int]) -> Composition:
    """The composition with these many cards of each class (in class order)."""
    return sum(m << (BITS * c) for c, m in enumerate(per_class))


_COUNTS: dict[int, tuple[int, ...]] = {}


def composition_counts(comp: Composition) -> tuple[int, ...]:
    """Cards of each class in a composition (``N_CLASSES`` numbers)."""
    got = _COUNTS.get(comp)
    if got is None:
        if len(_COUNTS) > 100_000:
            _COUNTS.clear()
        got = _COUNTS[comp] = tuple((comp >> (BITS * c)) & MASK for c in range(N_CLASSES))
    return got


__all__ = [
    "HistoryCounter", "new_counter", "OutOfTime", "CORES", "CoreUnavailable", "use_core", "core_in_use",
    "core_report", "compiled_available", "announce", "planner_sums", "compiled_search", "Composition", "PairCounts",
    "N_CLASSES", "CLASS_OF", "CLASS_MEMBERS", "CLASS_SPRINT", "composition", "composition_of", "composition_counts",
]
