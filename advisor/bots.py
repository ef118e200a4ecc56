"""Marshal and Fugitive bots that act only from their own player's view.

Same interface as ``engine.bots``: constructed with a seed, ``choose(view) -> Move``.
A Marshal bot reads a :class:`engine.views.MarshalView` (her record, hand, the public
row); a Fugitive bot reads a :class:`engine.views.FugitiveView`. Neither is ever given
a game state, so no bot can read hidden cards.

Marshal bots
    ``NotepadMarshal``   pen-and-paper reasoning: reach bounds from sprint counts,
                         her own cards, revealed cards and missed guesses; guesses the
                         lowest possible number of the leftmost face-down hideout (all
                         numbers it can prove at once).
    ``SolverMarshal``    the exact posterior: draw advice, then the guess with the most
                         expected reveals (advisor.guesses); Manhunt: the planner.
    ``LookaheadMarshal`` as SolverMarshal, ranking guesses by the one-turn lookahead.
    ``SearchMarshal``    (advisor.search_marshal) the lookahead's candidate guesses
                         played out on exact samples of the Fugitive's history.
Fugitive bots
    ``HeuristicFugitive``    small steps, sprints with dead cards, bluffs sometimes,
                             draws to hide his plans now and then.
    ``AdversarialFugitive``  the heuristic's candidate plays, scored by solving the
                             Marshal's side: keeps her best guess probability low.
"""
from __future__ import annotations

import random
import time
from typing import Any

from engine import rules
from engine.cards import DECKS, ESCAPE, deck_of
from engine.moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from engine.record import Event, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place, Record
from engine.state import Phase
from engine.views import FugitiveView, MarshalView

from .cache import solve_cached
from .draws import advise_draw
from .answers import lookahead_ranking
from .guesses import Suggestion, advise_guesses
from .manhunt import plan_manhunt
from .registry import BOTS, make_bot
from .registry import bots as registered

SPRINT = rules.SPRINT


# =========================================================================== Marshal
def notepad_candidates(view: MarshalView) -> list[tuple[int, list[int]]]:
    """(position, candidate numbers) for every face-down hideout, by simple counting.

    What a careful player can do on paper: each gap is at most 3 plus two per sprint
    card (an even sprint card is worth 2), both ways from known cards; a number she
    holds, a revealed card (hideout or sprint card) or a number missed alone while the
    position existed is not there; the row increases.
    """
    row = view.row  # position 0 is card 0
    n = len(row) - 1
    known: set[int] = set(view.hand)
    missed_at: dict[int, int] = {}  # number -> row length when missed alone
    length = 0
    for e in view.events:
        if isinstance(e, Place):
            length += 1
        elif isinstance(e, Guess):
            if e.hit:
                for r in e.reveals:
                    known.add(r.hideout)
                    known.update(r.sprint_cards)
            elif len(e.numbers) == 1:
                missed_at[e.numbers[0]] = max(missed_at.get(e.numbers[0], 0), length)
        elif isinstance(e, ManhuntGuess):
            if e.hit:
                known.add(e.number)
                known.update(e.sprint_cards or ())
            else:
                missed_at[e.number] = length
    lo = [0] * (n + 1)
    hi = [0] * (n + 1)
    for i in range(1, n + 1):
        ph = row[i]
        if ph.number is not None:
            lo[i] = hi[i] = ph.number
        else:
            lo[i] = lo[i - 1] + 1
            hi[i] = min(41, rules.widest_reach(hi[i - 1], ph.sprints))
    for i in range(n - 1, 0, -1):
        if row[i].number is None:
            hi[i] = min(hi[i], hi[i + 1] - 1)
            k = row[i + 1].sprints
            lo[i] = max(lo[i], rules.lowest_previous(lo[i + 1], rules.footprints(k, evens=k)))
    out = []
    for i in range(1, n + 1):
        if row[i].number is not None:
            continue
        cands = [x for x in range(lo[i], hi[i] + 1) if x not in known and missed_at.get(x, 0) < i and x != ESCAPE]
        out.append((i, cands))
    return out


