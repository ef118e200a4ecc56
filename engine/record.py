"""The game record of ``shared/RECORD.md``: typed events, JSON in and out, projection.

This module is the project's one reader and writer of the interchange format. It
checks the *format* (types, ranges, required fields, the version); whether a record
obeys the *rules* (turn order, decks, reveals) is the notepad validator's job.

A record with hidden fields (``fugitive_setup``, ``fugitive_draw.card``,
``place.hideout`` of a face-down hideout, ``place.sprint_cards``) is a *full record*;
:meth:`Record.marshal_view` drops them, which is what everything on the Marshal's
side must read.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Literal, Union

from .cards import ESCAPE

FORMAT = "fugitive-record"
VERSION = 1
OPENINGS = ("one-or-two", "two")


class RecordFormatError(ValueError):
    """A record that breaks the format. ``index`` is the event index, if any."""

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        self.reason = message
        super().__init__(f"event {index}: {message}" if index is not None else message)


@dataclass(frozen=True)
class Ruleset:
    """The ruleset options of RULES.md."""

    opening: Literal["one-or-two", "two"] = "one-or-two"
    pass_draw: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"opening": self.opening, "pass_draw": self.pass_draw}


# --------------------------------------------------------------------------- events
@dataclass(frozen=True)
class Place:
    """The Fugitive placed a hideout with ``sprints`` sprint cards under it.

    ``hideout`` is public only for the escape (42); for a face-down hideout it is a
    hidden field, like ``sprint_cards``.
    """

    sprints: int
    hideout: int | None = None
    sprint_cards: tuple[int, ...] | None = None
    type: Literal["place"] = field(default="place", init=False)

    @property
    def is_escape(self) -> bool:
        return self.hideout == ESCAPE


@dataclass(frozen=True)
class Pass:
    type: Literal["pass"] = field(default="pass", init=False)


@dataclass(frozen=True)
class FugitiveDraw:
    """The Fugitive drew from ``deck``; ``card`` is hidden."""

    deck: int
    card: int | None = None
    type: Literal["fugitive_draw"] = field(default="fugitive_draw", init=False)


@dataclass(frozen=True)
class MarshalDraw:
    card: int
    type: Literal["marshal_draw"] = field(default="marshal_draw", init=False)


@dataclass(frozen=True)
class Reveal:
    """A hideout turned face up by a hit: where it lies and the sprint cards under it."""

    position: int
    hideout: int
    sprint_cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class Guess:
    numbers: tuple[int, ...]
    hit: bool
    reveals: tuple[Reveal, ...] = ()
    type: Literal["guess"] = field(default="guess", init=False)


@dataclass(frozen=True)
class ManhuntGuess:
    number: int
    hit: bool
    position: int | None = None
    sprint_cards: tuple[int, ...] | None = None
    type: Literal["manhunt_guess"] = field(default="manhunt_guess", init=False)


Event = Union[Place, Pass, FugitiveDraw, MarshalDraw, Guess, ManhuntGuess]
EVENT_TYPES = ("place", "pass", "fugitive_draw", "marshal_draw", "guess", "manhunt_guess")


# --------------------------------------------------------------------------- record
@dataclass(frozen=True)
class Record:
    """One game as far as it has gone (RECORD.md, version 1)."""

    events: tuple[Event, ...] = ()
    ruleset: Ruleset = Ruleset()
    fugitive_setup: tuple[int, ...] | None = None

    @property
    def is_full(self) -> bool:
        """True when the record carries the Fugitive's hidden fields."""
        return self.fugitive_setup is not None

    def marshal_view(self) -> "Record":
        """The Marshal's record: the same events with every hidden field dropped.

        A record that holds no hidden field is its own Marshal's record (the same
        object), and the answer is kept on the record: solvers and planners ask for it
        several times per record.
        """
        got = self.__dict__.get("_marshal_view")
        if got is None:
            events = tuple(_public(e) for e in self.events)
            if self.fugitive_setup is None and all(a is b for a, b in zip(events, self.events)):
                got = self
            else:
                got = Record(events, self.ruleset, None)
            object.__setattr__(self, "_marshal_view", got)
        return got

    def append(self, event: Event) -> "Record":
        return replace(self, events=self.events + (event,))

    def truncated(self, length: int) -> "Record":
        return replace(self, events=self.events[:length])

    # -- serialisation
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "ruleset": self.ruleset.to_dict()}
        if self.fugitive_setup is not None:
            out["fugitive_setup"] = list(self.fugitive_setup)
        out["events"] = [event_to_dict(e) for e in self.events]
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        return record_from_dict(data)

    @classmethod
    def from_json(cls, text: str) -> "Record":
        return record_from_json(text)


