"""The search Fugitive: each move chosen by search over the Marshal's exact beliefs.

The Fugitive knows his own cards; what he does not know is the Marshal's hand and the
order of the decks (``advisor.marshal_hand``). For each decision the bot

1. draws *determinizations*: whole game states he cannot tell from the real one
   (her hand sampled exactly, the decks shuffled), so the engine itself plays the
   moves and checks the rules;
2. plays each candidate move on each of them (a placement with each sprint count it
   can make, the pass, the escape; a deck to draw from; on the first turn the whole
   opening, one hideout or two), then lets a model of the Marshal answer: the
   lookahead Marshal (``advisor.bots.LookaheadMarshal``, her draw advice and her guess
   ranked by the one-turn lookahead), which decides from her own exact record only. Like the
   Marshals he meets (the ``-randomtie`` bots, the app's careful and expert) she
   breaks ties at random: when several guesses are equally good by every figure,
   each of them is played (``SolverMarshal.answers``, at most ``max_ties``) and the
   values averaged, so no hideout counts as safe only because a fixed tie-break
   would pass it by;
3. also plays her few strongest guesses (:func:`advisor.bots.strongest_guesses`: the
   lookahead's best four, with every tie), and counts :attr:`SearchFugitive.wary` of
   a position's value as the worst of them: the model is one Marshal, and a plan that
   only its exact guess leaves safe is caught by a Marshal who thinks a little further
   (the search Marshal) or just differently (a person);
4. values the position after her answer: a won or lost game is 1 or 0; an escape
   into a Manhunt is played out with her hunting the most likely number each time;
   any other position is valued by a logistic function fitted on real games
   (:func:`features`, weights :data:`WEIGHTS`): above all how far along he is and how
   full the decks still are, then what his hand can still do (its footprints, his cards
   ahead, an escape that would win at once) and, from her exact posterior
   (``solver.solve`` of her record), how unlikely she thinks his face-down hideouts
   are; a position reached by several of her equally good guesses is worth the mean
   over them;
5. plays the move with the best mean value over the determinizations.

Nothing in it is a rule of thumb about openings, bluffs or decks: a bluff (more sprint
cards than the step needs) is simply a candidate, and it is chosen when the Marshal's
answer to it (her exact posterior, her actual guess) leaves him better off. What the
Marshal sees of a placement is only its sprint count, so every placement with the
same count meets the same answer from her: her side is solved once per sprint count
and determinization (``advisor.cache.solve_cached`` shares the solves), and only his
side (which hideout, which cards) is evaluated per candidate.

A draw is searched with the placement that follows it: for every card the deck could
give him, the placements are valued on the same determinizations, he is credited with
the best of them for that card, and once he has drawn, the placement found best for
the card he got is played without a second search. So a whole turn costs one search.

A decision draws determinizations in rounds (every candidate on the same states)
until ``samples`` rounds or ``time_budget`` seconds have been spent, whichever comes
first. Past the time budget no new position is valued and a count under way stops
(``solve``'s deadline); the moves valued so far compete on what they have. A
decision's first position is valued whole whatever the budget, so every decision has
a value to go by (the heuristic Fugitive's move is left for a draw whose search
valued nothing).
``samples`` alone makes a bot reproducible (tournaments, with a time budget that is
not reached); the time budget bounds a move in the app.
"""
from __future__ import annotations

import math
import random
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable

from engine import rules
from engine.bots import MarshalBot
from engine.cards import ESCAPE
from engine.game import apply
from engine.moves import DeclineDraw, Draw, HuntGuess, Move, PassTurn, PlaceHideout
from engine.record import FugitiveDraw
from engine.state import MARSHAL_PHASES, GameState, Phase
from engine.views import FugitiveView, marshal_view

from solver.count import OutOfTime
from solver.posterior import Posterior