def _first_decks(view: MarshalView) -> list[int]:
    return [d for d in (1, 2, 3) if view.deck_sizes[d - 1]]


class NotepadMarshal:
    """A careful pen-and-paper Marshal (see :func:`notepad_candidates`)."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: MarshalView) -> Move:
        phase = view.phase
        if phase is Phase.MARSHAL_DRAW:
            decks = _first_decks(view)
            cands = notepad_candidates(view)
            # draw where the Fugitive is heading: the deck of the top of his reach
            top = max((max(c) for _, c in cands if c), default=0)
            want = deck_of(min(41, max(4, top + 2)))
            return Draw(want if want in decks else decks[-1])
        if phase is Phase.MARSHAL_GUESS or phase is Phase.MANHUNT:
            cands = notepad_candidates(view)
            up = view.face_up_numbers | view.face_up_sprint_cards  # face up: not guessable
            sure = sorted(c[0] for _, c in cands if len(c) == 1)
            if sure and phase is Phase.MARSHAL_GUESS:
                return MakeGuess(frozenset(sure))
            pick = next((c[0] for _, c in cands if c), None)
            if pick is None or pick in up:
                pick = next(x for x in range(1, 42) if x not in up and x not in view.hand) if any(
                    x not in up and x not in view.hand for x in range(1, 42)
                ) else next(x for x in range(1, 42) if x not in up)
            return HuntGuess(pick) if phase is Phase.MANHUNT else MakeGuess(frozenset((pick,)))
        raise ValueError(f"not the Marshal's turn: {phase}")


class SolverMarshal:
    """Uses the exact posterior: draw advice, then the guess with most expected reveals.

    ``noise``: the chance of a random guess (a number not face up and not in her hand)
    instead of the advised one, for a weaker opponent (the app's medium Marshal: 0.5).

    ``ties``: among guesses equally good by every figure of the ranking, "lowest" takes
    the one of the smallest numbers (the advisor's order: reproducible, but a Fugitive
    who knows it avoids those numbers), "random" one of them at random, as a person at
    the table would.
    """

    order = "expected_reveals"
    lookahead = False
    #: how many of the advisor's best guesses are asked for first, to find the ties
    TIE_POOL = 8

    def __init__(self, seed: int | None = None, manhunt_budget: float = 2.0, noise: float = 0.0,
                 ties: str = "lowest"):
        if ties not in ("lowest", "random"):
            raise ValueError(f"ties must be 'lowest' or 'random', not {ties!r}")
        self.rng = random.Random(seed)
        self.manhunt_budget = manhunt_budget
        self.noise = noise
        self.ties = ties

    def choose(self, view: MarshalView) -> Move:
        phase = view.phase
        record = view.record
        if self.noise and phase is not Phase.MARSHAL_DRAW and self.rng.random() < self.noise:
            numbers = [x for x in view.guessable_numbers() if x not in view.hand] or view.guessable_numbers()
            x = self.rng.choice(numbers)
            return HuntGuess(x) if phase is Phase.MANHUNT else MakeGuess(frozenset((x,)))
        if phase is Phase.MARSHAL_DRAW:
            return Draw(advise_draw(record, validate=False).deck)
        if phase is Phase.MARSHAL_GUESS:
            best = self._best_guesses(view)
            pick = self.rng.choice(best) if self.ties == "random" else best[0]
            return MakeGuess(frozenset(pick.numbers))
        if phase is Phase.MANHUNT:
            plan = plan_manhunt(record, time_budget=self.manhunt_budget, all_first_guesses=False, validate=False)
            return HuntGuess(plan.best_guess)
        raise ValueError(f"not the Marshal's turn: {phase}")

    def _best_guesses(self, view: MarshalView) -> list[Suggestion]:
        """The advisor's suggestions tied with the best on every figure (just the best
        one with ``ties="lowest"``). With random ties, when every suggestion asked for
        ties, more are asked for (twice as many) until one does not or there are no
        more: a pick among the first few of the advisor's order (the smallest numbers
        first) would keep a bias to low numbers."""
        if self.order == "lookahead":
            # every candidate is ranked by its lookahead whatever ``top``: the kept ranking
            ranked = lookahead_ranking(view.record)
            return [s for s in ranked if _same_figures(s, ranked[0])] if self.ties == "random" else list(ranked[:1])
        top = self.TIE_POOL if self.ties == "random" else 1
        while True:
            sugg = advise_guesses(view.record, top=top, lookahead=self.lookahead, order=self.order, validate=False)
            best = [s for s in sugg if _same_figures(s, sugg[0])]
            if self.ties != "random" or len(best) < top:  # fewer than asked for: all of them
                return best
            top *= 2

    def answers(self, view: MarshalView) -> list[Move]:
        """Every move this bot may make in ``view``, each equally likely (noise aside):
        one move, except a guess with ``ties="random"``: each of the tied best guesses.
        What a searching opponent averages over instead of sampling :meth:`choose`."""
        if view.phase is Phase.MARSHAL_GUESS:
            return [MakeGuess(frozenset(s.numbers)) for s in self._best_guesses(view)]
        return [self.choose(view)]


def _same_figures(a: Suggestion, b: Suggestion) -> bool:
    """Whether two suggestions tie on every figure the advisor ranks by (the same size,
    the same chance to hit, reveals, information and lookahead, up to float rounding)."""
    if len(a.numbers) != len(b.numbers) or a.p_hit != b.p_hit:
        return False
    def close(x: float | None, y: float | None) -> bool:
        return (x is None and y is None) or (x is not None and y is not None
                                             and abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y)))

    return (close(a.expected_reveals, b.expected_reveals) and close(a.information_bits, b.information_bits)
            and close(a.lookahead, b.lookahead))


def strongest_guesses(view: MarshalView, k: int) -> list[Move]:
    """Her ``k`` best guesses by the lookahead ranking (the lookahead Marshal's first
    ``k``, the candidates the search Marshal plays out), and every further guess tied
    with the ``k``-th on every figure: which of equals comes first is the advisor's
    tie-break (the smaller numbers), and a Marshal who breaks ties at random may take
    any of them. What a wary Fugitive fears she guesses (``advisor.search``)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    sugg = lookahead_ranking(view.record)
    n = min(k, len(sugg))
    while 0 < n < len(sugg) and _same_figures(sugg[n], sugg[n - 1]):
        n += 1
    return [MakeGuess(frozenset(s.numbers)) for s in sugg[:n]]


