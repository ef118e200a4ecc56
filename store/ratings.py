"""Ratings per role (issue 38): a Marshal rating and a Fugitive rating per account.

The game is asymmetric, so a person's strength as the Marshal says little of hers as
the Fugitive: each account has one rating per role, and a rated match moves the
Marshal's Marshal rating against the Fugitive's Fugitive rating.

The arithmetic is OpenSkill's (``openskill``, the Weng-Lin Plackett-Luce model with its
defaults: mu 25, sigma 25/3; two teams of one), never ours: this module only says which
two ratings a result moves and in which order, so that a replay of the stored results
through the library gives every stored rating exactly
(``tests/store/test_lobby.py``). A rating is **provisional** while its deviation
(sigma) is wider than :data:`PROVISIONAL_SIGMA`. The number shown is the library's
``ordinal`` (mu - 3 sigma: what she is worth at the least, very likely) scaled to a
familiar range (:func:`shown`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal

from openskill.models import PlackettLuce

Side = Literal["marshal", "fugitive"]
SIDES: tuple[Side, Side] = ("marshal", "fugitive")
#: a rating stays "provisional" while its deviation is wider than this (the library's
#: starting deviation is 25/3 = 8.33; a handful of matches brings it under 6)
PROVISIONAL_SIGMA = 6.0
#: the shown number: the library's ordinal (mu - 3 sigma), times this, plus OFFSET
SCALE, OFFSET = 40.0, 1000.0

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """One rating: the library's mean and deviation, and the rated matches behind it."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    """The number a page shows for a rating (the library's ordinal, scaled)."""
    return round(OFFSET + SCALE * _MODEL.rating(mu=mu, sigma=sigma).ordinal())


def initial() -> Rating:
    """A rating nobody has moved yet (the library's default)."""
    r = _MODEL.rating()
    return Rating(r.mu, r.sigma, 0)


def rate(marshal: Rating, fugitive: Rating, winner: Side) -> tuple[Rating, Rating]:
    """The two ratings after one rated match: the Marshal's Marshal rating and the
    Fugitive's Fugitive rating, the winner ranked first (the library's ``rate``)."""
    m = _MODEL.rating(mu=marshal.mu, sigma=marshal.sigma)
    f = _MODEL.rating(mu=fugitive.mu, sigma=fugitive.sigma)
    ranks = [1.0, 2.0] if winner == "marshal" else [2.0, 1.0]
    [[m2], [f2]] = _MODEL.rate([[m], [f]], ranks=ranks)
    return Rating(m2.mu, m2.sigma, marshal.games + 1), Rating(f2.mu, f2.sigma, fugitive.games + 1)


def win_chance(marshal: Rating, fugitive: Rating) -> float:
    """The library's chance that the Marshal wins this pairing (for "about my strength")."""
    m = _MODEL.rating(mu=marshal.mu, sigma=marshal.sigma)
    f = _MODEL.rating(mu=fugitive.mu, sigma=fugitive.sigma)
    return float(_MODEL.predict_win([[m], [f]])[0])


@dataclass(frozen=True)
class Result:
    """A finished rated match as the store keeps it: who held each seat (the principals'
    hashes) and who won; ``seq``: the order in which results were rated."""

    seq: int
    marshal: str
    fugitive: str
    winner: Side


def replay(results: Iterable[Result]) -> dict[tuple[str, Side], Rating]:
    """Every rating from the results alone, in their order: what the store must hold."""
    out: dict[tuple[str, Side], Rating] = {}
    for r in sorted(results, key=lambda r: r.seq):
        m = out.get((r.marshal, "marshal"), initial())
        f = out.get((r.fugitive, "fugitive"), initial())
        out[(r.marshal, "marshal")], out[(r.fugitive, "fugitive")] = rate(m, f, r.winner)
    return out
