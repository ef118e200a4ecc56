"""The game record of ``docs/record.md``: typed events, JSON in and out, projection.

This module is the project's one reader and writer of the interchange format. It
checks the *format* (types, ranges, required fields, the version); whether a record
obeys the *rules* (turn order, decks, reveals) is the notepad validator's job.

A record with hidden fields (``fugitive_setup``, ``fugitive_draw.card``,
``place.hideout`` of a face-down hideout, ``place.sprint_cards``) is a *full record*;
:meth:`Record.marshal_view` drops them, which is what everything on the Marshal's
side must read.

Every format fault is a :class:`RecordFormatError` with a ``code`` (a key of
:data:`FORMAT_MESSAGES`) and ``params``: the English message is the template
formatted with them, so the app can say the same fault in Korean.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Literal, Union

from .cards import ESCAPE, deck_of
from .errors import CodedError, CodedText

FORMAT = "fugitive-record"
#: the version written; every version in VERSIONS is read (version 1 has no
#: ``end_opening`` / ``decline_draw`` events: those moves are understood where the next
#: event shows them, as every version also allows)
VERSION = 2
VERSIONS = (1, 2)
#: the ruleset's openings (docs/rules.md, "Ruleset options")
Opening = Literal["one-or-two", "two"]
OPENINGS: tuple[Opening, ...] = ("one-or-two", "two")


class FormatText(CodedText):
    """A format message of the record reader, or a part of one ("each of numbers"),
    with its code (a key of :data:`FORMAT_MESSAGES` or :data:`FORMAT_PHRASES`)."""


#: Every kind of format fault: code -> English template (placeholders: ``RecordFormatError.params``).
FORMAT_MESSAGES: dict[str, str] = {
    # the document
    "not_json": "not valid JSON: {problem}: line {line} column {column} (char {char})",
    "not_text": "not valid JSON: {detail}",
    "nested_too_deeply": "JSON nested too deeply",
    "huge_number": "not valid JSON: a number of more than {limit} digits",
    "unreadable_file": "cannot read {path}: {detail}",
    # values
    "not_whole_number": "{what} must be a whole number, not {value}",
    "out_of_range": "{what} must be from {lo} to {hi}, not {value}",
    "not_card_list": "{what} must be a list of card numbers",
    "card_twice": "{what} lists a card twice: {cards}",
    "not_bool": "{what} must be true or false, not {value}",
    "unknown_field": "{what} has an unknown field {key!r}",
    "missing_field": "{what} needs the field {key!r}",
    # events
    "event_not_object": "an event must be a JSON object",
    "unknown_event_type": "unknown event type {type} (expected one of {types})",
    "sprint_count": "sprints is {sprints} but sprint_cards lists {listed} cards",
    "hideout_is_sprint": "{hideout} cannot be both the hideout and a sprint card",
    "card_not_in_deck": "card {card} is not in deck {deck}",
    "guess_without_numbers": "a guess needs at least one number",
    "miss_with_reveals": "a missed guess reveals nothing, but reveals are given",
    "hit_without_reveals": "a hit needs reveals: position and sprint cards of each number",
    "reveals_not_list": "reveals must be a list",
    "reveal_not_object": "each reveal must be a JSON object",
    "hit_reveals_other_numbers": "a hit must reveal exactly the guessed numbers {numbers}, not {revealed}",
    "manhunt_miss_reveals": "a missed Manhunt guess reveals nothing",
    "manhunt_hit_needs_position": "a Manhunt hit needs the position of the revealed hideout",
    # the record around the events
    "record_not_object": "a record must be a JSON object",
    "wrong_format": '"format" must be "{expected}", not {value}',
    "unsupported_version": "unsupported version {version}: this program reads versions {known}",
    "event_of_later_version": "{type} is an event of version 2, not of version {version}",
    "ruleset_not_object": "ruleset must be a JSON object",
    "bad_opening": 'ruleset.opening must be "one-or-two" or "two", not {value}',
    "setup_size": "fugitive_setup must list 5 cards, not {count}",
    "events_not_list": "events must be a list",
}

#: Parts of format messages: code -> English template. ``what`` is otherwise a field or
#: event type name of the JSON (``sprints``, ``marshal_draw``), said the same in every
#: language; the ``json_*`` phrases are the problems Python's JSON parser reports.
FORMAT_PHRASES: dict[str, str] = {
    "each_of": "each of {what}",
    "the_record": "the record",
    "a_reveal": "a reveal",
    "reveal_field": "reveal {field}",
    "json_expecting_value": "Expecting value",
    "json_expecting_name": "Expecting property name enclosed in double quotes",
    "json_expecting_colon": "Expecting ':' delimiter",
    "json_expecting_comma": "Expecting ',' delimiter",
    "json_extra_data": "Extra data",
    "json_unterminated_string": "Unterminated string starting at",
    "json_control_character": "Invalid control character at",
    "json_bad_escape": "Invalid \\escape",
    "json_bad_unicode_escape": "Invalid \\uXXXX escape",
}

#: The JSON parser's problem (``JSONDecodeError.msg``) -> its phrase; a problem not
#: listed (another Python's wording) stays plain English text.
JSON_PROBLEMS: dict[str, str] = {
    FORMAT_PHRASES[code]: code for code in FORMAT_PHRASES if code.startswith("json_")
}

_FORMAT_TEMPLATES: dict[str, str] = {**FORMAT_MESSAGES, **FORMAT_PHRASES}


def format_text(code: str, **params: object) -> FormatText:
    """The English text of ``code`` (a key of FORMAT_MESSAGES or FORMAT_PHRASES) with ``params``."""
    return FormatText(_FORMAT_TEMPLATES[code].format(**params), code, params)


class RecordFormatError(CodedError, ValueError):
    """A record that breaks the format. ``index`` is the event index, if any.

    ``reason`` is the fault in words (English); the message reads ``event 7: <reason>``.
    ``code`` names the kind of fault (a key of :data:`FORMAT_MESSAGES`) and ``params``
    holds the values its template mentions, so that the app can say the reason in
    another language. Raise one with ``RecordFormatError.fault(index, code, **params)``;
    a reason given as plain text has ``code`` None and empty ``params``.
    """

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        self.reason = message
        self._take_code(message)
        super().__init__(f"event {index}: {message}" if index is not None else message)

    def __reduce__(self) -> tuple[type["RecordFormatError"], tuple[str, int | None]]:
        # the built-in reduce would call cls(message) and lose index and code
        return (type(self), (self.reason, self.index))

    @classmethod
    def fault(cls, index: int | None, code: str, /, **params: object) -> "RecordFormatError":
        """The error for format fault ``code`` at event ``index``: ``raise RecordFormatError.fault(i, code, ...)``."""
        if code not in FORMAT_MESSAGES:
            raise KeyError(f"unknown format code {code!r}")
        return cls(format_text(code, **params), index)


@dataclass(frozen=True)
class Ruleset:
    """The ruleset options of docs/rules.md."""

    opening: Opening = "one-or-two"
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


@dataclass(frozen=True)
class EndOpening:
    """The Fugitive ended his first turn after one hideout (ruleset ``one-or-two``).

    Public, like every event without a hidden field: the Marshal sees the turn end. It
    tells her nothing the next event would not (her draw says the turn ended), so the
    solver's figures are the same with it or without it (docs/record.md)."""

    type: Literal["end_opening"] = field(default="end_opening", init=False)