class SolverMarshalRandomTies(SolverMarshal):
    """The solver Marshal picking at random among equally good guesses."""

    def __init__(self, seed: int | None = None, **options: Any):
        super().__init__(seed, **{"ties": "random", **options})


class LookaheadMarshal(SolverMarshal):
    """SolverMarshal ranking guesses by the one-turn lookahead score."""

    order = "lookahead"
    lookahead = True


class LookaheadMarshalRandomTies(LookaheadMarshal):
    """The lookahead Marshal picking at random among equally good guesses."""

    def __init__(self, seed: int | None = None, **options: Any):
        super().__init__(seed, **{"ties": "random", **options})


# =========================================================================== Fugitive
def marshal_record_from_fugitive_view(view: FugitiveView) -> Record:
    """The Fugitive's best reconstruction of the Marshal's record.

    He knows every public event, but of the Marshal's draws only the deck. Each of her
    draws is filled in with a stand-in card of that deck that he has never held (the
    highest such number not used yet as a stand-in); the real card is also one he never
    held, so the stand-in only shifts which of those cards she is thought to have.
    """
    mine: set[int] = set(view.hand)
    for h in view.row:
        mine.add(h.number)
        mine.update(h.sprint_cards)
    for e in view.events:
        if isinstance(e, FugitiveDraw) and e.card is not None:
            mine.add(e.card)
    pools = {d: [c for c in reversed(DECKS[d]) if c not in mine] for d in DECKS}
    events: list[Event] = []
    for e in view.events:
        if isinstance(e, FugitiveDraw):
            events.append(FugitiveDraw(e.deck))
        elif isinstance(e, Place):
            events.append(Place(e.sprints, ESCAPE if e.hideout == ESCAPE else None))
        elif isinstance(e, (Guess, ManhuntGuess, Pass, MarshalDraw)):
            events.append(e)
        elif getattr(e, "type", None) == "marshal_draw":  # MarshalDrewFrom(deck)
            pool = pools[e.deck]
            events.append(MarshalDraw(pool.pop(0) if pool else DECKS[e.deck][0]))
        else:
            events.append(e)
    return Record(tuple(events), view.ruleset)