from .bots import HeuristicFugitive, LookaheadMarshalRandomTies, strongest_guesses
from .cache import solve_cached
from .marshal_hand import determinize, sample_marshal_hand

SPRINT = rules.SPRINT

# --------------------------------------------------------------------------- value
#: names of :func:`features`, in order
FEATURES = (
    "face_down",       # his face-down hideouts
    "hidden_mass",     # sum over them of (1 - her probability that it is a hideout)
    "max_belief",      # her highest probability among his face-down hideouts
    "top_is_his",      # her most likely number (not in her hand) is one of them
    "progress",        # his last hideout / 42
    "escape_ready",    # he can place 42 on his next turn with the cards he holds
    "escape_wins",     # ... and a revealed hideout is 30 or more (the escape wins at once)
    "sprint_points",   # footprints of his hand (42 aside) / 10
    "cards_ahead",     # cards of his hand above his last hideout (42 aside) / 5
    "deck_left",       # cards left in the decks / 38
)

#: logistic weights of :func:`value_of` (intercept first), fitted (``advisor.value_fit``)
#: on 350 games of the wary bot against the Marshals it is meant to beat, the expert
#: (lookahead-randomtie) and the search Marshal (docs/advisor.md, "The value refitted").
#: The weights before, fitted against the solver Marshal by an older bot, gave his
#: progress 0.37 (7.47 now) and counted the decks running down in his favour (-2.0)
#: whether he moved or not: a pass was worth nearly as much as a step, and the bot
#: crept forward (issue 39).
WEIGHTS = (-8.843, 0.054, 0.869, 0.0, -0.014, 7.468, 0.066, 3.306, 2.256, 2.09, 3.478)


def features(state: GameState, post: Posterior) -> tuple[float, ...]:
    """The features of a position at the start of his turn (:data:`FEATURES`), from
    her exact posterior ``post`` of her record and his own cards."""
    down = state.down_numbers
    hand = state.fugitive_hand
    counts, total = post.number_counts, post.histories
    beliefs = [counts.get(h, 0) / total for h in down]
    mine = state.marshal_hand  # she never guesses a card she holds
    top, top_p = 0, -1.0  # no number yet (0 is never one)
    for x, c in counts.items():
        if x in mine or not c:
            continue
        p = c / total
        if p > top_p or (p == top_p and x < top):
            top, top_p = x, p
    prev = state.row[-1].number
    points = rules.sprint_total(hand)
    ready = ESCAPE in hand and ESCAPE <= rules.reach(prev, points)
    revealed = max(h.number for h in state.row if h.face_up and h.number != ESCAPE)
    return (
        float(len(down)),
        sum(1.0 - b for b in beliefs),
        max(beliefs, default=0.0),
        float(top in down),
        prev / ESCAPE,
        float(ready),
        float(ready and rules.escape_wins(revealed)),
        points / 10.0,
        sum(1 for c in hand if prev < c < ESCAPE) / 5.0,
        sum(state.deck_sizes) / 38.0,
    )


def value_of(x: tuple[float, ...], weights: tuple[float, ...] = WEIGHTS) -> float:
    z = weights[0] + sum(w * v for w, v in zip(weights[1:], x))
    return 1.0 / (1.0 + math.exp(-z))


# --------------------------------------------------------------------------- candidates
def _cheapest_sprints(pool: list[int], hideout: int, need: int, k: int) -> frozenset[int] | None:
    """The ``k`` sprint cards worth least to him afterwards whose footprints reach
    ``need``, or None. A card above ``hideout`` could still be a hideout: it is worth
    more than one below it (which can only ever be a sprint card again)."""
    def worth(c: int) -> tuple[bool, int, int]:
        return (c > hideout, SPRINT[c], -c if c < hideout else c)

    evens = sorted((c for c in pool if SPRINT[c] == 2), key=worth)
    odds = sorted((c for c in pool if SPRINT[c] == 1), key=worth)
    best, best_key = None, None
    for a in range(0, min(k, len(evens)) + 1):
        b = k - a
        if b > len(odds) or rules.footprints(k, evens=a) < need:
            continue
        chosen = evens[:a] + odds[:b]
        key = sorted((worth(c) for c in chosen), reverse=True)
        if best_key is None or key < best_key:
            best, best_key = chosen, key
    return None if best is None else frozenset(best)


