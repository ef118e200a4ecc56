"""What a Marshal's record says, in the shape the counting needs.

The solver never looks at events again after this: every public fact of
docs/model.md ("Consistent", 1–6) becomes a field here. A hidden field in the
input is never read: :func:`extract` projects the record to the Marshal's record
first.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from engine.cards import ESCAPE, SETUP_DRAWS
from engine.record import Event, Record


@dataclass(frozen=True)
class Position:
    """One hideout of the row (position >= 1)."""

    index: int  # 1 = first hideout right of card 0
    turn: int  # the Fugitive turn that placed it (0 = the opening)
    sprints: int  # how many sprint cards lie under it
    hideout: int | None = None  # known number (revealed, or 42)
    sprint_cards: tuple[int, ...] | None = None  # known sprint cards (revealed)

    @property
    def face_down(self) -> bool:
        return self.hideout is None

    @property
    def sprints_hidden(self) -> bool:
        return self.sprint_cards is None

    @property
    def known_hideout(self) -> int:
        """The number of a face-up position (or 42 after the escape)."""
        assert self.hideout is not None, "a face-down position has no known number"
        return self.hideout


@dataclass(frozen=True)
class Facts:
    """Everything public about the hidden history, at the end of a record."""

    positions: tuple[Position, ...]
    #: deck -> number of the Fugitive's draws usable at each Fugitive turn (index = turn)
    slots: dict[int, tuple[int, ...]]
    #: deck -> the Fugitive's total draws from it (setup included)
    draws: dict[int, int]
    marshal_cards: frozenset[int]
    #: single-number misses: number -> the largest row length at which it was missed
    missed_single: dict[int, int] = field(default_factory=dict)
    #: multi-number misses: (numbers, row length at the time)
    missed_sets: tuple[tuple[frozenset[int], int], ...] = ()
    escaped: bool = False

    @property
    def known_cards(self) -> frozenset[int]:
        """Cards whose place is public: revealed hideouts and sprint cards, and 42."""
        out: set[int] = set()
        for p in self.positions:
            if p.hideout is not None:
                out.add(p.hideout)
            if p.sprint_cards:
                out.update(p.sprint_cards)
        return frozenset(out)

    def with_reveal(self, position: int, hideout: int, sprint_cards: tuple[int, ...]) -> "Facts":
        """These facts after a face-down position is revealed (a Manhunt hit): the same
        as extracting the record with the hit appended, without reading it again."""
        p = self.positions[position - 1]
        if not p.face_down:
            raise ValueError(f"position {position} is already face up")
        revealed = Position(p.index, p.turn, p.sprints, hideout, tuple(sprint_cards))
        return replace(self, positions=self.positions[: position - 1] + (revealed,) + self.positions[position:])

    def slots_at(self, deck: int, turn: int) -> int:
        s = self.slots[deck]
        return s[turn] if turn < len(s) else s[-1]


def extract(record: Record) -> Facts:
    """Turn a (format-valid, rule-valid) record into :class:`Facts`.

    Turn bookkeeping follows docs/rules.md: the opening is turn 0; every later Fugitive
    turn starts with its draw; a bonus draw after a pass counts from the next turn.
    (One pass over the events, dispatching on their ``type``: every solve starts here.)
    """
    reader = FactsReader()
    reader.read(record.marshal_view().events)
    return reader.facts()


class FactsReader:
    """:func:`extract` as a fold over the events, which can stop and go on: the facts of
    a record are the reader's after its events, read in one go or as a prefix and then
    the rest (from a :meth:`copy` of the reader at the prefix: :mod:`solver.rulecheck`
    keeps those of the records it checked). Read only a Marshal's record's events."""

    __slots__ = ("now", "slots", "pending_bonus", "turn", "positions", "built", "marshal", "missed_single",
                 "missed_sets", "escaped", "turn_open", "after_pass")

    def __init__(self) -> None:
        # per deck (index 1-3), the usable draws at each turn (index = turn); the setup
        # draws at turn 0
        self.now = [0, SETUP_DRAWS[1], SETUP_DRAWS[2], SETUP_DRAWS[3]]
        self.slots: list[list[int]] = [[], [self.now[1]], [self.now[2]], [self.now[3]]]
        self.pending_bonus = [0, 0, 0, 0]
        self.turn = 0
        self.positions: list[list[Any]] = []  # [turn, sprints, hideout, sprint cards]
        self.built: list[Position | None] = []  # the Position of each, once made (None: not yet)
        self.marshal: set[int] = set()
        self.missed_single: dict[int, int] = {}
        self.missed_sets: list[tuple[frozenset[int], int]] = []
        self.escaped = False
        self.turn_open = True  # the Fugitive's turn is open (the opening is running)
        self.after_pass = False

    def copy(self) -> "FactsReader":
        new = object.__new__(FactsReader)
        new.now = self.now[:]
        new.slots = [s[:] for s in self.slots]
        new.pending_bonus = self.pending_bonus[:]
        new.turn = self.turn
        new.positions = [q[:] for q in self.positions]
        new.built = self.built[:]  # a Position is immutable: shared
        new.marshal = set(self.marshal)
        new.missed_single = dict(self.missed_single)
        new.missed_sets = self.missed_sets[:]
        new.escaped = self.escaped
        new.turn_open = self.turn_open
        new.after_pass = self.after_pass
        return new

    def read(self, events: Iterable[Event]) -> None:
        """Go on with these events (of a Marshal's record)."""
        now, slots, pending_bonus, turn = self.now, self.slots, self.pending_bonus, self.turn
        positions, marshal, missed_single, missed_sets = self.positions, self.marshal, self.missed_single, self.missed_sets
        built = self.built
        fugitive_turn_open, after_pass = self.turn_open, self.after_pass
        for event in events:
            # the event's own type field tells them apart (and narrows them for mypy)
            if event.type == "fugitive_draw":
                d = event.deck
                if after_pass:  # second-edition bonus draw: usable from the next turn
                    pending_bonus[d] += 1
                    after_pass = False
                    continue
                if not fugitive_turn_open:  # a new turn starts with its draw
                    turn += 1
                    for r in (1, 2, 3):
                        now[r] += pending_bonus[r]
                        slots[r].append(now[r])
                    pending_bonus[1] = pending_bonus[2] = pending_bonus[3] = 0
                    fugitive_turn_open = True
                now[d] += 1
                slots[d][-1] = now[d]
            elif event.type == "place" or event.type == "pass":
                if not fugitive_turn_open:  # a turn without a draw (all decks empty)
                    turn += 1
                    for r in (1, 2, 3):
                        now[r] += pending_bonus[r]
                        slots[r].append(now[r])
                    pending_bonus[1] = pending_bonus[2] = pending_bonus[3] = 0
                fugitive_turn_open = turn == 0  # the opening may place twice
                after_pass = event.type == "pass"
                if event.type == "place":
                    if event.hideout == ESCAPE:
                        positions.append([turn, event.sprints, ESCAPE, None])
                        self.escaped = True
                    else:
                        positions.append([turn, event.sprints, None, None])
                    built.append(None)
            elif event.type == "end_opening" or event.type == "decline_draw":
                # his turn ends (record version 2): what her next event says, read here
                # the same way, so the facts are those of the record without it
                fugitive_turn_open = False
                after_pass = False
            else:
                fugitive_turn_open = False
                after_pass = False
                if event.type == "marshal_draw":
                    marshal.add(event.card)
                elif event.type == "guess":
                    if event.hit:
                        for rev in event.reveals:
                            q = positions[rev.position - 1]
                            q[2] = rev.hideout
                            q[3] = tuple(rev.sprint_cards)
                            built[rev.position - 1] = None
                    elif len(event.numbers) == 1:
                        x = event.numbers[0]
                        missed_single[x] = max(missed_single.get(x, 0), len(positions))
                    else:
                        missed_sets.append((frozenset(event.numbers), len(positions)))
                elif event.type == "manhunt_guess":
                    if event.hit:
                        assert event.position is not None  # a hit names its position (the record's reader)
                        q = positions[event.position - 1]
                        q[2] = event.number
                        q[3] = tuple(event.sprint_cards or ())
                        built[event.position - 1] = None
                    else:
                        missed_single[event.number] = len(positions)
        self.turn, self.turn_open, self.after_pass = turn, fugitive_turn_open, after_pass

    def facts(self) -> Facts:
        """The facts of the events read so far (the reader may go on after)."""
        now, pending_bonus, slots, built = self.now, self.pending_bonus, self.slots, self.built
        for i, b in enumerate(built):
            if b is None:
                built[i] = Position(i + 1, *self.positions[i])
        made = [b for b in built if b is not None]
        # a bonus draw at the very end is usable only later: it counts in draws, not in slots
        return Facts(
            positions=tuple(made),
            slots={1: tuple(slots[1]), 2: tuple(slots[2]), 3: tuple(slots[3])},
            draws={1: now[1] + pending_bonus[1], 2: now[2] + pending_bonus[2], 3: now[3] + pending_bonus[3]},
            marshal_cards=frozenset(self.marshal),
            missed_single=dict(self.missed_single),
            missed_sets=tuple(self.missed_sets),
            escaped=self.escaped,
        )


__all__ = ["Facts", "FactsReader", "Position", "extract"]