class HeuristicFugitive:
    """Small steps, sprints with dead cards, bluffs sometimes, hides his draws."""

    bluff_probability = 0.25
    decoy_draw_probability = 0.25
    pass_probability = 0.05

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    # ---------------------------------------------------------------- draws
    def choose(self, view: FugitiveView) -> Move:
        phase = view.phase
        if phase is Phase.FUGITIVE_DRAW:
            return Draw(self._draw_deck(view))
        if phase is Phase.FUGITIVE_BONUS_DRAW:
            d = view.legal_decks()
            return Draw(d[0]) if d else DeclineDraw()
        if view.placing:
            return self._place(view)
        raise ValueError(f"not the Fugitive's turn: {phase}")

    def _draw_deck(self, view: FugitiveView) -> int:
        decks = view.legal_decks()
        prev = view.previous
        ahead = [c for c in view.hand if c > prev and c != ESCAPE]
        # the deck of the numbers just ahead of him; deck 3 once the twenties are near
        target = 3 if prev >= 22 or (ahead and max(ahead) >= 26) else deck_of(min(41, max(4, prev + 4)))
        if self.rng.random() < self.decoy_draw_probability:
            others = [d for d in decks if d != target]
            if others:
                return others[int(self.rng.random() * len(others))]
        if target in decks:
            return target
        return min(decks, key=lambda d: abs(d - target))

    # ---------------------------------------------------------------- placement
    @staticmethod
    def _highest_revealed(view: FugitiveView) -> int:
        return max((h.number for h in view.row if h.face_up), default=0)

    def _sprints_for(self, view: FugitiveView, h: int, bluff: bool) -> frozenset[int] | None:
        """Sprint cards for ``h``: dead cards (below the row) first, then the smallest
        live cards; None when the hand cannot reach."""
        prev = view.previous
        need = rules.footprints_needed(prev, h)
        pool = [c for c in view.hand if c != h and c != ESCAPE]
        dead = sorted((c for c in pool if c <= prev), key=lambda c: -SPRINT[c])
        live = sorted((c for c in pool if c > prev), key=lambda c: (SPRINT[c] == 1, c))
        chosen: list[int] = []
        total = 0
        for c in dead + live:
            if total >= need:
                break
            chosen.append(c)
            total += SPRINT[c]
        if total < need:
            return None
        rest_dead = [c for c in dead if c not in chosen]
        if bluff and rest_dead:
            chosen.append(rest_dead[0])
        return frozenset(chosen)

    def candidate_moves(self, view: FugitiveView) -> list[Move]:
        """Plausible plays: escape, the few smallest steps, pass."""
        if view.needs_second:
            opts = sorted(rules.placements(view.previous, view.hand, True), key=lambda p: (p[0], len(p[1])))
            return [PlaceHideout(h, s) for h, s in opts[:4]]
        prev = view.previous
        reach = sorted(rules.reachable_hideouts(prev, view.hand))
        moves: list[Move] = []
        if ESCAPE in reach:
            s = self._sprints_for(view, ESCAPE, False)
            if s is not None:
                moves.append(PlaceHideout(ESCAPE, s))
        for h in [x for x in reach if x != ESCAPE][:4]:
            s = self._sprints_for(view, h, self.rng.random() < self.bluff_probability)
            if s is not None:
                moves.append(PlaceHideout(h, s))
        if view.can_pass:
            moves.append(PassTurn())
        return moves

    def _place(self, view: FugitiveView) -> Move:
        moves = self.candidate_moves(view)
        places = [m for m in moves if isinstance(m, PlaceHideout)]
        escape = next((m for m in places if m.hideout == ESCAPE), None)
        if escape is not None:
            facedown = sum(1 for h in view.row[1:] if not h.face_up)
            if rules.escape_wins(self._highest_revealed(view)) or facedown >= 2 or len(places) == 1:
                return escape
        steps = [m for m in places if m.hideout != ESCAPE]
        if steps and not (view.can_pass and self.rng.random() < self.pass_probability):
            return steps[0]
        if view.can_pass:
            return PassTurn()
        return places[0]