@dataclass(frozen=True)
class DrawDeclined:
    """The Fugitive declined the extra draw after a pass (ruleset ``pass_draw``). Public,
    and as silent for the solver as :class:`EndOpening`."""

    type: Literal["decline_draw"] = field(default="decline_draw", init=False)


Event = Union[Place, Pass, FugitiveDraw, MarshalDraw, Guess, ManhuntGuess, EndOpening, DrawDeclined]
#: the events of the moves that end the Fugitive's turn and change nothing on the table
#: (record version 2; version 1 left them out)
TURN_ENDS = ("end_opening", "decline_draw")


def event_player(event: Event) -> Literal["fugitive", "marshal"]:
    """The player whose move wrote ``event`` (the setup draws are never written)."""
    return "fugitive" if isinstance(event, (Place, Pass, FugitiveDraw, EndOpening, DrawDeclined)) else "marshal"
EVENT_TYPES = ("place", "pass", "fugitive_draw", "marshal_draw", "guess", "manhunt_guess", *TURN_ENDS)


# --------------------------------------------------------------------------- record
@dataclass(frozen=True)
class Record:
    """One game as far as it has gone (docs/record.md, version 2; a version 1 document
    reads as the same events)."""

    events: tuple[Event, ...] = ()
    ruleset: Ruleset = Ruleset()
    fugitive_setup: tuple[int, ...] | None = None

    @property
    def is_full(self) -> bool:
        """True when the record carries the Fugitive's hidden fields."""
        return self.fugitive_setup is not None

    def marshal_view(self, known_public: int = 0) -> "Record":
        """The Marshal's record: the same events with every hidden field dropped
        (``end_opening`` and ``decline_draw`` have none: she sees the turn end).

        A record that holds no hidden field is its own Marshal's record (the same
        object), and the answer is kept on the record: solvers and planners ask for it
        several times per record. ``known_public``: the caller knows that the first
        that many events hold no hidden field (they equal a Marshal's record's, as the
        solver's rule check finds), so only the events after them are looked at.
        """
        got = self.__dict__.get("_marshal_view")
        if got is None:
            events = self.events
            if self.fugitive_setup is None and all(_public(e) is e for e in events[known_public:]):
                got = self
            else:
                got = Record(tuple(_public(e) for e in events), self.ruleset, None)
            object.__setattr__(self, "_marshal_view", got)
        return got

    @property
    def marshal_cards(self) -> frozenset[int]:
        """The cards the Marshal drew (her hand: she never plays a card)."""
        return frozenset(e.card for e in self.events if isinstance(e, MarshalDraw))

    @property
    def key(self) -> tuple[object, ...]:
        """What the Marshal knows of this record, hashable: its ruleset and public events.
        Two records with the same key have the same posterior (a cache key)."""
        r = self.marshal_view()
        return (r.ruleset, r.events)

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
    if isinstance(e, (Pass, EndOpening, DrawDeclined)):
        return {"type": e.type}
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
def _loads(text: str | bytes) -> Any:
    """Parsed JSON; a document that is not JSON is a :class:`RecordFormatError`.

    A byte-order mark in front is read past, in text as in bytes (``json.loads``
    takes it only in bytes): editors on some systems write one.
    """
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        code = JSON_PROBLEMS.get(exc.msg)
        problem = format_text(code) if code else exc.msg
        raise RecordFormatError.fault(
            None, "not_json", problem=problem, line=exc.lineno, column=exc.colno, char=exc.pos
        ) from None
    except UnicodeDecodeError as exc:
        raise RecordFormatError.fault(None, "not_text", detail=str(exc)) from None
    except ValueError as exc:
        if "digits" in str(exc):  # int(): a number of more digits than Python converts
            raise RecordFormatError.fault(None, "huge_number", limit=sys.get_int_max_str_digits()) from None
        raise RecordFormatError.fault(None, "not_text", detail=str(exc)) from None
    except RecursionError:  # json's answer to absurdly deep nesting
        raise RecordFormatError.fault(None, "nested_too_deeply") from None


