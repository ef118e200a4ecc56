"""Draw advice: which deck the Marshal should draw from, and why.

This is a stated heuristic, not an optimisation (the value of a draw depends on the
Fugitive's future play, which the solver's model does not describe). Each non-empty
deck gets a score from three reasons, and the advice names the winning reason:

* **candidates** – the posterior probability mass of face-down hideouts among the
  deck's cards that she has not seen, divided by the cards left in the deck: roughly
  how much hideout probability one card from that deck can rule out (a drawn card is
  not a hideout, and the solver then knows it).
* **blocking** – the Fugitive must come through deck-3 numbers (29–41) to escape with
  42; once his row can reach the high twenties, every deck-3 card she holds is one he
  cannot use as a hideout or sprint card. The score grows as the highest possible
  number of his last hideout approaches 29 and is largest while deck 3 still has cards
  he could draw.
* **exhaustion** – an empty deck cannot be drawn; a nearly empty deck is worth little
  for blocking (he can no longer draw from it either).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import DECKS
from engine.record import Record
from notepad.validator import public_state
from solver.posterior import Posterior

from .cache import solve_cached


#: The reasons in English; ``DrawAdvice.reason_key`` and ``reason_args`` let a page say
#: the same in another language (the app's catalogues have these keys prefixed "adv_draw_"),
#: and "exhausted" follows any of them when a deck is empty.
DRAW_REASONS = {
    "blocking": "blocking: his row can already reach {top}; to reach 42 he must pass through deck-3 numbers, "
                "and every deck-3 card you hold is one he cannot use",
    "candidates": "a card from deck {d} rules out the most: its {left} cards left hold {mass} expected "
                  "face-down hideouts",
    "nothing": "no card of any deck can be a hideout yet, so any deck will do; deck {d} has {left} cards left",
    "exhausted": " (deck{s} {decks} exhausted)",
}


@dataclass(frozen=True)
class DeckScore:
    """One deck's score and its parts (see the module docstring)."""

    deck: int
    left: int  #: cards left in it
    mass: float  #: expected face-down hideouts among its cards she has not seen
    candidates: float  #: ``mass / left``: what one card from it rules out
    blocking: float
    reason_key: str  #: the reason that wins for this deck (a key of DRAW_REASONS)
    #: its cards she has not seen (neither in her hand nor face up): where ``mass`` lies
    unseen: int = 0

    @property
    def score(self) -> float:
        return self.candidates + self.blocking


@dataclass(frozen=True)
class DrawAdvice:
    deck: int
    scores: dict[int, float]
    reason: str
    reason_key: str = ""
    reason_args: dict[str, object] = field(default_factory=dict, compare=False)
    #: every deck that can be drawn, with the parts of its score
    decks: tuple[DeckScore, ...] = ()


def _last_max(post: Posterior) -> int:
    """The highest number the last hideout of the row can be (0 for an empty row)."""
    if not post.positions:
        return 0
    last = post.positions[-1]
    if last.hideout is not None:
        return last.hideout
    return max(last.counts) if last.counts else 0


def advise_draw(record: Record, *, validate: bool = True) -> DrawAdvice:
    """The deck to draw from (1, 2 or 3) with the scores and a one-line reason.

    Everything it needs follows from the Marshal's record: her hand (her draws), the
    cards left in each deck, the posterior. ``validate`` as in ``solve``.
    """
    record = record.marshal_view()
    post = solve_cached(record, validate=validate)  # a record that breaks a rule: InvalidRecord
    public = public_state(record)
    sizes = public.deck_sizes
    up = {x.number for x in public.row if x.number is not None}
    up |= {c for x in public.row for c in (x.sprint_cards or ())}
    return _advise(post, (sizes[1], sizes[2], sizes[3]), frozenset(public.marshal_hand), frozenset(up))


def _advise(post: Posterior, deck_sizes: tuple[int, int, int], hand: frozenset[int],
            up: frozenset[int] = frozenset()) -> DrawAdvice:
    open_decks = [d for d in (1, 2, 3) if deck_sizes[d - 1]]
    if not open_decks:
        raise ValueError("every deck is empty: there is no draw")
    probs = post.hideouts if post.consistent else {}
    top = _last_max(post) if post.consistent else 0
    scores: dict[int, float] = {}
    why: dict[int, tuple[str, dict[str, object]]] = {}
    parts: list[DeckScore] = []
    for d in open_decks:
        left = deck_sizes[d - 1]
        mass = sum(probs.get(c, 0.0) for c in DECKS[d] if c not in hand)
        cand = mass / left
        block = 0.0
        if d == 3 and top >= 18:
            # how close his row is to deck 3, times how much of deck 3 is still in play
            block = min(1.0, (top - 17) / 12) * min(1.0, left / 6) * 0.5
        scores[d] = cand + block
        if block > cand:
            why[d] = ("blocking", {"top": top})
        elif cand > 0:
            why[d] = ("candidates", {"d": d, "mass": f"{mass:.2f}", "left": left})
        else:
            why[d] = ("nothing", {"d": d, "left": left})
        unseen = sum(1 for c in DECKS[d] if c not in hand and c not in up)
        parts.append(DeckScore(d, left, mass, cand, block, why[d][0], unseen))
    best = max(open_decks, key=lambda d: (scores[d], -d))
    key, args = why[best]
    reason = DRAW_REASONS[key].format(**args)
    empty = [d for d in (1, 2, 3) if not deck_sizes[d - 1]]
    if empty:
        args = dict(args, decks=", ".join(map(str, empty)), s="s" if len(empty) > 1 else "")
        reason += DRAW_REASONS["exhausted"].format(**args)
    return DrawAdvice(best, scores, reason, key, args, tuple(parts))
