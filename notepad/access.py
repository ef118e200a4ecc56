"""Who may see a game: the secrets of a match's private links, and owner keys.

A match played on two phones is reached by links, one per seat (the Marshal's, the
Fugitive's) and optionally one for watchers. Each link carries its own secret:

- 192 random bits from :mod:`secrets` (at least 128 are asked for), drawn apart from
  the game's id, so no secret can be worked out from the id or from another link;
- stored only as its SHA-256 (a stolen database gives no working link), with a
  domain prefix so a link's secret and an owner key never hash alike;
- compared with :func:`hmac.compare_digest`, against every link of the game, so the
  time taken does not tell how much of a guess was right.

An **owner key** is a browser's own secret (kept in its storage or a cookie, with a
recovery link): the store keeps its hash beside each game the browser made or came
into by a link, so the lists show a browser only its own games. It is a bearer
secret like a link's: whoever holds it sees that browser's games.

The store (:class:`notepad.store.GameStore`) keeps the hashes; this module makes
secrets, hashes them and names the roles.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Iterable, Mapping

if TYPE_CHECKING:
    from .store import GameInfo

SECRET_BYTES = 24  #: 192 random bits per link secret and per owner key
SECRET_MIN, SECRET_MAX = 22, 128  #: the length a secret or an owner key may have (22 chars: 128+ bits)
#: the longest game id (the store makes 16 characters; older ids were at most 32 hex digits)
GAME_ID_MAX = 64
_URLSAFE = frozenset(string.ascii_letters + string.digits + "-_")
#: how long a seat's transfer link works (it works once, within this time)
TRANSFER_SECONDS = 600


class Role(str, Enum):
    """What a browser may see of a game."""

    MARSHAL = "marshal"  #: the Marshal's seat: her hand and the public table
    FUGITIVE = "fugitive"  #: the Fugitive's seat: his hand, hideouts and sprint cards
    WATCHER = "watcher"  #: the public view only (what the Marshal sees, without her hand)
    OWNER = "owner"  #: made a game without seats (the assistant's notes, a match on one device)

    def __str__(self) -> str:
        return self.value


SEATS: tuple[Role, Role] = (Role.MARSHAL, Role.FUGITIVE)
LINK_ROLES: tuple[Role, ...] = (Role.MARSHAL, Role.FUGITIVE, Role.WATCHER)


def other_seat(role: Role) -> Role:
    """The opponent's seat; a watcher or an owner stays what it is (a rematch swaps seats)."""
    return {Role.MARSHAL: Role.FUGITIVE, Role.FUGITIVE: Role.MARSHAL}.get(role, role)


def new_secret() -> str:
    """A link's secret or an owner key: 192 random bits, URL-safe (32 characters)."""
    return secrets.token_urlsafe(SECRET_BYTES)


new_owner_key = new_secret


def plausible(value: object) -> bool:
    """Whether ``value`` can be a secret or an owner key at all (a string of the right
    length and alphabet): anything else matches nothing, without touching the database."""
    return (isinstance(value, str) and SECRET_MIN <= len(value) <= SECRET_MAX
            and all(ch in _URLSAFE for ch in value))


def plausible_id(value: object) -> bool:
    """Whether ``value`` can be a game's id at all: 1 to GAME_ID_MAX URL-safe
    characters. Checked before any work (an id comes from a URL, which may hold
    anything of any length)."""
    return (isinstance(value, str) and 0 < len(value) <= GAME_ID_MAX
            and all(ch in _URLSAFE for ch in value))


def secret_hash(secret: str) -> str:
    """What is stored for a link's secret (SHA-256, hex)."""
    return hashlib.sha256(b"fugitive link secret\0" + secret.encode("ascii")).hexdigest()


def owner_hash(owner_key: str) -> str:
    """What is stored for a browser's owner key (SHA-256, hex)."""
    return hashlib.sha256(b"fugitive owner key\0" + owner_key.encode("ascii")).hexdigest()


def match_secret(secret: str, stored: Iterable[tuple[str, str]]) -> Role | None:
    """The role whose stored hash is the hash of ``secret`` (``stored``: (role, hash)
    rows of one game). Every row is compared, in constant time, whatever matched."""
    if not plausible(secret):
        return None
    digest = secret_hash(secret)
    found: Role | None = None
    for role, stored_hash in stored:
        if hmac.compare_digest(digest, stored_hash) and found is None:
            found = Role(role)
    return found


def role_of(value: object, allowed: Iterable[Role]) -> Role | None:
    """``value`` (a Role or its name) as one of ``allowed``, else None."""
    try:
        role = Role(value)
    except ValueError:
        return None
    return role if role in tuple(allowed) else None


@dataclass(frozen=True)
class Invite:
    """A match made to be played by links: the game and each link's secret.

    The secrets are here once, when the match is made (the store keeps only their
    hashes): the page puts them in the links it shows. They are left out of ``repr``
    so that a log line never carries one.
    """

    game: "GameInfo"
    secrets: Mapping[Role, str] = field(repr=False)

    def secret(self, role: Role) -> str:
        return self.secrets[role]


@dataclass(frozen=True)
class OwnedGame:
    """A game in a browser's list: what it is, and what this browser is in it."""

    info: "GameInfo"
    role: Role  #: its seat, WATCHER, or OWNER (a game without seats)
    made: bool  #: this browser made it (and so may delete it)


@dataclass(frozen=True)
class Seats:
    """The seats of a match played by links as the pages need them: which are taken
    (a browser holds them), and which a browser asked to have back (a player who
    lost her device: seat -> when it asked, the request's name for its answer)."""

    taken: frozenset[Role]
    asked: Mapping[Role, str]
