"""The lobby's rules (issue 38), and the values its pages read: open challenges,
matches made from them, and what rates them.

Signed-in players only (an account is who is rated: a browser could be anyone's).
A challenge says the role its maker wants (Marshal, Fugitive or either), the rules
(opening, pass-draw) and the pace; another account joins it with one tap, and in one
store transaction the challenge becomes a match with both seats bound to the two
accounts (:meth:`store.GameStore.accept_challenge`). The lobby's rules are
written here once, and the lobby page says them before one joins
(:data:`RATED_ENDINGS`). The requests that keep them are :mod:`store.lobby`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.record import Ruleset

from .ratings import Rating, Side

Wants = Literal["marshal", "fugitive", "either"]
WANTS: tuple[Wants, ...] = ("marshal", "fugitive", "either")
Pace = Literal["live", "slow"]
PACES: tuple[Pace, ...] = ("live", "slow")
#: the idle time after which the waiting player may claim the win, by pace: a live
#: match ten minutes; a slow one a day per move
CLAIM_AFTER: dict[Pace, int] = {"live": 600, "slow": 86400}
#: how a rated match ends and what it counts as (the lobby says it before one joins):
#: a win on the board; a resignation is a loss; a claim is a loss for the player who
#: made no move for the pace's idle time; a match nobody finishes (abandoned, and
#: never claimed) stays unrated
RATED_ENDINGS: tuple[str, ...] = ("won", "resigned", "claimed")
#: the most open challenges one account may have at once
MAX_OPEN = 3
#: the quick messages of a match (their words are the app's, in each language): a fixed
#: set, no free text, so nothing needs moderating
QUICK_MESSAGES: tuple[str, ...] = ("good_luck", "have_fun", "thinking", "nice_move", "well_played", "thanks")
#: the most quick messages one seat may send in one match
MAX_MESSAGES = 30


@dataclass(frozen=True)
class Said:
    """A quick message: its order in the match, the seat that sent it, which one."""

    n: int
    role: str
    said: str


@dataclass(frozen=True)
class Challenge:
    """An open challenge: who made it (hash, name), what she wants, the rules, the pace."""

    id: str
    maker: str = ""  #: the principal's hash of its maker
    name: str = ""
    wants: Wants = "either"
    ruleset: Ruleset = Ruleset()
    pace: Pace = "live"
    created: str = ""

    @property
    def claim_after(self) -> int:
        return CLAIM_AFTER[self.pace]

    def maker_side(self, coin: Side) -> Side:
        """The maker's seat: the one she wants, or ``coin`` (drawn by the joiner's page)
        for "either"."""
        return coin if self.wants == "either" else self.wants


@dataclass(frozen=True)
class LobbyMatch:
    """A match made in the lobby: its seats (hashes and names), pace, and once finished
    how it ended, the winner, the order it was rated in (``seq``) and the two ratings
    after it (the Marshal's Marshal rating and the Fugitive's Fugitive rating)."""

    game_id: str
    marshal: str
    fugitive: str
    marshal_name: str
    fugitive_name: str
    pace: Pace
    started: str
    finished: str | None = None
    winner: Side | None = None
    how: str | None = None
    seq: int | None = None
    marshal_after: Rating | None = None
    fugitive_after: Rating | None = None

    def side_of(self, digest: str) -> Side | None:
        return "marshal" if digest == self.marshal else "fugitive" if digest == self.fugitive else None


@dataclass(frozen=True)
class Outcome:
    """How a rated match ended, handed to the save that ends it: the winner and how
    (one of :data:`RATED_ENDINGS`)."""

    winner: Side
    how: str
