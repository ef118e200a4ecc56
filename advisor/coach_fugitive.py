"""The Fugitive's coach, and where he really was: figures of a full record (a match's,
whose hidden fields are known once it is over), without any page.

Hindsight
---------
A full record shows where the Fugitive really was at every moment:
:func:`hindsight` puts each face-down hideout's true number beside the Marshal's
posterior of that moment (her chance for that number at that position).

The coach
---------
At the end of each of the Fugitive's turns (his placement or pass, after the draw of
that turn), :func:`coach_fugitive` measures how exposed he was, over the hands the
Marshal could hold *from his view*: he knows from which decks she drew, not what; her
cards from deck d are a uniform choice among the cards of deck d he has not seen
(neither dealt nor drawn by him), independently for each deck. For each such hand her
record is solved exactly, and two figures are averaged:

- each face-down hideout's **exposure**: its probability of being a face-down hideout
  in her posterior;
- the chance he is **found next turn**: that her most likely number (the single guess
  that hits most often; numbers equally likely share the chance) is one of his
  face-down hideouts.

The average is exact (every possible hand, each with its own exact solve) when there
are at most :data:`EXACT_HANDS` hands, and otherwise taken over :data:`SAMPLE_HANDS`
hands drawn uniformly at random (with a seed fixed by the record, so the figures
repeat; the exposures then carry their standard error). The posterior does not
depend on which of her draws of one deck gave which card (the model asks only which
cards she holds), so a hand is a set per deck.

His decision is compared with the other moves he had: every placement with up to
``max(3, his own count)`` sprint cards (what she sees of a placement is its sprint
count, so one solve per count and hand values every hideout of that count), and
passing. Moves are ranked by the chance of being found next turn, then by the
exposure of the most exposed hideout, then (between placements, which leave him the
same number of hideouts) by the sum of the exposures, then by fewer sprint cards; an
escape that wins at once is worth 0. The best of them, when it beats
his move, is "the move that would have hidden him best". A placement with more sprint
cards than its reach needed is a bluff; it *worked* when its hideout was less exposed
than with the fewest sprint cards that reach it.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Callable, Iterable

from engine.cards import DECKS, ESCAPE, deck_of
from engine.record import Event, FugitiveDraw, MarshalDraw, Pass, Place, Record, Ruleset
from engine.replaying import replay, turns
from engine import rules
from engine.rules import SPRINT, placement_error
from engine.state import GameState
from solver import Posterior

from .cache import solve_cached

#: the coach averages over every hand she could hold up to this many; beyond, a sample
EXACT_HANDS = 48
SAMPLE_HANDS = 32


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
    """A move he had, valued: a placement (the best one of its public look), or his
    pass (``hideout`` None)."""

    hideout: int | None
    sprints: int
    found: float  #: the chance her most likely number is one of his face-down hideouts after it
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
    found: float  #: the chance her most likely number then is one of them
    worst: float
    total: float
    #: the placement that would have hidden him best, when it beats his (or, when he
    #: passed, when it would have hidden him as well as passing)
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


def _unseen_hands(full: Record, index: int) -> tuple[int, list[dict[int, tuple[int, ...]]]]:
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


def _with_hand(events: Iterable[Event], hand: dict[int, tuple[int, ...]], ruleset: Ruleset) -> Record:
    """The Marshal's record of ``events`` had she drawn ``hand`` (deck -> cards, given
    to her draws of that deck in order)."""
    left = {d: list(cards) for d, cards in hand.items()}
    out = []
    for e in events:
        if isinstance(e, MarshalDraw):
            e = MarshalDraw(left[deck_of(e.card)].pop(0))
        out.append(e)
    return Record(tuple(out), ruleset).marshal_view()


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
        fewest = rules.fewest_sprint_cards(prev, hand, h)
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
        count, hands = _unseen_hands(full, index)
        sprints = event.sprints if isinstance(event, Place) else 0
        plans.append(_Plan(a, index, b, state, hands, count, _options(state, sprints)))
    return plans


def coach_work(plans: list[_Plan]) -> int:
    """How many solves :func:`coach_fugitive` makes at most for these plans (for a
    progress bar)."""
    return sum(len(p.hands) * (1 + len({_look(h, s) for h, s in p.options})) for p in plans)


@dataclass(frozen=True)
class _Averaged:
    """Her posteriors over the hands, averaged: number -> (mean probability of being a
    face-down hideout, its standard error when the hands are a sample); and per hand
    her most likely numbers (her own cards aside)."""

    numbers: dict[int, tuple[float, float]]
    tops: tuple[frozenset[int], ...]

    def exposure(self, number: int) -> float:
        return self.numbers.get(number, (0.0, 0.0))[0]

    def found(self, hidden: Iterable[int]) -> float:
        """The chance her most likely number is one of ``hidden`` (ties share it)."""
        hidden = set(hidden)
        if not self.tops:
            return 0.0
        return sum(len(top & hidden) / len(top) for top in self.tops if top) / len(self.tops)


class _Averager:
    """Averages over her hands, each record solved once (the record of his own move
    is often that of one of the options)."""

    def __init__(self, tick: Callable[[], None]):
        self.tick = tick

    def solve(self, record: Record) -> Posterior:
        post = solve_cached(record, validate=False)
        self.tick()
        return post

    def average(self, records: list[Record]) -> _Averaged:
        values: dict[int, list[float]] = {}
        tops = []
        for i, rec in enumerate(records):
            post = self.solve(rec)
            mine = rec.marshal_cards
            top = max((c for x, c in post.number_counts.items() if x not in mine), default=0)
            tops.append(frozenset(x for x, c in post.number_counts.items() if c and c == top and x not in mine))
            for x, c in post.number_counts.items():
                values.setdefault(x, [0.0] * len(records))[i] = c / post.histories
        n = len(records)
        out = {}
        for x, v in values.items():
            mean = sum(v) / n
            var = sum((y - mean) ** 2 for y in v) / (n - 1) if n > 1 else 0.0
            out[x] = (mean, math.sqrt(var / n))
        return _Averaged(out, tuple(tops))


def _better(a: Option, b: Option, eps: float = 1e-9) -> bool:
    """Whether move ``a`` hides him better than ``b``: less likely found next turn, then
    a less exposed most exposed hideout, then (two placements, or two passes: the same
    number of hideouts) exposures of smaller sum, then fewer sprint cards; figures
    within ``eps`` of each other count as equal."""
    figures = [(a.found, b.found), (a.worst, b.worst)]
    if (a.hideout is None) == (b.hideout is None):
        figures += [(a.total, b.total), (a.sprints, b.sprints)]
    for x, y in figures:
        if x < y - eps:
            return True
        if x > y + eps:
            return False
    return False


def coach_fugitive(full: Record, progress: Callable[[int, int], None] | None = None) -> tuple[CoachTurn, ...]:
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
    return tuple(_turn(full, plan, avg) for plan in plans)


def _turn(full: Record, plan: _Plan, avg: _Averager) -> CoachTurn:
    event = full.events[plan.index]
    before = full.events[:plan.index]
    ruleset = full.ruleset
    exact = len(plan.hands) == plan.count
    actual = avg.average([_with_hand(full.events[:plan.end], h, ruleset) for h in plan.hands])
    real = replay(full.truncated(plan.end))
    hidden_after = [(pos, h.number) for pos, h in enumerate(real.row) if pos and not h.face_up]
    exposures = tuple(Exposure(pos, x, actual.exposure(x), 0.0 if exact else actual.numbers.get(x, (0.0, 0.0))[1])
                      for pos, x in hidden_after)
    found = actual.found(x for _, x in hidden_after)
    worst = max((e.p for e in exposures), default=0.0)
    total_p = sum(e.p for e in exposures)
    old = [h.number for pos, h in enumerate(plan.state.row) if pos and not h.face_up]
    top_up = max((h.number for h in plan.state.row if h.face_up), default=0)
    looks: dict[Place, _Averaged] = {}

    def after(look: Place) -> _Averaged:
        if look not in looks:
            looks[look] = avg.average([_with_hand(before + (look,), hand, ruleset) for hand in plan.hands])
        return looks[look]

    valued = []
    for h, s in plan.options:
        if h == ESCAPE and rules.escape_wins(top_up):
            valued.append(Option(h, s, 0.0, 0.0, 0.0, wins=True))
            continue
        seen = after(_look(h, s))
        hidden = old + ([h] if h != ESCAPE else [])
        values = [seen.exposure(x) for x in hidden]
        valued.append(Option(h, s, seen.found(hidden), max(values, default=0.0), sum(values)))
    mine = Option(event.hideout if isinstance(event, Place) else None, getattr(event, "sprints", 0), found, worst,
                  total_p)
    best = None
    for o in valued:
        if best is None or _better(o, best):
            best = o
    if best is not None and isinstance(event, Place) and not _better(best, mine):
        best = None  # his placement was as good as any move
    elif best is not None and isinstance(event, Pass) and _better(mine, best):
        best = None  # every placement would have exposed him more than passing
    bluff = None
    if isinstance(event, Place) and event.hideout not in (None, ESCAPE) and event.sprint_cards:
        fewest = rules.fewest_sprint_cards(plan.state.previous, plan.state.fugitive_hand, event.hideout)
        look = _look(event.hideout, fewest) if fewest is not None else None
        if fewest is not None and fewest < event.sprints and look in looks:
            p_mine = next((e.p for e in exposures if e.number == event.hideout), 0.0)
            bluff = Bluff(event.hideout, event.sprints, fewest, p_mine, looks[look].exposure(event.hideout))
    return CoachTurn(plan.index, event, exposures, found, worst, total_p, best, bluff, plan.count, len(plan.hands),
                     tuple(valued))