def placement_candidates(previous: int, hand: frozenset[int], needs_second: bool = False,
                         bluff: int = 2) -> list[PlaceHideout]:
    """His placements worth searching: every hideout he can reach, each with the
    cheapest sprint set of every size from the fewest cards that reach it to ``bluff``
    more (the escape with the fewest: its sprint cards are never revealed)."""
    out = []
    for h in rules.legal_hideouts(previous, hand, needs_second):
        pool = [c for c in hand if c != h and c != ESCAPE]
        need = rules.footprints_needed(previous, h)
        fewest = rules.fewest_sprint_cards(previous, hand, h)
        assert fewest is not None, "a legal hideout is within reach"
        top = fewest if h == ESCAPE else min(len(pool), fewest + bluff)
        for k in range(fewest, top + 1):
            s = _cheapest_sprints(pool, h, need, k)
            if s is None:
                continue
            if needs_second and rules.placement_error(previous, hand, h, s, True) is not None:
                continue
            out.append(PlaceHideout(h, s))
    return out


def _plans(state: GameState, bluff: int) -> list[tuple[Move, ...]]:
    """The sequences of his moves up to the Marshal's turn: one placement or the pass;
    on the first turn one hideout (if the ruleset allows) or two."""
    prev, hand = state.row[-1].number, state.fugitive_hand
    if state.phase is Phase.FUGITIVE_OPENING and state.opening_placed == 0:
        plans: list[tuple[Move, ...]] = []
        needs_second = state.ruleset.opening == "two"
        for m in placement_candidates(prev, hand, needs_second, bluff):
            if not needs_second:
                plans.append((m, PassTurn()))
            after = hand - m.sprint_cards - {m.hideout}
            for m2 in placement_candidates(m.hideout, after, False, max(0, bluff - 1)):
                if m2.hideout != ESCAPE:
                    plans.append((m, m2))
        return plans
    plans = [(m,) for m in placement_candidates(prev, hand, False, bluff)]
    can_pass = state.phase is Phase.FUGITIVE_PLACE or (
        state.phase is Phase.FUGITIVE_OPENING and state.ruleset.opening == "one-or-two")
    if can_pass:
        plans.append((PassTurn(),))
    return plans


# --------------------------------------------------------------------------- the bot
@dataclass(frozen=True)
class Budget:
    """A search bot's budget per decision: rounds of determinizations and seconds."""

    samples: int = 6
    seconds: float = 0.8

    def options(self) -> dict[str, object]:
        return {"samples": self.samples, "time_budget": self.seconds}


@dataclass
class DecisionStats:
    """What the last decision cost: rounds of determinizations, positions valued."""

    rounds: int = 0
    valued: int = 0
    seconds: float = 0.0


def mixed_opening(plans: list[tuple[Move, ...]], value: dict[int, float], spread: float,
                  rng: random.Random) -> int:
    """The index of an opening plan drawn among those valued within ``spread`` of the
    best. Her guess names numbers, so the numbers he hides at are what must vary: a
    set of hideout numbers is drawn first (each equally likely), then one of its plans."""
    top = max(value.values())
    near: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for i in sorted(value):
        if value[i] >= top - spread:
            near[tuple(sorted(m.hideout for m in plans[i] if isinstance(m, PlaceHideout)))].append(i)
    return rng.choice(near[rng.choice(sorted(near))])


