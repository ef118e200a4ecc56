"""Who may see and do what with a stored game: the one access policy.

Every page (the assistant, the match on one device, the match played by links,
Learning) asks this module, and so does the store where it binds a link to a person
(:meth:`store.GameStore.join`). A decision depends on four things only:

- the game's **kind** (:class:`Kind`): the assistant's notes, a match on one device,
  a match played by links;
- what the person is in it (:class:`store.access.Role`, from her membership, which
  the store keeps by her principal: her browser or her account; ``None``: nothing);
- whether it is **finished** (won, escaped, resigned, claimed, called off);
- whether she **made** it (only the maker of a match by links shows its invitation
  and may call it off).

A URL is never a person: a link's secret can at most *make* a person a member
(:func:`link_grants`: a free seat, a watcher), and only what she is then counts.

``docs/app.md`` prints the same table (``tests/store/test_policy.py`` holds the
two equal, and the function equal to a table written out by hand).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .access import SEATS, Role


class Kind(str, Enum):
    """What kind of stored game: who can be in it and how."""

    ASSISTANT = "assistant"  #: the Marshal's notes: its owner's alone
    DEVICE = "device"  #: a match on one device (against the AI, two people, AI vs AI): its owner's
    LINKED = "linked"  #: a match played by links: two seats, watchers
    RATED = "rated"  #: a match made in the lobby: two accounts' seats, watchers from the lobby, rated

    def __str__(self) -> str:
        return self.value


class View(str, Enum):
    """What of the table a person is sent."""

    NOTHING = "nothing"  #: not even whose turn it is
    PUBLIC = "public"  #: the public table (engine.views.public_view): no card of either hand
    MARSHAL = "marshal"  #: the public table and the Marshal's hand
    FUGITIVE = "fugitive"  #: the Fugitive's hand, hideouts and sprint cards
    DEVICE = "device"  #: what the match's mode shows the people at the device (the human's side; hand-overs)
    NOTES = "notes"  #: the assistant's record (the Marshal's own notes)
    ALL = "all"  #: every card (a finished match)

    def __str__(self) -> str:
        return self.value


class Action(str, Enum):
    """What a person may do with a stored game."""

    PLAY = "play"  #: move (a match), enter and correct entries (the assistant)
    RESIGN = "resign"  #: her side gives the other the win (on one device: the side whose turn it is)
    ABANDON = "abandon"  #: a match on one device ends with no winner (nobody will finish it)
    CLAIM = "claim"  #: win a match whose other player made no move for the idle time
    INVITE = "invite"  #: show or renew the link of the other seat while it is free
    CALL_OFF = "call_off"  #: end the match and start afresh, until the invited seat's first move
    REMATCH = "rematch"
    SHARE = "share"  #: make a read-only watch link
    REVIEW = "review"  #: open it in Learning
    EXPORT = "export"  #: the record as JSON (the assistant's notes)
    RENAME = "rename"
    DELETE = "delete"  #: for everyone

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Access:
    """One person and one stored game: what she is sent and what she may do."""

    kind: Kind
    role: Role | None
    finished: bool = False
    made: bool = False
    #: its maker called it off (an invitation taken by the wrong person): no rematch
    called_off: bool = False
    #: a person plays the Fugitive (always so in a match by links): Learning, which shows
    #: the Marshal's record (her drawn cards), opens it only once it is over
    human_fugitive: bool = False

    @property
    def view(self) -> View:
        return view_of(self)

    def may(self, action: Action) -> bool:
        return action in actions_of(self)


def view_of(a: Access) -> View:
    """What of the game the person is sent."""
    role = a.role
    if role is None:
        return View.NOTHING
    if a.kind is Kind.ASSISTANT:
        return View.NOTES if role is Role.OWNER else View.NOTHING
    if a.kind is Kind.DEVICE:
        if role is Role.OWNER:
            return View.ALL if a.finished else View.DEVICE
        if role is Role.WATCHER:
            return View.ALL if a.finished else View.PUBLIC
        return View.NOTHING
    # a match played by links, or made in the lobby
    if role in SEATS or role is Role.WATCHER:
        if a.finished:
            return View.ALL
        return View(role.value) if role in SEATS else View.PUBLIC
    return View.NOTHING


def actions_of(a: Access) -> frozenset[Action]:
    """What the person may do with the game (nothing where she is sent nothing)."""
    role = a.role
    if view_of(a) is View.NOTHING or role is None:
        return frozenset()
    out: set[Action] = set()
    if a.kind is Kind.ASSISTANT:  # the owner's own notes
        return frozenset({Action.PLAY, Action.REVIEW, Action.EXPORT, Action.RENAME, Action.DELETE})
    if a.kind is Kind.DEVICE:
        if role is Role.OWNER:
            out |= {Action.SHARE, Action.DELETE}  # hers alone: deleting it takes it from nobody else
            if a.finished or not a.human_fugitive:
                out.add(Action.REVIEW)
            if not a.finished:
                out |= {Action.PLAY, Action.RESIGN, Action.ABANDON}
        elif a.finished:  # a watcher of a device match: Learning once it is over
            out.add(Action.REVIEW)
        return frozenset(out)
    # a match played by links (a person plays the Fugitive): Learning once it is over
    if role in SEATS:
        if a.finished:
            out.add(Action.REVIEW)
            if not a.called_off and a.kind is Kind.LINKED:  # a rated match's next one is a new challenge
                out.add(Action.REMATCH)
        else:
            out |= {Action.PLAY, Action.RESIGN, Action.CLAIM}
            if a.made and a.kind is Kind.LINKED:  # a lobby match has no invitation to call off
                out |= {Action.INVITE, Action.CALL_OFF}
    elif a.finished:  # a watcher: Learning once it is over
        out.add(Action.REVIEW)
    return frozenset(out)


def link_grants(link: Role, held_by_other: bool, mine: Role | None) -> Role | None:
    """What opening a match's link makes of the person who opens it (``link``: the
    role of the link's secret; ``held_by_other``: someone else holds that seat;
    ``mine``: what she is in the match already).

    She keeps a seat she holds (or a game she owns) whatever link she opens; a
    watchers' link makes her a watcher; a free seat's link makes her its holder (a
    watcher too: she takes the free seat); a seat someone else holds gives her
    nothing. A link never takes a seat away from anyone."""
    if mine in SEATS or mine is Role.OWNER:
        return mine
    if link is Role.WATCHER:
        return Role.WATCHER
    if link in SEATS and not held_by_other:
        return link
    return None


def lobby_grants(mine: Role | None) -> Role | None:
    """What opening a live lobby match from the lobby makes of her: what she is in it
    already (a seat stays hers), else a watcher (the public table only)."""
    return mine if mine is not None else Role.WATCHER
