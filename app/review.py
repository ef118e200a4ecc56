"""What a finished game teaches, without Streamlit: the Marshal's guesses graded, the
truth beside what she could know (hindsight), and the Fugitive's coach.

Grades
------
A guess is graded by its chance of hitting (a set: the *joint* probability that every
number of it is a face-down hideout, ``Posterior.joint``) against the best guess of
the same size at that moment: the ``k`` numbers with the highest joint probability,
found by an exact branch-and-bound (:func:`best_set`; her own cards never count, as
they cannot hit). What she gained is said from the outcome: the hideouts a hit turned
face up (and the win), or the share of the histories a miss ruled out.

Hindsight
---------
Once a match is over its full record shows where the Fugitive really was at every
moment: :func:`hindsight` puts each face-down hideout's true number beside the
Marshal's posterior of that moment (her chance for that number at that position).

The coach
---------
At the end of each of the Fugitive's turns (his placement or pass, after the draw of
that turn), :func:`coach` measures how exposed each of his face-down hideouts was: its
probability of being a face-down hideout in the Marshal's exact posterior, averaged
over the hands she could hold *from his view*. He knows from which decks she drew,
not what; her cards from deck d are a uniform choice among the cards of deck d he
has not seen (neither dealt nor drawn by him), independently for each deck. The
average is exact (every possible hand, each with its own exact solve) when there are
at most :data:`EXACT_HANDS` hands, and otherwise taken over :data:`SAMPLE_HANDS`
hands drawn uniformly at random (with a seed fixed by the record, so the figures
repeat). The posterior does not depend on which of her draws of one deck gave which
card (the model asks only which cards she holds), so a hand is a set per deck.

For the decision of each turn it also values the other moves he had: every placement
with up to ``max(3, his own count)`` sprint cards and passing (or ending the first
turn with one hideout), each by its most exposed hideout (the one she is most likely
to find; then the sum). An escape that wins at once is worth 0. The best of them, when
it beats his move, is "the move that would have hidden him best". A placement with
more sprint cards than its reach needed is a bluff; it *worked* when its hideout was
less exposed than with the fewest sprint cards that reach it.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable

from advisor.cache import joint as cached_joint
from engine.cards import DECKS, ESCAPE, deck_of
from engine.record import Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place, Record
from engine.replaying import replay
from engine.rules import BASE_STEP, ESCAPE_THRESHOLD, SPRINT, placement_error
from engine.state import GameState
from solver import Posterior
from solver import solve as exact_solve

from .match_logic import turns

#: the coach averages over every hand she could hold up to this many; beyond, a sample
EXACT_HANDS = 48
SAMPLE_HANDS = 32
#: the best set's search computes at most this many joint probabilities (then it says
#: the best set found is the best of those searched)
MAX_SETS = 4000


# --------------------------------------------------------------------------- best sets
@dataclass(frozen=True)
class BestSet:
    numbers: tuple[int, ...]
    p: Fraction
    exact: bool  #: False: the search stopped at MAX_SETS joints (the best of those)
    searched: int  #: joint probabilities computed


def best_set(post: Posterior, k: int, exclude: Iterable[int] = (), max_sets: int = MAX_SETS) -> BestSet:
    """The ``k`` numbers most likely to be face-down hideouts all together (the best
    guess of ``k`` numbers), by branch and bound over the numbers in descending order
    of probability: a set is never more likely than any of its numbers, nor than any
    of its subsets, so a branch whose bound (the smaller of the joint so far and the
    next number's own probability) cannot beat the best found is left."""
    exclude = frozenset(exclude)
    cands = sorted((x for x, c in post.number_counts.items() if c and x not in exclude),
                   key=lambda x: (-post.number_counts[x], x))
    if k < 1 or len(cands) < k:
        return BestSet((), Fraction(0), True, 0)
    probs = [post.probability(x) for x in cands]
    best: list = [(), Fraction(-1)]
    searched = 0
    stopped = False

    def grow(start: int, chosen: tuple[int, ...], p: Fraction) -> None:
        nonlocal searched, stopped
        if len(chosen) == k:
            if p > best[1]:
                best[0], best[1] = chosen, p
            return
        for j in range(start, len(cands) - (k - len(chosen)) + 1):
            if min(p, probs[j]) <= best[1]:
                return  # the numbers after j are no more likely than j
            if searched >= max_sets:
                stopped = True
                return
            nxt = chosen + (cands[j],)
            q = probs[j] if len(nxt) == 1 else cached_joint(post, nxt)
            searched += len(nxt) > 1
            if q > best[1]:
                grow(j + 1, nxt, q)

    grow(0, (), Fraction(1))
    if not best[0]:
        return BestSet(tuple(sorted(cands[:k])), Fraction(0), not stopped, searched)
    return BestSet(tuple(sorted(best[0])), best[1], not stopped, searched)


# --------------------------------------------------------------------------- grades
@dataclass(frozen=True)
class Grade:
    """One guess of the Marshal, graded."""

    index: int  #: its event index
    numbers: tuple[int, ...]
    manhunt: bool
    p: float  #: its chance to hit then (joint for several numbers)
    best: tuple[int, ...]  #: the best guess of the same size then
    best_p: float
    best_exact: bool
    own_cards: tuple[int, ...]  #: numbers of her own hand in it (they cannot hit)
    hit: bool
    revealed: int  #: hideouts it turned face up
    won: bool  #: it won the game

    @property
    def is_best(self) -> bool:
        return self.best_p <= self.p + 1e-12


def grade_record(record: Record, solve: Callable[[Record], Posterior]) -> tuple[Grade, ...]:
    """Every guess of a record (read as the Marshal's) against the best guess of the
    same size at that moment; ``solve`` gives the posterior of a record (the app's
    cached one)."""
    record = record.marshal_view()
    out = []
    for i, e in enumerate(record.events):
        if not isinstance(e, (Guess, ManhuntGuess)):
            continue
        before = record.truncated(i)
        post = solve(before)
        if not post.consistent:
            continue
        hand = before.marshal_cards
        numbers = tuple(sorted(e.numbers)) if isinstance(e, Guess) else (e.number,)
        p = cached_joint(post, numbers) if len(numbers) > 1 else post.probability(numbers[0])
        best = best_set(post, len(numbers), hand)
        revealed = len(e.reveals) if isinstance(e, Guess) else int(e.hit)
        won = e.hit and revealed == post.face_down_count
        out.append(Grade(i, numbers, isinstance(e, ManhuntGuess), float(p), best.numbers, float(best.p), best.exact,
                         tuple(x for x in numbers if x in hand), e.hit, revealed if e.hit else 0, won))
    return tuple(out)


# --------------------------------------------------------------------------- hindsight
@dataclass(frozen=True)
class TruthSpot:
    """A face-down hideout at one moment: where he really was, and what she could know."""

    position: int
    number: int
    sprint_cards: tuple[int, ...]
    p_here: float  #: her chance that this position holds this number
    p_number: float  #: her chance that this number is a face-down hideout
    her_best: int  #: her most likely number for this position
    her_best_p: float


def truth_at(full: Record, step: int) -> GameState:
    """The real game after ``step`` events of a full record."""
    return replay(full.truncated(step))


def hindsight(full: Record, step: int, post: Posterior) -> tuple[TruthSpot, ...]:
    """Each face-down hideout after ``step`` events: its true number beside her
    posterior ``post`` of that moment (the Marshal's view of the same events)."""
    state = truth_at(full, step)
    if not post.consistent:
        return ()
    by_position = {p.position: p for p in post.positions}
    out = []
    for position, h in enumerate(state.row):
        if position == 0 or h.face_up:
            continue
        pp = by_position[position]
        best, best_c = max(pp.counts.items(), key=lambda kv: (kv[1], -kv[0])) if pp.counts else (0, 0)
        out.append(TruthSpot(position, h.number, tuple(h.sprint_cards), float(pp.probability(h.number)),
                             float(post.probability(h.number)), best, best_c / pp.total if pp.total else 0.0))
    return tuple(out)


# --------------------------------------------------------------------------- the coach
@dataclass(frozen=True)
class Exposure:
    position: int
    number: int
    p: float  #: averaged over her possible hands
    se: float = 0.0  #: the standard error of a sampled average (0 when exact)


@dataclass(frozen=True)
class Option:
    """A placement he could have made instead (the best one of its public look)."""

    hideout: int
    sprints: int
    worst: float  #: exposure of his most exposed hideout after it
    total: float  #: the sum of the exposures
    wins: bool = False  #: an escape that wins at once


@dataclass(frozen=True)
class Bluff:
    hideout: int
    sprints: int  #: the sprint cards he used
    fewest: int  #: the fewest that reach the hideout
    p: float  #: the hideout's exposure with his bluff
    p_fewest: float  #: ... with the fewest sprint cards

    @property
    def worked(self) -> bool:
        return self.p < self.p_fewest - 1e-9


@dataclass(frozen=True)
class CoachTurn:
    """One turn of the Fugitive, measured."""

    index: int  #: the event index of his decision (placement or pass)
    event: Event
    exposures: tuple[Exposure, ...]  #: his face-down hideouts after his turn, left to right
    worst: float
    total: float
    #: the placement that would have hidden him best, when it beats his placement (or,
    #: when he passed, when it would have hidden him as well as passing)
    best: Option | None
    bluff: Bluff | None
    hands: int  #: how many hands she could hold
    averaged: int  #: over how many the figures are averaged (all of them when exact)
    options: tuple[Option, ...] = ()  #: every placement valued (the best of each public look)

    @property
    def exact(self) -> bool:
        return self.averaged == self.hands


@dataclass(frozen=True)
class _Plan:
    start: int  #: first event of his turn
    index: int  #: his decision
    end: int  #: end of his turn (after a bonus draw)
    state: GameState  #: the real game before his decision
    hands: list[dict[int, tuple[int, ...]]]
    count: int
    options: list[tuple[int, int]]  #: the placements he had, as (hideout, sprint count)


def _unseen_hands(full: Record, index: int, state: GameState) -> tuple[int, list[dict[int, tuple[int, ...]]]]:
    """(how many, the hands averaged over): her cards per deck as he may imagine them
    before his decision ``index``."""
    events = full.events[:index]
    his = set(full.fugitive_setup or ()) | {e.card for e in events if isinstance(e, FugitiveDraw)}
    drawn = {d: 0 for d in (1, 2, 3)}
    for e in events:
        if isinstance(e, MarshalDraw):
            drawn[deck_of(e.card)] += 1
    pools = {d: [c for c in DECKS[d] if c not in his] for d in (1, 2, 3)}
    count = math.prod(math.comb(len(pools[d]), drawn[d]) for d in (1, 2, 3))
    if count <= EXACT_HANDS:
        per_deck = [list(itertools.combinations(pools[d], drawn[d])) for d in (1, 2, 3)]
        return count, [dict(zip((1, 2, 3), combo)) for combo in itertools.product(*per_deck)]
    rng = random.Random(f"coach-{index}-{len(full.events)}")
    return count, [{d: tuple(sorted(rng.sample(pools[d], drawn[d]))) for d in (1, 2, 3)}
                   for _ in range(SAMPLE_HANDS)]


def _with_hand(events: Iterable[Event], hand: dict[int, tuple[int, ...]], ruleset) -> Record:
    """The Marshal's record of ``events`` had she drawn ``hand`` (deck -> cards, given
    to her draws of that deck in order)."""
    left = {d: list(cards) for d, cards in hand.items()}
    out = []
    for e in events:
        if isinstance(e, MarshalDraw):
            e = MarshalDraw(left[deck_of(e.card)].pop(0))
        out.append(e)
    return Record(tuple(out), ruleset).marshal_view()


def _fewest(previous: int, hand: frozenset[int], hideout: int) -> int | None:
    """The fewest sprint cards of ``hand`` that let ``hideout`` follow ``previous``."""
    need = hideout - previous - BASE_STEP
    if need <= 0:
        return 0
    values = sorted((SPRINT[c] for c in hand if c not in (hideout, ESCAPE)), reverse=True)
    total = 0
    for n, v in enumerate(values, start=1):
        total += v
        if total >= need:
            return n
    return None


def _options(state: GameState, actual_sprints: int) -> list[tuple[int, int]]:
    """The placements he had, by their public look: (hideout, sprint count), each the
    placement of that hideout with that many of his sprint cards (the most footprints
    first), up to ``max(3, actual_sprints)`` sprint cards."""
    prev = state.previous
    hand = state.fugitive_hand
    usable = len([c for c in hand if c != ESCAPE])
    cap = max(3, actual_sprints)
    needs_second = (state.phase.value == "fugitive_opening" and state.ruleset.opening == "two"
                    and state.opening_placed == 0)
    out: list[tuple[int, int]] = []
    for h in sorted(hand):
        if h <= prev:
            continue
        fewest = _fewest(prev, hand, h)
        if fewest is None:
            continue
        for s in range(fewest, min(cap, usable - (h != ESCAPE)) + 1):
            cards = frozenset(sorted((c for c in hand if c not in (h, ESCAPE)), key=lambda c: -SPRINT[c])[:s])
            if placement_error(prev, hand, h, cards, needs_second) is None:
                out.append((h, s))
    return out


def _look(hideout: int, sprints: int) -> Place:
    """What the Marshal sees of a placement: its sprint count (and 42, played openly)."""
    return Place(sprints, ESCAPE, None) if hideout == ESCAPE else Place(sprints)


def coach_plan(full: Record) -> list[_Plan]:
    """The turns the coach measures, with the hands and options of each."""
    plans = []
    for who, a, b in turns(full.events):
        if who != "fugitive":
            continue
        decisions = [i for i in range(a, b) if isinstance(full.events[i], (Place, Pass))]
        if not decisions:
            continue
        index = decisions[-1]
        state = replay(full.truncated(index))
        event = full.events[index]
        count, hands = _unseen_hands(full, index, state)
        sprints = event.sprints if isinstance(event, Place) else 0
        plans.append(_Plan(a, index, b, state, hands, count, _options(state, sprints)))
    return plans


def coach_work(plans: list[_Plan]) -> int:
    """How many solves :func:`coach` makes at most for these plans (for a progress bar)."""
    return sum(len(p.hands) * (1 + len({_look(h, s) for h, s in p.options})) for p in plans)


class _Averager:
    """Averages over her hands, each record solved once (the record of his own move
    is often that of one of the options)."""

    def __init__(self, tick: Callable[[], None]):
        self.tick = tick
        self.seen: dict[tuple, Posterior] = {}

    def solve(self, record: Record) -> Posterior:
        post = self.seen.get(record.key)
        if post is None:
            post = self.seen[record.key] = exact_solve(record, validate=False)
        self.tick()
        return post

    def average(self, records: list[Record]) -> dict[int, tuple[float, float]]:
        """number -> (its probability of being a face-down hideout averaged over the
        records, the standard error of that mean when they are a sample)."""
        values: dict[int, list[float]] = {}
        for i, rec in enumerate(records):
            post = self.solve(rec)
            for x, c in post.number_counts.items():
                values.setdefault(x, [0.0] * len(records))[i] = c / post.histories
        n = len(records)
        out = {}
        for x, v in values.items():
            mean = sum(v) / n
            var = sum((y - mean) ** 2 for y in v) / (n - 1) if n > 1 else 0.0
            out[x] = (mean, math.sqrt(var / n))
        return out


def coach(full: Record, progress: Callable[[int, int], None] | None = None) -> tuple[CoachTurn, ...]:
    """The coach's figures for every turn of the Fugitive in a full record (see the
    module docstring); ``progress(done, total)`` is called after every solve."""
    plans = coach_plan(full)
    total = coach_work(plans)
    done = [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(min(done[0], total), total)

    avg = _Averager(tick)
    out = []
    ruleset = full.ruleset
    for plan in plans:
        event = full.events[plan.index]
        before = full.events[:plan.index]
        exact = len(plan.hands) == plan.count
        actual = avg.average([_with_hand(full.events[:plan.end], h, ruleset) for h in plan.hands])
        real = replay(full.truncated(plan.end))
        exposures = tuple(Exposure(pos, h.number, actual.get(h.number, (0.0, 0.0))[0],
                                   0.0 if exact else actual.get(h.number, (0.0, 0.0))[1])
                          for pos, h in enumerate(real.row) if pos and not h.face_up)
        worst = max((e.p for e in exposures), default=0.0)
        total_p = sum(e.p for e in exposures)
        old = [h.number for pos, h in enumerate(plan.state.row) if pos and not h.face_up]
        top_up = max((h.number for h in plan.state.row if h.face_up), default=0)
        looks: dict[Place, dict[int, tuple[float, float]]] = {}
        best: Option | None = None
        valued = []
        for h, s in plan.options:
            if h == ESCAPE and top_up >= ESCAPE_THRESHOLD:
                option = Option(h, s, 0.0, 0.0, wins=True)
            else:
                look = _look(h, s)
                if look not in looks:
                    looks[look] = avg.average([_with_hand(before + (look,), hand, ruleset) for hand in plan.hands])
                hidden = old + ([h] if h != ESCAPE else [])
                values = [looks[look].get(x, (0.0, 0.0))[0] for x in hidden]
                option = Option(h, s, max(values, default=0.0), sum(values))
            valued.append(option)
            if best is None or (option.worst, option.total, option.sprints) < (best.worst, best.total, best.sprints):
                best = option
        if best is not None:
            if isinstance(event, Place) and (best.worst, best.total) >= (worst - 1e-9, total_p - 1e-9):
                best = None  # his placement was as good as any
            elif isinstance(event, Pass) and best.worst > worst + 1e-9:
                best = None  # every placement would have exposed him more than passing
        bluff = None
        if isinstance(event, Place) and event.hideout not in (None, ESCAPE) and event.sprint_cards:
            fewest = _fewest(plan.state.previous, plan.state.fugitive_hand, event.hideout)
            look = _look(event.hideout, fewest) if fewest is not None else None
            if fewest is not None and fewest < event.sprints and look in looks:
                mine = next((e.p for e in exposures if e.number == event.hideout), 0.0)
                bluff = Bluff(event.hideout, event.sprints, fewest, mine, looks[look].get(event.hideout, (0.0, 0.0))[0])
        out.append(CoachTurn(plan.index, event, exposures, worst, total_p, best, bluff, plan.count, len(plan.hands),
                             tuple(valued)))
    return tuple(out)
