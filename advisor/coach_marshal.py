"""The Marshal's coach: each of her decisions, draw and guess, graded against the best
decision at that moment, by the measures the advisor already uses. Figures only (a
page says them in words); everything follows from her own record, so it serves the
assistant's games as well as matches.

Draws
-----
A draw is graded by :func:`advisor.draws.advise_draw`'s score of each deck that could
be drawn: what one card from it rules out (the expected face-down hideouts among the
deck's cards she has not seen, per card left in it) plus, once his row can reach the
high twenties, what holding a deck-3 card blocks. The best deck is the advisor's.

Guesses
-------
A guess is graded by the hideouts it reveals on average: its chance to hit (a set: the
*joint* probability that every number of it is a face-down hideout,
``Posterior.joint``) times its size, the advisor's first measure. The best guess is
searched over every set, of any size (:func:`best_guess`): for each size k, the k
numbers with the highest joint probability (:func:`best_set`, an exact branch and
bound over the joints); sizes whose bound (k times the k-th highest probability,
as a set is never more likely than any of its numbers) cannot beat the best found are
skipped. Equal averages go to the likelier (smaller) guess. Her own cards never count,
as they cannot hit.

The Manhunt
-----------
A Manhunt guess is graded by the chance of catching him when that number is guessed
first and the rest is played best (the planner's value of each first guess,
:func:`advisor.manhunt.plan_manhunt`), within a time budget per guess: beyond it the
values are rigorous bounds, and a grade is given only where the bounds tell.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Union

from engine.cards import deck_of
from engine.record import Event, Guess, ManhuntGuess, MarshalDraw, Record
from solver import Posterior

from .cache import joint, solve_cached
from .draws import DeckScore, advise_draw
from .guesses import MAX_SETS, BestGuess, BestSet, best_set  # noqa: F401 (the coach's search, the suggestions' too)
from .guesses import best_of_any_size as best_guess
from .manhunt import plan_manhunt

#: the planner's seconds for each Manhunt guess
MANHUNT_SECONDS = 2.0


# --------------------------------------------------------------------------- her decisions
@dataclass(frozen=True)
class DrawCall:
    """A draw of hers, graded."""

    index: int  #: its event index
    deck: int  #: the deck she drew from
    decks: tuple[DeckScore, ...]  #: every deck she could draw from, scored
    best: int  #: the advisor's deck
    top: int  #: the highest number his row could reach then (the blocking reason's figure)

    def score(self, deck: int) -> DeckScore:
        return next(d for d in self.decks if d.deck == deck)

    @property
    def is_best(self) -> bool:
        return self.score(self.deck).score >= self.score(self.best).score - 1e-12


@dataclass(frozen=True)
class GuessCall:
    """A guess of her normal turn, graded."""

    index: int
    numbers: tuple[int, ...]
    p: float  #: its chance to hit then (joint for several numbers)
    best: BestGuess
    certain: tuple[int, ...]  #: the numbers certain then (her own cards aside)
    own_cards: tuple[int, ...]  #: numbers of her own hand in it (they cannot hit)
    hit: bool
    revealed: int  #: hideouts it turned face up
    won: bool  #: it won the game

    @property
    def reveals(self) -> float:
        return self.p * len(self.numbers)

    @property
    def is_best(self) -> bool:
        return self.reveals >= self.best.reveals - 1e-12


@dataclass(frozen=True)
class ManhuntCall:
    """A Manhunt guess of hers, graded by the chance of catching him."""

    index: int
    number: int
    p: float  #: its chance to hit
    value: tuple[float, float]  #: the chance of catching him guessing it first (bounds; equal when exact)
    best: int  #: the planner's first guess
    best_p: float
    best_value: tuple[float, float]
    hit: bool
    won: bool

    @property
    def exact(self) -> bool:
        return self.value[0] == self.value[1] and self.best_value[0] == self.best_value[1]

    @property
    def is_best(self) -> bool | None:
        """True, False, or None when the planner's bounds cannot tell."""
        if self.value[0] >= self.best_value[1] - 1e-12:
            return True
        if self.value[1] < self.best_value[0] - 1e-12:
            return False
        return None


MarshalCall = Union[DrawCall, GuessCall, ManhuntCall]


def marshal_decisions(record: Record) -> list[int]:
    """The event indices of her decisions (draws and guesses)."""
    return [i for i, e in enumerate(record.events) if isinstance(e, (MarshalDraw, Guess, ManhuntGuess))]


def coach_marshal(record: Record, progress: Callable[[int, int], None] | None = None,
                  manhunt_seconds: float = MANHUNT_SECONDS) -> tuple[MarshalCall, ...]:
    """Every decision of the Marshal in ``record`` (read as hers), graded; decisions
    at a moment her record has no consistent history are left out.
    ``progress(done, total)`` is called after each decision."""
    record = record.marshal_view()
    decisions = marshal_decisions(record)
    out: list[MarshalCall] = []
    for n, i in enumerate(decisions, start=1):
        before = record.truncated(i)
        post = solve_cached(before, validate=False)
        if post.consistent:
            out.append(_call(before, post, record.events[i], i, manhunt_seconds))
        if progress is not None:
            progress(n, len(decisions))
    return tuple(out)


def _call(before: Record, post: Posterior, e: Event, i: int, manhunt_seconds: float) -> MarshalCall:
    hand = before.marshal_cards
    if isinstance(e, MarshalDraw):
        advice = advise_draw(before, validate=False)
        top = advice.reason_args.get("top", 0) if advice.reason_key == "blocking" else 0
        assert isinstance(top, int)
        return DrawCall(i, deck_of(e.card), advice.decks, advice.deck, top)
    if isinstance(e, Guess):
        numbers = tuple(sorted(e.numbers))
        p = joint(post, numbers)
        won = e.hit and len(e.reveals) == post.face_down_count
        return GuessCall(i, numbers, float(p), best_guess(post, hand),
                         tuple(x for x in post.certain if x not in hand), tuple(x for x in numbers if x in hand),
                         e.hit, len(e.reveals) if e.hit else 0, won)
    if not isinstance(e, ManhuntGuess):
        raise TypeError(f"event {i} is not a decision of hers: {e!r}")
    plan = plan_manhunt(before, time_budget=manhunt_seconds, validate=False)
    zero = (Fraction(0), Fraction(0))
    value = plan.first_guesses.get(e.number, zero)
    best = (plan.lower, plan.upper)
    won = e.hit and post.face_down_count == 1
    return ManhuntCall(i, e.number, float(post.probability(e.number)), (float(value[0]), float(value[1])),
                       plan.best_guess, float(post.probability(plan.best_guess)), (float(best[0]), float(best[1])),
                       e.hit, won)