def record_from_json(text: str | bytes) -> Record:
    """Parse a JSON document; every problem becomes a :class:`RecordFormatError`."""
    return record_from_dict(_loads(text))


def event_from_json(text: str | bytes, index: int | None = None) -> Event:
    """One event from JSON text (a correction typed by hand), format-checked like a record's."""
    return event_from_dict(_loads(text), index)


def _shown(value: Any, limit: int = 40) -> str:
    """A JSON value as a message quotes it: cut to ``limit`` characters, so that a
    4,000-digit number or a deep list does not fill the screen."""
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "…"


What = Union[str, FormatText]  # a field or event type name, or a phrase such as "each of numbers"


def _int(value: Any, what: What, index: int | None, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordFormatError.fault(index, "not_whole_number", what=what, value=_shown(value))
    if not lo <= value <= hi:
        raise RecordFormatError.fault(index, "out_of_range", what=what, lo=lo, hi=hi, value=_shown(value))
    return value


def _cards(value: Any, what: What, index: int | None, lo: int = 1, hi: int = 41) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RecordFormatError.fault(index, "not_card_list", what=what)
    cards = tuple(_int(v, format_text("each_of", what=what), index, lo, hi) for v in value)
    if len(set(cards)) != len(cards):
        raise RecordFormatError.fault(index, "card_twice", what=what, cards=list(cards))
    return cards


def _bool(value: Any, what: What, index: int | None) -> bool:
    if not isinstance(value, bool):
        raise RecordFormatError.fault(index, "not_bool", what=what, value=_shown(value))
    return value


def _check_keys(d: dict[str, Any], allowed: Iterable[str], required: Iterable[str], index: int | None, what: What) -> None:
    allowed = set(allowed)
    for key in d:
        if key not in allowed:
            raise RecordFormatError.fault(index, "unknown_field", what=what, key=key)
    for key in required:
        if key not in d:
            raise RecordFormatError.fault(index, "missing_field", what=what, key=key)


def event_from_dict(d: Any, index: int | None = None) -> Event:
    """One event of the ``events`` list, format-checked."""
    if not isinstance(d, dict):
        raise RecordFormatError.fault(index, "event_not_object")
    kind = d.get("type")
    if kind not in EVENT_TYPES:
        raise RecordFormatError.fault(index, "unknown_event_type", type=_shown(kind), types=", ".join(EVENT_TYPES))
    if kind == "place":
        _check_keys(d, ("type", "sprints", "hideout", "sprint_cards"), ("sprints",), index, "place")
        sprints = _int(d["sprints"], "sprints", index, 0, 41)
        hideout = _int(d["hideout"], "hideout", index, 1, 42) if "hideout" in d else None
        sprint_cards = _cards(d["sprint_cards"], "sprint_cards", index) if "sprint_cards" in d else None
        if sprint_cards is not None and len(sprint_cards) != sprints:
            raise RecordFormatError.fault(index, "sprint_count", sprints=sprints, listed=len(sprint_cards))
        if sprint_cards is not None and hideout in sprint_cards:
            raise RecordFormatError.fault(index, "hideout_is_sprint", hideout=hideout)
        return Place(sprints, hideout, sprint_cards)
    if kind == "pass":
        _check_keys(d, ("type",), (), index, "pass")
        return Pass()
    if kind == "end_opening":
        _check_keys(d, ("type",), (), index, "end_opening")
        return EndOpening()
    if kind == "decline_draw":
        _check_keys(d, ("type",), (), index, "decline_draw")
        return DrawDeclined()
    if kind == "fugitive_draw":
        _check_keys(d, ("type", "deck", "card"), ("deck",), index, "fugitive_draw")
        deck = _int(d["deck"], "deck", index, 1, 3)
        card = _int(d["card"], "card", index, 4, 41) if "card" in d else None
        if card is not None:
            if deck_of(card) != deck:
                raise RecordFormatError.fault(index, "card_not_in_deck", card=card, deck=deck)
        return FugitiveDraw(deck, card)
    if kind == "marshal_draw":
        _check_keys(d, ("type", "card"), ("card",), index, "marshal_draw")
        return MarshalDraw(_int(d["card"], "card", index, 4, 41))
    if kind == "guess":
        _check_keys(d, ("type", "numbers", "hit", "reveals"), ("numbers", "hit"), index, "guess")
        numbers = _cards(d["numbers"], "numbers", index)
        if not numbers:
            raise RecordFormatError.fault(index, "guess_without_numbers")
        hit = _bool(d["hit"], "hit", index)
        if not hit:
            if d.get("reveals"):
                raise RecordFormatError.fault(index, "miss_with_reveals")
            return Guess(numbers, False)
        if "reveals" not in d:
            raise RecordFormatError.fault(index, "hit_without_reveals")
        raw = d["reveals"]
        if not isinstance(raw, list):
            raise RecordFormatError.fault(index, "reveals_not_list")
        reveals = []
        for r in raw:
            if not isinstance(r, dict):
                raise RecordFormatError.fault(index, "reveal_not_object")
            _check_keys(
                r, ("position", "hideout", "sprint_cards"), ("position", "hideout"), index, format_text("a_reveal")
            )
            reveals.append(
                Reveal(
                    _int(r["position"], format_text("reveal_field", field="position"), index, 1, 42),
                    _int(r["hideout"], format_text("reveal_field", field="hideout"), index, 1, 41),
                    _cards(r.get("sprint_cards", []), format_text("reveal_field", field="sprint_cards"), index),
                )
            )
        if sorted(r.hideout for r in reveals) != sorted(numbers):
            raise RecordFormatError.fault(
                index, "hit_reveals_other_numbers",
                numbers=sorted(numbers), revealed=sorted(r.hideout for r in reveals),
            )
        return Guess(numbers, True, tuple(reveals))
    # manhunt_guess
    _check_keys(d, ("type", "number", "hit", "position", "sprint_cards"), ("number", "hit"), index, "manhunt_guess")
    number = _int(d["number"], "number", index, 1, 41)
    hit = _bool(d["hit"], "hit", index)
    if not hit:
        if "position" in d or d.get("sprint_cards"):
            raise RecordFormatError.fault(index, "manhunt_miss_reveals")
        return ManhuntGuess(number, False)
    if "position" not in d:
        raise RecordFormatError.fault(index, "manhunt_hit_needs_position")
    return ManhuntGuess(
        number,
        True,
        _int(d["position"], "position", index, 1, 42),
        _cards(d.get("sprint_cards", []), "sprint_cards", index),
    )


def record_from_dict(data: Any) -> Record:
    """A :class:`Record` from parsed JSON, with a clear error for each format fault."""
    if not isinstance(data, dict):
        raise RecordFormatError.fault(None, "record_not_object")
    if data.get("format") != FORMAT:
        raise RecordFormatError.fault(None, "wrong_format", expected=FORMAT, value=_shown(data.get("format")))
    version = data.get("version")
    if version not in VERSIONS or not isinstance(version, int) or isinstance(version, bool):  # not true, not 1.0
        raise RecordFormatError.fault(
            None, "unsupported_version", version=_shown(version), known=", ".join(map(str, VERSIONS))
        )
    _check_keys(
        data, ("format", "version", "ruleset", "events", "fugitive_setup"), ("events",), None,
        format_text("the_record"),
    )
    raw_rules = data.get("ruleset", {})
    if not isinstance(raw_rules, dict):
        raise RecordFormatError.fault(None, "ruleset_not_object")
    _check_keys(raw_rules, ("opening", "pass_draw"), (), None, "ruleset")
    opening = raw_rules.get("opening", "one-or-two")
    if opening not in OPENINGS:
        raise RecordFormatError.fault(None, "bad_opening", value=_shown(opening))
    pass_draw = _bool(raw_rules.get("pass_draw", False), "ruleset.pass_draw", None)
    setup = None
    if "fugitive_setup" in data:
        setup = _cards(data["fugitive_setup"], "fugitive_setup", None, 4, 41)
        if len(setup) != 5:
            raise RecordFormatError.fault(None, "setup_size", count=len(setup))
    events = data["events"]
    if not isinstance(events, list):
        raise RecordFormatError.fault(None, "events_not_list")
    parsed = tuple(event_from_dict(e, i) for i, e in enumerate(events))
    if version == 1:
        for i, e in enumerate(parsed):
            if e.type in TURN_ENDS:
                raise RecordFormatError.fault(i, "event_of_later_version", type=e.type, version=version)
    return Record(parsed, Ruleset(opening, pass_draw), setup)


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record file; a missing or unreadable file is a :class:`RecordFormatError` too."""
    try:
        with open(path, "rb") as fh:
            text = fh.read()
    except OSError as exc:
        raise RecordFormatError.fault(None, "unreadable_file", path=str(path), detail=exc.strerror) from None
    return record_from_json(text)
