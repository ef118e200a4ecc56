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

The grade: his chance to win
---------------------------
Those two figures are one-turn measures; the game is won over the whole row, and a
sprint card spent now is a step he cannot take later. So his move is graded by his
**chance to win** after it, valued by the search Fugitive's own evaluation
(:meth:`advisor.search.SearchFugitive.evaluate`, the expert AI's): on
:data:`COACH_ROUNDS` rounds of whole game states he cannot tell from the real one (her
hand sampled exactly from his view, the decks shuffled), every move he had (each
placement with the cheapest sprint cards of each count the AI searches, the pass when
allowed, and his own move with his own sprint cards) is played, the model Marshal
answers, and the position is valued by the AI's fitted chance to win (her exact
posterior, his hand's footprints, the cards he holds ahead, how close he is to 42);
half of that value is the worst of her few strongest guesses (the AI is wary:
:attr:`advisor.search.SearchFugitive.wary`), so a move is not rated safe because the
model's one guess happens to miss it.
Every move meets the same rounds, so his move and the best differ round by round: a
move is *better* only when its mean beats his by at least :data:`MARGIN` and by two
standard errors of that paired difference (:class:`Chance`). The coach and the AI
agree: what the coach calls better is what the AI would have played, unless his own
move is within the margin. A move the rules forced (a pass with no card able to
follow, or a single legal move) is said, not graded (``forced``).

The one-turn figures stay, as explanation: for each placement by its public look
(every placement with up to ``max(3, his own count)`` sprint cards; what she sees of
a placement is its sprint count, so one solve per count and hand values every hideout
of that count), found next turn, the most exposed hideout and the sum of the
exposures (``options``); the move the least likely to be found next turn, then the
least exposed, is ``safest`` (it often spends his hand, which is why it is not the
grade). A placement with more sprint cards than its reach needed is a bluff; it
*worked* when its hideout was less exposed than with the fewest sprint cards that
reach it.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Callable, Iterable

from engine.cards import DECKS, ESCAPE, deck_of
from engine.moves import Move, PassTurn, PlaceHideout
from engine.record import Event, FugitiveDraw, MarshalDraw, Pass, Place, Record, Ruleset
from engine.replaying import replay, turns
from engine import rules
from engine.rules import SPRINT, placement_error
from engine.state import GameState, Phase
from engine.views import fugitive_view
from solver import Posterior

from .cache import solve_cached
from .search import SearchFugitive

#: the coach averages over every hand she could hold up to this many; beyond, a sample
EXACT_HANDS = 48
SAMPLE_HANDS = 32
#: rounds of determinizations on which the search's evaluation values his moves
COACH_ROUNDS = 12
#: a move is better than his only when its chance to win beats his by this much
#: (and by two standard errors of the paired difference)
MARGIN = 0.02


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
class Chance:
    """A move of his valued by his chance to win after it (the search's evaluation)."""

    hideout: int | None  #: None: the pass
    sprint_cards: tuple[int, ...]
    win: float  #: mean over the rounds
    gain: float = 0.0  #: its mean minus his move's, round by round
    se: float = 0.0  #: the standard error of that paired difference

    @property
    def sprints(self) -> int:
        return len(self.sprint_cards)


@dataclass(frozen=True)
class CoachTurn:
    """One turn of the Fugitive, measured."""

    index: int  #: the event index of his decision (placement or pass)
    event: Event
    exposures: tuple[Exposure, ...]  #: his face-down hideouts after his turn, left to right
    found: float  #: the chance her most likely number then is one of them
    worst: float
    total: float
    #: the placement least likely to be found next turn (then the least exposed), when
    #: it hides him better than his move (or, when he passed, as well): one turn's view
    safest: Option | None
    bluff: Bluff | None
    hands: int  #: how many hands she could hold
    averaged: int  #: over how many the figures are averaged (all of them when exact)
    options: tuple[Option, ...] = ()  #: every placement valued (the best of each public look)
    #: the grade: his move's chance to win (None when forced)
    win: float | None = None
    #: the move with the best chance to win, when it beats his clearly (module docstring)
    better: Chance | None = None
    #: the one-turn figures of ``better`` (its public look), for the explanation
    better_option: Option | None = None
    #: his move was the only one the rules allowed (a pass: no card could follow)
    forced: bool = False
    #: the previous hideout he had to follow
    previous: int = 0

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
    """How many solves :func:`coach_fugitive` makes at most for these plans, and one
    step per turn for its grade (for a progress bar)."""
    return sum(len(p.hands) * (1 + len({_look(h, s) for h, s in p.options})) + 1 for p in plans)


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
    out = []
    for plan in plans:
        turn = _turn(full, plan, avg)
        out.append(_graded(full, plan, turn, tick))
    return tuple(out)


def _his_plan(state: GameState, event: Event) -> tuple[Move, ...]:
    """His moves of this decision up to her turn, as the search plays them."""
    if isinstance(event, Pass):
        return (PassTurn(),)
    assert isinstance(event, Place) and event.hideout is not None
    move = PlaceHideout(event.hideout, frozenset(event.sprint_cards or ()))
    if state.phase is Phase.FUGITIVE_OPENING and state.opening_placed == 0:
        return (move, PassTurn())  # one hideout on his first turn, then her turn
    return (move,)


def _chance(plan: tuple[Move, ...], values: list[float], mine: list[float]) -> Chance:
    first = plan[0]
    n = len(values)
    diffs = [a - b for a, b in zip(values, mine)]
    gain = sum(diffs) / n if n else 0.0
    var = sum((d - gain) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    if isinstance(first, PlaceHideout):
        return Chance(first.hideout, tuple(sorted(first.sprint_cards)), sum(values) / n if n else 0.0, gain,
                      math.sqrt(var / n) if n else 0.0)
    return Chance(None, (), sum(values) / n if n else 0.0, gain, math.sqrt(var / n) if n else 0.0)


def grade(state: GameState, event: Event, seed: int, rounds: int = COACH_ROUNDS,
          seconds: float = math.inf) -> tuple[float | None, Chance | None, bool]:
    """(his chance to win after ``event``, the clearly better move or None, forced) at
    ``state`` (the real game before his decision), by the search Fugitive's evaluation
    over ``rounds`` rounds (module docstring); forced moves are not valued."""
    prev, hand = state.previous, state.fugitive_hand
    if isinstance(event, Pass) and not rules.has_placement(prev, hand):
        return None, None, True
    bot = SearchFugitive(seed, samples=rounds, time_budget=seconds)
    view = fugitive_view(state)
    plans = bot.plans(view)
    mine = _his_plan(state, event)
    if mine not in plans:
        plans.append(mine)
    if len(plans) == 1:
        return None, None, True
    values = bot.evaluate(view, plans)
    ours = values[plans.index(mine)]
    if not ours:
        return None, None, False
    win = sum(ours) / len(ours)
    best = max(range(len(plans)), key=lambda i: (sum(values[i]) / len(values[i]) if values[i] else -1.0, -i))
    chance = _chance(plans[best], values[best], ours)
    if plans[best] == mine or chance.gain < MARGIN or chance.gain <= 2 * chance.se:
        return win, None, False
    return win, chance, False


def _graded(full: Record, plan: _Plan, turn: CoachTurn, tick: Callable[[], None]) -> CoachTurn:
    """``turn`` with its grade by his chance to win."""
    import dataclasses

    event = full.events[plan.index]
    win, better, forced = grade(plan.state, event, seed=plan.index * 1009 + len(full.events))
    tick()
    option = None
    if better is not None and better.hideout is not None:
        option = next((o for o in turn.options if (o.hideout, o.sprints) == (better.hideout, better.sprints)), None)
    return dataclasses.replace(turn, win=win, better=better, better_option=option, forced=forced,
                               previous=plan.state.previous)


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
