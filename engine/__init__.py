"""The rules of Fugitive (docs/rules.md) as a library.

Typical use::

    from engine import new_game, legal_moves, apply, marshal_view
    state = new_game(seed=1)
    state = apply(state, legal_moves(state)[0])
"""
from .errors import IllegalMove, ReplayError
from .moves import DeclineDraw, Draw, HuntGuess, MakeGuess, Move, PassTurn, PlaceHideout
from .record import (
    DrawDeclined, EndOpening, FugitiveDraw, Guess, ManhuntGuess, MarshalDraw, Pass, Place, Record, Reveal, Ruleset,
    load_record, record_from_dict, record_from_json,
)
from .state import GameState, Hideout, MarshalDrewFrom, Phase, PublicHideout
from .game import (
    apply,
    can_place,
    guessable_numbers,
    legal_hideouts,
    legal_moves,
    legal_placements,
    new_game,
    nonempty_decks,
)
from .views import FugitiveView, MarshalView, PublicView, fugitive_view, marshal_view, public_view
from .replaying import replay

__all__ = [
    "IllegalMove", "ReplayError",
    "Draw", "PlaceHideout", "PassTurn", "DeclineDraw", "MakeGuess", "HuntGuess", "Move",
    "Record", "Ruleset", "load_record", "record_from_dict", "record_from_json",
    "Place", "Pass", "FugitiveDraw", "MarshalDraw", "Guess", "ManhuntGuess", "Reveal", "EndOpening", "DrawDeclined",
    "GameState", "Hideout", "PublicHideout", "MarshalDrewFrom", "Phase",
    "new_game", "apply", "legal_moves", "legal_placements", "legal_hideouts", "can_place",
    "guessable_numbers", "nonempty_decks",
    "MarshalView", "FugitiveView", "PublicView", "marshal_view", "fugitive_view", "public_view",
    "replay",
]