def _public(e: Event) -> Event:
    """The event without its hidden fields (the same object when it has none)."""
    if isinstance(e, Place):
        if e.sprint_cards is None and (e.hideout is None or e.is_escape):
            return e
        return Place(e.sprints, ESCAPE if e.is_escape else None, None)
    if isinstance(e, FugitiveDraw):
        return e if e.card is None else FugitiveDraw(e.deck)
    return e


def event_to_dict(e: Event) -> dict[str, Any]:
    if isinstance(e, Place):
        d: dict[str, Any] = {"type": "place", "sprints": e.sprints}
        if e.hideout is not None:
            d["hideout"] = e.hideout
        if e.sprint_cards is not None:
            d["sprint_cards"] = list(e.sprint_cards)
        return d
    if isinstance(e, Pass):
        return {"type": "pass"}
    if isinstance(e, FugitiveDraw):
        d = {"type": "fugitive_draw", "deck": e.deck}
        if e.card is not None:
            d["card"] = e.card
        return d
    if isinstance(e, MarshalDraw):
        return {"type": "marshal_draw", "card": e.card}
    if isinstance(e, Guess):
        d = {"type": "guess", "numbers": list(e.numbers), "hit": e.hit}
        if e.hit:
            d["reveals"] = [
                {"position": r.position, "hideout": r.hideout, "sprint_cards": list(r.sprint_cards)}
                for r in e.reveals
            ]
        return d
    if isinstance(e, ManhuntGuess):
        d = {"type": "manhunt_guess", "number": e.number, "hit": e.hit}
        if e.hit:
            d["position"] = e.position
            d["sprint_cards"] = list(e.sprint_cards or ())
        return d
    raise TypeError(f"not an event: {e!r}")


