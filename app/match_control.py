"""The match's controller, without Streamlit: who may open a stored match and as
what, its moves and saves, and the decisions that end or replace it.

The pages (app.match, app.online, app.learning) hand it the person
(:class:`store.access.Principal`: her account or her browser, never anything read
from a URL) and what the URL carries (a game id, a link's secret), and draw what it
returns. Who may see and do what is :mod:`store.policy`; this module asks it and
the store, so the moves and every attack on a seat are tested without a browser
(``tests/app/test_match_control.py``), as the assistant's controller is
(:mod:`app.assistant_logic`).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Literal, cast

from engine import IllegalMove, apply, new_game
from engine.bots import FugitiveBot, MarshalBot
from engine.errors import ReplayError
from engine.moves import Move
from engine.record import Record, Ruleset, event_player
from engine.state import GameState
from store import GameStore, Invite, StoreError
from store.access import SEATS, Principal, Role, other_seat
from store.lobby_rules import Outcome
from store.policy import Access, Action, Kind, View
from store.ratings import Side

from . import match_logic as ml
from .match_meta import MatchMeta, read_or_none


@dataclass
class MatchSession:
    """A running match in one browser session: the state, its bots, and what the
    store holds (the record a save is made from, and the store's version token)."""

    gid: str
    meta: MatchMeta
    state: GameState
    fbot: FugitiveBot
    mbot: MarshalBot
    saved: Record
    version: int
    shown_to: str | None = None  #: hot-seat: whose cards are on screen
    error: str | None = None
    assist: bool = True
    role: str | None = None  #: the seat, "watcher" or "owner" this person is in the match
    key: Principal | None = None  #: who she is: a save is made as her role, by her (the store checks)
    updated: str = ""  #: when the store last wrote the match (ISO, UTC): online, for a claim
    rematch: str | None = None  #: online: the id of the match that follows this one (or replaced it)
    made: bool = False  #: she made the match

    @property
    def mode(self) -> str:
        return self.meta.mode

    @property
    def finished(self) -> bool:
        """Won, escaped, or ended off the board (resigned, claimed, called off)."""
        return self.state.is_over or self.meta.ended is not None

    @property
    def access(self) -> Access:
        """What the policy lets her see and do with this match."""
        role = Role(self.role) if self.role is not None else None
        return Access(_kind(self.meta), role, self.finished, self.made,
                      called_off=self.meta.ended is not None and self.meta.ended.how == "called_off",
                      human_fugitive="fugitive" in ml.human_roles(self.mode))

    @property
    def outcome(self) -> Outcome | None:
        """How a finished lobby match ended, for the save that rates it (None: not a
        lobby match, or not over)."""
        if not self.meta.rated or not self.finished:
            return None
        if self.state.is_over and self.state.winner == "marshal":
            return Outcome("marshal", "won")
        if self.state.is_over and self.state.winner == "fugitive":
            return Outcome("fugitive", "won")
        end = self.meta.ended
        if end is not None and end.winner is not None and end.how in ("resigned", "claimed"):
            return Outcome(end.winner, end.how)
        return None

    def may(self, action: Action) -> bool:
        return self.access.may(action)


def _kind(meta: MatchMeta) -> Kind:
    return Kind.RATED if meta.rated else Kind.LINKED if meta.online else Kind.DEVICE


def session(gid: str, meta: MatchMeta, state: GameState, version: int) -> MatchSession:
    seed = meta.seed
    fb = ml.fugitive_bots().get(meta.fugitive_bot or "random") or ml.fugitive_bots()["random"]
    mb = ml.marshal_bots().get(meta.marshal_bot or "random") or ml.marshal_bots()["random"]
    # the registry makes a bot of either side (its side is a value, not a type): these
    # come from the Fugitive's and the Marshal's lists
    fbot = cast("FugitiveBot", fb.make(seed + 1))
    mbot = cast("MarshalBot", mb.make(seed + 2))
    return MatchSession(gid, meta, state, fbot, mbot, state.record(), version)


# --------------------------------------------------------------------------- outcomes
@dataclass(frozen=True)
class Closed:
    """A match that shows nothing to this person: its link is a seat someone else
    holds (``taken``), her seat has just gone to another device (``moved``), a seat's
    link she must sign in to take (``sign_in``), or (none of these) it is private."""

    taken: Role | None = None
    moved: bool = False
    sign_in: Role | None = None  #: a free seat's link, opened before signing in where seats are accounts'


@dataclass(frozen=True)
class Missing:
    """No match to open: no such game (``no_game``), an assistant game of hers
    (``assistant``), or one that cannot go on (``broken``; ``error``: the store's
    reason when it could not be read)."""

    why: Literal["no_game", "assistant", "broken"]
    error: StoreError | None = None


def invited_moved(record: Record, invited: Role) -> bool:
    """Whether the invited seat has made a move (then nobody can take it, and the
    match can no longer be called off)."""
    return any(event_player(e) == invited.value for e in record.events)


class Matches:
    """The matches of one store, as one person (``who``) may have them."""

    def __init__(self, store: GameStore, who: Principal):
        self.store = store
        self.who = who

    # ------------------------------------------------------------------ opening
    def open(self, gid: str, secret: str | None = None, had_seat: bool = False,
             seats_need_account: bool = False) -> MatchSession | Closed | Missing:
        """Match ``gid`` as this person may see it, read from the store. ``secret``: the
        link of the URL (a free seat's link takes the seat for her; a watchers' link
        makes her a watcher); ``had_seat``: this session showed her a seat of it a
        moment ago (if she has none now, it went to another device);
        ``seats_need_account``: the server has accounts and she has not signed in, so
        a seat's link takes nothing (she is asked to sign in). A secret that opens
        nothing and a person not in the match look alike."""
        try:
            stored = self.store.open(gid)
        except StoreError as exc:
            return Missing("no_game") if exc.code == "no_game" else Missing("broken", exc)
        if stored.info.kind != "match":
            # an assistant game is its owner's alone: another's reads as no game at all
            return Missing("assistant") if self.store.role_for_owner(gid, self.who) is not None else Missing("no_game")
        meta = read_or_none(stored.metadata)
        if meta is None:
            return Missing("broken")
        if secret and seats_need_account and self.who.kind != "account":
            link = self.store.role_for_secret(gid, secret)
            if link in SEATS and self.store.role_for_owner(gid, self.who) not in (*SEATS, Role.OWNER):
                return Closed(sign_in=link)  # (a watcher too: she takes a seat only as an account)
        role = self.store.join(gid, secret, self.who) if secret else None
        # what she is in it (read after the link, which may have given her a seat) and
        # whether she made it: one read
        member = self.store.member(gid, self.who)
        if role is None and member is not None:
            role = member[0]
        kind = _kind(meta)
        finished_hint = meta.ended is not None
        if role is None or Access(kind, role, finished_hint).view is View.NOTHING:
            taken = None
            if secret:
                link = self.store.role_for_secret(gid, secret)
                taken = link if link in SEATS else None
            return Closed(taken, moved=had_seat)
        if secret:  # again: opening a link may have moved the match on (a seat taken)
            try:
                stored = self.store.open(gid)
            except StoreError as exc:
                return Missing("broken", exc)
        # the version of this very record, read with it: a version read apart (before it)
        # would be older than the record when the other seat moved in between, and her
        # next move would be refused as stale (the store's load harness saw it)
        version = stored.info.version
        # the match goes on from its seed: the moves of the stored record again, each of
        # which must give its event back (and, in a match saved before record version 2,
        # the turn end noted after its last event)
        try:
            state = ml.rebuild(meta.seed, stored.record, meta.ended_turn)
        except ReplayError:
            return Missing("broken")
        m = session(gid, meta, state, version)
        m.role, m.key, m.updated, m.rematch = role.value, self.who, stored.info.updated, stored.info.rematch
        m.made = member is not None and member[1]
        return m

    # ------------------------------------------------------------------ moves
    def save(self, m: MatchSession) -> StoreError | None:
        """Save the match: its record and its metadata (with a silent move, if one ended
        the turn); None when saved, else the store's refusal (deleted, moved on in
        another window since, or a seat she no longer holds), and nothing is written.

        The store compares the game's version in the same transaction as the write, so
        a window that missed only a silent move of another one is refused too."""
        record = m.state.record()
        member = (m.key, Role(m.role)) if m.key is not None and m.role is not None else None
        try:
            self.store.save(m.gid, record, metadata=m.meta.to_json(), expected=m.saved, expected_version=m.version,
                            member=member, outcome=m.outcome)
        except StoreError as exc:
            return exc
        m.version += 1
        m.updated = datetime.now(timezone.utc).isoformat(timespec="microseconds")
        m.saved = record
        return None

    def play(self, m: MatchSession, move: Move) -> IllegalMove | StoreError | None:
        """Her move, applied and saved (None), or why not: the rules (IllegalMove: the
        match is as it was), the policy (not hers to play: StoreError ``not_your_seat``)
        or the store (nothing is written, and the session holds a move nothing saved:
        the match is opened again, as the page drops the session).

        The one path of a person's move: the match page's taps
        (``app.match_play.human``) and the store's load harness
        (``harness/store_load.py``, several app servers at once) both make their moves
        here, on the session as of the version it was opened at."""
        if not m.may(Action.PLAY) or (m.meta.online and m.role != m.state.current_player):
            return StoreError.of("not_your_seat", game_id=m.gid, role=m.state.current_player or "")
        try:
            apply_move(m, move)
        except IllegalMove as exc:
            return exc
        return self.save(m)

    def end(self, m: MatchSession, how: Literal["resigned", "claimed", "abandoned"],
            now: float) -> str | StoreError | None:
        """End the match off the board, saved like a move from the version she saw (a
        decision that ends a turn). A resignation gives the other side the win: by links
        her seat's; on one device the side its person plays (two people on one phone:
        the side whose turn it is; AI against AI has none). A match on one device may be
        abandoned by its owner: no winner. A claim is checked again against the store
        (the other may just have moved): ``"claim_refused"``."""
        action = {"resigned": Action.RESIGN, "claimed": Action.CLAIM, "abandoned": Action.ABANDON}[how]
        refused = StoreError.of("not_your_seat", game_id=m.gid, role=m.role or "")
        if not m.may(action):
            return refused
        winner: str | None
        if how == "abandoned":
            winner = None
        elif m.role in ("marshal", "fugitive"):
            winner = m.role if how == "claimed" else other_seat(Role(m.role)).value
        else:  # her match on this device
            side = resigning_side(m)
            if side is None:
                return refused
            winner = other_seat(Role(side)).value
        if how == "claimed":
            try:
                stored = self.store.open(m.gid)
            except StoreError as exc:
                return exc
            when = ml.claim_time(stored.info.updated, m.meta.claim_after)
            if (stored.info.version != m.version or when is None or now < when
                    or m.state.current_player == m.role):
                return "claim_refused"
        m.meta = m.meta.ending(how, winner, len(m.state.events))
        return self.save(m)

    def delete(self, gid: str) -> StoreError | None:
        """Delete a match for good, as the policy lets her (her match on one device: it
        is nobody else's); None when deleted, else why not (nothing is deleted)."""
        m = self.open(gid)
        if not isinstance(m, MatchSession):
            return StoreError.of("no_game", game_id=gid)
        if not m.may(Action.DELETE):
            return StoreError.of("not_your_seat", game_id=gid, role=m.role or "")
        try:
            self.store.delete(gid)
        except StoreError as exc:
            return exc
        return None

    # ------------------------------------------------------------------ new matches
    def start_online(self, side: str, ruleset: Ruleset, seed: int, *, title: str, claim_after: int,
                     watchers: bool) -> tuple[Invite, MatchSession]:
        """A match to play by links, made in one transaction, with the maker in her seat
        from the start (her URL carries no secret)."""
        state = new_game(seed, ruleset)
        meta = MatchMeta(seed, ml.ONLINE, claim_after=claim_after)
        invite = self.store.create_match(state.record(), side=side, owner_key=self.who, title=title,
                                         metadata=meta.to_json(), watchers=watchers)
        m = session(invite.game.id, meta, state, self.store.version(invite.game.id))
        m.role, m.key, m.updated, m.made = Role(side).value, self.who, invite.game.updated, True
        return invite, m

    def accept(self, challenge_id: str, seed: int) -> tuple[str, str] | StoreError:
        """She joins a challenge of the lobby: the match (dealt from ``seed`` under the
        challenge's rules) with both seats bound to the two accounts, in one transaction;
        (the match's id, her seat), or the store's refusal (gone a moment ago, her own,
        not signed in)."""
        ch = self.store.challenge(challenge_id)
        if ch is None:
            return StoreError.of("no_challenge")
        meta = MatchMeta(seed, ml.ONLINE, claim_after=ch.claim_after, rated=True)
        coin: Side = "marshal" if seed % 2 else "fugitive"
        try:
            info, seat = self.store.accept_challenge(
                challenge_id, self.who, new_game(seed, ch.ruleset).record(), coin=coin,
                title=f"{ch.name or '?'} – {self.who.name or '?'}", metadata=meta.to_json())
        except StoreError as exc:
            return exc
        return info.id, seat

    def watch(self, gid: str) -> Role | None:
        """A live lobby match of others, from the lobby: she becomes its watcher (the
        public table only); what she is in it (None: no such lobby match)."""
        return self.store.watch_lobby_match(gid, self.who)

    def call_off(self, m: MatchSession, seed: int) -> Invite:
        """Her invitation went to the wrong person: the match is called off and a fresh
        one made (a new deal, new links), while the invited seat has not moved
        (StoreError ``invited_moved`` after that; ``not_maker`` for anyone but her)."""
        if not m.may(Action.CALL_OFF):
            raise StoreError.of("not_maker", game_id=m.gid)
        meta = MatchMeta(seed, ml.ONLINE, claim_after=m.meta.claim_after)
        ended = m.meta.ending("called_off", None, len(m.state.events))
        return self.store.call_off(m.gid, self.who, new_game(seed, m.state.ruleset).record(),
                                   metadata=meta.to_json(), old_metadata=ended.to_json(), expected_version=m.version)

    def rematch(self, m: MatchSession, seed: int) -> Invite | str:
        """The next match, sides swapped (one per match: the second asker gets the first
        one's id)."""
        if not m.may(Action.REMATCH):
            raise StoreError.of("not_your_seat", game_id=m.gid, role=m.role or "")
        meta = MatchMeta(seed, ml.ONLINE, claim_after=m.meta.claim_after)
        try:
            return self.store.create_rematch(m.gid, new_game(seed, m.state.ruleset).record(), metadata=meta.to_json())
        except StoreError as exc:
            if exc.code == "already_rematched" and exc.params.get("rematch_id"):
                return str(exc.params["rematch_id"])
            raise

    def follows(self, m: MatchSession) -> str | None:
        """The match that followed this one (a rematch, or the fresh match of a call-off)
        when she is in it; else None (a call-off's fresh match is its maker's alone)."""
        if m.rematch is None or self.store.role_for_owner(m.rematch, self.who) is None:
            return None
        return m.rematch


def resigning_side(m: MatchSession) -> str | None:
    """The side that resigns a match on one device: the one a person plays, or with two
    people on one phone the one whose turn it is; None where no person plays (AI
    against AI)."""
    humans = ml.human_roles(m.mode)
    if len(humans) == 1:
        return humans[0]
    if len(humans) == 2:
        return m.state.current_player
    return None


def apply_move(m: MatchSession, move: Move) -> None:
    """Apply a move (IllegalMove leaves the match as it was); every move writes its
    event in the record the next save writes."""
    m.state = apply(m.state, move)