class AdversarialFugitive(HeuristicFugitive):
    """Chooses among the heuristic's candidate plays the one that leaves the Marshal's
    best guess probability lowest, solving the Marshal's side of each (from his own
    view: her drawn cards are stand-ins, see :func:`marshal_record_from_fugitive_view`).
    """

    pass_penalty = 0.15
    step_penalty = 0.01
    #: beyond these the Marshal's side is slow to solve (many face-down hideouts with
    #: hidden sprint cards): play the heuristic move instead
    max_face_down = 4
    max_hidden_sprints = 5
    #: stop scoring further candidates once a turn has spent this long (seconds)
    time_budget = 1.0
    #: each missed multi-number guess adds a flag to the solver's states (and time)
    max_missed_sets = 1

    def _place(self, view: FugitiveView) -> Move:
        face_down = [h for h in view.row[1:] if not h.face_up]
        if len(face_down) > self.max_face_down or sum(len(h.sprint_cards) for h in face_down) > self.max_hidden_sprints:
            return super()._place(view)
        missed_sets = sum(1 for e in view.events if isinstance(e, Guess) and not e.hit and len(e.numbers) > 1)
        if missed_sets > self.max_missed_sets:
            return super()._place(view)
        moves = self.candidate_moves(view)
        places = [m for m in moves if isinstance(m, PlaceHideout)]
        escape = next((m for m in places if m.hideout == ESCAPE), None)
        if escape is not None and rules.escape_wins(self._highest_revealed(view)):
            return escape  # an outright win
        if len(moves) == 1:
            return moves[0]
        base = marshal_record_from_fugitive_view(view)
        best, best_score = None, None
        start = time.perf_counter()
        for m in moves:
            if best is not None and time.perf_counter() - start > self.time_budget:
                break
            ev: Event
            if isinstance(m, PlaceHideout):
                ev = Place(len(m.sprint_cards), ESCAPE if m.hideout == ESCAPE else None)
                penalty = self.step_penalty * (m.hideout - view.previous) if m.hideout != ESCAPE else 0.0
            else:
                ev = Pass()
                penalty = self.pass_penalty
            rec = Record(base.events + (ev,), base.ruleset)
            post = solve_cached(rec, validate=False)
            if not post.consistent:
                continue
            top = max((c for c in post.number_counts.values()), default=0) / post.histories
            score = top + penalty
            if best_score is None or score < best_score:
                best, best_score = m, score
        return best if best is not None else super()._place(view)


# The bots by name, read from the one registry (advisor.registry): "module:Class" of
# each Marshal and Fugitive bot a tournament plays by default, and the bots that take
# a search budget (``samples``, ``time_budget``) when made.
MARSHAL_BOTS = {b.name: b.build for b in registered("marshal")}
FUGITIVE_BOTS = {b.name: b.build for b in registered("fugitive")}
BUDGETED_BOTS = tuple(dict.fromkeys(b.name for b in BOTS if "search" in b.budgets))


__all__ = [
    "NotepadMarshal", "SolverMarshal", "LookaheadMarshal", "SolverMarshalRandomTies", "LookaheadMarshalRandomTies",
    "HeuristicFugitive", "AdversarialFugitive",
    "notepad_candidates", "marshal_record_from_fugitive_view", "strongest_guesses",
    "MARSHAL_BOTS", "FUGITIVE_BOTS", "BUDGETED_BOTS", "make_bot",
]