# --------------------------------------------------------------------------- parsing
def record_from_json(text: str | bytes) -> Record:
    """Parse a JSON document; every problem becomes a :class:`RecordFormatError`."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordFormatError(f"not valid JSON: {exc}") from None
    return record_from_dict(data)


def _int(value: Any, what: str, index: int | None, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordFormatError(f"{what} must be a whole number, not {json.dumps(value)}", index)
    if not lo <= value <= hi:
        raise RecordFormatError(f"{what} must be from {lo} to {hi}, not {value}", index)
    return value


def _cards(value: Any, what: str, index: int | None, lo: int = 1, hi: int = 41) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RecordFormatError(f"{what} must be a list of card numbers", index)
    cards = tuple(_int(v, f"each of {what}", index, lo, hi) for v in value)
    if len(set(cards)) != len(cards):
        raise RecordFormatError(f"{what} lists a card twice: {list(cards)}", index)
    return cards


def _bool(value: Any, what: str, index: int | None) -> bool:
    if not isinstance(value, bool):
        raise RecordFormatError(f"{what} must be true or false, not {json.dumps(value)}", index)
    return value


def _check_keys(d: dict, allowed: Iterable[str], required: Iterable[str], index: int | None, what: str) -> None:
    allowed = set(allowed)
    for key in d:
        if key not in allowed:
            raise RecordFormatError(f"{what} has an unknown field {key!r}", index)
    for key in required:
        if key not in d:
            raise RecordFormatError(f"{what} needs the field {key!r}", index)


def event_from_dict(d: Any, index: int | None = None) -> Event:
    """One event of the ``events`` list, format-checked."""
    if not isinstance(d, dict):
        raise RecordFormatError("an event must be a JSON object", index)
    kind = d.get("type")
    if kind not in EVENT_TYPES:
        raise RecordFormatError(
            f"unknown event type {json.dumps(kind)} (expected one of {', '.join(EVENT_TYPES)})", index
        )
    if kind == "place":
        _check_keys(d, ("type", "sprints", "hideout", "sprint_cards"), ("sprints",), index, "place")
        sprints = _int(d["sprints"], "sprints", index, 0, 41)
        hideout = _int(d["hideout"], "hideout", index, 1, 42) if "hideout" in d else None
        sprint_cards = _cards(d["sprint_cards"], "sprint_cards", index) if "sprint_cards" in d else None
        if sprint_cards is not None and len(sprint_cards) != sprints:
            raise RecordFormatError(
                f"sprints is {sprints} but sprint_cards lists {len(sprint_cards)} cards", index
            )
        if sprint_cards is not None and hideout in sprint_cards:
            raise RecordFormatError(f"{hideout} cannot be both the hideout and a sprint card", index)
        return Place(sprints, hideout, sprint_cards)
    if kind == "pass":
        _check_keys(d, ("type",), (), index, "pass")
        return Pass()
    if kind == "fugitive_draw":
        _check_keys(d, ("type", "deck", "card"), ("deck",), index, "fugitive_draw")
        deck = _int(d["deck"], "deck", index, 1, 3)
        card = _int(d["card"], "card", index, 4, 41) if "card" in d else None
        if card is not None:
            from .cards import deck_of

            if deck_of(card) != deck:
                raise RecordFormatError(f"card {card} is not in deck {deck}", index)
        return FugitiveDraw(deck, card)
    if kind == "marshal_draw":
        _check_keys(d, ("type", "card"), ("card",), index, "marshal_draw")
        return MarshalDraw(_int(d["card"], "card", index, 4, 41))
    if kind == "guess":
        _check_keys(d, ("type", "numbers", "hit", "reveals"), ("numbers", "hit"), index, "guess")
        numbers = _cards(d["numbers"], "numbers", index)
        if not numbers:
            raise RecordFormatError("a guess needs at least one number", index)
        hit = _bool(d["hit"], "hit", index)
        if not hit:
            if d.get("reveals"):
                raise RecordFormatError("a missed guess reveals nothing, but reveals are given", index)
            return Guess(numbers, False)
        if "reveals" not in d:
            raise RecordFormatError("a hit needs reveals: position and sprint cards of each number", index)
        raw = d["reveals"]
        if not isinstance(raw, list):
            raise RecordFormatError("reveals must be a list", index)
        reveals = []
        for r in raw:
            if not isinstance(r, dict):
                raise RecordFormatError("each reveal must be a JSON object", index)
            _check_keys(r, ("position", "hideout", "sprint_cards"), ("position", "hideout"), index, "a reveal")
            reveals.append(
                Reveal(
                    _int(r["position"], "reveal position", index, 1, 42),
                    _int(r["hideout"], "reveal hideout", index, 1, 41),
                    _cards(r.get("sprint_cards", []), "reveal sprint_cards", index),
                )
            )
        if sorted(r.hideout for r in reveals) != sorted(numbers):
            raise RecordFormatError(
                f"a hit must reveal exactly the guessed numbers {sorted(numbers)}, "
                f"not {sorted(r.hideout for r in reveals)}",
                index,
            )
        return Guess(numbers, True, tuple(reveals))
    # manhunt_guess
    _check_keys(d, ("type", "number", "hit", "position", "sprint_cards"), ("number", "hit"), index, "manhunt_guess")
    number = _int(d["number"], "number", index, 1, 41)
    hit = _bool(d["hit"], "hit", index)
    if not hit:
        if "position" in d or d.get("sprint_cards"):
            raise RecordFormatError("a missed Manhunt guess reveals nothing", index)
        return ManhuntGuess(number, False)
    if "position" not in d:
        raise RecordFormatError("a Manhunt hit needs the position of the revealed hideout", index)
    return ManhuntGuess(
        number,
        True,
        _int(d["position"], "position", index, 1, 42),
        _cards(d.get("sprint_cards", []), "sprint_cards", index),
    )


def record_from_dict(data: Any) -> Record:
    """A :class:`Record` from parsed JSON, with a clear error for each format fault."""
    if not isinstance(data, dict):
        raise RecordFormatError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordFormatError(f'"format" must be "{FORMAT}", not {json.dumps(data.get("format"))}')
    if data.get("version") != VERSION:
        raise RecordFormatError(
            f"unsupported version {json.dumps(data.get('version'))}: this program reads version {VERSION}"
        )
    _check_keys(data, ("format", "version", "ruleset", "events", "fugitive_setup"), ("events",), None, "the record")
    raw_rules = data.get("ruleset", {})
    if not isinstance(raw_rules, dict):
        raise RecordFormatError("ruleset must be a JSON object")
    _check_keys(raw_rules, ("opening", "pass_draw"), (), None, "ruleset")
    opening = raw_rules.get("opening", "one-or-two")
    if opening not in OPENINGS:
        raise RecordFormatError(f'ruleset.opening must be "one-or-two" or "two", not {json.dumps(opening)}')
    pass_draw = _bool(raw_rules.get("pass_draw", False), "ruleset.pass_draw", None)
    setup = None
    if "fugitive_setup" in data:
        setup = _cards(data["fugitive_setup"], "fugitive_setup", None, 4, 41)
        if len(setup) != 5:
            raise RecordFormatError(f"fugitive_setup must list 5 cards, not {len(setup)}")
    events = data["events"]
    if not isinstance(events, list):
        raise RecordFormatError("events must be a list")
    parsed = tuple(event_from_dict(e, i) for i, e in enumerate(events))
    return Record(parsed, Ruleset(opening, pass_draw), setup)


def load_record(path) -> Record:
    """Read a record file; a missing or unreadable file is a :class:`RecordFormatError` too."""
    try:
        with open(path, "rb") as fh:
            text = fh.read()
    except OSError as exc:
        raise RecordFormatError(f"cannot read {path}: {exc.strerror}") from None
    return record_from_json(text)
