"""The counting core's public interface: what the solver and the Manhunt planner ask.

A *counter* counts the consistent hidden histories of a record's :class:`Facts`
(SOLVER_MODEL.md) and answers questions about them::

    counter = new_counter(facts)
    total, by_position = counter.marginals()   # position -> {number: histories}
    counter.through({17, 21})                  # histories with both face down
    counter.sprint_classes(3)                  # the Manhunt planner's queries ...
    counter.pair_counts((5, 30))
    counter.fixed_joint(4, 27)

Every answer is an exact integer. Sprint sets are told apart by their class
*composition* (how many cards of each class: deck 0-3 x odd/even, see ``CLASS_OF``),
an opaque key made and read by :func:`composition`, :func:`composition_of` and
:func:`composition_counts`. A ``deadline`` (a ``time.perf_counter()`` value) makes a
query raise :class:`OutOfTime` once it is past.
"""
from __future__ import annotations

from typing import Iterable, Protocol

from ._packing import BITS, CLASS_BIT, CLASS_MEMBERS, CLASS_OF, MASK, N_CLASSES
from .count import Counter as PythonCounter, OutOfTime
from .facts import Facts

#: a class composition of a set of sprint cards (a key; read it with composition_counts)
Composition = int
#: (a, b, {compositions under the fixed hideouts: (first, second)}), see pair_counts
PairCounts = tuple[int, int, dict[tuple[Composition, ...], tuple[dict, dict]]]


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

    def fixed_joint(self, p: int, x: int, deadline: float | None = None) -> dict[Composition, dict[tuple[int, ...], int]] | None:
        """For a Manhunt node and hideout x at its face-down position p: composition of
        p's sprint cards -> tuple of the other face-down hideouts -> histories. None for
        a record of another shape."""

    def stored_states(self) -> int:
        """How many states the counter keeps (what a cache of posteriors weighs)."""


def new_counter(facts: Facts) -> HistoryCounter:
    """A counter for ``facts``."""
    return PythonCounter(facts)


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
    "HistoryCounter", "new_counter", "OutOfTime", "Composition", "PairCounts",
    "N_CLASSES", "CLASS_OF", "CLASS_MEMBERS", "composition", "composition_of", "composition_counts",
]