class SearchFugitive:
    """Chooses every move by search over the Marshal's exact beliefs (module docstring).

    ``samples``: rounds of determinizations per decision; ``time_budget``: seconds per
    decision: past it no new position is valued and no new count started (a count
    under way stops at its deadline), and with nothing valued yet the move is the
    heuristic Fugitive's; ``bluff``: how many sprint cards beyond the fewest a
    placement may carry; ``marshal``: the model of the Marshal's answer (a bot class).
    """

    samples = Budget.samples
    time_budget = Budget.seconds
    bluff = 2
    #: her equally good guesses valued per position at most (a random few beyond)
    max_ties = 4
    #: the opening is drawn at random among the plans valued within this much of the
    #: best (a Fugitive win probability). The model Marshal does not learn his habits;
    #: a person does: one opening played in nearly every game (1 and 2, no sprint
    #: card) is caught by her first guess once she has seen it. Later moves depend on
    #: the cards drawn and the Marshal's record, so they vary anyway.
    opening_spread = 0.06
    #: how much of a position's value is its worst case: the least he is worth after
    #: any of her :attr:`contenders` strongest guesses, the rest being the value after
    #: the model's own answer. The model is one Marshal; the one he meets may think
    #: further ahead (the search Marshal plays out the lookahead's few best guesses) or
    #: just differently (a person). A plan that only the model's exact guess leaves safe
    #: loses to her; one that none of her strong guesses catches does not (measured in
    #: docs/advisor.md, "The wary Fugitive", with the value before its refit: 0% to 31%
    #: of 200 deals against the search Marshal; 45.5% against the expert Marshal,
    #: perhaps a few points under the bot before, which 200 deals cannot show). 0 plays
    #: against the model alone.
    wary = 0.5
    #: her guesses the worst case runs over (:func:`advisor.bots.strongest_guesses`:
    #: the lookahead's best few, every guess tied with the last of them too)
    contenders = 4

    def __init__(self, seed: int | None = None, samples: int | None = None, time_budget: float | None = None,
                 weights: tuple[float, ...] = WEIGHTS, marshal: Callable[[int], MarshalBot] | None = None):
        self.rng = random.Random(seed)
        if samples is not None:
            self.samples = samples
        if time_budget is not None:
            self.time_budget = time_budget
        self.weights = weights
        self.marshal = (marshal or LookaheadMarshalRandomTies)(0)
        self.fallback = HeuristicFugitive(self.rng.randrange(2**32))
        self._answers: dict[tuple[object, ...], list[Move]] = {}
        self._deadline = math.inf
        self._plan: tuple[Move, ...] = ()
        #: after a draw: his card -> the plan the draw's search found best with it
        self._after_draw: dict[int, tuple[Move, ...]] = {}
        self.stats = DecisionStats()

    # ------------------------------------------------------------------ moves
    def choose(self, view: FugitiveView) -> Move:
        start = time.perf_counter()
        self.stats = DecisionStats()
        self._answers = {}
        self._deadline = start + self.time_budget
        try:
            phase = view.phase
            if self._plan and phase is Phase.FUGITIVE_OPENING and view.opening_placed == 1:
                move, self._plan = self._plan[0], ()
                return move
            self._plan = ()
            if phase is Phase.FUGITIVE_DRAW:
                return self._choose_draw(view)
            if phase is Phase.FUGITIVE_BONUS_DRAW:
                return self._choose_bonus(view)
            if view.placing:
                return self._choose_placement(view)
            raise ValueError(f"not the Fugitive's turn: {phase}")
        finally:
            self.stats.seconds = time.perf_counter() - start
            self._answers = {}

    def _out_of_time(self) -> bool:
        return time.perf_counter() > self._deadline

    def _choose_placement(self, view: FugitiveView) -> Move:
        last = view.events[-1] if view.events else None
        after_draw, self._after_draw = self._after_draw, {}
        if isinstance(last, FugitiveDraw) and last.card is not None and after_draw.get(last.card):
            # the draw's search already placed this card, on the same kind of samples
            return self._take(after_draw[last.card])
        base = determinize(view, self.rng)
        plans = _plans(base, self.bluff)
        if len(plans) == 1:
            return self._take(plans[0])
        escape = next((p for p in plans if isinstance(p[0], PlaceHideout) and p[0].hideout == ESCAPE), None)
        if escape is not None and apply(base, escape[0]).winner == "fugitive":
            return self._take(escape)  # an escape that wins at once
        totals = self._rounds(view, plans, base)
        if not totals:
            return self.fallback.choose(view)
        # a plan valued in fewer rounds (a round cut short) competes on what it has
        mean = {i: sum(v) / len(v) for i, v in totals.items()}
        best = max(mean, key=lambda i: (mean[i], -i))
        if view.phase is Phase.FUGITIVE_OPENING and view.opening_placed == 0:
            best = mixed_opening(plans, mean, self.opening_spread, self.rng)
        return self._take(plans[best])

    def _rounds(self, view: FugitiveView, plans: list[tuple[Move, ...]],
                base: GameState | None = None) -> dict[int, list[float]]:
        """Each plan's values, one per round of determinizations (every plan on the same
        states; a plan valued in fewer rounds when the time ran out during a round)."""
        totals: dict[int, list[float]] = defaultdict(list)
        try:
            for r in range(self.samples):
                if r and self._out_of_time():
                    break
                state = base if r == 0 and base is not None else determinize(view, self.rng)
                for i, plan in enumerate(plans):
                    if self._out_of_time() and (r or totals):
                        raise OutOfTime
                    v = self._value_after(state, plan) if r or totals else self._first_value(state, plan)
                    totals[i].append(v)
                self.stats.rounds += 1
        except OutOfTime:
            pass
        return totals

    def _first_value(self, state: GameState, plan: tuple[Move, ...]) -> float:
        """:meth:`_value_after` with no deadline: a decision's first position is valued
        whole however short its budget, so every decision has a value to go by (a count
        stopped half-way would leave it none)."""
        deadline, self._deadline = self._deadline, math.inf
        try:
            return self._value_after(state, plan)
        finally:
            self._deadline = deadline

    def plans(self, view: FugitiveView) -> list[tuple[Move, ...]]:
        """The plans this bot searches at a placement of his (``view.placing``): each
        placement with the cheapest sprint cards of every count it searches, the pass
        when the rules allow it; on the first turn one hideout or two."""
        return _plans(determinize(view, self.rng), self.bluff)

    def evaluate(self, view: FugitiveView, plans: list[tuple[Move, ...]]) -> list[list[float]]:
        """His chance to win after each of ``plans`` (his moves up to the Marshal's turn),
        as this bot values it when choosing: one value per round of determinizations,
        every plan on the same rounds (so two plans' values pair up round by round).
        The coach grades his moves with it (``advisor.coach_fugitive``), so the coach and
        the AI agree. Bounded by ``samples`` and ``time_budget`` like a decision."""
        self.stats = DecisionStats()
        self._answers = {}
        self._deadline = time.perf_counter() + self.time_budget
        try:
            totals = self._rounds(view, plans)
        finally:
            self._answers = {}
        n = min((len(v) for v in totals.values()), default=0)
        return [totals.get(i, [])[:n] for i in range(len(plans))]

    def _take(self, plan: tuple[Move, ...]) -> Move:
        self._plan = plan[1:]
        return plan[0]

    def _choose_draw(self, view: FugitiveView) -> Move:
        decks = view.legal_decks()
        if len(decks) == 1:
            return Draw(decks[0])
        best = self._best_draw(view, [Draw(d) for d in decks])
        return self.fallback.choose(view) if best is None else Draw(best)

    def _choose_bonus(self, view: FugitiveView) -> Move:
        decks = view.legal_decks()
        if not decks:
            return DeclineDraw()
        best = self._best_draw(view, [Draw(decks[0]), DeclineDraw()])
        if best is None:
            return self.fallback.choose(view)
        return Draw(best) if best else DeclineDraw()

    def _best_draw(self, view: FugitiveView, options: list[Move]) -> int | None:
        """The deck (0: decline) whose card leaves him best off once he has seen it
        (None: out of time before anything was valued).

        For each option and determinization every card he could get is tried on top
        of the deck (the rest of the order unchanged, so her answers are shared); he
        then places as well as he can knowing the card but not her hand: the value of
        a card is the best plan's mean over the determinizations, and an option's
        value the mean over cards, each weighted by how often it could come. The plan
        found best for the card he does draw is his placement (no second search)."""
        # (option, card) -> plan -> values over determinizations
        vals: dict[tuple[int, int], dict[tuple[Move, ...], list[float]]] = {}
        tried: set[int] = set()
        try:
            for r in range(self.samples):
                if r and self._out_of_time():
                    break
                hand = sample_marshal_hand(view, self.rng)
                base = determinize(view, self.rng, hand)
                # the options' cards in turn, so that a round cut short has tried every option
                outcomes = [[(opt.deck if isinstance(opt, Draw) else 0, st, c) for st, c in self._draw_outcomes(base, opt)]
                            for opt in options]
                for i in range(max(len(o) for o in outcomes)):
                    for per_option in outcomes:
                        if i >= len(per_option):
                            continue
                        d, state, card = per_option[i]
                        if d in tried and self._out_of_time():
                            raise OutOfTime
                        tried.add(d)
                        cell = vals.setdefault((d, card), defaultdict(list))
                        placing = state.phase is Phase.FUGITIVE_PLACE or state.phase is Phase.FUGITIVE_OPENING
                        for plan in _plans(state, self.bluff) if placing else [()]:
                            v = self._value_after(state, plan)
                            cell[plan].append(v)
                self.stats.rounds += 1
        except OutOfTime:
            pass
        score: dict[int, list[tuple[float, int]]] = defaultdict(list)
        plans: dict[int, dict[int, tuple[Move, ...]]] = defaultdict(dict)
        for (d, card), cell in vals.items():
            if not cell:
                continue
            n = max(len(v) for v in cell.values())
            full = [(sum(v) / len(v), -i, p) for i, (p, v) in enumerate(cell.items()) if len(v) == n]
            best, _, plan = max(full, key=lambda t: t[:2])
            score[d].append((best, n))
            plans[d][card] = plan
        if not score:
            return None
        means = {d: sum(b * n for b, n in s) / sum(n for _, n in s) for d, s in score.items()}
        choice = max(means, key=lambda d: (means[d], -d))
        self._after_draw = plans[choice]
        return choice

    @staticmethod
    def _draw_outcomes(state: GameState, option: Move) -> list[tuple[GameState, int]]:
        """(state after the draw, his card) for every card the deck could give him,
        each on top of the same order (0 and the state itself for a declined draw)."""
        if isinstance(option, DeclineDraw):
            return [(apply(state, option), 0)]
        assert isinstance(option, Draw)
        i = option.deck - 1
        deck = state.decks[i]
        out = []
        for c in deck:
            order = (c,) + tuple(x for x in deck if x != c)
            decks = state.decks[:i] + (order,) + state.decks[i + 1:]
            out.append((apply(state._evolve(decks=decks), option), c))
        return out

    # ------------------------------------------------------------------ valuing
    def _value_after(self, state: GameState, plan: tuple[Move, ...]) -> float:
        """His moves of ``plan``, her answers, and the value of where they leave him:
        the mean over the model's answers (weighed by how likely she is to answer so:
        :meth:`_marshal_turn`), and with :attr:`wary` that much of it the worst case
        over her strongest guesses (:meth:`_worst_case`)."""
        for move in plan:
            state = apply(state, move)
        value = self._expected(state)
        if self.wary:
            value = (1.0 - self.wary) * value + self.wary * self._worst_case(state)
        self.stats.valued += 1
        return value

    def _expected(self, state: GameState) -> float:
        """The mean value after her answers by the model (:meth:`_marshal_turn`)."""
        return sum(w * self.value(s) for w, s in self._marshal_turn(state))

    def _worst_case(self, state: GameState) -> float:
        """The least value after any of her :attr:`contenders` strongest guesses
        (:func:`advisor.bots.strongest_guesses`), her draw before it the model's.
        Memoised on her record within a decision, like the model's answers."""
        while state.phase in MARSHAL_PHASES and state.phase not in (Phase.MANHUNT, Phase.MARSHAL_GUESS):
            state = apply(state, self._answers_to(state)[0])  # her draw: the model has one
        if state.phase is not Phase.MARSHAL_GUESS:
            return self.value(state)
        view = marshal_view(state)
        key = ("strongest", view.phase, view.events)
        guesses = self._answers.get(key)
        if guesses is None:
            self._solve(state)
            guesses = strongest_guesses(view, self.contenders)
            self._answers[key] = guesses
        return min(self._expected(apply(state, g)) for g in guesses)

    def _solve(self, state: GameState) -> Posterior:
        """Her posterior of ``state`` (cached), the count bounded by the decision's deadline."""
        return solve_cached(state.marshal_record(), validate=False,
                            deadline=None if self._deadline == math.inf else self._deadline)

    def _marshal_turn(self, state: GameState) -> list[tuple[float, GameState]]:
        """The positions her draws and guess can leave, with their probabilities: the model's
        answers from her own view (``answers``: every guess tied with her best when she
        breaks ties at random, so the search cannot count on a hideout she would skip;
        at most :attr:`max_ties` of them, drawn at random when there are more).
        Memoised on her record within a decision; her record counted first under the
        deadline."""
        if state.phase not in MARSHAL_PHASES or state.phase is Phase.MANHUNT:
            return [(1.0, state)]
        moves = self._answers_to(state)
        share = 1.0 / len(moves)
        return [(w * share, s) for move in moves for w, s in self._marshal_turn(apply(state, move))]

    def _answers_to(self, state: GameState) -> list[Move]:
        """The model's answers in ``state`` (a Marshal's phase), memoised on her record
        within a decision; at most :attr:`max_ties` of them."""
        view = marshal_view(state)
        key = (view.phase, view.events)
        moves = self._answers.get(key)
        if moves is None:
            self._solve(state)
            answers = getattr(self.marshal, "answers", None)
            moves = answers(view) if answers is not None else [self.marshal.choose(view)]
            if len(moves) > self.max_ties:
                moves = self.rng.sample(moves, self.max_ties)
            self._answers[key] = moves
        return moves

    def value(self, state: GameState) -> float:
        """His chance to win from a position at the start of his turn (or the end)."""
        if state.phase is Phase.OVER:
            return 1.0 if state.winner == "fugitive" else 0.0
        if state.phase is Phase.MANHUNT:
            return 1.0 if self._hunt(state).winner == "fugitive" else 0.0
        return value_of(features(state, self._solve(state)), self.weights)

    def _hunt(self, state: GameState) -> GameState:
        """The Manhunt played out with her guessing her most likely number each time
        (the planner's choice is often that one; the planner itself is too slow here)."""
        while state.phase is Phase.MANHUNT:
            post = self._solve(state)
            hand = state.marshal_hand
            best = max((x for x in post.number_counts if x not in hand and x not in state.up_numbers),
                       key=lambda x: (post.number_counts[x], -x), default=None)
            if best is None:
                best = next(x for x in range(1, 42) if x not in state.up_numbers)
            state = apply(state, HuntGuess(best))
        return state


__all__ = ["SearchFugitive", "Budget", "features", "value_of", "FEATURES", "WEIGHTS", "placement_candidates",
           "DecisionStats"]
