"""Who may see a game: the secrets of a match's private links, and owner keys.

A match played on two phones is reached by links, one per seat (the Marshal's, the
Fugitive's) and optionally one for watchers. Each link carries its own secret:

- 192 random bits from :mod:`secrets` (at least 128 are asked for), drawn apart from
  the game's id, so no secret can be worked out from the id or from another link;
- stored only as its SHA-256 (a stolen database gives no working link), with a
  domain prefix so a link's secret and an owner key never hash alike;
- compared with :func:`hmac.compare_digest`, against every link of the game, so the
  time taken does not tell how much of a guess was right.

Who a person is, to the store, is a :class:`Principal`: a **browser** (its owner key,
a secret kept in the browser's cookie and never read from a URL) or an **account**
(the issuer and subject of an OpenID Connect sign-in, where the server has a
provider). The store keeps only a hash of either, each in its own domain, beside every
game the person made or came into by a link, so the lists show a person only her own
games, and a seat is bound to the principal that took it.

A browser's games move to another browser only by a **recovery code** that the
browser was shown once (:func:`new_recovery_code`): typed in on the new device, which
says what it does, and used once. An account needs none: signing in is its means.

The store (:class:`store.GameStore`) keeps the hashes; this module makes
secrets, hashes them and names the roles. Who may see and do what with a stored game
is :mod:`store.policy`.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Literal

from .errors import StoreError

SECRET_BYTES = 24  #: 192 random bits per link secret and per owner key
SECRET_MIN, SECRET_MAX = 22, 128  #: the length a secret or an owner key may have (22 chars: 128+ bits)
#: the longest game id (the store makes 16 characters; older ids were at most 32 hex digits)
GAME_ID_MAX = 64
_URLSAFE = frozenset(string.ascii_letters + string.digits + "-_")
#: a recovery code: 20 characters of Crockford's base32 (100 random bits), shown in
#: five groups of four; typed in by a person, so read without regard to case, spaces,
#: dashes, and the letters people take for digits (I, L: 1; O: 0)
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 20


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


def account_hash(issuer: str, subject: str) -> str:
    """What is stored for an account (SHA-256, hex, in a domain of its own: no owner key
    ever hashes to an account's digest, so no cookie can stand for an account)."""
    return hashlib.sha256(b"fugitive account\0" + issuer.encode("utf-8") + b"\0"
                          + subject.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Principal:
    """Who a person is to the store: a browser or an account, by the stored hash.

    Made only from what the server itself knows of the person: a browser's cookie
    (:meth:`browser`) or the identity token of her sign-in (:meth:`account`); never
    from a URL. The digest is left out of ``repr``."""

    kind: Literal["browser", "account"]
    digest: str = field(repr=False)
    name: str = ""  #: what the page calls her ("" for a browser)

    @classmethod
    def browser(cls, owner_key: str) -> "Principal":
        if not plausible(owner_key):
            raise StoreError.of("bad_owner_key", low=SECRET_MIN, high=SECRET_MAX)
        return cls("browser", owner_hash(owner_key))

    @classmethod
    def account(cls, issuer: str, subject: str, name: str = "") -> "Principal":
        if not issuer or not subject:
            raise StoreError.of("bad_account")
        return cls("account", account_hash(issuer, subject), name)


def new_recovery_code() -> str:
    """A browser's recovery code: 100 random bits as ``XXXX-XXXX-XXXX-XXXX-XXXX``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def normal_code(text: object) -> str | None:
    """A typed recovery code as the store hashes it (upper case, no spaces or dashes, I
    and L read as 1, O as 0); None when it cannot be one (length, alphabet)."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    code = "".join(text.split()).replace("-", "").upper().translate(str.maketrans("ILO", "110"))
    return code if len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code) else None


def code_hash(code: str) -> str:
    """What is stored for a recovery code (its :func:`normal_code`; SHA-256, hex)."""
    return hashlib.sha256(b"fugitive recovery code\0" + code.encode("ascii")).hexdigest()


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
class Seats:
    """The seats of a match played by links as the pages need them: which are taken
    (a person holds them)."""

    taken: frozenset[Role]


@dataclass(frozen=True)
class Recovered:
    """What a recovery code (or a browser's games moved into an account) brought: the
    games moved, and those left where they were because the receiver holds the other
    seat of their match (nobody holds both seats of a match)."""

    moved: int
    kept: int
