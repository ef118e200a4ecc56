"""A match's metadata, typed: what the store keeps beside a match's record.

The record holds the moves; the match needs a few things more, which the store keeps
as a JSON object (``GameStore.create/save(metadata=...)``) and this module reads and
writes, so that no page reads them by string keys:

- ``seed``: the shuffle the match was dealt from (``engine.new_game(seed)``): the
  match goes on by replaying its record on it (``match_logic.rebuild``);
- ``mode``: one of ``match_logic.MODES``;
- ``fugitive_bot`` / ``marshal_bot``: the AI of each side, by name (a match with
  people only has none);
- ``claim_after``: a match by links: the seconds without a move after which the
  player waiting may claim the win;
- ``ended_turn``: only in a match saved before record version 2 (``EndedTurn``): a
  turn end made after the record's last event, which that record could not hold
  (since version 2 it is an event of the record, docs/record.md); read, so that such
  a match opens where it was, and kept as read, never written anew;
- ``ended``: a match that ended off the board (``Ended``: a resignation, a claim, or
  a call-off by its maker; on one device, a resignation or its owner abandoning it;
  the rules' record has no such event);
- ``rated``: a match made in the lobby (issue 38): its ending rates both players.

The JSON keeps the keys it always had, so stores written before this module read the
same.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

Side = Literal["marshal", "fugitive"]
SIDES: tuple[Side, ...] = ("marshal", "fugitive")
EndHow = Literal["resigned", "claimed", "called_off", "abandoned"]
ENDED_HOW: tuple[EndHow, ...] = ("resigned", "claimed", "called_off", "abandoned")
#: the endings with no winner: a call-off by the maker of an invitation, a match on one
#: device its owner abandoned
NO_WINNER: tuple[EndHow, ...] = ("called_off", "abandoned")
#: The turn ends a match saved before record version 2 notes in ``ended_turn``: the
#: Fugitive stopping his first turn at one hideout, and declining the extra draw after a
#: pass (the record's ``end_opening`` and ``decline_draw`` since version 2).
SilentMove = Literal["end_opening", "decline_draw"]
SILENT_MOVE_NAMES: tuple[SilentMove, ...] = ("end_opening", "decline_draw")
#: "online": two people on two devices, each by a private link (app.online)
MODES = ("human_marshal", "human_fugitive", "hotseat", "ai_ai", "online")
ONLINE = "online"


class MetaError(ValueError):
    """A match's metadata that cannot be read: the match cannot go on."""


@dataclass(frozen=True)
class EndedTurn:
    """A turn end (``move``) made after the first ``events`` events of a record saved
    before version 2; stale, and ignored, once more events follow (the record holds
    it then: the first save after the match is opened again writes it as an event)."""

    events: int
    move: SilentMove

    def applies_to(self, events: int) -> bool:
        """Whether it was made after the last of ``events`` events (not gone stale)."""
        return self.events == events


@dataclass(frozen=True)
class Ended:
    """A match that ended off the board: ``how``, who won (nobody, for a match its
    maker called off, its invitation gone to the wrong person, or one abandoned on its
    device), and after how many events."""

    how: EndHow
    winner: Side | None
    events: int


@dataclass(frozen=True)
class MatchMeta:
    """What the store keeps beside a match's record (module docstring)."""

    seed: int
    mode: str  #: one of MODES
    fugitive_bot: str | None = None
    marshal_bot: str | None = None
    claim_after: int | None = None
    ended_turn: EndedTurn | None = None
    ended: Ended | None = None
    rated: bool = False  #: made in the lobby: rated when it ends

    @property
    def online(self) -> bool:
        """A match played by links, on two devices."""
        return self.mode == ONLINE

    @property
    def winner_off_the_board(self) -> Side | None:
        """The winner of a match that ended by a resignation or a claim, else None."""
        return self.ended.winner if self.ended is not None else None

    def ending(self, how: str, winner: str | None, events: int) -> MatchMeta:
        """The metadata of a match that ends off the board (``how``: resigned, claimed,
        called off)."""
        return replace(self, ended=_ended({"how": how, "winner": winner, "events": events}))

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> MatchMeta:
        """The metadata of a stored match; MetaError when it is not a match's (no seed,
        an unknown mode, a note that names no silent move...)."""
        seed, mode = data.get("seed"), data.get("mode")
        if not isinstance(seed, int) or isinstance(seed, bool) or mode not in MODES:  # _whole, inline for mypy's narrowing
            raise MetaError(f"not a match's metadata: seed {seed!r}, mode {mode!r}")
        bots = [data.get(k) for k in ("fugitive_bot", "marshal_bot")]
        if any(b is not None and not isinstance(b, str) for b in bots):
            raise MetaError(f"a bot's name is not text: {bots!r}")
        claim = data.get("claim_after")
        if claim is not None and not (_whole(claim) and claim > 0):
            raise MetaError(f"not a number of seconds: {claim!r}")
        turn = data.get("ended_turn")
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise MetaError(f"rated is not true or false: {rated!r}")
        return cls(seed, mode, bots[0], bots[1], claim, _ended_turn(turn) if turn is not None else None,
                   _ended(data["ended"]) if data.get("ended") is not None else None, rated)

    def to_json(self) -> dict[str, Any]:
        """The JSON object the store keeps (only the keys that are set)."""
        out: dict[str, Any] = {"seed": self.seed, "mode": self.mode}
        for key, value in (("fugitive_bot", self.fugitive_bot), ("marshal_bot", self.marshal_bot),
                           ("claim_after", self.claim_after)):
            if value is not None:
                out[key] = value
        if self.ended_turn is not None:
            out["ended_turn"] = {"events": self.ended_turn.events, "move": self.ended_turn.move}
        if self.ended is not None:
            out["ended"] = {"how": self.ended.how, "winner": self.ended.winner, "events": self.ended.events}
        if self.rated:
            out["rated"] = True
        return out


def read_or_none(data: Mapping[str, Any]) -> MatchMeta | None:
    """The metadata of a stored match, or None when it cannot be read (lists and
    Learning show such a match as one that does not open)."""
    try:
        return MatchMeta.read(data)
    except MetaError:
        return None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ended_turn(value: object) -> EndedTurn:
    if not isinstance(value, dict) or value.get("move") not in SILENT_MOVE_NAMES or not _whole(value.get("events")):
        raise MetaError(f"not a silent move: {value!r}")
    return EndedTurn(value["events"], value["move"])


def _ended(value: object) -> Ended:
    if (not isinstance(value, dict) or value.get("how") not in ENDED_HOW or not _whole(value.get("events"))
            or (value.get("winner") is None) != (value.get("how") in NO_WINNER)
            or (value.get("winner") is not None and value.get("winner") not in SIDES)):
        raise MetaError(f"not an ending: {value!r}")
    return Ended(value["how"], value["winner"], value["events"])
