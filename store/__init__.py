"""The stored games and the people they belong to, on SQLite or PostgreSQL.

Above the notepad (it stores records the notepad's validator accepts) and below the
app and the command line (which keep their games here); it needs neither the solver nor
the advisor. The front door is :class:`GameStore`; its parts, one job each:

- :mod:`store.database`: which database (:func:`configured_location`, the one reader
  of ``FUGITIVE_DB``), its connections and transactions; :mod:`store.schema`: its
  tables and their migrations; :mod:`store.errors`: the coded refusals
  (:class:`StoreError`).
- :mod:`store.records`: games and their records (save, open, list, import, export).
- :mod:`store.seats`: matches played by links (their secrets, who holds each seat, a
  call-off, a rematch); :mod:`store.owners`: a person's games (her list, recovery
  codes, her games moved to another device or into her account);
  :mod:`store.members`: the rows both keep of who is in a game.
- :mod:`store.lobby`: challenges, lobby matches, ratings and quick messages.
- Without the database: :mod:`store.access` (who a person is; secrets, hashes,
  roles), :mod:`store.policy` (who may see and do what with a stored game: the one
  access policy), :mod:`store.lobby_rules` (the lobby's rules),
  :mod:`store.ratings` (which ratings a result moves).

Importing the package loads SQLAlchemy: the layers below it never import it
(``pyproject.toml``'s import contracts, ``tests/test_layers.py``).
"""
from .database import configured_location, display_location
from .errors import STORE_MESSAGES, StoreError
from .game_store import GameStore
from .owners import OwnedGame
from .records import KINDS, TITLE_MAX, GameInfo, Kind, StoredGame, new_game_id, parse_import
from .schema import SCHEMA_VERSION
from .seats import Invite

__all__ = [
    "GameInfo",
    "GameStore",
    "Invite",
    "KINDS",
    "Kind",
    "OwnedGame",
    "SCHEMA_VERSION",
    "STORE_MESSAGES",
    "StoreError",
    "StoredGame",
    "TITLE_MAX",
    "configured_location",
    "display_location",
    "new_game_id",
    "parse_import",
]
