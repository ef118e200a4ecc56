"""The solver's answer for one Marshal's position, as a typed object."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Any, Iterable



@dataclass(frozen=True)
class PositionPosterior:
    """One position of the row: revealed (number known) or face down (a distribution)."""

    position: int
    revealed: bool
    sprints: int
    hideout: int | None = None
    #: number -> exact count of histories with that number here (face-down only)
    counts: dict[int, int] = field(default_factory=dict)
    total: int = 1

    @property
    def candidates(self) -> dict[int, float]:
        return {x: c / self.total for x, c in sorted(self.counts.items())}

    def probability(self, number: int) -> Fraction:
        if self.revealed:
            return Fraction(int(self.hideout == number))
        return Fraction(self.counts.get(number, 0), self.total)

    def to_dict(self) -> dict[str, Any]:
        if self.revealed:
            return {"position": self.position, "revealed": True, "hideout": self.hideout}
        return {
            "position": self.position,
            "revealed": False,
            "sprints": self.sprints,
            "candidates": {str(x): p for x, p in self.candidates.items()},
        }


@dataclass(frozen=True)
class Posterior:
    """What the Marshal can know at the end of a record (docs/model.md).

    ``histories`` is the exact number of consistent hidden histories; every
    probability is an exact ratio of two such counts (``Fraction`` through
    :meth:`probability`, floats in :attr:`hideouts` and :meth:`to_dict`).
    """

    consistent: bool
    histories: int = 0
    positions: tuple[PositionPosterior, ...] = ()
    #: number -> count of histories where it is a face-down hideout now
    number_counts: dict[int, int] = field(default_factory=dict)
    first_inconsistent_event: int | None = None
    reason: str = ""
    #: the solver's counter, kept for joint probabilities (``Counter.through``); None
    #: for a posterior made without it
    _counter: Any = field(default=None, repr=False, compare=False)
    #: the joint probabilities asked so far (each costs a pass of the counter; the
    #: advisor asks the same sets many times), and the lock they are counted under:
    #: a counter's marked passes are shared by the threads that ask its posterior
    _joints: dict[frozenset[int], Fraction] = field(default_factory=dict, repr=False, compare=False)
    _joints_lock: Any = field(default_factory=threading.Lock, repr=False, compare=False)

    # ---------------------------------------------------------------- numbers
    def probability(self, number: int) -> Fraction:
        """Exact probability that ``number`` is a face-down hideout now."""
        if not self.consistent:
            raise ValueError("the record is inconsistent: no hidden history fits")
        return Fraction(self.number_counts.get(number, 0), self.histories)

    @property
    def hideouts(self) -> dict[int, float]:
        """Every number 1–41 -> probability that it is a face-down hideout now."""
        if not self.consistent:
            return {}
        return {x: self.number_counts.get(x, 0) / self.histories for x in range(1, 42)}

    @cached_property
    def face_down_count(self) -> int:
        # counted once (the Manhunt planner asks each of its posteriors many times);
        # cached_property writes the instance's __dict__, which frozen allows
        return sum(1 for p in self.positions if not p.revealed)

    @property
    def certain(self) -> list[int]:
        """Numbers that are face-down hideouts in every consistent history."""
        return [x for x, c in sorted(self.number_counts.items()) if c == self.histories]

    @property
    def ruled_out(self) -> list[int]:
        """Guessable numbers that are a face-down hideout in no consistent history."""
        face_up = {p.hideout for p in self.positions if p.revealed}
        return [x for x in range(1, 42) if x not in face_up and not self.number_counts.get(x)]

    def joint(self, numbers: Iterable[int]) -> Fraction:
        """Exact probability that every number of the set is a face-down hideout now.

        This is the chance that a multi-number guess of exactly these numbers hits.
        Kept: a set asked again costs a look-up (the posterior's own, so a joint lives
        and goes with its posterior, wherever that is cached).
        """
        want = frozenset(numbers)
        if not want:
            return Fraction(1)
        if len(want) == 1:
            return self.probability(next(iter(want)))
        if not self.consistent or self._counter is None:
            raise ValueError("the record is inconsistent: no hidden history fits")
        if any(not self.number_counts.get(x) for x in want):
            return Fraction(0)
        got = self._joints.get(want)
        if got is None:
            with self._joints_lock:
                got = self._joints.get(want)
                if got is None:
                    got = self._joints[want] = Fraction(self._counter.through(want), self.histories)
        return got

    @property
    def joints_kept(self) -> int:
        """How many joint probabilities of two numbers or more it keeps: the states it
        holds (:meth:`held_states`) change only when this does."""
        return len(self._joints)

    def held_states(self) -> int:
        """How many states the kept counter holds (forward and backward values, marked
        passes of joints asked so far): what a cache of posteriors should weigh this one
        by. 1 without a counter."""
        if self._counter is None:
            return 1
        with self._joints_lock:  # not while a joint adds a marked pass
            return max(1, int(self._counter.stored_states()))

    # ---------------------------------------------------------------- output
    def to_dict(self) -> dict[str, Any]:
        """Exactly the ``fugitive solve --json`` object of docs/record.md."""
        if not self.consistent:
            return {
                "consistent": False,
                "first_inconsistent_event": self.first_inconsistent_event,
                "reason": self.reason,
            }
        return {
            "consistent": True,
            "histories": str(self.histories),
            "hideouts": {str(x): p for x, p in self.hideouts.items()},
            "positions": [p.to_dict() for p in self.positions],
        }
